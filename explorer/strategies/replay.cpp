#include "explorer/strategies/replay.hpp"

namespace interleave {

namespace {
std::string names_of(ActorSet set, std::span<const std::string_view> names) {
  std::string s = "[";
  set.for_each([&](ActorId a) {
    if (s.size() > 1) s += ", ";
    s += a < names.size() ? std::string(names[a]) : "#" + std::to_string(a);
  });
  return s + "]";
}
}  // namespace

bool ReplayStrategy::begin_execution() {
  if (started_) return false;
  started_ = true;
  return true;
}

ActorId ReplayStrategy::next_actor(const SchedulingPoint& point) {
  const std::string where =
      "schedule entry " + std::to_string(next_) + " (step " + std::to_string(point.step) + ")";
  if (next_ >= schedule_.steps.size()) {
    exhausted_ = true;
    reason_ = "the schedule ended after " + std::to_string(next_) + " entries while " +
              names_of(point.enabled, point.names) + " could still run";
    return kNoActor;
  }
  const ScheduleEntry& e = schedule_.steps[next_];
  if (e.kind != ScheduleEntry::Kind::kActor) {
    diverged_ = true;
    reason_ = where + ": the schedule has the choice value " + std::to_string(e.value) +
              " but the program is at a scheduling point; runnable were " +
              names_of(point.enabled, point.names);
    return kNoActor;
  }
  for (std::size_t a = 0; a < point.names.size(); ++a) {
    if (point.names[a] == e.actor && point.enabled.contains(static_cast<ActorId>(a))) {
      ++next_;
      return static_cast<ActorId>(a);
    }
  }
  diverged_ = true;
  reason_ = where + ": expected to run " + e.actor + ", runnable were " +
            names_of(point.enabled, point.names);
  return kNoActor;
}

std::optional<std::uint32_t> ReplayStrategy::next_choice(const ChoicePoint& point) {
  const std::string where =
      "schedule entry " + std::to_string(next_) + " (step " + std::to_string(point.step) + ")";
  if (next_ >= schedule_.steps.size()) {
    exhausted_ = true;
    reason_ = "the schedule ended after " + std::to_string(next_) +
              " entries where the program asks for a choice in [0, " + std::to_string(point.n) +
              ")";
    return std::nullopt;
  }
  const ScheduleEntry& e = schedule_.steps[next_];
  if (e.kind != ScheduleEntry::Kind::kChoice) {
    diverged_ = true;
    reason_ = where + ": expected to run " + e.actor +
              ", but the program asks for a choice in [0, " + std::to_string(point.n) + ")";
    return std::nullopt;
  }
  if (e.value >= point.n) {
    diverged_ = true;
    reason_ = where + ": the schedule chooses " + std::to_string(e.value) +
              " but the program offers only [0, " + std::to_string(point.n) + ")";
    return std::nullopt;
  }
  ++next_;
  return e.value;
}

}  // namespace interleave
