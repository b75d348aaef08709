// Dynamic partial-order reduction: source-DPOR with sleep sets (Abdulla, Aronis, Jonsson,
// Sagonas, POPL 2014 / JACM 2017), adapted to blocking operations and local choices.
//
// Two interleavings that differ only in the order of adjacent independent steps (steps whose
// declared accesses do not conflict) are equivalent: they form one Mazurkiewicz trace and reach the
// same state. DPOR runs one execution per trace instead of one per interleaving. It starts with an
// arbitrary execution; after each step it looks for races (two dependent steps of different actors
// that could have run the other way round) and schedules their reversal at the state before the
// first of the two. Sleep sets stop it from running two equivalent complete executions; an
// execution that can only continue into already-covered territory is abandoned ("sleep-set
// blocked", counted in Stats::blocked).
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
// Blocking: a race is reversed only towards an actor that was runnable at the earlier state. A lock
// release and a later acquisition of the same lock are never runnable together, so an acquisition
// races with the previous acquisition instead (the release in between does not order them), and
// operations still pending when an execution ends early (deadlock, violation, step bound) take part
// in race detection too. choose(n) is local: DPOR explores every value.
//
// Memory: one node per decision and one event record (with a vector clock) per step of the current
// execution; nothing grows with the number of executions.
#pragma once

#include "explorer/strategy.hpp"

#include <cstdint>
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
  /// Race reversals that added a new alternative to explore.
  std::uint64_t backtrack_points() const { return backtrack_points_; }
  /// Deepest path (decisions).
  std::size_t max_depth() const { return max_depth_; }

 private:
  using Clock = std::uint32_t;  // per-actor step count in a vector clock

  // One decision on the current path.
  struct Node {
    Decision::Kind kind = Decision::Kind::kActor;
    // kActor nodes (the state before event `event`):
    ActorSet enabled;      // runnable actors at this state
    ActorSet sleep;        // sleep set on entry: actors whose continuations are covered elsewhere
    ActorSet backtrack;    // actors to explore from here (includes the explored ones)
    ActorSet done;         // actors explored, or being explored, from here
    ActorSet child_sleep;  // sleep set handed to the next kActor node of the current branch
    ActorId chosen = kNoActor;
    std::uint32_t event = 0;
    // kChoice nodes:
    std::uint32_t n = 0;
    std::uint32_t value = 0;
  };

  // One executed step of the current execution, kept while it is on the path.
  struct EventInfo {
    ActorId actor = kNoActor;
    Clock index = 0;            // 1-based position among its actor's events
    std::int32_t prev = -1;     // its actor's previous event
    std::int32_t hb_pred = -1;  // spawn or join edge (Event::hb_pred)
    Op op;
  };

  // An access of an event to an object, in the object's history.
  struct ObjAccess {
    std::uint32_t event;
    AccessKind kind;
  };

  bool dependent(const Op& a, const Op& b) const;
  const Clock* clock(std::int32_t event) const {
    return clocks_.data() + static_cast<std::size_t>(event) * kMaxActors;
  }
  Clock* clock(std::int32_t event) {
    return clocks_.data() + static_cast<std::size_t>(event) * kMaxActors;
  }
  bool happens_before(std::uint32_t e, const Clock* c) const {
    return c[events_[e].actor] >= events_[e].index;
  }
  std::vector<ObjAccess>& history(ObjectId o);
  void truncate_events(std::size_t count);
  void learn_actors(ActorSet alive, std::size_t step);
  void process_event(const Event& ev);
  // Race detection for `op` of `actor` placed after the first `end` events: `before` is the clock
  // of its actor's state (program order, spawn/join edge), `full` adds its dependencies. Adds
  // reversals to the nodes of the racing events. Joins into `c` the clocks of the latest accesses
  // that conflict with `op`.
  void join_dependencies(const Op& op, Clock* c) const;
  void detect_races(ActorId actor, const Op& op, const Clock* before, const Clock* full,
                    std::uint32_t end);
  void reverse(std::uint32_t earlier, ActorId actor, const Clock* after, std::uint32_t end);
  void compute_child_sleep(Node& node, const SchedulingPoint& point) const;

  Options options_;
  std::vector<Node> path_;
  std::size_t depth_ = 0;                  // position in path_ during an execution
  std::size_t resume_ = 0;                 // the node whose alternative this execution explores
  bool resuming_ = false;                  // resume_ is an actor node whose child sleep is stale
  std::vector<std::uint32_t> event_node_;  // event index -> its kActor node in path_
  std::vector<EventInfo> events_;          // events of the current path that were analysed
  std::vector<Clock> clocks_;              // kMaxActors clocks per event
  std::vector<std::vector<ObjAccess>> objects_;  // per object: its accesses, in event order
  std::vector<ObjAccess> ghost_;                 // kAllWrites: every state-changing step
  std::vector<std::int32_t> actor_last_;         // per actor: its latest event, -1 if none
  std::vector<std::int32_t> spawned_at_;         // per actor: the event that spawned it, -1 setup
  ActorSet known_;                               // actors seen alive on the current path
  std::vector<const Op*> last_pending_;          // pending ops at the last scheduling point
  ActorSet last_alive_;
  std::vector<Clock> scratch_;             // a clock for pending operations
  std::vector<Clock> full_;                // a clock with every dependency
  std::vector<Clock> first_in_v_;          // reverse(): per actor, first event in v
  std::vector<std::uint32_t> candidates_;  // detect_races(): racing events
  std::uint64_t races_ = 0;
  std::uint64_t backtrack_points_ = 0;
  std::size_t max_depth_ = 0;
  bool started_ = false;
  bool exhausted_ = false;
  bool blocked_ = false;
};

}  // namespace interleave
