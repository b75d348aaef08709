#include "explorer/strategies/preemption_bound.hpp"

#include "explorer/execution.hpp"
#include "explorer/strategies/determinism.hpp"

namespace interleave {

ActorId PreemptionBoundStrategy::next_alternative(const Node& n) {
  const ActorSet options(n.options);
  // Order: `first`, then the others by id.
  ActorId next =
      n.chosen == n.first ? options.first() : options.next_after(static_cast<ActorId>(n.chosen));
  if (next == n.first) next = options.next_after(next);
  if (next == kNoActor) return kNoActor;
  if (n.costly && n.used + 1 > bound_) {
    pruned_ = true;  // every other alternative is a preemption beyond the bound
    return kNoActor;
  }
  return next;
}

bool PreemptionBoundStrategy::begin_execution() {
  depth_ = 0;
  used_ = 0;
  if (!started_) {
    started_ = true;
    return true;
  }
  for (;;) {
    while (!path_.empty()) {
      Node& n = path_.back();
      if (n.kind == Decision::Kind::kActor) {
        const ActorId next = next_alternative(n);
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
    // This bound is exhausted.
    if (!pruned_) {
      complete_ = true;  // nothing was cut: every interleaving was explored
      break;
    }
    if (!options_.iterative || bound_ >= options_.max_preemptions) break;
    ++bound_;
    pruned_ = false;
    return true;  // the next iteration starts from an empty path
  }
  exhausted_ = true;
  return false;
}

ActorId PreemptionBoundStrategy::next_actor(const SchedulingPoint& point) {
  if (depth_ < path_.size()) {
    const Node& n = path_[depth_++];
    if (n.kind != Decision::Kind::kActor || n.options != point.enabled.bits())
      throw nondeterminism::actors(point.step);
    if (n.costly && n.chosen != n.first) ++used_;
    return static_cast<ActorId>(n.chosen);
  }
  Node n;
  n.kind = Decision::Kind::kActor;
  n.options = point.enabled.bits();
  n.costly = point.previous != kNoActor && point.enabled.contains(point.previous);
  n.first = n.costly ? point.previous : point.enabled.first();
  n.chosen = n.first;
  n.used = used_;
  path_.push_back(n);
  ++depth_;
  return n.first;
}

std::optional<std::uint32_t> PreemptionBoundStrategy::next_choice(const ChoicePoint& point) {
  if (depth_ < path_.size()) {
    const Node& n = path_[depth_++];
    if (n.kind != Decision::Kind::kChoice || n.options != point.n)
      throw nondeterminism::choice(point.step);
    return n.chosen;
  }
  Node n;
  n.kind = Decision::Kind::kChoice;
  n.options = point.n;
  n.used = used_;
  path_.push_back(n);
  ++depth_;
  return 0u;
}

void PreemptionBoundStrategy::end_execution(const ExecutionRecord&) {
  if (depth_ != path_.size()) throw nondeterminism::length(depth_, path_.size());
}

Coverage PreemptionBoundStrategy::coverage() const {
  if (complete_)
    return {true, "every interleaving and every choice value (the bound of " +
                      std::to_string(bound_) + " preemptions cut nothing)"};
  const std::string what = "no violation with at most " + std::to_string(bound_) +
                           (bound_ == 1 ? " preemption" : " preemptions");
  if (!exhausted_) return {false, what + " in the part explored (the search was stopped)"};
  return {false, what};
}

}  // namespace interleave
