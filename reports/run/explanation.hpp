// An incident's explanation (explorer/evidence/explain.hpp) in the run layer: the scenario loaded (under
// a preset and --set keys), the logs read and checked before any search, the search run, and the
// first explanation written as a trace file that `interleave replay` accepts when it violates a
// property. `interleave explain` adds the text (reports/cli/explain.cpp).
#pragma once

#include "explorer/evidence/explain.hpp"
#include "reports/run/scenario.hpp"
#include "reports/trace/trace.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace interleave::run {

/// What is to be explained: the scenario, the model's patterns and the incident.
struct ExplanationPlan {
  Scenario scenario;
  std::vector<CompiledLogPattern> patterns;
  Incident incident;
};

/// Loads `file` under `preset` and `sets`, reads `logs` and the incident in them. Throws
/// InputError (a scenario, a log, a decomposition the model refuses) or UsageError (a focus no
/// matched line carries; a scenario explored by owners whose incident's related lines form more
/// than one group, which no one owner's slice can produce) before any search.
ExplanationPlan plan_explanation(const std::string& file, const ModelRegistry& models,
                                 const std::string& preset, const std::vector<std::string>& sets,
                                 const std::vector<std::string>& logs,
                                 const IncidentOptions& options);

/// The plan of one of a scenario's own incidents ("incidents" in the file): its logs read, as
/// plan_explanation reads them.
ExplanationPlan plan_incident(const Scenario& scenario, const IncidentSpec& incident,
                              const ModelRegistry& models);

/// How an explanation by owner decomposition went (the scenario's exploration.decompose): the
/// incident's related lines form one group (related_groups), so one owner's actors and the shared
/// ones produce them; one slice per owner kind is searched, and the first explanation found is
/// lifted to the scenario (lift_execution) and checked there by running it alone.
struct DecomposedExplanation {
  std::string argument;  ///< where the argument is, e.g. "docs/model.md#owner-decomposition"
  struct Slice {
    std::string owner;
    std::string kind_text;
    std::string same_as;  ///< the owner of the same kind searched instead ("" if searched)
    bool searched = false;
    std::uint64_t executions = 0;
    std::uint64_t explanations = 0;  ///< distinct Mazurkiewicz traces of the slice that explain
    bool complete = true;
  };
  std::vector<Slice> slices;
  /// The owner whose slice's first explanation was lifted and explains the incident in the
  /// scenario ("" when none did).
  std::string lifted_from;
  std::size_t lift_extra_steps = 0;  ///< steps the lift added for other owners
  /// A slice explains the incident but its first explanation did not lift, or its lift does not
  /// explain the incident in the scenario: the owner and why ("" otherwise).
  std::string unlifted_owner, lift_failure;
  /// Not explained: the owner whose slice gave the closest execution (its steps are the slice's).
  std::string closest_in;
};

/// One explanation search and, when its first explanation violates a property, the trace of it.
struct ExplanationRun {
  ExplainResult result;
  /// Set when the explanation came by owner decomposition. Then result.executions counts every
  /// slice's executions and the lift's check, result.explanations and result.inferred are those
  /// of the lifted slice (the scenario has at least one explanation: result.first), and
  /// result.complete says whether every slice was searched completely.
  std::optional<DecomposedExplanation> decomposition;
  std::optional<reports::TraceDocument> trace;
  std::string trace_file;  ///< "" : none written
};

/// Runs the search (by owners when the scenario's exploration.decompose is set); writes the first
/// explanation's trace into `out_dir` when it violates a property (out_dir empty: kept in memory
/// only). The file is NAME.explanation.trace.json. An
/// incident with no related line has nothing to explain: no search runs (0 executions).
ExplanationRun run_explanation(const ExplanationPlan& plan, ExplainOptions options,
                               const std::filesystem::path& out_dir,
                               const std::string& tool_version);

/// The run as JSON: the incident (files, matched lines with where, text, pattern and whether
/// related; the records no pattern matched), and the search's answer.
nlohmann::json to_json(const ExplanationPlan& plan, const ExplanationRun& run);

}  // namespace interleave::run
