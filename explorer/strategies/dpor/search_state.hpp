// What DPOR knows about its search at any time, shared by the strategy protocol (dpor.cpp), race
// detection (races.cpp) and race reversal (reversal.cpp): the current path with its sleep sets and
// wakeup trees, the analysed events of the current execution with their vector clocks and the
// per-object access histories, actor identity, interned operations, and the facts that decide
// whether optimal DPOR's weak initials apply.
#pragma once

#include "explorer/strategies/decision_path.hpp"
#include "explorer/strategies/dpor/access_history.hpp"
#include "explorer/strategies/dpor/actor_keys.hpp"
#include "explorer/strategies/dpor/dependency.hpp"
#include "explorer/strategies/dpor/indices.hpp"
#include "explorer/strategies/dpor/op_table.hpp"
#include "explorer/strategies/dpor/vector_clocks.hpp"
#include "explorer/strategies/dpor/wakeup_tree.hpp"
#include "explorer/core/strategy.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace interleave::detail::dpor {

/// DporStrategy::Options, in the parts of the search.
struct Limits {
  std::size_t max_wakeup_length = 0;      // 0: unlimited
  std::size_t wakeup_steps_per_step = 0;  // 0: unbounded
};

/// One decision on the current path. Actor nodes are the state before event `event`; for them
/// DecisionNode::options is the enabled set and chosen the actor explored from here now.
struct Node : DecisionNode {
  ActorSet sleep;        // sleep set on entry: actors whose continuations are covered elsewhere
  ActorSet done;         // actors explored, or being explored, from here
  ActorSet child_sleep;  // sleep set handed to the next actor node of the current branch
  std::uint32_t event = 0;
  std::uint32_t pending = kNil;  // wakeup tree: first child still to explore (siblings follow)
  std::uint32_t carry = kNil;    // wakeup subtree under `chosen`: the next node's tree
};

/// One executed step of the current execution, kept while it is on the path.
struct EventInfo {
  ActorId actor = kNoActor;
  bool choice = false;         // the step made a choice (or started an actor that did)
  Clock index = 0;             // 1-based position among its actor's events
  std::int32_t prev = -1;      // its actor's previous event
  std::int32_t hb_pred = -1;   // spawn or join edge (Event::hb_pred)
  std::uint32_t op_id = kNil;  // op interned in ops, once a wakeup step needed it
  Op op;
  AccessMasks masks;  // of op, for the reversals
};

struct SearchState {
  SearchState(bool all_writes, bool order_invariants, Limits l)
      : dependency(all_writes, order_invariants), limits(l) {
    actor_last.fill(-1);
    spawned_at.fill(-1);
  }

  Dependency dependency;
  Limits limits;

  DecisionPath<Node> path;
  // Path nodes before `floor` take no wakeup sequences: they are a fixed prefix, or nodes a split
  // search branches over fully (explorer/search/split.hpp), so every reversal at them is explored anyway.
  std::size_t floor = 0;
  // Path nodes before `floor` whose alternatives are decided after the search (work sharing,
  // explorer/search/split.hpp): a race reversed at one of them is recorded in `demands` (the node's
  // index, the initials of the reversal sequence that can run there) instead of being dropped.
  std::vector<std::uint8_t> demand_node;
  std::vector<std::pair<std::uint32_t, ActorSet>> demands;
  bool demand_at(std::size_t index) const {
    return index < demand_node.size() && demand_node[index] != 0;
  }
  std::vector<std::uint32_t> event_node;  // event index -> its actor node in path
  std::vector<EventInfo> events;          // events of the current path that were analysed
  std::vector<bool> choice_in_step;       // per event index: a choice was made during it
  VectorClocks clocks;                    // per event of `events`
  AccessHistories histories;              // of the events of `events`
  std::array<std::int32_t, kMaxActors> actor_last{};  // per actor: its latest event, -1 if none
  std::array<std::int32_t, kMaxActors> spawned_at{};  // per actor: the event spawning it, -1: setup
  ActorKeys actors;
  OpTable ops;
  WakeupTrees wakeup;
  // Pending operations at the last scheduling point (the span stays valid until the execution
  // ends), and the actors alive there.
  std::span<const Op* const> last_pending;
  ActorSet last_alive;

  bool first_done = false;  // the first execution is over
  // A blocking operation (lock acquisition, wait, join) was announced somewhere in the search.
  bool blocking_seen = false;
  // An execution was stopped by a violation, an actor failure or the step bound: from then on a
  // weak initial must have a step in the sequence everywhere (the search goes on past a violation
  // only when asked to; until then wakeup trees are optimal).
  bool cut_seen = false;
  // A wakeup sequence was truncated (at a step that made a choice, at max_wakeup_length, or by the
  // memory bound): from then on, too, a weak initial must have a step in the sequence.
  bool truncated_seen = false;

  std::uint64_t races = 0;
  std::uint64_t inserted = 0;
  std::uint64_t dropped = 0;
  std::uint64_t dropped_certain = 0;
  std::uint64_t bounded = 0;
  std::size_t peak_wakeup = 0;
  std::size_t max_depth = 0;

  /// Whether a step that commutes with a whole reversal sequence covers it (weak initials of
  /// optimal DPOR). Only in the setting optimal DPOR is proven for: no blocking operation (the
  /// random tests found counterexamples with reader-writer locks), complete wakeup sequences, and
  /// executions that run to their end. The first execution decides; a blocking operation or a cut
  /// seen later turns it off for the rest of the search. Otherwise a reversal is covered only by a
  /// step in it, as in source-DPOR, still guided by wakeup sequences.
  ///
  /// Nor below a fixed prefix (a split search, explorer/search/split.hpp): the sleep set it starts with
  /// comes from full branching above, which covers the traces a sleeping actor is an initial of,
  /// not those it is only a weak initial of (the random tests of test_split.cpp found them).
  bool optimal() const {
    return first_done && !blocking_seen && !cut_seen && !truncated_seen && !below_prefix;
  }
  bool below_prefix = false;  // the search is below a fixed prefix

  bool happens_before(std::uint32_t e, const Clock* c) const {
    return c[events[e].actor] >= events[e].index;
  }
  /// Forgets the analysed events from `count` on (their histories, their actors' last events).
  void truncate_events(std::size_t count) {
    while (events.size() > count) {
      const EventInfo& e = events.back();
      for (const Access& a : dependency.tracked(e.op))
        histories.of(a.object).pop_back();
      actor_last[e.actor] = e.prev;
      events.pop_back();
    }
    // The clocks keep their rows: the next events overwrite them.
    if (choice_in_step.size() > count) choice_in_step.resize(count);
  }
};

}  // namespace interleave::detail::dpor
