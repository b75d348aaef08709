// Dynamic partial-order reduction: optimal DPOR with wakeup trees and sleep sets (Abdulla,
// Aronis, Jonsson, Sagonas, "Optimal dynamic partial order reduction", POPL 2014, and "Source
// sets", JACM 2017), adapted to blocking operations and to local choices.
//
// Two interleavings that differ only in the order of adjacent independent steps (steps whose
// declared accesses do not conflict) are equivalent: they form one Mazurkiewicz trace and reach the
// same state. DPOR runs one execution per trace instead of one per interleaving. It starts with an
// arbitrary execution; after each step it looks for races (two dependent steps of different actors
// that could have run the other way round) and records, at the state before the first of the two,
// the sequence of steps that reverses the race (a wakeup sequence, kept in that state's wakeup
// tree). Sleep sets stop it from running two equivalent executions. An execution that can only
// continue into already-covered territory is abandoned as "sleep-set blocked" (Stats::blocked).
// Optimal DPOR's "weak initials" (a step that commutes with a whole reversal covers it) are used
// only where they are sound (see optimal()): then no execution is blocked. Elsewhere (blocking
// operations, choices, explorations past a violation) coverage is source-DPOR's, still guided by
// the wakeup sequences: one complete execution per trace, some blocked ones.
//
// What it promises: the complete executions it runs are pairwise inequivalent, and every trace of
// the program has one of them as its representative. So final states, deadlocks, final checks,
// actor failures and violations raised inside steps are found exactly as by exhaustive DFS.
// Invariants checked between steps (Execution::invariant) are evaluated on the representative
// interleaving of each trace only: they are checked soundly when every step that can change their
// outcome conflicts with every other such step (e.g. they read one declared object). For
// invariants over several independently written objects, use Dependency::kAllWrites (see
// docs/strategies.md).
//
// Blocking: a race is reversed only towards an operation that could have run at the earlier state.
// A lock release and a later acquisition of the same lock are never runnable together, so an
// acquisition races with the acquisition before (the release between them does not order them).
// A blocked operation takes part in race detection at every state where it is blocked, operations
// still pending when an execution ends early (deadlock, violation, step bound) too, and a violating
// step races with every pending operation (it stopped them).
// choose(n) is local: every value is explored; a wakeup sequence ends at a step that made a choice
// (the exploration after it is free).
//
// Memory: one node per decision and one event record (with a vector clock) per step of the current
// execution, plus the wakeup trees of the nodes on the current path, which hold reversals still to
// explore and are bounded by Options::wakeup_steps_per_step times the depth.
#pragma once

#include "explorer/strategy.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace interleave {

class DporStrategy final : public Strategy {
 public:
  /// Which steps are dependent.
  enum class Dependency : std::uint8_t {
    /// conflicts(Op, Op): same object, not both observing. The default.
    kDeclared,
    /// Additionally, every two steps that change shared state (any access that is not a read or a
    /// wait) are dependent, whatever objects they touch. Every state reachable by some interleaving
    /// is then visited by an explored one, so invariants between steps are checked soundly whatever
    /// they read, at the cost of most of the reduction.
    kAllWrites,
  };
  struct Options {
    Dependency dependency = Dependency::kDeclared;
    /// Longest wakeup sequence kept (0: unlimited, optimal DPOR). 1 gives source-DPOR: only the
    /// first step of each reversal is recorded, the rest is explored freely (more executions end
    /// sleep-set blocked). Any value is sound; it exists to test that.
    std::size_t max_wakeup_length = 0;
    /// Memory bound of the wakeup trees: at most this many wakeup steps (20 bytes each) per step
    /// of the deepest execution (0: unbounded). Wakeup trees can hold a large part of the search's
    /// frontier (lastzero(15): 160 000 steps, 3 500 per step of depth); past the bound, new
    /// sequences keep only their first step and the search continues as source-DPOR, which is
    /// sound and keeps memory proportional to the depth, at the price of sleep-set blocked
    /// executions.
    std::size_t wakeup_steps_per_step = 4096;
  };

  DporStrategy() = default;
  explicit DporStrategy(Options options) : options_(options) {}

  std::string name() const override {
    return options_.dependency == Dependency::kDeclared ? "dpor" : "dpor-all-writes";
  }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord& record) override;
  Coverage coverage() const override;
  std::string abandon_reason() const override;

  /// Races found (pairs of dependent steps that could have run in the other order).
  std::uint64_t races() const { return races_; }
  /// Wakeup sequences inserted (race reversals not already covered).
  std::uint64_t wakeup_sequences() const { return inserted_; }
  /// Wakeup tree steps dropped because they could not run when reached (a blocking operation the
  /// reordered steps left blocked). Steps recorded from an executed step are always runnable: a
  /// non-zero count there would be a bug, see dropped_certain().
  std::uint64_t dropped_steps() const { return dropped_; }
  std::uint64_t dropped_certain() const { return dropped_certain_; }
  /// Deepest path (decisions).
  std::size_t max_depth() const { return max_depth_; }
  /// Most wakeup tree steps held at once, and how many sequences the memory bound truncated.
  std::size_t peak_wakeup_steps() const { return peak_wakeup_; }
  std::uint64_t bounded_sequences() const { return bounded_; }

 private:
  using Clock = std::uint32_t;  // per-actor step count in a vector clock
  static constexpr std::uint32_t kNil = 0xffffffffu;

  // One decision on the current path.
  struct Node {
    Decision::Kind kind = Decision::Kind::kActor;
    // kActor nodes (the state before event `event`):
    ActorSet enabled;      // runnable actors at this state
    ActorSet sleep;        // sleep set on entry: actors whose continuations are covered elsewhere
    ActorSet done;         // actors explored, or being explored, from here
    ActorSet child_sleep;  // sleep set handed to the next kActor node of the current branch
    ActorId chosen = kNoActor;
    std::uint32_t event = 0;
    std::uint32_t pending = kNil;  // wakeup tree: first child still to explore (siblings follow)
    std::uint32_t carry = kNil;    // wakeup subtree under `chosen`: the next node's tree
    // kChoice nodes:
    std::uint32_t n = 0;
    std::uint32_t value = 0;
  };

  // A step of a wakeup tree. Its actor is a key (the actor's name, interned), not an ActorId: ids
  // follow spawn order, which a reordered sequence may change.
  struct WakeupNode {
    std::uint32_t actor = kNil;
    std::uint32_t op = kNil;  // in ops_ (interned: a program has few distinct operations)
    bool certain = true;      // known to be runnable when reached (false: a blocking operation)
    std::uint32_t child = kNil;
    std::uint32_t sibling = kNil;
  };

  // Which objects (bit object % 64) an operation observes, takes shared, or accesses exclusively,
  // and whether it changes state: a quick over-approximation of conflicts (may_depend_on_v).
  struct AccessMasks {
    std::uint64_t observed = 0;
    std::uint64_t shared = 0;
    std::uint64_t exclusive = 0;
    bool changes = false;
  };
  static AccessMasks masks_of(const Op& op);

  // One executed step of the current execution, kept while it is on the path.
  struct EventInfo {
    ActorId actor = kNoActor;
    bool choice = false;        // the step made a choice (or started an actor that did)
    Clock index = 0;            // 1-based position among its actor's events
    std::int32_t prev = -1;     // its actor's previous event
    std::int32_t hb_pred = -1;  // spawn or join edge (Event::hb_pred)
    std::uint32_t op_id = kNil;  // op interned in ops_, once a wakeup step needed it
    Op op;
    AccessMasks masks;  // of op, for reverse()
  };

  // An access of an event to an object, in the object's history.
  struct ObjAccess {
    std::uint32_t event;
    AccessKind kind;
  };

  // A step of a reversal sequence v = notdep(e).e'.
  struct VStep {
    std::uint32_t event;  // index in events_, or kNil for the racing operation e'
    std::uint32_t actor;  // key
    ActorId id;           // its ActorId in the current execution
    bool choice;
    const Op* op;
    const Clock* clock;  // with every dependency
    std::uint32_t next_same = kNil;  // the next step of v_ of the same actor
  };

  bool dependent(const Op& a, const Op& b) const;
  const Clock* clock(std::int32_t event) const {
    return clocks_.data() + static_cast<std::size_t>(event) * kMaxActors;
  }
  Clock* clock(std::int32_t event) {
    return clocks_.data() + static_cast<std::size_t>(event) * kMaxActors;
  }
  // Actors of the current path: 1 + the highest id (clock entries beyond are zero).
  std::size_t width() const {
    return known_.empty() ? 0 : 64u - static_cast<std::size_t>(std::countl_zero(known_.bits()));
  }
  bool happens_before(std::uint32_t e, const Clock* c) const {
    return c[events_[e].actor] >= events_[e].index;
  }
  std::vector<ObjAccess>& history(ObjectId o);
  void truncate_events(std::size_t count);
  void learn_actors(const SchedulingPoint& point);
  void process_event(const Event& ev);
  // Joins into `c` the clocks of the latest accesses that conflict with `op`.
  void join_dependencies(const Op& op, Clock* c, std::uint32_t end) const;
  // Race detection for `op` of `actor` placed after the first `end` events: `before` is the clock
  // of its actor's state (program order, spawn/join edge), `full` adds its dependencies, `prev` is
  // the actor's last event before it.
  void detect_races(ActorId actor, const Op& op, const Clock* before, const Clock* full,
                    std::uint32_t end, std::int32_t prev);
  // Records the reversal of the race between event `earlier` and `op` of `actor`.
  void reverse(std::uint32_t earlier, ActorId actor, const Op& op, const Clock* full,
               std::uint32_t end, std::int32_t prev);
  // Race detection for `op`, pending for `actor` after the first `end` events.
  void pending_races(ActorId actor, const Op& op, std::uint32_t end);
  // The operation `actor` was about to perform at the state before event `at`.
  const Op* op_at(ActorId actor, std::uint32_t at) const;
  // Index in v_ of the step by which actor `id` (about to perform `op`) is a weak
  // initial of what is left of v_, v_.size() if it is one without a step in v_, -1 if not.
  // `commuting`: a step not in v counts if it commutes with all of v.
  std::ptrdiff_t weak_initial(ActorId id, const Op& op, bool commuting) const;
  // False only if `op` commutes with every step of v_ (true: it may not).
  bool may_depend_on_v(const Op& op) const;
  // Marks step m of v_ consumed.
  void consume(std::size_t m);
  void compute_child_sleep(Node& node, const SchedulingPoint& point) const;
  // Race detection for the operations blocked at a new state (see dpor.cpp).
  void check_blocked(const SchedulingPoint& point);
  // Whether a step that commutes with a whole reversal sequence covers it (weak initials of optimal
  // DPOR). Only in the setting optimal DPOR is proven for: no blocking operation (the random tests
  // found counterexamples with reader-writer locks), complete wakeup sequences, and executions that
  // run to their end. The first execution decides; a blocking operation or a cut seen later turns
  // it off for the rest of the search. Otherwise a reversal is covered only by a step in it, as in
  // source-DPOR, still guided by wakeup sequences.
  bool optimal() const { return first_done_ && !blocking_seen_ && !cut_seen_ && !truncated_seen_; }
  std::uint32_t new_wakeup_node();
  void free_wakeup_subtree(std::uint32_t w);
  // Takes the first runnable child of a wakeup tree list; drops the ones that cannot run.
  std::uint32_t take_pending(std::uint32_t& list, ActorSet enabled, ActorSet covered,
                             const SchedulingPoint* point);

  Options options_;
  std::vector<Node> path_;
  std::size_t depth_ = 0;                  // position in path_ during an execution
  std::size_t resume_ = 0;                 // the node whose alternative this execution explores
  bool resuming_ = false;                  // resume_ is an actor node whose child sleep is stale
  std::vector<std::uint32_t> event_node_;  // event index -> its kActor node in path_
  std::vector<EventInfo> events_;          // events of the current path that were analysed
  std::vector<bool> choice_in_step_;       // per event index: a choice was made during it
  std::vector<Clock> clocks_;              // kMaxActors clocks per event (rows kept, reused)
  std::size_t clock_high_ = 0;             // the widest row written: entries beyond are zero
  std::vector<std::vector<ObjAccess>> objects_;  // per object: its accesses, in event order
  std::vector<ObjAccess> ghost_;                 // kAllWrites: every state-changing step
  std::vector<std::int32_t> actor_last_;         // per actor: its latest event, -1 if none
  std::vector<std::int32_t> spawned_at_;         // per actor: the event that spawned it, -1 setup
  std::vector<std::int32_t> checked_at_;  // per actor: events when its blocked op was last checked
  struct Deferred {
    ActorId actor;
    std::uint32_t end;
    Op op;
  };
  std::vector<Deferred> deferred_;  // first execution: blocked operations to check at its end
  ActorSet known_;                  // actors seen alive on the current path
  std::map<std::string, std::uint32_t, std::less<>> key_by_name_;  // actor name -> key
  std::vector<std::uint32_t> key_of_;    // current execution: ActorId -> key
  std::vector<ActorId> id_of_key_;       // current execution: key -> ActorId
  // Pending ops at the last scheduling point (the span stays valid until the execution ends).
  std::span<const Op* const> last_pending_;
  ActorSet last_alive_;
  struct OpHash {
    std::size_t operator()(const Op& op) const;
  };
  struct OpEqual {
    bool operator()(const Op& a, const Op& b) const;
  };
  std::uint32_t intern(const Op& op);
  std::vector<Op> ops_;  // interned operations
  std::unordered_map<Op, std::uint32_t, OpHash, OpEqual> op_ids_;
  std::vector<WakeupNode> wakeup_;          // wakeup tree nodes (a pool)
  std::vector<std::uint32_t> wakeup_free_;  // free slots of wakeup_
  std::vector<std::uint32_t> free_stack_;   // free_wakeup_subtree(): nodes still to free
  std::vector<Clock> scratch_;              // a clock for pending operations
  std::vector<Clock> full_;                 // a clock with every dependency
  // reverse(): per actor with an event in v_ (v_actors_), the index (Clock) of its first one: a
  // step of v_ has a step of another actor before it in v_ that happens before it iff its clock
  // reaches that actor's first index (happens-before follows the order of v_).
  std::vector<Clock> first_in_v_;
  ActorSet v_actors_;
  std::size_t consumed_count_ = 0;
  std::vector<std::uint32_t> candidates_;   // detect_races(): racing events
  std::vector<VStep> v_;                    // reverse(): the reversal sequence
  std::vector<char> consumed_;              // reverse(): steps of v_ matched in the tree
  // reverse(): per actor (ActorId of the current execution), its first step of v_ not consumed
  // and its last step (kNil: none; set only for v_actors_ and v_'s last actor), and which
  // objects (bit object % 64) v_'s steps observe, take shared or access exclusively, and whether
  // one of them changes state: a quick test that an operation commutes with all of v_
  // (weak_initial).
  std::array<std::uint32_t, kMaxActors> first_of_id_{};
  std::array<std::uint32_t, kMaxActors> last_of_id_{};
  AccessMasks v_masks_;
  std::uint64_t races_ = 0;
  std::uint64_t inserted_ = 0;
  std::uint64_t dropped_ = 0;
  std::uint64_t dropped_certain_ = 0;
  std::uint64_t bounded_ = 0;
  std::size_t peak_wakeup_ = 0;
  std::size_t max_depth_ = 0;
  bool started_ = false;
  bool exhausted_ = false;
  bool blocked_ = false;
  // An execution was stopped by a violation, an actor failure or the step bound: from then on a
  // weak initial must have a step in the sequence everywhere (the search goes on past a violation
  // only when asked to; until then wakeup trees are optimal).
  bool cut_seen_ = false;
  // A blocking operation (lock acquisition, wait, join) was announced somewhere in the search.
  bool blocking_seen_ = false;
  bool first_done_ = false;  // the first execution is over
  // A wakeup sequence was truncated (at a step that made a choice, at max_wakeup_length, or by the
  // memory bound): from then on, too, a weak initial must have a step in the sequence.
  bool truncated_seen_ = false;
};

}  // namespace interleave
