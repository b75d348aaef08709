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
// interleaving of each trace only; they are checked soundly because DPOR extends the dependency
// relation for them (dpor/dependency.hpp): every two steps that change an object an invariant
// declares it reads are dependent, and every two state-changing steps when an invariant declares
// no reads (which costs most of the reduction: declare the reads). Where it is weaker: an
// invariant that reads an object it does not declare can be missed (Invariants::kIgnore gives the
// relation of the declared accesses alone, which misses invariants over independently written
// objects: the tests show one).
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
//
// The parts (explorer/strategies/dpor/): the dependency relation with its ghost objects
// (dependency.hpp), the vector clocks (vector_clocks.hpp) and per-object access histories
// (access_history.hpp) of the current execution, race detection (races.cpp), race reversal into
// wakeup trees (reversal.cpp, wakeup_tree.hpp), actor identity across executions
// (actor_keys.hpp), interned operations (op_table.hpp), and the state they share
// (search_state.hpp). This file and dpor.cpp are the strategy protocol: the path, its sleep sets,
// which wakeup-tree branch to follow, and backtracking.
#pragma once

#include "explorer/strategies/dpor/races.hpp"
#include "explorer/strategies/dpor/search_state.hpp"
#include "explorer/core/strategy.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace interleave {

class DporStrategy final : public Strategy {
 public:
  /// Which steps are dependent.
  enum class Dependency : std::uint8_t {
    /// conflicts(Op, Op): same object, not both observing; extended for the invariants (see
    /// Invariants). The default.
    kDeclared,
    /// Additionally, every two steps that change shared state (any access that is not a read or a
    /// wait) are dependent, whatever objects they touch. Every state reachable by some interleaving
    /// is then visited by an explored one, so invariants between steps are checked soundly whatever
    /// they read, at the cost of most of the reduction.
    kAllWrites,
  };
  /// How the invariants checked between steps (Execution::invariant) extend the relation.
  enum class Invariants : std::uint8_t {
    /// Sound: every two steps that change an object an invariant declares it reads are dependent;
    /// if an invariant declares no reads, every two state-changing steps are (as kAllWrites). The
    /// default.
    kOrderReads,
    /// The declared accesses alone, whatever the invariants read: an invariant is evaluated on one
    /// interleaving per trace of that relation and one over independently written objects can be
    /// missed. (What DPOR did before invariants declared their reads: for comparisons and tests.)
    kIgnore,
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
    Invariants invariants = Invariants::kOrderReads;
  };

  /// A node of the search tree at a split depth (explorer/search/split.hpp): the decisions that lead to
  /// it with the sleep sets a split search computed along them. Made by a strategy that
  /// enumerate_prefixes(); a DporStrategy built with one searches the subtree below it only.
  struct Prefix {
    std::vector<detail::dpor::Node> nodes;
    /// The decision after `nodes`, when the prefix was split off a larger one (split_when_large):
    /// an actor (with the actors explored before it there, which sleep) or a choice value.
    bool has_first = false;
    Decision::Kind first_kind = Decision::Kind::kActor;
    std::uint32_t first = 0;
    ActorSet first_done;
    /// Path indices of nodes whose alternatives are decided after the searches below them (work
    /// sharing): a race reversed there is recorded (demands()) instead of dropped.
    std::vector<std::uint32_t> demand_nodes;
  };

  /// A node split_when_large() shared: its path index, what a search must know to explore more
  /// alternatives there later (the decisions before it, its sleep set, its enabled actors, the
  /// actors explored from it so far, in this search or in the prefixes handed over), and whether
  /// its alternatives are decided by demands (an actor node) or all handed over (a choice node).
  struct SharedNode {
    std::uint32_t index = 0;
    bool demand = false;
    Prefix base;  ///< the decisions before the node (with demand_nodes)
    ActorSet sleep;
    ActorSet enabled;
    ActorSet explored;
  };

  DporStrategy() : DporStrategy(Options{}) {}
  explicit DporStrategy(Options options);
  /// Searches only below `prefix`, with its sleep sets: its decisions are replayed in every
  /// execution and never backtracked, and races with its steps add no wakeup sequences (the split
  /// search branches over every actor there).
  DporStrategy(Options options, Prefix prefix);

  /// Instead of searching, enumerates the prefixes of the tree cut at `depth` steps: a search
  /// that branches over every actor not asleep (sleep sets, no wakeup trees) and stops each
  /// execution at its scheduling point before step `depth` (abandoned, recording the prefix).
  /// An execution that ends earlier is a prefix too (its search below replays just it); one
  /// sleep-set blocked above the depth is not (blocked_prefixes()). Call before the first
  /// execution.
  void enumerate_prefixes(std::size_t depth);
  /// The prefixes enumerated so far, in the order of the search (deterministic).
  std::vector<Prefix>& prefixes() { return prefixes_; }
  /// Executions of the enumeration that were sleep-set blocked above the depth.
  std::uint64_t blocked_prefixes() const { return blocked_prefixes_; }

  /// Below a prefix: every `after` executions, the first node below the fixed part is shared:
  /// the alternatives DPOR has scheduled there (its wakeup tree's branches; for a choice node,
  /// every value left) become prefixes handed to `spawn` (in the order this search would have
  /// taken them), and the search goes on with that node fixed. Races reversed at that node from
  /// then on are recorded as demands (demands()): the split search explores, once every search
  /// below the node is over, one initial of each reversal no explored actor covers (source
  /// sets), as this search would have. Deterministic: it depends on this search's executions
  /// only. Call before the first execution.
  void split_when_large(std::uint64_t after,
                        std::function<void(SharedNode, std::vector<Prefix>)> spawn);
  /// Races reversed at shared nodes (of the prefix or shared by this search): the node's path
  /// index and the initials of the reversal that can run there, none of them explored from the
  /// node as far as this search knows.
  const std::vector<std::pair<std::uint32_t, ActorSet>>& demands() const { return s_.demands; }
  /// Times this search split off prefixes.
  std::uint64_t splits() const { return splits_; }

  std::string name() const override {
    return options_.dependency == Dependency::kDeclared ? "dpor" : "dpor-all-writes";
  }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord& record) override;
  Coverage coverage() const override;
  std::string abandon_reason() const override;

  /// Whether optimal DPOR's weak initials applied (so far, or to the whole search once it is
  /// over): no blocking operation was announced, no wakeup sequence was truncated, and no
  /// execution was cut short by a violation or the step bound. Then no execution is sleep-set
  /// blocked; otherwise the search is source-DPOR guided by wakeup sequences (one complete
  /// execution per trace, some blocked ones). Coverage::description says which, too.
  bool optimal() const { return s_.optimal(); }
  /// Every two state-changing steps were made dependent because an invariant declares no reads
  /// (Execution::invariant): the search runs as dpor-all-writes does.
  bool ordered_all_writes_for_invariants() const { return s_.dependency.forced_all_writes(); }

  /// Races found (pairs of dependent steps that could have run in the other order).
  std::uint64_t races() const { return s_.races; }
  /// Wakeup sequences inserted (race reversals not already covered).
  std::uint64_t wakeup_sequences() const { return s_.inserted; }
  /// Wakeup tree steps dropped because they could not run when reached (a blocking operation the
  /// reordered steps left blocked). Steps recorded from an executed step are always runnable: a
  /// non-zero count there would be a bug, see dropped_certain().
  std::uint64_t dropped_steps() const { return s_.dropped; }
  std::uint64_t dropped_certain() const { return s_.dropped_certain; }
  /// Deepest path (decisions).
  std::size_t max_depth() const { return s_.max_depth; }
  /// Most wakeup tree steps held at once, and how many sequences the memory bound truncated.
  std::size_t peak_wakeup_steps() const { return s_.peak_wakeup; }
  std::uint64_t bounded_sequences() const { return s_.bounded; }

 private:
  void learn_actors(const SchedulingPoint& point);
  void compute_child_sleep(detail::dpor::Node& node, const SchedulingPoint& point) const;
  // Takes the first runnable child of a wakeup tree list (with `point`: whose operation is the
  // one the actor announced there); drops the ones that cannot run.
  std::uint32_t take_pending(std::uint32_t& list, ActorSet enabled, ActorSet covered,
                             const SchedulingPoint* point);

  void record_prefix();
  bool split_first_node();  // whether it handed over an alternative

  Options options_;
  detail::dpor::SearchState s_;
  // enumerate_prefixes(): the depth (0: a normal search) and what it found.
  std::size_t enumerate_depth_ = 0;
  std::vector<Prefix> prefixes_;
  std::uint64_t blocked_prefixes_ = 0;
  bool at_prefix_ = false;  // this execution stopped at the split depth
  // Below a prefix: the nodes before fixed_ are never backtracked.
  std::size_t fixed_ = 0;
  // A prefix split off a larger one: its first decision, taken at path index first_index_.
  std::optional<Prefix> first_;
  std::size_t first_index_ = 0;
  std::uint64_t split_after_ = 0;
  std::uint64_t since_split_ = 0;
  std::uint64_t splits_ = 0;
  std::vector<std::uint32_t> demand_nodes_;  // the shared nodes of the path (Prefix::demand_nodes)
  std::function<void(SharedNode, std::vector<Prefix>)> spawn_;
  detail::dpor::Races races_;
  std::size_t resume_ = 0;   // the node whose alternative this execution explores
  bool resuming_ = false;    // resume_ is an actor node whose child sleep is stale
  bool configured_ = false;  // this execution's invariants were given to the dependency relation
  bool started_ = false;
  bool exhausted_ = false;
  bool blocked_ = false;
};

}  // namespace interleave
