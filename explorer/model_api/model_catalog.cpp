#include "explorer/model_api/model_catalog.hpp"

#include "explorer/core/execution.hpp"

#include <algorithm>
#include <string>

namespace interleave {

const Preset* ModelCatalog::find_preset(std::string_view name) const {
  for (const Preset& p : presets)
    if (p.name == name) return &p;
  return nullptr;
}

const Knob* ModelCatalog::find_knob(std::string_view name) const {
  for (const Knob& k : knobs)
    if (k.name == name) return &k;
  return nullptr;
}

std::vector<std::string> ModelCatalog::preset_names() const {
  std::vector<std::string> v;
  for (const Preset& p : presets)
    v.push_back(p.name);
  return v;
}

const std::vector<Property>& builtin_properties() {
  static const std::vector<Property> table = {
      {std::string(kDeadlock), "no actor can run while some actor is unfinished (engine)",
       "by the engine"},
      {std::string(kActorFailure), "an internal check of the model failed (engine)",
       "by the engine"},
  };
  return table;
}

namespace {

nlohmann::json facts_json(const std::vector<Property>& facts) {
  nlohmann::json v = nlohmann::json::array();
  for (const Property& f : facts)
    v.push_back({{"name", f.name}, {"description", f.description}, {"checked", f.checked}});
  return v;
}

}  // namespace

nlohmann::json to_json(const ModelCatalog& c) {
  nlohmann::json j = c.extra.is_object() ? c.extra : nlohmann::json::object();
  nlohmann::json knobs = nlohmann::json::array();
  for (const Knob& k : c.knobs) {
    nlohmann::json kj = {{"name", k.name},
                         {"type", k.type},
                         {"default", k.default_value},
                         {"description", k.description},
                         {"source", k.source}};
    if (!k.values.is_null()) kj["values"] = k.values;
    if (k.type == "integer") kj["range"] = std::to_string(k.min) + ".." + std::to_string(k.max);
    knobs.push_back(std::move(kj));
  }
  j["knob_section"] = c.knob_section;
  j["knobs"] = std::move(knobs);
  if (!c.presets.empty()) {
    nlohmann::json presets = nlohmann::json::array();
    for (const Preset& p : c.presets)
      presets.push_back({{"name", p.name},
                         {"description", p.description},
                         {"hypothetical", p.hypothetical},
                         {"follows", p.follows.is_null() ? nlohmann::json::array() : p.follows},
                         {"policy", p.knobs}});
    j["presets"] = std::move(presets);
    j["default_preset"] = c.default_preset;
  }
  std::vector<Property> properties = c.properties;
  for (const Property& b : builtin_properties())
    if (std::none_of(properties.begin(), properties.end(),
                     [&](const Property& p) { return p.name == b.name; }))
      properties.push_back(b);
  j["invariants"] = facts_json(properties);
  j["coverage_goals"] = facts_json(c.goals);
  return j;
}

}  // namespace interleave
