// The StarRocks temporary-table world as an Interleave program: the TemporaryTableCleaner, the
// TaskRunScheduler dispatcher, TaskRun executors running a recursive CTE, sync callers, client
// sessions, CN tablet sinks and follower journal replayers, each step labelled as in
// docs/model.md ("Actors, steps and objects"). Written only on the engine's public API.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/model_api/model_driver.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/spawn_plan.hpp"

namespace interleave::model {

/// The program: creates the world's shared objects, spawns its actors and registers its
/// properties. The same config gives the same behaviour under the same decisions.
Program make_program(const WorldConfig& config);

/// The program with the properties and coverage goals it can report.
ModelInstance make_instance(const WorldConfig& config);

}  // namespace interleave::model
