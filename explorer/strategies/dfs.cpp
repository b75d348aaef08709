#include "explorer/strategies/dfs.hpp"

#include "explorer/execution.hpp"
#include "explorer/strategies/determinism.hpp"

namespace interleave {

bool DfsStrategy::begin_execution() {
  depth_ = 0;
  if (!started_) {
    started_ = true;
    return true;
  }
  // Backtrack: advance the deepest node that has an untried alternative; drop the ones that don't.
  while (!path_.empty()) {
    Node& n = path_.back();
    if (n.kind == Decision::Kind::kActor) {
      const ActorId next = ActorSet(n.options).next_after(static_cast<ActorId>(n.chosen));
      if (next != kNoActor) {
        n.chosen = next;
        return true;
      }
    } else if (n.chosen + 1 < n.options) {
      ++n.chosen;
      return true;
    }
    path_.pop_back();
  }
  exhausted_ = true;
  return false;
}

ActorId DfsStrategy::next_actor(const SchedulingPoint& point) {
  if (depth_ < path_.size()) {
    const Node& n = path_[depth_++];
    if (n.kind != Decision::Kind::kActor || n.options != point.enabled.bits())
      throw nondeterminism::actors(point.step);
    return static_cast<ActorId>(n.chosen);
  }
  const ActorId first = point.enabled.first();
  path_.push_back(Node{Decision::Kind::kActor, point.enabled.bits(), first});
  ++depth_;
  return first;
}

std::optional<std::uint32_t> DfsStrategy::next_choice(const ChoicePoint& point) {
  if (depth_ < path_.size()) {
    const Node& n = path_[depth_++];
    if (n.kind != Decision::Kind::kChoice || n.options != point.n)
      throw nondeterminism::choice(point.step);
    return n.chosen;
  }
  path_.push_back(Node{Decision::Kind::kChoice, point.n, 0});
  ++depth_;
  return 0u;
}

void DfsStrategy::end_execution(const ExecutionRecord&) {
  if (depth_ != path_.size()) throw nondeterminism::length(depth_, path_.size());
  if (path_.size() > max_depth_) max_depth_ = path_.size();
}

Coverage DfsStrategy::coverage() const {
  if (exhausted_) return {true, "every interleaving and every choice value (exhaustive DFS)"};
  return {false, "exhaustive DFS stopped before the end of the search"};
}

}  // namespace interleave
