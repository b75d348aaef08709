#include "explorer/core/schedule.hpp"

#include <nlohmann/json.hpp>

#include <limits>

namespace interleave {

using nlohmann::json;

json to_json(const Schedule& s) {
  json steps = json::array();
  for (const auto& e : s.steps) {
    if (e.kind == ScheduleEntry::Kind::kActor)
      steps.push_back(e.actor);
    else
      steps.push_back(e.value);
  }
  return json{{"format_version", Schedule::kFormatVersion}, {"seed", s.seed}, {"steps", steps}};
}

Schedule schedule_from_json(const json& j) {
  auto fail = [](const std::string& path, const std::string& what) -> ScheduleFormatError {
    return ScheduleFormatError(path + ": " + what);
  };
  if (!j.is_object()) throw fail("/", "a schedule must be a JSON object");
  for (const auto& [key, _] : j.items()) {
    if (key != "format_version" && key != "seed" && key != "steps")
      throw fail("/" + key, "unknown key (expected format_version, seed, steps)");
  }
  if (!j.contains("format_version")) throw fail("/format_version", "missing");
  const json& version = j.at("format_version");
  if (!version.is_number_integer()) throw fail("/format_version", "expected an integer");
  if (version.get<std::int64_t>() != Schedule::kFormatVersion)
    throw fail("/format_version", "unsupported version " + version.dump() + " (this build reads " +
                                      std::to_string(Schedule::kFormatVersion) + ")");
  Schedule s;
  if (j.contains("seed")) {
    const json& seed = j.at("seed");
    if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0))
      throw fail("/seed", "expected a non-negative integer");
    s.seed = seed.get<std::uint64_t>();
  }
  if (!j.contains("steps")) throw fail("/steps", "missing");
  const json& steps = j.at("steps");
  if (!steps.is_array()) throw fail("/steps", "expected an array");
  s.steps.reserve(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const json& e = steps[i];
    const std::string path = "/steps/" + std::to_string(i);
    if (e.is_string()) {
      if (e.get_ref<const std::string&>().empty()) throw fail(path, "empty actor name");
      s.steps.push_back(ScheduleEntry::run(e.get<std::string>()));
    } else if (e.is_number_integer()) {
      const auto v = e.get<std::int64_t>();
      if (v < 0 || v > std::numeric_limits<std::uint32_t>::max())
        throw fail(path, "choice value out of range");
      s.steps.push_back(ScheduleEntry::choice(static_cast<std::uint32_t>(v)));
    } else {
      throw fail(path, "expected an actor name (string) or a choice value (integer)");
    }
  }
  return s;
}

Schedule schedule_from_string(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ScheduleFormatError(std::string("malformed JSON: ") + e.what());
  }
  return schedule_from_json(j);
}

}  // namespace interleave
