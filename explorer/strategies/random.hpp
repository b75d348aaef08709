// Seeded random walk: at every scheduling point a uniformly random enabled actor, at every choice a
// uniformly random value. Each execution has its own seed, derived from the walk's seed and the
// execution's index, and recorded with its schedule. Never exhaustive: a search that finds nothing
// reports "incomplete", not "holds".
#pragma once

#include "explorer/core/rng.hpp"
#include "explorer/core/strategy.hpp"

namespace interleave {

class RandomStrategy final : public Strategy {
 public:
  /// `executions`: how many random executions to run.
  RandomStrategy(std::uint64_t seed, std::uint64_t executions)
      : seed_(seed), executions_(executions) {}

  std::string name() const override { return "random"; }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord&) override {}
  Coverage coverage() const override;
  std::uint64_t execution_seed() const override { return execution_seed_; }

 private:
  std::uint64_t seed_;
  std::uint64_t executions_;
  std::uint64_t started_ = 0;
  std::uint64_t execution_seed_ = 0;
  Rng rng_{0};
};

}  // namespace interleave
