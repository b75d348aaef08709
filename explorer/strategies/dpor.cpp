#include "explorer/strategies/dpor.hpp"

#include "explorer/execution.hpp"
#include "explorer/strategies/determinism.hpp"

#include <algorithm>
#include <array>
#include <new>

namespace interleave {

namespace {

// The object standing for "shared state" in Dependency::kAllWrites: every state-changing step
// writes it, so all of them are ordered.
constexpr ObjectId kGhost = kNoObject - 1;

bool observes(AccessKind k) {
  return k == AccessKind::kRead || k == AccessKind::kWait;
}
bool shared_lock_op(AccessKind k) {
  return k == AccessKind::kAcquireShared || k == AccessKind::kReleaseShared;
}
// Conflicts with every access to the same object (so it orders all earlier accesses to it).
bool exclusive(AccessKind k) {
  return !observes(k) && !shared_lock_op(k);
}
// The per-object part of conflicts(Access, Access) (types.cpp).
bool kinds_conflict(AccessKind a, AccessKind b) {
  if (observes(a) && observes(b)) return false;
  if (shared_lock_op(a) && shared_lock_op(b)) return false;
  return true;
}
bool changes_state(const Op& op) {
  for (const Access& a : op)
    if (!observes(a.kind)) return true;
  return false;
}

// True when `later` cannot be runnable in a state where `earlier` is: `earlier` releases a lock
// that `later` acquires (the releasing actor holds it, so the acquisition is blocked). Such a pair
// is ordered by the lock, not by a race: the acquisition races with the acquisition before.
bool never_coenabled(const Op& earlier, const Op& later) {
  for (const Access& x : earlier) {
    if (x.kind != AccessKind::kRelease && x.kind != AccessKind::kReleaseShared) continue;
    for (const Access& y : later) {
      if (y.object != x.object) continue;
      if (y.kind == AccessKind::kAcquire) return true;
      if (y.kind == AccessKind::kAcquireShared && x.kind == AccessKind::kRelease) return true;
    }
  }
  return false;
}

// The accesses DPOR tracks for an operation: its own, plus the ghost write under kAllWrites. It
// refers to the operation's own accesses unless there is a ghost write to add (then it holds a
// copy), so that the common case copies nothing.
class Tracked {
 public:
  Tracked(const Op& op, bool all_writes) : begin_(op.begin()), end_(op.end()) {
    if (!all_writes || !changes_state(op)) return;
    new (&list_) std::array<Access, Op::kMaxAccesses + 1>();
    std::size_t count = 0;
    for (const Access& a : op)
      list_[count++] = a;
    list_[count++] = Access{kGhost, AccessKind::kWrite};
    begin_ = list_.data();
    end_ = list_.data() + count;
  }
  Tracked(const Tracked&) = delete;
  Tracked& operator=(const Tracked&) = delete;
  const Access* begin() const { return begin_; }
  const Access* end() const { return end_; }

 private:
  const Access* begin_;
  const Access* end_;
  union {
    std::array<Access, Op::kMaxAccesses + 1> list_;  // constructed only with a ghost write
  };
};

Tracked tracked(const Op& op, bool all_writes) {
  return Tracked(op, all_writes);
}

// conflicts(Op, Op) of types.cpp, inline here: DPOR asks it for every pair it compares.
inline bool ops_conflict(const Op& a, const Op& b) {
  for (const Access& x : a)
    for (const Access& y : b)
      if (x.object == y.object && kinds_conflict(x.kind, y.kind)) return true;
  return false;
}

}  // namespace

inline bool DporStrategy::dependent(const Op& a, const Op& b) const {
  if (ops_conflict(a, b)) return true;
  return options_.dependency == Dependency::kAllWrites && changes_state(a) && changes_state(b);
}

std::vector<DporStrategy::ObjAccess>& DporStrategy::history(ObjectId o) {
  if (o == kGhost) return ghost_;
  if (o >= objects_.size()) objects_.resize(static_cast<std::size_t>(o) + 1);
  return objects_[o];
}

void DporStrategy::truncate_events(std::size_t count) {
  const bool all_writes = options_.dependency == Dependency::kAllWrites;
  while (events_.size() > count) {
    const EventInfo& e = events_.back();
    for (const Access& a : tracked(e.op, all_writes))
      history(a.object).pop_back();
    actor_last_[e.actor] = e.prev;
    events_.pop_back();
  }
  // clocks_ keeps its rows: the next events overwrite them (see process_event).
  if (choice_in_step_.size() > count) choice_in_step_.resize(count);
}

std::uint32_t DporStrategy::new_wakeup_node() {
  if (!wakeup_free_.empty()) {
    const std::uint32_t w = wakeup_free_.back();
    wakeup_free_.pop_back();
    wakeup_[w] = WakeupNode{};
    return w;
  }
  wakeup_.emplace_back();
  return static_cast<std::uint32_t>(wakeup_.size() - 1);
}

void DporStrategy::free_wakeup_subtree(std::uint32_t w) {
  if (w == kNil) return;
  std::vector<std::uint32_t>& stack = free_stack_;  // empty between calls; reused
  stack.push_back(wakeup_[w].child);
  wakeup_free_.push_back(w);
  while (!stack.empty()) {
    const std::uint32_t x = stack.back();
    stack.pop_back();
    if (x == kNil) continue;
    stack.push_back(wakeup_[x].child);
    stack.push_back(wakeup_[x].sibling);
    wakeup_free_.push_back(x);
  }
}

namespace {
bool same_op(const Op& a, const Op& b) {
  if (a.count != b.count) return false;
  // Labels are usually the same literal: compare the views before the characters.
  if ((a.label.data() != b.label.data() || a.label.size() != b.label.size()) && a.label != b.label)
    return false;
  for (std::size_t i = 0; i < a.count; ++i)
    if (!(a.accesses[i] == b.accesses[i])) return false;
  return true;
}
bool blocking(const Op& op) {
  for (const Access& a : op)
    if (a.kind == AccessKind::kAcquire || a.kind == AccessKind::kAcquireShared ||
        a.kind == AccessKind::kWait)
      return true;
  return false;
}
}  // namespace

std::uint32_t DporStrategy::take_pending(std::uint32_t& list, ActorSet enabled, ActorSet covered,
                                         const SchedulingPoint* point) {
  while (list != kNil) {
    const std::uint32_t w = list;
    WakeupNode& node = wakeup_[w];
    list = node.sibling;
    node.sibling = kNil;
    const ActorId id = id_of_key_[node.actor];
    const bool runnable = id != kNoActor && enabled.contains(id) &&
                          (point == nullptr || same_op(*point->pending[id], ops_[node.op]));
    if (runnable && !covered.contains(id)) return w;
    ++dropped_;
    if (!runnable && node.certain) ++dropped_certain_;
    free_wakeup_subtree(w);
  }
  return kNil;
}

std::size_t DporStrategy::OpHash::operator()(const Op& op) const {
  std::size_t h = std::hash<std::string_view>()(op.label);
  for (const Access& a : op)
    h = h * 1000003u ^ (static_cast<std::size_t>(a.object) << 4 | static_cast<std::size_t>(a.kind));
  return h;
}

bool DporStrategy::OpEqual::operator()(const Op& a, const Op& b) const {
  return same_op(a, b);
}

std::uint32_t DporStrategy::intern(const Op& op) {
  const auto [it, added] = op_ids_.try_emplace(op, static_cast<std::uint32_t>(ops_.size()));
  if (added) ops_.push_back(op);
  return it->second;
}

bool DporStrategy::begin_execution() {
  depth_ = 0;
  blocked_ = false;
  last_alive_ = ActorSet();
  last_pending_ = {};
  if (!started_) {
    started_ = true;
    actor_last_.assign(kMaxActors, -1);
    spawned_at_.assign(kMaxActors, -1);
    scratch_.assign(kMaxActors, 0);
    full_.assign(kMaxActors, 0);
    first_in_v_.assign(kMaxActors, 0);
    first_of_id_.fill(kNil);
    last_of_id_.fill(kNil);
    key_of_.assign(kMaxActors, kNil);
    checked_at_.assign(kMaxActors, -1);
    return true;
  }
  // Backtrack: the deepest node with an alternative left; the nodes below it are finished.
  while (!path_.empty()) {
    Node& n = path_.back();
    std::size_t keep_events = 0;  // events of the path that stay valid
    std::int32_t forget_spawned = 0;
    bool found = false;
    if (n.kind == Decision::Kind::kActor) {
      free_wakeup_subtree(n.carry);  // left over when the execution stopped right after this step
      n.carry = kNil;
      const std::uint32_t w = take_pending(n.pending, n.enabled, n.sleep | n.done, nullptr);
      if (w != kNil) {
        n.chosen = id_of_key_[wakeup_[w].actor];
        n.done.insert(n.chosen);
        n.carry = wakeup_[w].child;
        wakeup_[w].child = kNil;
        free_wakeup_subtree(w);
        keep_events = n.event;
        forget_spawned = static_cast<std::int32_t>(n.event);
        event_node_.resize(n.event + 1);
        resuming_ = true;
        found = true;
      }
    } else if (n.value + 1 < n.n) {
      ++n.value;
      // The step during which the choice was made stays; what it did after the choice may change.
      keep_events = n.event;
      forget_spawned = static_cast<std::int32_t>(n.event) - 1;
      event_node_.resize(n.event);
      resuming_ = false;
      found = true;
    }
    if (found) {
      resume_ = path_.size() - 1;
      truncate_events(keep_events);
      known_.for_each([&](ActorId a) {
        if (spawned_at_[a] < forget_spawned) return;
        known_.erase(a);
        id_of_key_[key_of_[a]] = kNoActor;
        key_of_[a] = kNil;
      });
      return true;
    }
    path_.pop_back();
  }
  exhausted_ = true;
  return false;
}

void DporStrategy::learn_actors(const SchedulingPoint& point) {
  const ActorSet fresh = point.alive.minus(known_);
  if (fresh.empty()) return;
  fresh.for_each([&](ActorId a) {
    spawned_at_[a] = static_cast<std::int32_t>(point.step) - 1;  // -1: before the first step
    known_.insert(a);
    if (blocking(*point.pending[a])) blocking_seen_ = true;
    auto it = key_by_name_.find(point.names[a]);
    if (it == key_by_name_.end()) {
      it = key_by_name_
               .emplace(std::string(point.names[a]), static_cast<std::uint32_t>(id_of_key_.size()))
               .first;
      id_of_key_.push_back(kNoActor);
    }
    key_of_[a] = it->second;
    id_of_key_[it->second] = a;
  });
}

void DporStrategy::process_event(const Event& ev) {
  const bool all_writes = options_.dependency == Dependency::kAllWrites;
  const auto j = static_cast<std::uint32_t>(events_.size());
  const ActorId q = ev.actor;
  EventInfo info;
  info.actor = q;
  info.prev = actor_last_[q];
  info.index = info.prev < 0 ? 1 : events_[static_cast<std::size_t>(info.prev)].index + 1;
  info.hb_pred = ev.hb_pred;
  info.op = ev.op;
  info.masks = masks_of(ev.op);
  info.choice = j < choice_in_step_.size() && choice_in_step_[j];

  // The clock of the state before the event: program order and the spawn/join edge.
  // Clock entries of actors beyond width() are zero everywhere (ids follow spawn order).
  const std::size_t width = this->width();
  // A row left by an earlier path is reused: its entries up to clock_high_ are rewritten (those
  // beyond were never written, rows start zero).
  if (clocks_.size() < static_cast<std::size_t>(j + 1) * kMaxActors)
    clocks_.resize(static_cast<std::size_t>(j + 1) * kMaxActors);
  Clock* c = clock(static_cast<std::int32_t>(j));
  if (info.prev >= 0)
    std::copy_n(clock(info.prev), width, c);
  else
    std::fill_n(c, width, Clock{0});
  if (clock_high_ > width) std::fill(c + width, c + clock_high_, Clock{0});
  clock_high_ = std::max(clock_high_, width);
  if (info.hb_pred >= 0) {
    const Clock* h = clock(info.hb_pred);
    for (std::size_t a = 0; a < width; ++a)
      c[a] = std::max(c[a], h[a]);
  }

  // The full clock adds the dependencies: the latest conflicting accesses to each object.
  Clock* full = full_.data();
  std::copy_n(c, width, full);
  join_dependencies(info.op, full, j);
  if (first_done_) detect_races(q, info.op, c, full, j, info.prev);
  std::copy_n(full, width, c);
  c[q] = info.index;
  for (const Access& acc : tracked(info.op, all_writes))
    history(acc.object).push_back(ObjAccess{j, acc.kind});
  actor_last_[q] = static_cast<std::int32_t>(j);
  events_.push_back(info);
}

void DporStrategy::join_dependencies(const Op& op, Clock* c, std::uint32_t end) const {
  const std::size_t width = this->width();
  for (const Access& acc : tracked(op, options_.dependency == Dependency::kAllWrites)) {
    const std::vector<ObjAccess>* hist = nullptr;
    if (acc.object == kGhost)
      hist = &ghost_;
    else if (acc.object < objects_.size())
      hist = &objects_[acc.object];
    else
      continue;
    for (std::size_t i = hist->size(); i-- > 0;) {
      const ObjAccess& f = (*hist)[i];
      if (f.event >= end || !kinds_conflict(f.kind, acc.kind)) continue;
      const Clock* fc = clock(static_cast<std::int32_t>(f.event));
      for (std::size_t a = 0; a < width; ++a)
        c[a] = std::max(c[a], fc[a]);
      if (exclusive(f.kind)) break;  // it is ordered after everything before it
    }
  }
}

void DporStrategy::detect_races(ActorId actor, const Op& op, const Clock* before, const Clock* full,
                                std::uint32_t end, std::int32_t prev) {
  candidates_.clear();
  for (const Access& acc : tracked(op, options_.dependency == Dependency::kAllWrites)) {
    const std::vector<ObjAccess>& hist = history(acc.object);
    for (std::size_t i = hist.size(); i-- > 0;) {
      const ObjAccess& f = hist[i];
      if (f.event >= end || !kinds_conflict(f.kind, acc.kind)) continue;
      const bool excl = exclusive(f.kind);
      const EventInfo& fe = events_[f.event];
      if (fe.actor == actor || happens_before(f.event, before)) {
        if (excl) break;  // everything earlier happens before it, hence before `op`
        continue;
      }
      // A release that `op` acquires: look past it, to the acquisition before.
      if (never_coenabled(fe.op, op)) continue;
      if (std::find(candidates_.begin(), candidates_.end(), f.event) == candidates_.end())
        candidates_.push_back(f.event);
      if (excl) break;
    }
  }
  // Only the last racing events: one that happens before another candidate is reversed through
  // that one, provided that the operation could have run before it. A candidate inside another
  // actor's critical section of a lock the operation takes, say, cannot be reversed: then the
  // earlier candidate (the acquisition) must be reversed itself.
  for (std::size_t x = 0; x < candidates_.size(); ++x) {
    const std::uint32_t e = candidates_[x];
    bool subsumed = false;
    for (std::size_t y = 0; y < candidates_.size() && !subsumed; ++y) {
      const std::uint32_t later = candidates_[y];
      if (y == x || !happens_before(e, clock(static_cast<std::int32_t>(later)))) continue;
      // The operation is the actor's pending one at that state (no step of the actor since) and
      // it was runnable there.
      subsumed = prev < static_cast<std::int32_t>(later) &&
                 path_[event_node_[later]].enabled.contains(actor);
    }
    if (subsumed) continue;
    ++races_;
    reverse(e, actor, op, full, end, prev);
  }
}

const Op* DporStrategy::op_at(ActorId actor, std::uint32_t at) const {
  const EventInfo* first = nullptr;
  for (std::int32_t e = actor_last_[actor]; e > static_cast<std::int32_t>(at);
       e = events_[static_cast<std::size_t>(e)].prev)
    first = &events_[static_cast<std::size_t>(e)];
  if (first != nullptr) return &first->op;
  if (last_alive_.contains(actor) && actor < last_pending_.size()) return last_pending_[actor];
  return nullptr;
}

DporStrategy::AccessMasks DporStrategy::masks_of(const Op& op) {
  AccessMasks m;
  for (const Access& a : op) {
    const std::uint64_t bit = std::uint64_t{1} << (a.object & 63u);
    if (observes(a.kind))
      m.observed |= bit;
    else if (shared_lock_op(a.kind))
      m.shared |= bit;
    else
      m.exclusive |= bit;
    if (!observes(a.kind)) m.changes = true;
  }
  return m;
}

bool DporStrategy::may_depend_on_v(const Op& op) const {
  if (options_.dependency == Dependency::kAllWrites && v_masks_.changes && changes_state(op))
    return true;
  for (const Access& a : op) {
    const std::uint64_t bit = std::uint64_t{1} << (a.object & 63u);
    std::uint64_t conflicting = v_masks_.exclusive;
    if (!observes(a.kind)) conflicting |= v_masks_.observed;
    if (!shared_lock_op(a.kind)) conflicting |= v_masks_.shared;
    if ((conflicting & bit) != 0) return true;
  }
  return false;
}

void DporStrategy::consume(std::size_t m) {
  consumed_[m] = 1;
  ++consumed_count_;
  const ActorId id = v_[m].id;
  if (first_of_id_[id] != m) return;
  // Only an actor's first step left is ever consumed, so the next one is not consumed.
  first_of_id_[id] = v_[m].next_same;
}

std::ptrdiff_t DporStrategy::weak_initial(ActorId id, const Op& op, bool commuting) const {
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
      if (!consumed_[i] && happens_before(v_[i].event, v_[k].clock)) return -1;
    return static_cast<std::ptrdiff_t>(k);
  }
  // Not in v: a weak initial iff it commutes with all of v (then running it first changes nothing
  // for v). The argument is that the exploration that runs this step first goes on to run v after
  // it, which holds in the setting optimal DPOR is proven for (see optimal()); elsewhere only steps
  // in v count, as in source-DPOR.
  if (!commuting) return -1;
  if (!may_depend_on_v(op)) return static_cast<std::ptrdiff_t>(v_.size());
  for (std::size_t k = 0; k < v_.size(); ++k)
    if (!consumed_[k] && dependent(op, *v_[k].op)) return -1;
  return static_cast<std::ptrdiff_t>(v_.size());
}

// The race between event `earlier` and `op` of `actor`, placed after the first `end` events
// (`full`: its clock with every dependency). To run `op` first, the exploration must take, from the
// state before `earlier`, the sequence v = notdep(earlier).op: the steps after `earlier` that do
// not depend on it, then `op`. Unless a sleeping actor or a branch of the wakeup tree already
// covers v (its first step is a weak initial of v), v is added to the state's wakeup tree.
//
// Happens-before is taken from the explored execution, which orders at least as much as v does:
// some weak initials may be missed (then a redundant sequence is added), none is invented (which
// could wrongly count v as covered).
void DporStrategy::reverse(std::uint32_t earlier, ActorId actor, const Op& op, const Clock* full,
                           std::uint32_t end, std::int32_t prev) {
  Node& node = path_[event_node_[earlier]];
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
    st.actor = key_of_[id];
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
    v_masks_.observed |= m.observed;
    v_masks_.shared |= m.shared;
    v_masks_.exclusive |= m.exclusive;
    v_masks_.changes |= m.changes;
  };
  const std::uint32_t earlier_actor = events_[earlier].actor;
  const Clock earlier_index = events_[earlier].index;
  v_.reserve(end - earlier);
  for (std::uint32_t t = earlier + 1; t < end; ++t) {
    const Clock* ct = clock(static_cast<std::int32_t>(t));
    if (ct[earlier_actor] >= earlier_index) continue;  // happens after `earlier`
    const EventInfo& et = events_[t];
    if (!v_actors_.contains(et.actor)) {
      v_actors_.insert(et.actor);
      first_in_v_[et.actor] = et.index;
    }
    append(t, et.actor, et.choice, &et.op, ct, et.masks);
  }
  append(kNil, actor, false, &op, full, masks_of(op));
  consumed_.assign(v_.size(), 0);
  consumed_count_ = 0;

  // If `op` is a first step of v, it must have been runnable there (a wait the earlier step made
  // true, say, could not run before it): otherwise the race cannot be reversed.
  const std::ptrdiff_t own = weak_initial(actor, op, false);
  const bool commuting = optimal();
  const bool op_first = own == static_cast<std::ptrdiff_t>(v_.size()) - 1;
  if (op_first && !node.enabled.contains(actor)) return;

  // Covered by a sleeping actor: its exploration ran a trace in which v's steps come first too.
  ActorSet sleep = node.sleep | node.done;
  sleep.erase(node.chosen);
  bool covered = false;
  sleep.for_each([&](ActorId s) {
    if (covered) return;
    // A sleeper with a step in v is judged by its first step there alone (weak_initial does not
    // look at the operation then): no need to find its operation.
    if (first_of_id_[s] != kNil) {
      if (weak_initial(s, op, commuting) >= 0) covered = true;
      return;
    }
    // The sleeper's operation at that state.
    const Op* o = op_at(s, earlier);
    if (s == actor) {
      // Its first step between `earlier` and `op`, if any; else `op` itself (its pending pointer
      // may already show a later operation).
      o = &op;
      for (std::int32_t e = prev; e > static_cast<std::int32_t>(earlier);
           e = events_[static_cast<std::size_t>(e)].prev)
        o = &events_[static_cast<std::size_t>(e)].op;
    }
    if (o != nullptr && weak_initial(s, *o, commuting) >= 0) covered = true;
  });
  if (covered) return;

  // Descend the wakeup tree along branches whose first step is a weak initial of what is left.
  std::uint32_t parent = kNil;  // kNil: the node's own list
  for (;;) {
    std::uint32_t w = parent == kNil ? node.pending : wakeup_[parent].child;
    std::uint32_t matched = kNil;
    std::ptrdiff_t m = -1;
    for (; w != kNil; w = wakeup_[w].sibling) {
      m = weak_initial(id_of_key_[wakeup_[w].actor], ops_[wakeup_[w].op],
                       commuting && wakeup_[w].certain);
      if (m >= 0) {
        matched = w;
        break;
      }
    }
    if (matched == kNil) break;
    if (m < static_cast<std::ptrdiff_t>(v_.size())) consume(static_cast<std::size_t>(m));
    if (wakeup_[matched].child == kNil) return;  // a leaf: exploring it covers v
    if (consumed_count_ == v_.size()) return;
    parent = matched;
  }

  // Append what is left of v as a new last branch. It ends at a step that made a choice (what
  // follows depends on the value, which is explored in full anyway), at the length limit, or after
  // its first step when the wakeup trees are at their memory bound.
  std::size_t limit = options_.max_wakeup_length;
  const std::size_t live = wakeup_.size() - wakeup_free_.size();
  const std::size_t depth = std::max({max_depth_, path_.size(), std::size_t{1}});
  if (options_.wakeup_steps_per_step != 0 && live >= options_.wakeup_steps_per_step * depth &&
      v_.size() > 1) {
    limit = 1;
    ++bounded_;
  }
  std::uint32_t head = kNil;
  std::uint32_t tail = kNil;
  std::size_t length = 0;
  for (std::size_t k = 0; k < v_.size(); ++k) {
    if (consumed_[k]) continue;
    const VStep& st = v_[k];
    const std::uint32_t w = new_wakeup_node();
    WakeupNode& wn = wakeup_[w];
    wn.actor = st.actor;  // a key: stable whatever order actors are spawned in
    if (st.event == kNil) {
      wn.op = intern(*st.op);
    } else {
      EventInfo& ev = events_[st.event];
      if (ev.op_id == kNil) ev.op_id = intern(ev.op);
      wn.op = ev.op_id;
    }
    wn.certain = st.event != kNil || !blocking(*st.op) || (op_first && length == 0);
    if (tail == kNil)
      head = w;
    else
      wakeup_[tail].child = w;
    tail = w;
    ++length;
    if (st.choice || length == limit) {
      // Steps of v are left out: the exploration after this branch is free, so the branch covers
      // v only in the weaker sense of source-DPOR (see weak_initial).
      for (std::size_t rest = k + 1; rest < v_.size(); ++rest)
        if (!consumed_[rest]) truncated_seen_ = true;
      break;
    }
  }
  if (parent == kNil && node.pending == kNil) {
    node.pending = head;
  } else {
    std::uint32_t last = parent == kNil ? node.pending : wakeup_[parent].child;
    if (last == kNil) {
      wakeup_[parent].child = head;
    } else {
      while (wakeup_[last].sibling != kNil)
        last = wakeup_[last].sibling;
      wakeup_[last].sibling = head;
    }
  }
  ++inserted_;
  peak_wakeup_ = std::max(peak_wakeup_, wakeup_.size() - wakeup_free_.size());
}

// A blocked operation races with the steps that keep it blocked, or that blocked it: the latest
// conflicting steps at this state. Those may no longer be the latest when it finally runs (another
// step may unblock it, and the race with that one need not be reversible), so it is checked here,
// at every new state where it is blocked and something it conflicts with has happened since (as
// Flanagan and Godefroid's DPOR checks the next step of every process, enabled or not).
// Race detection for operation `op`, pending for `actor` at the state after the first `end` events.
void DporStrategy::pending_races(ActorId actor, const Op& op, std::uint32_t end) {
  std::int32_t prev = actor_last_[actor];
  while (prev >= static_cast<std::int32_t>(end))
    prev = events_[static_cast<std::size_t>(prev)].prev;
  std::fill(scratch_.begin(), scratch_.end(), 0u);
  const std::int32_t from = prev >= 0 ? prev : spawned_at_[actor];
  if (from >= 0) std::copy_n(clock(from), width(), scratch_.data());
  std::copy_n(scratch_.data(), kMaxActors, full_.data());
  join_dependencies(op, full_.data(), end);
  detect_races(actor, op, scratch_.data(), full_.data(), end, prev);
}

void DporStrategy::check_blocked(const SchedulingPoint& point) {
  const auto end = static_cast<std::uint32_t>(point.step);
  point.alive.minus(point.enabled).for_each([&](ActorId a) {
    const Op& op = *point.pending[a];
    std::int32_t from = checked_at_[a];
    const bool fresh = from < 0 || from > static_cast<std::int32_t>(end) || actor_last_[a] >= from;
    bool touched = fresh;
    for (std::uint32_t t = fresh ? end : static_cast<std::uint32_t>(from); t < end && !touched; ++t)
      touched = dependent(events_[t].op, op);
    if (!touched) return;
    checked_at_[a] = static_cast<std::int32_t>(end);
    if (!first_done_) {  // the first execution's races are detected at its end
      deferred_.push_back(Deferred{a, end, op});
      return;
    }
    pending_races(a, op, end);
  });
}

void DporStrategy::compute_child_sleep(Node& node, const SchedulingPoint& point) const {
  ActorSet current = node.sleep | node.done;
  current.erase(node.chosen);
  const Op& op = *point.pending[node.chosen];
  ActorSet child;
  current.for_each([&](ActorId s) {
    if (!dependent(*point.pending[s], op)) child.insert(s);
  });
  node.child_sleep = child;
}

ActorId DporStrategy::next_actor(const SchedulingPoint& point) {
  while (events_.size() < point.step)
    process_event(point.trace[events_.size()]);
  learn_actors(point);
  last_alive_ = point.alive;
  last_pending_ = point.pending;
  // Every operation is checked once it is announced: the first operations of new actors (in
  // learn_actors) and the next operation of the actor that took the last step.
  if (!blocking_seen_ && point.previous != kNoActor && point.alive.contains(point.previous) &&
      blocking(*point.pending[point.previous]))
    blocking_seen_ = true;

  if (depth_ < path_.size()) {
    Node& n = path_[depth_];
    if (n.kind != Decision::Kind::kActor || n.enabled != point.enabled)
      throw nondeterminism::actors(point.step);
    if (resuming_ && depth_ == resume_) {
      compute_child_sleep(n, point);
      resuming_ = false;
    }
    ++depth_;
    return n.chosen;
  }

  check_blocked(point);

  Node n;
  n.kind = Decision::Kind::kActor;
  n.enabled = point.enabled;
  n.event = static_cast<std::uint32_t>(point.step);
  for (std::size_t i = path_.size(); i-- > 0;) {
    if (path_[i].kind == Decision::Kind::kActor) {
      n.sleep = path_[i].child_sleep;
      n.pending = path_[i].carry;  // the wakeup subtree under the step just taken
      path_[i].carry = kNil;
      break;
    }
  }
  const std::uint32_t w = take_pending(n.pending, n.enabled, n.sleep, &point);
  if (w != kNil) {
    n.chosen = id_of_key_[wakeup_[w].actor];
    n.carry = wakeup_[w].child;
    wakeup_[w].child = kNil;
    // The next scheduling point starts from that subtree: fetch it while the step runs.
    if (n.carry != kNil) __builtin_prefetch(&wakeup_[n.carry]);
    free_wakeup_subtree(w);
  } else {
    const ActorSet candidates = point.enabled.minus(n.sleep);
    if (candidates.empty()) {
      blocked_ = true;  // every way on is covered by an execution explored elsewhere
      return kNoActor;
    }
    // Keep running the previous actor when possible: fewer preemptions in what is reported.
    n.chosen = point.previous != kNoActor && candidates.contains(point.previous)
                   ? point.previous
                   : candidates.first();
  }
  n.done = ActorSet::single(n.chosen);
  compute_child_sleep(n, point);
  event_node_.push_back(static_cast<std::uint32_t>(path_.size()));
  path_.push_back(n);
  ++depth_;
  return n.chosen;
}

std::optional<std::uint32_t> DporStrategy::next_choice(const ChoicePoint& point) {
  if (point.step > 0) {  // the choice belongs to step point.step - 1 (or to an actor it started)
    if (choice_in_step_.size() < point.step) choice_in_step_.resize(point.step, false);
    choice_in_step_[point.step - 1] = true;
  }
  if (depth_ < path_.size()) {
    const Node& n = path_[depth_];
    if (n.kind != Decision::Kind::kChoice || n.n != point.n)
      throw nondeterminism::choice(point.step);
    ++depth_;
    return n.value;
  }
  Node n;
  n.kind = Decision::Kind::kChoice;
  n.n = point.n;
  n.value = 0;
  n.event = static_cast<std::uint32_t>(point.step);
  path_.push_back(n);
  ++depth_;
  return 0u;
}

void DporStrategy::end_execution(const ExecutionRecord& record) {
  while (events_.size() < record.trace.size())
    process_event(record.trace[events_.size()]);
  if (depth_ != path_.size()) throw nondeterminism::length(depth_, path_.size());
  if (path_.size() > max_depth_) max_depth_ = path_.size();
  if (!first_done_) {
    // The first execution decides whether optimal DPOR's weak initials apply (see optimal()); its
    // races are detected now, in order, each against the steps before it.
    first_done_ = true;
    std::size_t d = 0;
    for (std::uint32_t j = 0; j <= events_.size(); ++j) {
      for (; d < deferred_.size() && deferred_[d].end == j; ++d)
        pending_races(deferred_[d].actor, deferred_[d].op, j);
      if (j == events_.size()) break;
      const EventInfo& e = events_[j];
      std::fill(scratch_.begin(), scratch_.end(), 0u);
      if (e.prev >= 0) std::copy_n(clock(e.prev), width(), scratch_.data());
      if (e.hb_pred >= 0) {
        const Clock* h = clock(e.hb_pred);
        for (std::size_t a = 0; a < width(); ++a)
          scratch_[a] = std::max(scratch_[a], h[a]);
      }
      const Op op = e.op;  // reverse() may not touch events_, but keep the copy simple
      detect_races(e.actor, op, scratch_.data(), clock(static_cast<std::int32_t>(j)), j, e.prev);
    }
    deferred_.clear();
  }

  // An execution cut short leaves operations pending that could have run earlier: they race too.
  // (The pointers of the last scheduling point still name each actor's announced operation.)
  const bool cut = record.outcome == Outcome::kViolation ||
                   record.outcome == Outcome::kActorFailure ||
                   record.outcome == Outcome::kDeadlock || record.outcome == Outcome::kStepBound;
  if (!cut) return;
  if (record.outcome != Outcome::kDeadlock) cut_seen_ = true;
  const auto end = static_cast<std::uint32_t>(events_.size());
  // A violation stops the execution: the steps other actors would have taken after it never run,
  // so their races with the violating step's past would go unnoticed. The stop depends on every
  // actor, so the violating step races with each pending operation that could have come first.
  const bool stopped =
      (record.outcome == Outcome::kViolation || record.outcome == Outcome::kActorFailure) &&
      end > 0;
  last_alive_.for_each([&](ActorId a) {
    if (a >= last_pending_.size()) return;
    const Op& op = *last_pending_[a];
    pending_races(a, op, end);
    std::fill(scratch_.begin(), scratch_.end(), 0u);
    const std::int32_t from = actor_last_[a] >= 0 ? actor_last_[a] : spawned_at_[a];
    if (from >= 0) std::copy_n(clock(from), width(), scratch_.data());
    if (stopped && events_[end - 1].actor != a && !happens_before(end - 1, scratch_.data())) {
      // v is just the pending operation, the start of what the actor would have done. (A step that
      // commutes with it would not cover the rest: weak initials need a step in v from now on.)
      ++races_;
      std::copy_n(scratch_.data(), kMaxActors, full_.data());
      join_dependencies(op, full_.data(), end);
      reverse(end - 1, a, op, full_.data(), end, actor_last_[a]);
    }
  });
}

Coverage DporStrategy::coverage() const {
  if (!exhausted_) return {false, "DPOR stopped before the end of the search"};
  const std::string how = optimal() ? "optimal DPOR" : "DPOR with sleep sets and wakeup sequences";
  if (options_.dependency == Dependency::kAllWrites)
    return {true,
            "every interleaving up to the order of independent steps, with every two "
            "state-changing steps dependent (" +
                how + ")"};
  return {true,
          "every interleaving up to the order of independent steps: one execution per "
          "Mazurkiewicz trace (" +
              how + ")"};
}

std::string DporStrategy::abandon_reason() const {
  if (blocked_) return "sleep-set blocked: every continuation is covered by another execution";
  return "abandoned by the strategy";
}

}  // namespace interleave
