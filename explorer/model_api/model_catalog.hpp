// What a model declares about itself, as types: its knobs, its presets (named sets of knob
// values), its properties and its coverage goals. The generic command line works from it for any
// model: `list` shows it, `--preset NAME` and `--set SECTION.KNOB=VALUE` edit the scenario's
// knob section, `matrix` makes its rows from the presets and the knobs, the gate describes the
// properties it reports. The engine's own properties (deadlock, actor_failure) are not in a
// model's list: builtin_properties() adds them wherever the properties are listed.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace interleave {

/// A setting of a scenario's knob section: one line of the model's table of knobs.
struct Knob {
  std::string name{};
  std::string type{};              ///< "boolean", "integer", "string", "array of strings"
  nlohmann::json values{};         ///< the values it takes (null: an integer in [min, max])
  nlohmann::json default_value{};  ///< its value when the scenario does not give it
  long long min = 0, max = 0;      ///< an integer knob's range
  std::string description{};
  nlohmann::json source{};         ///< what it follows: text, or an object (file, commit, ...)
};

/// A named set of knob values: a version of the modelled system, or a variant of it.
struct Preset {
  std::string name;
  std::string description;
  bool hypothetical = false;  ///< no version of the modelled system behaves so
  nlohmann::json follows;     ///< the sources it follows (an array, possibly empty)
  nlohmann::json knobs;       ///< knob name -> value, every knob of the section
};

/// A property a program can report (an invariant, a check at a step or at the end), or a
/// coverage goal it can reach.
struct Property {
  std::string name;
  std::string description;
  std::string checked;  ///< where it is checked, e.g. "after every step"
};
using Goal = Property;

struct ModelCatalog {
  /// The scenario's top-level key holding the knobs (and "preset"), e.g. "policy"; "" if the
  /// model has no knobs. Keys of the section that are not knobs (sizes of the world, say) are
  /// left alone by --preset.
  std::string knob_section;
  std::vector<Knob> knobs;
  std::vector<Preset> presets;
  std::string default_preset;  ///< "" when the model has no presets
  std::vector<Property> properties;  ///< the model's own (builtin_properties() not included)
  std::vector<Goal> goals;
  /// Anything else the model shows in `list` (shown as it is, merged into the JSON).
  nlohmann::json extra = nlohmann::json::object();

  const Preset* find_preset(std::string_view name) const;
  const Knob* find_knob(std::string_view name) const;
  /// The preset names, in the table's order.
  std::vector<std::string> preset_names() const;
};

/// The properties the engine reports for every program: deadlock and actor_failure.
const std::vector<Property>& builtin_properties();

/// The JSON `list --json` shows: "knob_section", "knobs", "presets", "default_preset",
/// "invariants" (the model's, then the built-in ones), "coverage_goals", and `extra`'s keys.
nlohmann::json to_json(const ModelCatalog& catalog);

}  // namespace interleave
