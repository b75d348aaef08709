// Plain-text summaries shared by the subcommands (check, replay, show). Deterministic: no wall
// time in anything printed on stdout. The words for a counterexample and its steps come from
// reports/trace/trace.hpp (Wording::kConsole); this file only lays them out. `check --json`'s
// summary of a scenario is the run layer's (reports/run/run.hpp, to_json).
#pragma once

#include "reports/run/run.hpp"
#include "reports/run/scenario.hpp"
#include "reports/trace/trace.hpp"
#include "explorer/search/explorer.hpp"

#include <optional>
#include <string>
#include <vector>

namespace interleave::cli {

// The run layer's types this header speaks of.
using run::DecomposedRun;
using run::Scenario;
using run::ScenarioRun;


/// The steps as aligned lines ("<indent>#3  B  W  write counter = 1"), the step at index
/// `marked` (if any) followed by "  <-- " + mark.
std::string format_steps(const std::vector<TraceStep>& steps, const std::string& indent,
                         std::optional<std::size_t> marked = std::nullopt,
                         const std::string& mark = "violation");
/// A counterexample as `check` prints it: the violation, the race (or that none was found), the
/// steps of its causal slice (reports/analysis/causal_slice.hpp; every step when `full`), the violating step
/// and the race's steps marked, then one line per actor for the steps not involved.
std::string format_counterexample(const reports::TraceDocument& doc, const std::string& indent,
                                  bool full = false);
/// `show --state`: the violation and the race, then every step with the keys of the model's state
/// dump it changed ("      RUN = [\"t1\"]"; the first step shows every key), as TLC prints an
/// error trace, then the whole state at the violation (the state after the violating step).
std::string format_states(const reports::TraceDocument& doc);
/// "3 executions, 12 steps" and what cut or stopped the search.
std::string describe_search(const ExplorationResult& result);
/// One line per coverage goal ("<indent>'all done' reached in 6 executions", "... never
/// reached"): the model instance's goals in its order, then any other goal reached (sorted).
/// "" when there are none.
std::string format_coverage(const ExplorationResult& result, const std::vector<std::string>& goals,
                            const std::string& indent);

/// What `check` prints for one scenario. quiet: the verdict line only.
/// The lines saying that the verdict came by owner decomposition: the slices, which were the
/// same up to names, any counterexample that could not be lifted, and what a "holds" covers.
std::string format_decomposition(const ExplorationResult& r, const DecomposedRun& d,
                                 const std::string& indent);
std::string format_run(const Scenario& scenario, const ScenarioRun& run, bool quiet);

}  // namespace interleave::cli
