#include "reports/run/scenario_overrides.hpp"

#include "explorer/core/input_error.hpp"
#include "reports/run/errors.hpp"

#include <algorithm>

namespace interleave::run {

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::vector<ScenarioOverride> parse_scenario_overrides(const std::string& preset,
                                                       const std::vector<std::string>& sets) {
  std::vector<ScenarioOverride> out;
  if (!preset.empty()) {
    ScenarioOverride o;
    o.text = "--preset " + preset;
    o.path = {"policy"};
    o.value = preset;
    o.preset = true;
    out.push_back(std::move(o));
  }
  for (const std::string& set : sets) {
    const std::size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--set '" + set +
                       "': expected PATH=VALUE, e.g. exploration.max_preemptions=3");
    ScenarioOverride o;
    o.text = "--set " + set;
    const std::string path = set.substr(0, eq);
    std::size_t start = 0;
    while (true) {
      const std::size_t dot = path.find('.', start);
      const std::string key = path.substr(start, dot == std::string::npos ? dot : dot - start);
      if (key.empty())
        throw UsageError("--set '" + set + "': an empty key in '" + path +
                         "' (keys are separated by single dots)");
      o.path.push_back(key);
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    const std::string value = set.substr(eq + 1);
    o.value = nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
    if (o.value.is_discarded()) o.value = value;
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<ScenarioOverride> aim_presets(std::vector<ScenarioOverride> overrides,
                                          const ModelCatalog* catalog, const std::string& file) {
  if (catalog == nullptr) return overrides;
  for (ScenarioOverride& o : overrides) {
    if (!o.preset) continue;
    if (catalog->presets.empty() || catalog->knob_section.empty())
      throw InputError(file, "/model", o.text + ": the scenario's model has no presets");
    o.path = {catalog->knob_section};
    o.knobs.clear();
    for (const Knob& k : catalog->knobs)
      o.knobs.push_back(k.name);
  }
  return overrides;
}

std::string json_pointer(const ScenarioOverride& o) {
  std::string p;
  for (const std::string& key : o.path)
    p += "/" + key;
  return o.preset ? p + "/preset" : p;
}

nlohmann::json apply_scenario_overrides(nlohmann::json document,
                                        const std::vector<ScenarioOverride>& overrides,
                                        const std::string& file) {
  for (const ScenarioOverride& o : overrides) {
    nlohmann::json* node = &document;
    std::string at;
    for (std::size_t k = 0; k < o.path.size(); ++k) {
      const std::string& key = o.path[k];
      const bool last = k + 1 == o.path.size();
      if (node->is_array() && all_digits(key)) {
        const std::size_t i = std::stoul(key);
        if (i >= node->size())
          throw InputError(file, at.empty() ? "/" : at,
                           o.text + ": index " + key + " is out of range (the array has " +
                               std::to_string(node->size()) + " items)");
        node = &(*node)[i];
      } else {
        if (node->is_null()) *node = nlohmann::json::object();
        if (!node->is_object())
          throw InputError(file, at.empty() ? "/" : at,
                           o.text + ": '" + key + "' cannot be set here: this is " +
                               std::string(node->type_name()) + ", not an object");
        node = &(*node)[key];
      }
      at += "/" + key;
      if (last && o.preset) {
        // The section's knobs give way to the preset (its other keys stay).
        if (node->is_null()) *node = nlohmann::json::object();
        if (!node->is_object())
          throw InputError(file, at, o.text + ": this is " + std::string(node->type_name()) +
                                         ", not an object");
        if (o.knobs.empty()) *node = nlohmann::json::object();  // not aimed: all of it
        for (const std::string& knob : o.knobs)
          node->erase(knob);
        (*node)["preset"] = o.value;
      } else if (last) {
        *node = o.value;
      }
    }
  }
  return document;
}

}  // namespace interleave::run
