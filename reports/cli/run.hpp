// Running a scenario: settings (the scenario's, overridden from the command line), the strategy,
// the exploration, and each counterexample written as a trace file the moment it is found.
#pragma once

#include "explorer/explorer.hpp"
#include "explorer/strategy.hpp"
#include "reports/cli/output_files.hpp"  // write_file_atomically
#include "reports/cli/scenario.hpp"
#include "reports/trace.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace interleave::cli {

struct RunContext {
  std::string tool_version;       ///< recorded in traces, e.g. "interleave 0.1.0"
  std::filesystem::path out_dir;  ///< where traces go (created when the first one is written)
  /// Called every `progress_interval` executions (may be empty).
  std::function<void(const Stats&)> on_progress;
  std::uint64_t progress_interval = 1024;
  /// Polled before every execution (ExploreOptions::stop); null: never stop from outside.
  const std::atomic<bool>* stop = nullptr;
};

struct ScenarioRun {
  ExplorationSettings settings;  ///< as used
  ExplorationResult result;
  /// trace_files[i]: the trace of result.counterexamples[i], as a path under out_dir.
  std::vector<std::string> trace_files;
  /// traces[i]: the document written to trace_files[i].
  std::vector<reports::TraceDocument> traces;
};

/// Explores `scenario` with `settings`. Every counterexample is written atomically to
/// RunContext::out_dir as soon as it is found (see trace_file_name). Throws OutputError when a
/// trace cannot be written and ProgramError when the model misbehaves (e.g. nondeterminism).
ScenarioRun run_scenario(const Scenario& scenario, const ExplorationSettings& settings,
                         const RunContext& context);

/// The self-contained trace document of one counterexample, explained (reports/counterfactual.hpp:
/// the steps not involved and the race, by what-if runs of the scenario's program).
reports::TraceDocument make_trace_document(const Scenario& scenario,
                                           const ExplorationSettings& settings,
                                           const std::string& strategy_name,
                                           const Counterexample& counterexample,
                                           const Stats& stats_so_far,
                                           const std::string& tool_version);

/// A file-name-safe form of an invariant name: lowercase letters, digits and '-'.
std::string slug(std::string_view text);
/// "<scenario>.<slug(invariant)>.trace.json"; a slug already in `taken` gets "-2", "-3"...
std::string trace_file_name(const std::string& scenario_name, const std::string& invariant,
                            const std::vector<std::string>& taken);

}  // namespace interleave::cli
