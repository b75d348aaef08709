// Scenario keys set on the command line: `--preset NAME` and `--set PATH=VALUE` (check, matrix).
// They edit the scenario document before it is validated, so a bad value is reported like a bad
// value in the file (exit 2, the file and the JSON path, and the option that set it), and the
// trace embeds the edited document (replay runs what check ran) and lists the options as given.
//
//   PATH   keys separated by '.', e.g. policy.liveness, actors.cleaner.passes,
//          exploration.max_preemptions; a key of digits indexes an array (actors.task_runs.0.name).
//          Missing objects on the way are created (the scenario's validation then judges the key).
//   VALUE  JSON when it parses as JSON (2, true, null, [1,2], "text"), else the text itself
//          (client_sessions): a string that reads as JSON is written quoted ('"true"').
//   --preset NAME  the model's knob section (its catalog's knob_section: "policy" for StarRocks)
//          gets "preset": NAME and drops its knobs (a --set SECTION.KEY=VALUE applies after it);
//          its other keys stay. A model without presets refuses it.
#pragma once

#include "explorer/model_api/model_catalog.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace interleave::run {

struct ScenarioOverride {
  std::string text;               ///< as given: "--preset NAME" or "--set PATH=VALUE"
  std::vector<std::string> path;  ///< the keys (--preset: the knob section, set by aim_presets)
  nlohmann::json value;
  bool preset = false;            ///< --preset: the section's knobs give way to "preset": value
  std::vector<std::string> knobs;  ///< --preset: the knobs the section drops (aim_presets)
};

/// The overrides in command-line order: the preset (when not empty) first, then each --set.
/// Throws UsageError for a --set without '=' or with an empty key.
std::vector<ScenarioOverride> parse_scenario_overrides(const std::string& preset,
                                                       const std::vector<std::string>& sets);

/// The overrides with every --preset aimed at `catalog`'s knob section (the scenario's model's).
/// Throws InputError naming `file` and "/model" when the model has no presets; a null catalog (an
/// unknown model, which the scenario's validation reports) leaves them as they are.
std::vector<ScenarioOverride> aim_presets(std::vector<ScenarioOverride> overrides,
                                          const ModelCatalog* catalog, const std::string& file);

/// `document` with the overrides applied. Throws InputError naming `file`, the JSON path and the
/// option when a key on the way is not an object (or an index out of the array's range).
nlohmann::json apply_scenario_overrides(nlohmann::json document,
                                        const std::vector<ScenarioOverride>& overrides,
                                        const std::string& file);

/// The JSON pointer of an override's path ("/policy/liveness").
std::string json_pointer(const ScenarioOverride& o);

}  // namespace interleave::run
