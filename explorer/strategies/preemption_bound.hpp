// Preemption bounding (CHESS-style iterative context bounding; Musuvathi and Qadeer, PLDI 2007).
//
// A preemption is a switch away from an actor that could still run (switching when the previous
// actor blocked or finished is free). Most concurrency bugs need very few preemptions, and the
// executions with at most k preemptions are polynomially many in the program's length for a fixed
// k. This strategy runs a depth-first search over exactly those executions (every choice value
// included), first with bound 0, then 1, 2, ... up to a maximum; at each node the non-preemptive
// alternative comes first.
//
// What it promises: with bound k, every execution with at most k preemptions. The verdict is
// "no violation with at most k preemptions" unless the bound pruned nothing, in which case the
// search was a complete DFS. (An iteration re-runs the executions of the previous ones, which
// have fewer preemptions: Stats counts every run.)
#pragma once

#include "explorer/strategies/decision_path.hpp"
#include "explorer/core/strategy.hpp"

#include <cstdint>

namespace interleave {

class PreemptionBoundStrategy final : public Strategy {
 public:
  struct Options {
    std::uint32_t max_preemptions = 2;  ///< the last bound searched
    /// true: bounds 0, 1, ..., max_preemptions in turn (the first violation found has the fewest
    /// preemptions); false: bound max_preemptions only.
    bool iterative = true;
  };

  explicit PreemptionBoundStrategy(Options options) : options_(options) {
    bound_ = options_.iterative ? 0 : options_.max_preemptions;
  }

  std::string name() const override { return "preemption-bound"; }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord& record) override;
  Coverage coverage() const override;

  /// The bound of the current (or last) iteration.
  std::uint32_t bound() const { return bound_; }
  /// Preemptions in the current (or last) execution.
  std::uint32_t preemptions() const { return used_; }

 private:
  struct Node : DecisionNode {
    ActorId first = kNoActor;  // kActor: the alternative that costs nothing, tried first
    bool costly = false;       // kActor: switching away from `first` is a preemption
    std::uint32_t used = 0;    // preemptions before this decision
  };
  // The alternative after `chosen` at an actor node, kNoActor if none; `pruned_` notes the ones
  // the bound excludes.
  ActorId next_alternative(const Node& n);

  Options options_;
  std::uint32_t bound_ = 0;
  DecisionPath<Node> path_;
  std::uint32_t used_ = 0;  // preemptions so far in the current execution
  bool started_ = false;
  bool pruned_ = false;  // the bound excluded an alternative in the current iteration
  bool exhausted_ = false;
  bool complete_ = false;  // an iteration pruned nothing: the search was a complete DFS
};

}  // namespace interleave
