// Exhaustive depth-first search: every interleaving and every choice value, exactly once.
//
// Stateless: it keeps only the current path (one node per decision, decision_path.hpp) and
// re-executes the program from the start for each execution, replaying the path's prefix and then
// taking the first alternative at every new decision. Memory grows with the depth of an execution,
// never with the number of executions explored.
#pragma once

#include "explorer/strategies/decision_path.hpp"
#include "explorer/core/strategy.hpp"

namespace interleave {

class DfsStrategy final : public Strategy {
 public:
  std::string name() const override { return "dfs"; }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord& record) override;
  Coverage coverage() const override;

  /// Deepest path seen (decisions).
  std::size_t max_depth() const { return max_depth_; }

 private:
  DecisionPath<DecisionNode> path_;
  std::size_t max_depth_ = 0;
  bool started_ = false;
  bool exhausted_ = false;
};

}  // namespace interleave
