#include "explorer/strategies/preemption_bound.hpp"

namespace interleave {

ActorId PreemptionBoundStrategy::next_alternative(const Node& n) {
  const ActorSet options = n.enabled();
  // Order: `first`, then the others by id.
  ActorId next = n.chosen == n.first ? options.first() : options.next_after(n.actor());
  if (next == n.first) next = options.next_after(next);
  if (next == kNoActor) return kNoActor;
  if (n.costly && n.used + 1 > bound_) {
    pruned_ = true;  // every other alternative is a preemption beyond the bound
    return kNoActor;
  }
  return next;
}

bool PreemptionBoundStrategy::begin_execution() {
  used_ = 0;
  if (!started_) {
    started_ = true;
    return true;
  }
  for (;;) {
    if (path_.backtrack([this](const Node& n) { return next_alternative(n); })) return true;
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
  if (const Node* n = path_.replay(point)) {
    if (n->costly && n->chosen != n->first) ++used_;
    return n->actor();
  }
  Node n;
  n.kind = Decision::Kind::kActor;
  n.options = point.enabled.bits();
  n.costly = point.previous != kNoActor && point.enabled.contains(point.previous);
  n.first = n.costly ? point.previous : point.enabled.first();
  n.chosen = n.first;
  n.used = used_;
  path_.push(n);
  return n.first;
}

std::optional<std::uint32_t> PreemptionBoundStrategy::next_choice(const ChoicePoint& point) {
  if (const Node* n = path_.replay(point)) return n->chosen;
  path_.push_choice(point).used = used_;
  return 0u;
}

void PreemptionBoundStrategy::end_execution(const ExecutionRecord&) {
  path_.finish();
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
