#include "explorer/strategies/dpor/reversal.hpp"

#include <algorithm>

namespace interleave::detail::dpor {

const Op* Reversal::op_at(const SearchState& s, ActorId actor, std::uint32_t at) {
  const EventInfo* first = nullptr;
  for (std::int32_t e = s.actor_last[actor]; e > static_cast<std::int32_t>(at);
       e = s.events[static_cast<std::size_t>(e)].prev)
    first = &s.events[static_cast<std::size_t>(e)];
  if (first != nullptr) return &first->op;
  if (s.last_alive.contains(actor) && actor < s.last_pending.size()) return s.last_pending[actor];
  return nullptr;
}

void Reversal::consume(std::size_t m) {
  consumed_[m] = 1;
  ++consumed_count_;
  const ActorId id = v_[m].id;
  if (first_of_id_[id] != m) return;
  // Only an actor's first step left is ever consumed, so the next one is not consumed.
  first_of_id_[id] = v_[m].next_same;
}

std::ptrdiff_t Reversal::weak_initial(const SearchState& s, ActorId id, const Op& op,
                                      bool commuting) const {
  if (id != kNoActor && first_of_id_[id] != kNil) {
    const std::size_t k = first_of_id_[id];
    // Its first step in v: a weak initial iff nothing left before it happens before it.
    if (consumed_count_ == 0) {  // then: iff its clock reaches no other actor's first step in v
      const Clock* c = v_[k].clock;
      const ActorId self = v_[k].id;
      bool after = false;
      v_actors_.for_each([&](ActorId a) {
        if (a != self && c[a] >= first_in_v_[a]) after = true;
      });
      return after ? -1 : static_cast<std::ptrdiff_t>(k);
    }
    for (std::size_t i = 0; i < k; ++i)
      if (!consumed_[i] && s.happens_before(v_[i].event, v_[k].clock)) return -1;
    return static_cast<std::ptrdiff_t>(k);
  }
  // Not in v: a weak initial iff it commutes with all of v (then running it first changes nothing
  // for v). The argument is that the exploration that runs this step first goes on to run v after
  // it, which holds in the setting optimal DPOR is proven for (SearchState::optimal); elsewhere
  // only steps in v count, as in source-DPOR.
  if (!commuting) return -1;
  if (!s.dependency.may_depend(v_masks_, op)) return static_cast<std::ptrdiff_t>(v_.size());
  for (std::size_t k = 0; k < v_.size(); ++k)
    if (!consumed_[k] && s.dependency.dependent(op, *v_[k].op)) return -1;
  return static_cast<std::ptrdiff_t>(v_.size());
}

// To run `op` first, the exploration must take, from the state before `earlier`, the sequence
// v = notdep(earlier).op: the steps after `earlier` that do not depend on it, then `op`. Unless a
// sleeping actor or a branch of the wakeup tree already covers v (its first step is a weak initial
// of v), v is added to the state's wakeup tree.
//
// Happens-before is taken from the explored execution, which orders at least as much as v does:
// some weak initials may be missed (then a redundant sequence is added), none is invented (which
// could wrongly count v as covered).
void Reversal::reverse(SearchState& s, std::uint32_t earlier, ActorId actor, const Op& op,
                       const Clock* full, std::uint32_t end, std::int32_t prev) {
  const bool demand = s.event_node[earlier] < s.floor;
  if (demand && !s.demand_at(s.event_node[earlier])) return;  // a fixed or fully branched node
  Node& node = s.path[s.event_node[earlier]];
  // Clear the entries of the last v_: its actors with an event, and the actor of its final step.
  v_actors_.for_each([&](ActorId a) { first_of_id_[a] = last_of_id_[a] = kNil; });
  if (!v_.empty()) first_of_id_[v_.back().id] = last_of_id_[v_.back().id] = kNil;
  v_.clear();
  v_actors_ = ActorSet();
  v_masks_ = AccessMasks();
  // v_'s steps in order, each linked to the next of its actor, and what they access. (Built in
  // place: a VStep assembled on the stack and copied in stalls on store forwarding.)
  auto append = [&](std::uint32_t event, ActorId id, bool choice, const Op* step_op,
                    const Clock* step_clock, const AccessMasks& m) __attribute__((always_inline)) {
    const auto k = static_cast<std::uint32_t>(v_.size());
    VStep& st = v_.emplace_back();
    st.event = event;
    st.actor = s.actors.key(id);
    st.id = id;
    st.choice = choice;
    st.op = step_op;
    st.clock = step_clock;
    st.next_same = kNil;
    if (last_of_id_[id] == kNil)
      first_of_id_[id] = k;
    else
      v_[last_of_id_[id]].next_same = k;
    last_of_id_[id] = k;
    v_masks_.add(m);
  };
  const std::uint32_t earlier_actor = s.events[earlier].actor;
  const Clock earlier_index = s.events[earlier].index;
  v_.reserve(end - earlier);
  for (std::uint32_t t = earlier + 1; t < end; ++t) {
    const Clock* ct = s.clocks.row(static_cast<std::int32_t>(t));
    if (ct[earlier_actor] >= earlier_index) continue;  // happens after `earlier`
    const EventInfo& et = s.events[t];
    if (!v_actors_.contains(et.actor)) {
      v_actors_.insert(et.actor);
      first_in_v_[et.actor] = et.index;
    }
    append(t, et.actor, et.choice, &et.op, ct, et.masks);
  }
  append(kNil, actor, false, &op, full, s.dependency.masks_of(op));
  consumed_.assign(v_.size(), 0);
  consumed_count_ = 0;

  // If `op` is a first step of v, it must have been runnable there (a wait the earlier step made
  // true, say, could not run before it): otherwise the race cannot be reversed.
  const std::ptrdiff_t own = weak_initial(s, actor, op, false);
  const bool commuting = s.optimal();
  const bool op_first = own == static_cast<std::ptrdiff_t>(v_.size()) - 1;
  if (op_first && !node.enabled().contains(actor)) return;
  if (demand) {
    // A node whose alternatives are decided later: the initials of v that can run there (one of
    // them explored from the node covers v, as in source-DPOR), unless one already was.
    ActorSet initials;
    ActorSet candidates = v_actors_;
    candidates.insert(actor);
    candidates.for_each([&](ActorId a) {
      if (node.enabled().contains(a) && weak_initial(s, a, op, false) >= 0) initials.insert(a);
    });
    ActorSet explored = node.sleep | node.done;
    if (initials.empty() || !(initials & explored).empty()) return;
    s.demands.emplace_back(s.event_node[earlier], initials);
    return;
  }

  // Covered by a sleeping actor: its exploration ran a trace in which v's steps come first too.
  ActorSet sleep = node.sleep | node.done;
  sleep.erase(node.actor());
  bool covered = false;
  sleep.for_each([&](ActorId sl) {
    if (covered) return;
    // A sleeper with a step in v is judged by its first step there alone (weak_initial does not
    // look at the operation then): no need to find its operation.
    if (first_of_id_[sl] != kNil) {
      if (weak_initial(s, sl, op, commuting) >= 0) covered = true;
      return;
    }
    // The sleeper's operation at that state.
    const Op* o = op_at(s, sl, earlier);
    if (sl == actor) {
      // Its first step between `earlier` and `op`, if any; else `op` itself (its pending pointer
      // may already show a later operation).
      o = &op;
      for (std::int32_t e = prev; e > static_cast<std::int32_t>(earlier);
           e = s.events[static_cast<std::size_t>(e)].prev)
        o = &s.events[static_cast<std::size_t>(e)].op;
    }
    if (o != nullptr && weak_initial(s, sl, *o, commuting) >= 0) covered = true;
  });
  if (covered) return;

  // Descend the wakeup tree along branches whose first step is a weak initial of what is left.
  WakeupTrees& tree = s.wakeup;
  std::uint32_t parent = kNil;  // kNil: the node's own list
  for (;;) {
    std::uint32_t w = parent == kNil ? node.pending : tree[parent].child;
    std::uint32_t matched = kNil;
    std::ptrdiff_t m = -1;
    for (; w != kNil; w = tree[w].sibling) {
      m = weak_initial(s, s.actors.id(tree[w].actor), s.ops[tree[w].op],
                       commuting && tree[w].certain);
      if (m >= 0) {
        matched = w;
        break;
      }
    }
    if (matched == kNil) break;
    if (m < static_cast<std::ptrdiff_t>(v_.size())) consume(static_cast<std::size_t>(m));
    if (tree[matched].child == kNil) return;  // a leaf: exploring it covers v
    if (consumed_count_ == v_.size()) return;
    parent = matched;
  }

  // Append what is left of v as a new last branch. It ends at a step that made a choice (what
  // follows depends on the value, which is explored in full anyway), at the length limit, or after
  // its first step when the wakeup trees are at their memory bound.
  std::size_t limit = s.limits.max_wakeup_length;
  const std::size_t live = tree.live();
  const std::size_t depth = std::max({s.max_depth, s.path.size(), std::size_t{1}});
  if (s.limits.wakeup_steps_per_step != 0 && live >= s.limits.wakeup_steps_per_step * depth &&
      v_.size() > 1) {
    limit = 1;
    ++s.bounded;
  }
  std::uint32_t head = kNil;
  std::uint32_t tail = kNil;
  std::size_t length = 0;
  for (std::size_t k = 0; k < v_.size(); ++k) {
    if (consumed_[k]) continue;
    const VStep& st = v_[k];
    const std::uint32_t w = tree.make();
    WakeupNode& wn = tree[w];
    wn.actor = st.actor;  // a key: stable whatever order actors are spawned in
    if (st.event == kNil) {
      wn.op = s.ops.intern(*st.op);
    } else {
      EventInfo& ev = s.events[st.event];
      if (ev.op_id == kNil) ev.op_id = s.ops.intern(ev.op);
      wn.op = ev.op_id;
    }
    wn.certain = st.event != kNil || !blocking(*st.op) || (op_first && length == 0);
    if (tail == kNil)
      head = w;
    else
      tree[tail].child = w;
    tail = w;
    ++length;
    if (st.choice || length == limit) {
      // Steps of v are left out: the exploration after this branch is free, so the branch covers
      // v only in the weaker sense of source-DPOR (see weak_initial).
      for (std::size_t rest = k + 1; rest < v_.size(); ++rest)
        if (!consumed_[rest]) s.truncated_seen = true;
      break;
    }
  }
  tree.append(parent == kNil ? node.pending : tree[parent].child, head);
  ++s.inserted;
  s.peak_wakeup = std::max(s.peak_wakeup, tree.live());
}

}  // namespace interleave::detail::dpor
