#include "explorer/strategies/dfs.hpp"

namespace interleave {

bool DfsStrategy::begin_execution() {
  if (!started_) {
    started_ = true;
    return true;
  }
  // The next enabled actor by id, at the deepest node that has one.
  if (path_.backtrack([](const DecisionNode& n) { return n.enabled().next_after(n.actor()); }))
    return true;
  exhausted_ = true;
  return false;
}

ActorId DfsStrategy::next_actor(const SchedulingPoint& point) {
  if (const DecisionNode* n = path_.replay(point)) return n->actor();
  const ActorId first = point.enabled.first();
  path_.push(DecisionNode{Decision::Kind::kActor, point.enabled.bits(), first});
  return first;
}

std::optional<std::uint32_t> DfsStrategy::next_choice(const ChoicePoint& point) {
  if (const DecisionNode* n = path_.replay(point)) return n->chosen;
  return path_.push_choice(point).chosen;
}

void DfsStrategy::end_execution(const ExecutionRecord&) {
  path_.finish();
  if (path_.size() > max_depth_) max_depth_ = path_.size();
}

Coverage DfsStrategy::coverage() const {
  if (exhausted_) return {true, "every interleaving and every choice value (exhaustive DFS)"};
  return {false, "exhaustive DFS stopped before the end of the search"};
}

}  // namespace interleave
