// Scenario files: the generic envelope (name, description, model, exploration, expect) read with
// exact errors, the model's own sections handed to its ModelDriver, and the expectation checked
// against what the instantiated model can report. See docs/scenario-format.md.
#pragma once

#include "explorer/evidence/explain.hpp"

#include "explorer/search/explorer.hpp"
#include "explorer/core/json_reader.hpp"
#include "explorer/model_api/model_driver.hpp"
#include "reports/run/exploration.hpp"
#include "reports/run/scenario_overrides.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace interleave::run {

/// What a scenario expects of its exploration (the gate compares it with the result).
struct Expectation {
  Verdict verdict = Verdict::kHolds;
  /// invariant: exactly the properties a "violation" verdict violates (sorted, unique); empty
  /// for "holds" and "incomplete".
  std::vector<std::string> invariants;
  /// Coverage goals that must be reached for the result to count (sorted, unique).
  std::vector<std::string> reached;
};

/// A scenario read, validated and instantiated: ready to explore.
/// An incident the scenario's program must explain, or must not: its logs (paths resolved against
/// the scenario's directory), how to read them, and what is expected (the gate checks it).
struct IncidentSpec {
  std::string name;               ///< [A-Za-z0-9._-]+, unique in the scenario
  std::vector<std::string> logs;  ///< as resolved
  IncidentOptions options;
  bool expect_explained = true;   ///< "explained", or "impossible" (a complete search finds none)
  std::string path;               ///< the JSON path of the entry, for errors
};

struct Scenario {
  std::string file;         ///< the path it was read from (or a label for an embedded one)
  nlohmann::json document;  ///< the whole document, as read
  std::string name;         ///< [A-Za-z0-9][A-Za-z0-9._-]*, names its counterexample files
  std::string description;
  std::string model;
  ExplorationSettings exploration;
  std::optional<Expectation> expect;  ///< nullopt when the file has no "expect"
  ModelInstance instance;             ///< program, invariants, coverage goals
  /// The model's decomposition of this scenario by owners (ModelDriver::decompose).
  std::function<DecompositionOffer()> decompose;
  /// The command-line options that edited the document (ScenarioOverride::text), in order;
  /// `document` is the edited one.
  std::vector<std::string> overrides;
  /// "incidents": logs the program must explain or must not (explorer/evidence/explain.hpp).
  std::vector<IncidentSpec> incidents;
};

/// Validates and instantiates a scenario document. Throws InputError naming `file` and the JSON
/// path: unknown keys (with did-you-mean), wrong types, out-of-range or contradictory values,
/// an unknown model, and expectations naming invariants or goals the model cannot report.
Scenario parse_scenario(const nlohmann::json& document, const std::string& file,
                        const ModelRegistry& models);
/// read_json_file + apply_scenario_overrides + parse_scenario. An error about a key an override
/// set ends with "(set by --set PATH=VALUE)".
Scenario load_scenario(const std::string& path, const ModelRegistry& models,
                       const std::vector<ScenarioOverride>& overrides = {});

/// The scenario files named by `paths`: files as given, directories searched recursively for
/// *.json (except *.schema.json and hidden files), in sorted order; a file named twice is kept
/// once. Throws InputError for a path that does not exist or a directory without scenarios.
std::vector<std::string> collect_scenario_files(const std::vector<std::string>& paths);

/// Throws InputError if two scenarios share a name (their counterexample files would collide).
void check_unique_names(const std::vector<Scenario>& scenarios);

/// Loads every scenario named by `paths` (files or directories), all of them validated before
/// anything runs, each with `overrides` applied. Throws InputError at the first bad one.
std::vector<Scenario> load_scenarios(const std::vector<std::string>& paths,
                                     const ModelRegistry& models,
                                     const std::vector<ScenarioOverride>& overrides = {});

}  // namespace interleave::run
