// A counterexample trace read for a replay: the trace document, the scenario it replays against
// and the exploration options it records, all validated (`replay` and `show` read traces so).
#pragma once

#include "explorer/model_api/model_driver.hpp"
#include "reports/run/exploration.hpp"
#include "reports/run/scenario.hpp"
#include "reports/trace/trace.hpp"

#include <string>

namespace interleave::run {

/// A trace read and validated as `replay` uses it: the document, the scenario it replays against
/// (the one embedded in the trace, or the file `scenario_file`) and the exploration options it
/// records. `show` validates a trace the same way (docs/cli.md). Throws InputError.
struct ReplayInput {
  reports::TraceDocument doc;
  Scenario scenario;
  ExplorationSettings settings;
};
ReplayInput read_replay_input(const std::string& trace, const std::string& scenario_file,
                              const ModelRegistry& models);
/// The same for a trace document already read from the file `trace` (the fuzz target's entry).
ReplayInput replay_input(reports::TraceDocument doc, const std::string& trace,
                         const std::string& scenario_file, const ModelRegistry& models);

}  // namespace interleave::run
