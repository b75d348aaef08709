// Race detection: after each step (and for the operations that are blocked, or still pending when
// an execution ends early), the earlier steps of other actors that are dependent with it and could
// have run after it instead. Each race found is handed to the reversal (reversal.hpp).
//
// A step is analysed once it has run: its vector clock is its actor's state (program order, the
// spawn or join edge) joined with the clocks of the latest conflicting accesses to each object it
// tracks (dependency.hpp), and its races are with those latest conflicting accesses that do not
// already happen before it. Blocking: a lock release and a later acquisition of the same lock are
// never runnable together, so an acquisition races with the acquisition before (the release
// between them orders them without being a race). A blocked operation takes part in race
// detection at every new state where it is blocked and something it conflicts with has happened
// since (as Flanagan and Godefroid's DPOR checks the next step of every process, enabled or not):
// the step that finally unblocks it need not be reversible. The first execution's races are
// detected at its end, once it is known whether optimal DPOR's weak initials apply.
#pragma once

#include "explorer/strategies/dpor/reversal.hpp"
#include "explorer/strategies/dpor/search_state.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace interleave::detail::dpor {

class Races {
 public:
  Races() {
    checked_at_.fill(-1);
    scratch_.fill(0);
    full_.fill(0);
  }

  /// Analyses the step `ev`, the next event of the current execution: its clock, its accesses in
  /// the histories, and (after the first execution) its races.
  void process_event(SearchState& s, const Event& ev);
  /// A new execution keeps the first `kept` events of the last one (and the state after them,
  /// unless it resumes at a choice inside the last kept step): a blocked operation checked at a
  /// later state was checked in another execution, and must be checked again.
  void truncate(std::uint32_t kept, bool state_kept) {
    const auto last_valid = static_cast<std::int32_t>(kept) - (state_kept ? 0 : 1);
    for (std::int32_t& at : checked_at_)
      if (at > last_valid) at = -1;
  }
  /// At a new scheduling point: race detection for the operations blocked there.
  void check_blocked(SearchState& s, const SchedulingPoint& point);
  /// At the end of an execution: the first one's races (in order, each against the steps before
  /// it), then, if it was cut short, the races of the operations left pending.
  void end_execution(SearchState& s, const ExecutionRecord& record);

 private:
  // Joins into `c` the clocks of the latest accesses before event `end` that conflict with `op`.
  void join_dependencies(const SearchState& s, const Op& op, Clock* c, std::uint32_t end) const;
  // Race detection for `op` of `actor` placed after the first `end` events: `before` is the clock
  // of its actor's state (program order, spawn/join edge), `full` adds its dependencies, `prev` is
  // the actor's last event before it.
  void detect_races(SearchState& s, ActorId actor, const Op& op, const Clock* before,
                    const Clock* full, std::uint32_t end, std::int32_t prev);
  // Race detection for `op`, pending for `actor` after the first `end` events.
  void pending_races(SearchState& s, ActorId actor, const Op& op, std::uint32_t end);

  Reversal reversal_;
  // Per actor: the number of events when its blocked operation was last checked (-1: never).
  std::array<std::int32_t, kMaxActors> checked_at_{};
  struct Deferred {
    ActorId actor;
    std::uint32_t end;
    Op op;
  };
  std::vector<Deferred> deferred_;  // first execution: blocked operations to check at its end
  std::vector<std::uint32_t> candidates_;    // detect_races(): racing events
  std::array<Clock, kMaxActors> scratch_{};  // a clock for pending operations
  std::array<Clock, kMaxActors> full_{};     // a clock with every dependency
};

}  // namespace interleave::detail::dpor
