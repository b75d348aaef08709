// A schedule is data: the sequence of decisions that determines one execution. Replaying the
// same program under the same schedule reproduces the same execution exactly.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace interleave {

/// One decision: which actor performs the next step, or the value of a choose(n).
struct ScheduleEntry {
  enum class Kind : std::uint8_t { kActor, kChoice };
  Kind kind = Kind::kActor;
  std::string actor;        // kActor: the actor's name
  std::uint32_t value = 0;  // kChoice: the chosen value

  static ScheduleEntry run(std::string actor_name) {
    return {Kind::kActor, std::move(actor_name), 0};
  }
  static ScheduleEntry choice(std::uint32_t v) { return {Kind::kChoice, {}, v}; }
  friend bool operator==(const ScheduleEntry&, const ScheduleEntry&) = default;
};

/// JSON form: {"format_version": 1, "seed": 0, "steps": ["A", "B", 2, "A"]}: a string is the
/// actor that runs the next step, an integer is the value returned by the next choose().
struct Schedule {
  static constexpr int kFormatVersion = 1;
  std::uint64_t seed = 0;  // the seed of the execution that produced it (0 if none)
  std::vector<ScheduleEntry> steps;
  friend bool operator==(const Schedule&, const Schedule&) = default;
};

/// Raised for a schedule document that cannot be read: names the JSON path at fault.
class ScheduleFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

nlohmann::json to_json(const Schedule& s);
/// Parses and validates (version, types, no unknown keys). Throws ScheduleFormatError naming the
/// JSON path (e.g. "/steps/3: expected an actor name or a choice value").
Schedule schedule_from_json(const nlohmann::json& j);
/// Parses JSON text; malformed or truncated text throws ScheduleFormatError too.
Schedule schedule_from_string(const std::string& text);

}  // namespace interleave
