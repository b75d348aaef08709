// An incident's explanation (explorer/explain.hpp) in the run layer: the scenario loaded (under
// a preset and --set keys), the logs read and checked before any search, the search run, and the
// first explanation written as a trace file that `interleave replay` accepts when it violates a
// property. `interleave explain` adds the text (reports/cli/explain.cpp).
#pragma once

#include "explorer/explain.hpp"
#include "reports/run/scenario.hpp"
#include "reports/trace.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace interleave::cli {

/// What is to be explained: the scenario, the model's patterns and the incident.
struct ExplanationPlan {
  Scenario scenario;
  std::vector<CompiledLogPattern> patterns;
  Incident incident;
};

/// Loads `file` under `preset` and `sets`, reads `logs` and the incident in them. Throws
/// InputError (a scenario, a log) or UsageError (a focus no matched line carries) before any
/// search.
ExplanationPlan plan_explanation(const std::string& file, const ModelRegistry& models,
                                 const std::string& preset, const std::vector<std::string>& sets,
                                 const std::vector<std::string>& logs,
                                 const IncidentOptions& options);

/// The plan of one of a scenario's own incidents ("incidents" in the file): its logs read, as
/// plan_explanation reads them.
ExplanationPlan plan_incident(const Scenario& scenario, const IncidentSpec& incident,
                              const ModelRegistry& models);

/// One explanation search and, when its first explanation violates a property, the trace of it.
struct ExplanationRun {
  ExplainResult result;
  std::optional<reports::TraceDocument> trace;
  std::string trace_file;  ///< "" : none written
};

/// Runs the search; writes the first explanation's trace into `out_dir` when it violates a
/// property (out_dir empty: kept in memory only). The file is NAME.explanation.trace.json. An
/// incident with no related line has nothing to explain: no search runs (0 executions).
ExplanationRun run_explanation(const ExplanationPlan& plan, ExplainOptions options,
                               const std::filesystem::path& out_dir,
                               const std::string& tool_version);

/// The run as JSON: the incident (files, matched lines with where, text, pattern and whether
/// related; the records no pattern matched), and the search's answer.
nlohmann::json to_json(const ExplanationPlan& plan, const ExplanationRun& run);

}  // namespace interleave::cli
