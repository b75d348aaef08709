// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, "A
// randomized scheduler with probabilistic guarantees of finding bugs", ASPLOS 2010).
//
// Each execution gives every actor a random priority (all above d) and picks d - 1 random change
// points among the first k steps. It always runs the runnable actor of highest priority; when the
// step count reaches the i-th change point, the actor about to run drops to priority d - i (below
// every initial priority), so another one takes over. Choice values are uniformly random.
//
// Guarantee (the paper's Theorem): for a program with at most n actors and k steps, a bug of depth
// d (one that needs d ordering constraints between steps to show up) is found by one execution
// with probability at least 1 / (n * k^(d-1)); m independent executions miss it with probability
// at most (1 - 1/(n k^(d-1)))^m. With choices, multiply by the probability of drawing the values
// the bug needs.
//
// Each execution has its own seed, derived from the search seed and its index, recorded with its
// counterexample: Options::only_seed runs that one execution again. Never exhaustive: a search
// that finds nothing reports "incomplete", not "holds".
#pragma once

#include "explorer/core/rng.hpp"
#include "explorer/core/strategy.hpp"

#include <cstdint>
#include <vector>

namespace interleave {

class PctStrategy final : public Strategy {
 public:
  struct Options {
    std::uint64_t seed = 0;           ///< seed of the whole search
    std::uint64_t executions = 1000;  ///< how many executions
    std::uint32_t depth = 3;          ///< d: the bug depth targeted (d - 1 change points)
    /// k: the number of steps change points are drawn from. 0: learned from the first execution
    /// (which then runs without change points).
    std::uint32_t steps = 0;
    /// Non-zero: run exactly one execution, the one with this execution seed (as recorded in a
    /// counterexample's schedule); needs the same depth and steps.
    std::uint64_t only_seed = 0;
  };

  explicit PctStrategy(Options options);

  std::string name() const override { return "pct"; }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord& record) override;
  Coverage coverage() const override;
  std::uint64_t execution_seed() const override { return execution_seed_; }

  /// k in use (learned or given).
  std::uint32_t steps() const { return steps_; }
  /// Most actors seen in one execution (n in the guarantee).
  std::size_t max_actors() const { return max_actors_; }

 private:
  Options options_;
  std::uint32_t steps_;
  std::uint64_t started_ = 0;
  std::uint64_t execution_seed_ = 0;
  Rng rng_{0};
  std::vector<std::uint64_t> priority_;       // per actor; 0: not seen yet in this execution
  std::vector<std::uint32_t> change_points_;  // change_points_[i]: step at which priority d-1-i
  std::size_t max_actors_ = 0;
};

}  // namespace interleave
