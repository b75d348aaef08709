#include "explorer/strategies/dpor.hpp"

#include "explorer/strategies/determinism.hpp"

#include <stdexcept>

namespace interleave {

using detail::dpor::kNil;
using detail::dpor::Node;

DporStrategy::DporStrategy(Options options)
    : options_(options),
      s_(options.dependency == Dependency::kAllWrites,
         options.invariants == Invariants::kOrderReads,
         detail::dpor::Limits{options.max_wakeup_length, options.wakeup_steps_per_step}) {}

DporStrategy::DporStrategy(Options options, Prefix prefix) : DporStrategy(options) {
  for (Node& n : prefix.nodes) {
    n.pending = n.carry = kNil;
    if (n.kind == Decision::Kind::kActor) {
      if (s_.event_node.size() != n.event) throw std::invalid_argument("DPOR: a malformed prefix");
      s_.event_node.push_back(static_cast<std::uint32_t>(s_.path.size()));
    }
    s_.path.push(n);
  }
  s_.floor = fixed_ = s_.path.size();
  for (const std::uint32_t i : prefix.demand_nodes) {
    if (s_.demand_node.size() <= i) s_.demand_node.resize(i + 1, 0);
    s_.demand_node[i] = 1;
  }
  demand_nodes_ = std::move(prefix.demand_nodes);
  if (prefix.has_first) {  // that decision is fixed too
    first_index_ = s_.path.size();
    s_.floor = fixed_ = first_index_ + 1;
    prefix.nodes.clear();
    first_ = std::move(prefix);
  }
  s_.below_prefix = true;
  s_.path.rewind();
}

void DporStrategy::split_when_large(
    std::uint64_t after, std::function<void(SharedNode, std::vector<Prefix>)> spawn) {
  split_after_ = after;
  spawn_ = std::move(spawn);
}

bool DporStrategy::split_first_node() {
  if (s_.path.size() <= fixed_) return false;  // nothing below the fixed part
  Node& n = s_.path[fixed_];
  SharedNode shared;
  shared.index = static_cast<std::uint32_t>(fixed_);
  shared.demand = n.kind == Decision::Kind::kActor;
  Prefix& base = shared.base;
  base.nodes.reserve(fixed_);
  for (std::size_t i = 0; i < fixed_; ++i)
    base.nodes.push_back(s_.path[i]);
  base.demand_nodes = demand_nodes_;
  std::vector<Prefix> children;
  if (n.kind == Decision::Kind::kActor) {
    // The branches of its wakeup tree, in order (each with the actors explored before it asleep);
    // the others are decided by the demands of every search below the node.
    ActorSet before = n.done;
    detail::dpor::WakeupTrees& tree = s_.wakeup;
    for (std::uint32_t w = n.pending; w != kNil; w = tree[w].sibling) {
      const ActorId a = s_.actors.id(tree[w].actor);
      if (a == kNoActor || !n.enabled().contains(a) || n.sleep.contains(a) || before.contains(a))
        continue;
      Prefix c = base;
      c.has_first = true;
      c.first_kind = Decision::Kind::kActor;
      c.first = a;
      c.first_done = before;
      c.demand_nodes.push_back(shared.index);
      before.insert(a);
      children.push_back(std::move(c));
    }
    for (std::uint32_t w = n.pending; w != kNil;) {  // those branches are the children's now
      const std::uint32_t next = tree[w].sibling;
      tree.free_subtree(w);
      w = next;
    }
    n.pending = kNil;
    shared.sleep = n.sleep;
    shared.enabled = n.enabled();
    shared.explored = before;
    if (s_.demand_node.size() <= fixed_) s_.demand_node.resize(fixed_ + 1, 0);
    s_.demand_node[fixed_] = 1;
    demand_nodes_.push_back(shared.index);
  } else {
    for (std::uint32_t v = n.chosen + 1; v < n.options; ++v) {
      Prefix c = base;
      c.has_first = true;
      c.first_kind = Decision::Kind::kChoice;
      c.first = v;
      children.push_back(std::move(c));
    }
  }
  ++fixed_;
  s_.floor = fixed_;
  ++splits_;
  const bool any = !children.empty();
  spawn_(std::move(shared), std::move(children));
  return any;
}

void DporStrategy::enumerate_prefixes(std::size_t depth) {
  enumerate_depth_ = depth;
  s_.floor = static_cast<std::size_t>(-1);  // every node branches fully: no wakeup sequences
}

void DporStrategy::record_prefix() {
  Prefix& p = prefixes_.emplace_back();
  p.nodes.reserve(s_.path.size());
  for (std::size_t i = 0; i < s_.path.size(); ++i)
    p.nodes.push_back(s_.path[i]);
}

std::uint32_t DporStrategy::take_pending(std::uint32_t& list, ActorSet enabled, ActorSet covered,
                                         const SchedulingPoint* point) {
  detail::dpor::WakeupTrees& tree = s_.wakeup;
  while (list != kNil) {
    const std::uint32_t w = list;
    detail::dpor::WakeupNode& node = tree[w];
    list = node.sibling;
    node.sibling = kNil;
    const ActorId id = s_.actors.id(node.actor);
    const bool runnable =
        id != kNoActor && enabled.contains(id) &&
        (point == nullptr || detail::dpor::same_op(*point->pending[id], s_.ops[node.op]));
    if (runnable && !covered.contains(id)) return w;
    ++s_.dropped;
    if (!runnable && node.certain) ++s_.dropped_certain;
    tree.free_subtree(w);
  }
  return kNil;
}

bool DporStrategy::begin_execution() {
  blocked_ = false;
  at_prefix_ = false;
  configured_ = false;
  s_.last_alive = ActorSet();
  s_.last_pending = {};
  if (!started_) {
    started_ = true;
    return true;
  }
  if (split_after_ != 0 && ++since_split_ >= split_after_) {
    // Share the shallowest nodes below the fixed part down to one with an alternative to hand
    // over (those above it have none yet: their alternatives are decided by demands).
    since_split_ = 0;
    while (s_.path.size() > fixed_ + 1 && !split_first_node()) {
    }
  }
  // Backtrack: the deepest node with an alternative left (the next wakeup-tree branch of an actor
  // node, the next value of a choice node); the nodes below it are finished.
  detail::dpor::WakeupTrees& tree = s_.wakeup;
  const auto at = s_.path.backtrack([&](Node& n) -> ActorId {
    if (enumerate_depth_ != 0) {  // full branching: the next actor neither asleep nor explored
      const ActorSet left = n.enabled().minus(n.sleep | n.done);
      if (left.empty()) return kNoActor;
      n.done.insert(left.first());
      return left.first();
    }
    tree.free_subtree(n.carry);  // left over when the execution stopped right after this step
    n.carry = kNil;
    const std::uint32_t w = take_pending(n.pending, n.enabled(), n.sleep | n.done, nullptr);
    if (w == kNil) return kNoActor;
    const ActorId next = s_.actors.id(tree[w].actor);
    n.done.insert(next);
    n.carry = tree[w].child;
    tree[w].child = kNil;
    tree.free_subtree(w);
    return next;
  }, fixed_);
  if (!at) {
    exhausted_ = true;
    return false;
  }
  const Node& n = s_.path[*at];
  resume_ = *at;
  std::int32_t forget_spawned = 0;  // actors spawned from this event on are forgotten
  if (n.kind == Decision::Kind::kActor) {
    forget_spawned = static_cast<std::int32_t>(n.event);
    s_.event_node.resize(n.event + 1);
    resuming_ = true;
  } else {
    // The step during which the choice was made stays; what it did after the choice may change.
    forget_spawned = static_cast<std::int32_t>(n.event) - 1;
    s_.event_node.resize(n.event);
    resuming_ = false;
  }
  s_.truncate_events(n.event);
  races_.truncate(n.event);
  s_.actors.known().for_each([&](ActorId a) {
    if (s_.spawned_at[a] >= forget_spawned) s_.actors.forget(a);
  });
  return true;
}

void DporStrategy::learn_actors(const SchedulingPoint& point) {
  const ActorSet fresh = point.alive.minus(s_.actors.known());
  if (fresh.empty()) return;
  fresh.for_each([&](ActorId a) {
    s_.spawned_at[a] = static_cast<std::int32_t>(point.step) - 1;  // -1: before the first step
    if (detail::dpor::blocking(*point.pending[a])) s_.blocking_seen = true;
    s_.actors.learn(a, point.names[a]);
  });
}

void DporStrategy::compute_child_sleep(Node& node, const SchedulingPoint& point) const {
  ActorSet current = node.sleep | node.done;
  current.erase(node.actor());
  const Op& op = *point.pending[node.chosen];
  ActorSet child;
  current.for_each([&](ActorId sl) {
    if (!s_.dependency.dependent(*point.pending[sl], op)) child.insert(sl);
  });
  node.child_sleep = child;
}

ActorId DporStrategy::next_actor(const SchedulingPoint& point) {
  if (!configured_) [[unlikely]] {
    // The dependency relation covers the invariants (the same in every execution).
    if (!s_.dependency.configure(point.invariants)) throw nondeterminism::invariants();
    configured_ = true;
  }
  while (s_.events.size() < point.step)
    races_.process_event(s_, point.trace[s_.events.size()]);
  learn_actors(point);
  s_.last_alive = point.alive;
  s_.last_pending = point.pending;
  // Every operation is checked once it is announced: the first operations of new actors (in
  // learn_actors) and the next operation of the actor that took the last step.
  if (!s_.blocking_seen && point.previous != kNoActor && point.alive.contains(point.previous) &&
      detail::dpor::blocking(*point.pending[point.previous]))
    s_.blocking_seen = true;

  if (Node* replayed = s_.path.replay(point)) {
    if (resuming_ && s_.path.depth() - 1 == resume_) {
      compute_child_sleep(*replayed, point);
      resuming_ = false;
    }
    return replayed->actor();
  }

  if (enumerate_depth_ != 0 && point.step >= enumerate_depth_) {
    ActorSet sleep;
    for (std::size_t i = s_.path.size(); i-- > 0;)
      if (s_.path[i].kind == Decision::Kind::kActor) {
        sleep = s_.path[i].child_sleep;
        break;
      }
    if (point.enabled.minus(sleep).empty()) {  // blocked at once: nothing to search below it
      blocked_ = true;
      ++blocked_prefixes_;
      return kNoActor;
    }
    record_prefix();  // the search below this point is another strategy's
    at_prefix_ = true;
    return kNoActor;
  }
  races_.check_blocked(s_, point);

  Node n;
  n.kind = Decision::Kind::kActor;
  n.options = point.enabled.bits();
  n.event = static_cast<std::uint32_t>(point.step);
  for (std::size_t i = s_.path.size(); i-- > 0;) {
    Node& before = s_.path[i];
    if (before.kind == Decision::Kind::kActor) {
      n.sleep = before.child_sleep;
      n.pending = before.carry;  // the wakeup subtree under the step just taken
      before.carry = kNil;
      break;
    }
  }
  if (first_ && s_.path.size() == first_index_) {  // the decision this prefix was split off with
    const auto a = static_cast<ActorId>(first_->first);
    if (first_->first_kind != Decision::Kind::kActor || !point.enabled.contains(a) ||
        n.sleep.contains(a))
      throw nondeterminism::actors(point.step);
    s_.wakeup.free_subtree(n.pending);
    n.pending = kNil;
    n.chosen = a;
    n.done = first_->first_done | ActorSet::single(a);
    compute_child_sleep(n, point);
    s_.event_node.push_back(static_cast<std::uint32_t>(s_.path.size()));
    return s_.path.push(n).actor();
  }
  detail::dpor::WakeupTrees& tree = s_.wakeup;
  const std::uint32_t w = take_pending(n.pending, point.enabled, n.sleep, &point);
  if (w != kNil) {
    n.chosen = s_.actors.id(tree[w].actor);
    n.carry = tree[w].child;
    tree[w].child = kNil;
    // The next scheduling point starts from that subtree: fetch it while the step runs.
    if (n.carry != kNil) __builtin_prefetch(&tree[n.carry]);
    tree.free_subtree(w);
  } else {
    const ActorSet candidates = point.enabled.minus(n.sleep);
    if (candidates.empty()) {
      blocked_ = true;  // every way on is covered by an execution explored elsewhere
      if (enumerate_depth_ != 0) ++blocked_prefixes_;
      return kNoActor;
    }
    // Keep running the previous actor when possible: fewer preemptions in what is reported.
    n.chosen = point.previous != kNoActor && candidates.contains(point.previous)
                   ? point.previous
                   : candidates.first();
  }
  n.done = ActorSet::single(n.actor());
  compute_child_sleep(n, point);
  s_.event_node.push_back(static_cast<std::uint32_t>(s_.path.size()));
  return s_.path.push(n).actor();
}

std::optional<std::uint32_t> DporStrategy::next_choice(const ChoicePoint& point) {
  if (point.step > 0) {  // the choice belongs to step point.step - 1 (or to an actor it started)
    if (s_.choice_in_step.size() < point.step) s_.choice_in_step.resize(point.step, false);
    s_.choice_in_step[point.step - 1] = true;
  }
  if (const Node* n = s_.path.replay(point)) return n->chosen;
  Node& n = s_.path.push_choice(point);
  n.event = static_cast<std::uint32_t>(point.step);
  if (first_ && s_.path.size() - 1 == first_index_) {  // the value this prefix was split off with
    if (first_->first_kind != Decision::Kind::kChoice || first_->first >= point.n)
      throw nondeterminism::choice(point.step);
    n.chosen = first_->first;
  }
  return n.chosen;
}

void DporStrategy::end_execution(const ExecutionRecord& record) {
  while (s_.events.size() < record.trace.size())
    races_.process_event(s_, record.trace[s_.events.size()]);
  s_.path.finish();
  if (enumerate_depth_ != 0 && !at_prefix_ && !blocked_)
    record_prefix();  // it ended above the depth: a prefix whose search replays just it
  if (s_.path.size() > s_.max_depth) s_.max_depth = s_.path.size();
  races_.end_execution(s_, record);
}

Coverage DporStrategy::coverage() const {
  if (!exhausted_) return {false, "DPOR stopped before the end of the search"};
  const std::string how = optimal() ? "optimal DPOR" : "DPOR with sleep sets and wakeup sequences";
  if (options_.dependency == Dependency::kAllWrites)
    return {true,
            "every interleaving up to the order of independent steps, with every two "
            "state-changing steps dependent (" +
                how + ")"};
  if (s_.dependency.forced_all_writes())
    return {true,
            "every interleaving up to the order of independent steps, with every two "
            "state-changing steps dependent since an invariant declares no reads (" +
                how + ")"};
  if (s_.dependency.invariant_ghosts())
    return {true,
            "every interleaving up to the order of independent steps: one execution per "
            "Mazurkiewicz trace, the steps that change what an invariant reads ordered (" +
                how + ")"};
  return {true,
          "every interleaving up to the order of independent steps: one execution per "
          "Mazurkiewicz trace (" +
              how + ")"};
}

std::string DporStrategy::abandon_reason() const {
  if (at_prefix_) return "a prefix of a split search: the search below it is a separate one";
  if (blocked_) return "sleep-set blocked: every continuation is covered by another execution";
  return "abandoned by the strategy";
}

}  // namespace interleave
