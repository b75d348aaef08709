// Strict replay: follows a recorded schedule decision by decision and never guesses. If the
// recorded actor cannot run, or the program asks for a choice where the schedule has an actor (or
// the reverse), the execution stops with a divergence that says exactly where and why.
#pragma once

#include "explorer/core/schedule.hpp"
#include "explorer/core/strategy.hpp"

#include <string>
#include <vector>

namespace interleave {

class ReplayStrategy final : public Strategy {
 public:
  explicit ReplayStrategy(Schedule schedule) : schedule_(std::move(schedule)) {}

  std::string name() const override { return "replay"; }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord&) override {}
  Coverage coverage() const override { return {false, "one replayed execution"}; }
  std::uint64_t execution_seed() const override { return schedule_.seed; }
  std::string abandon_reason() const override { return reason_; }

  /// Schedule entries consumed so far.
  std::size_t consumed() const { return next_; }
  /// True if the replay stopped because the program did not follow the schedule.
  bool diverged() const { return diverged_; }
  /// True if the replay stopped because the schedule ran out while actors could still run.
  bool exhausted() const { return exhausted_; }

 private:
  Schedule schedule_;
  std::size_t next_ = 0;
  bool started_ = false;
  bool diverged_ = false;
  bool exhausted_ = false;
  std::string reason_;
};

}  // namespace interleave
