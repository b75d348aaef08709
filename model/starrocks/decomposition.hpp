// The owner decomposition of the StarRocks world (explorer/search/decomposition.hpp): its owners are the
// TaskRuns and the client sessions of the config; the slice of an owner is the config with that
// owner alone (the cluster, the cleaner and the policy unchanged, the owner's name kept). The
// argument that makes it sound, with every coupling between owners, is docs/model.md, "Owner
// decomposition". Promises: a configuration with a coupling that does more than delay
// (create_time_clock = session_frontend) is refused, never decomposed.
#pragma once

#include "explorer/search/decomposition.hpp"
#include "model/starrocks/config.hpp"

#include <nlohmann/json.hpp>

namespace interleave::model {

/// The decomposition of `config` by owners, or why it cannot be decomposed. With the scenario
/// document `config` was read from, each slice's document (OwnerSlice::document) is that document
/// with /actors narrowed to the slice's owner.
DecompositionOffer decompose_by_owners(const WorldConfig& config,
                                       const nlohmann::json& scenario = nullptr);

}  // namespace interleave::model
