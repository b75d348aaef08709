#include "explorer/strategies/dpor/races.hpp"

#include <algorithm>

namespace interleave::detail::dpor {

void Races::process_event(SearchState& s, const Event& ev) {
  const auto j = static_cast<std::uint32_t>(s.events.size());
  const ActorId q = ev.actor;
  EventInfo info;
  info.actor = q;
  info.prev = s.actor_last[q];
  info.index = info.prev < 0 ? 1 : s.events[static_cast<std::size_t>(info.prev)].index + 1;
  info.hb_pred = ev.hb_pred;
  info.op = ev.op;
  info.masks = s.dependency.masks_of(ev.op);
  info.choice = j < s.choice_in_step.size() && s.choice_in_step[j];

  // The clock of the state before the event: program order and the spawn/join edge.
  const std::size_t width = s.actors.width();
  Clock* c = s.clocks.start_row(j, info.prev, width);
  if (info.hb_pred >= 0) VectorClocks::join(c, s.clocks.row(info.hb_pred), width);

  // The full clock adds the dependencies: the latest conflicting accesses to each object.
  Clock* full = full_.data();
  std::copy_n(c, width, full);
  join_dependencies(s, info.op, full, j);
  if (s.first_done) detect_races(s, q, info.op, c, full, j, info.prev);
  std::copy_n(full, width, c);
  c[q] = info.index;
  for (const Access& acc : s.dependency.tracked(info.op))
    s.histories.of(acc.object).push_back(ObjAccess{j, acc.kind});
  s.actor_last[q] = static_cast<std::int32_t>(j);
  s.events.push_back(info);
}

void Races::join_dependencies(const SearchState& s, const Op& op, Clock* c,
                              std::uint32_t end) const {
  const std::size_t width = s.actors.width();
  for (const Access& acc : s.dependency.tracked(op)) {
    const std::vector<ObjAccess>* hist = s.histories.find(acc.object);
    if (hist == nullptr) continue;
    for (std::size_t i = hist->size(); i-- > 0;) {
      const ObjAccess& f = (*hist)[i];
      if (f.event >= end || !kinds_conflict(f.kind, acc.kind)) continue;
      VectorClocks::join(c, s.clocks.row(static_cast<std::int32_t>(f.event)), width);
      if (exclusive(f.kind)) break;  // it is ordered after everything before it
    }
  }
}

void Races::detect_races(SearchState& s, ActorId actor, const Op& op, const Clock* before,
                         const Clock* full, std::uint32_t end, std::int32_t prev) {
  candidates_.clear();
  for (const Access& acc : s.dependency.tracked(op)) {
    const std::vector<ObjAccess>& hist = s.histories.of(acc.object);
    for (std::size_t i = hist.size(); i-- > 0;) {
      const ObjAccess& f = hist[i];
      if (f.event >= end || !kinds_conflict(f.kind, acc.kind)) continue;
      const bool excl = exclusive(f.kind);
      const EventInfo& fe = s.events[f.event];
      if (fe.actor == actor || s.happens_before(f.event, before)) {
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
      if (y == x || !s.happens_before(e, s.clocks.row(static_cast<std::int32_t>(later)))) continue;
      // The operation is the actor's pending one at that state (no step of the actor since) and
      // it was runnable there.
      subsumed = prev < static_cast<std::int32_t>(later) &&
                 s.path[s.event_node[later]].enabled().contains(actor);
    }
    if (subsumed) continue;
    ++s.races;
    reversal_.reverse(s, e, actor, op, full, end, prev);
  }
}

// A blocked operation races with the steps that keep it blocked, or that blocked it: the latest
// conflicting steps at this state. Those may no longer be the latest when it finally runs (another
// step may unblock it, and the race with that one need not be reversible), so it is checked here,
// at every new state where it is blocked and something it conflicts with has happened since.
void Races::pending_races(SearchState& s, ActorId actor, const Op& op, std::uint32_t end) {
  std::int32_t prev = s.actor_last[actor];
  while (prev >= static_cast<std::int32_t>(end))
    prev = s.events[static_cast<std::size_t>(prev)].prev;
  scratch_.fill(0);
  const std::int32_t from = prev >= 0 ? prev : s.spawned_at[actor];
  if (from >= 0) std::copy_n(s.clocks.row(from), s.actors.width(), scratch_.data());
  full_ = scratch_;
  join_dependencies(s, op, full_.data(), end);
  detect_races(s, actor, op, scratch_.data(), full_.data(), end, prev);
}

void Races::check_blocked(SearchState& s, const SchedulingPoint& point) {
  const auto end = static_cast<std::uint32_t>(point.step);
  point.alive.minus(point.enabled).for_each([&](ActorId a) {
    const Op& op = *point.pending[a];
    std::int32_t from = checked_at_[a];
    const bool fresh = from < 0 || from > static_cast<std::int32_t>(end) || s.actor_last[a] >= from;
    bool touched = fresh;
    for (std::uint32_t t = fresh ? end : static_cast<std::uint32_t>(from); t < end && !touched; ++t)
      touched = s.dependency.dependent(s.events[t].op, op);
    if (!touched) return;
    checked_at_[a] = static_cast<std::int32_t>(end);
    if (!s.first_done) {  // the first execution's races are detected at its end
      deferred_.push_back(Deferred{a, end, op});
      return;
    }
    pending_races(s, a, op, end);
  });
}

void Races::end_execution(SearchState& s, const ExecutionRecord& record) {
  if (!s.first_done) {
    // The first execution decides whether optimal DPOR's weak initials apply (see
    // SearchState::optimal); its races are detected now, in order, each against the steps before.
    s.first_done = true;
    std::size_t d = 0;
    for (std::uint32_t j = 0; j <= s.events.size(); ++j) {
      for (; d < deferred_.size() && deferred_[d].end == j; ++d)
        pending_races(s, deferred_[d].actor, deferred_[d].op, j);
      if (j == s.events.size()) break;
      const EventInfo& e = s.events[j];
      const std::size_t width = s.actors.width();
      scratch_.fill(0);
      if (e.prev >= 0) std::copy_n(s.clocks.row(e.prev), width, scratch_.data());
      if (e.hb_pred >= 0) VectorClocks::join(scratch_.data(), s.clocks.row(e.hb_pred), width);
      const Op op = e.op;  // reverse() may not touch the events, but keep the copy simple
      detect_races(s, e.actor, op, scratch_.data(), s.clocks.row(static_cast<std::int32_t>(j)), j,
                   e.prev);
    }
    deferred_.clear();
  }

  // An execution cut short leaves operations pending that could have run earlier: they race too.
  // (The pointers of the last scheduling point still name each actor's announced operation.)
  const bool cut = record.outcome == Outcome::kViolation ||
                   record.outcome == Outcome::kActorFailure ||
                   record.outcome == Outcome::kDeadlock || record.outcome == Outcome::kStepBound ||
                   record.outcome == Outcome::kInfeasible;
  if (!cut) return;
  // (An infeasible execution ends as a deadlock does: nothing enabled.)
  if (record.outcome != Outcome::kDeadlock && record.outcome != Outcome::kInfeasible)
    s.cut_seen = true;
  const auto end = static_cast<std::uint32_t>(s.events.size());
  // A violation stops the execution: the steps other actors would have taken after it never run,
  // so their races with the violating step's past would go unnoticed. The stop depends on every
  // actor, so the violating step races with each pending operation that could have come first.
  const bool stopped =
      (record.outcome == Outcome::kViolation || record.outcome == Outcome::kActorFailure) &&
      end > 0;
  s.last_alive.for_each([&](ActorId a) {
    if (a >= s.last_pending.size()) return;
    const Op& op = *s.last_pending[a];
    pending_races(s, a, op, end);
    scratch_.fill(0);
    const std::int32_t from = s.actor_last[a] >= 0 ? s.actor_last[a] : s.spawned_at[a];
    if (from >= 0) std::copy_n(s.clocks.row(from), s.actors.width(), scratch_.data());
    if (stopped && s.events[end - 1].actor != a && !s.happens_before(end - 1, scratch_.data())) {
      // v is just the pending operation, the start of what the actor would have done. (A step that
      // commutes with it would not cover the rest: weak initials need a step in v from now on.)
      ++s.races;
      full_ = scratch_;
      join_dependencies(s, op, full_.data(), end);
      reversal_.reverse(s, end - 1, a, op, full_.data(), end, s.actor_last[a]);
    }
  });
}

}  // namespace interleave::detail::dpor
