// Stateful search: depth-first search with sleep sets and state caching (Godefroid, "Partial-Order
// Methods for the Verification of Concurrent Systems", LNCS 1032, 1996, chapters 5 and 6).
//
// A stateless search runs one execution per interleaving (dfs) or per Mazurkiewicz trace (dpor);
// when many traces lead to the same state (a cleaner pass that ended, a session that came and
// went) it explores what follows that state again for each of them. This strategy remembers the
// fingerprint of every state it explores (explorer/core/fingerprint.hpp, visited_states.hpp) and
// abandons an execution that reaches one already explored: what follows was explored then.
//
// The search. DFS over the decisions (decision_path.hpp), each execution replaying a prefix of the
// path. At each new scheduling point: the state's fingerprint is looked up with the current sleep
// set (the actors whose next step was explored from an earlier state and commutes with everything
// since). A state explored before under a sleep set included in the current one is pruned: every
// step the current visit would explore was explored from it then. Otherwise the state is stored
// (or its stored sleep set shrinks to the intersection: the steps asleep then but awake now are
// explored now) and the first enabled actor not asleep runs. An actor node's later alternatives
// are its other enabled actors not asleep; after an alternative's subtree, that actor joins the
// sleep set of the alternatives after it. A child's sleep set keeps the actors of the parent's
// sleep set and of its finished alternatives whose announced operations are independent of the
// step taken: they do not conflict (conflicts(Op, Op)) and do not both change what one invariant
// checked between steps reads (an invariant that fails ends the execution, so its dead ends must
// be met in both orders): DPOR's relation, dpor/dependency.hpp, used as it is.
//
// Why it is sound: sleep sets never hide a state (every state reachable by some interleaving is
// reached by an explored one: Godefroid, chapter 5), and a state is pruned only when its earlier
// exploration covered every step the new visit would take (the inclusion test on sleep sets that
// makes caching safe with them: chapter 6). So every reachable state is visited and every enabled step of it
// is taken from it or from a state that commutes it: final states, deadlocks, final checks, actor
// failures, violations raised in steps, invariants checked between steps and coverage goals are
// found as by exhaustive DFS, provided that the fingerprint holds everything that decides what happens
// next. What it does not do: combine caching with DPOR's wakeup trees (a pruned state's future
// may hold the race that would have scheduled a reversal above it; handling that needs a summary
// of every visited state's future, as in stateful DPOR, Yang et al., SPIN 2008). Its reduction is
// sleep sets' plus merging; it runs more executions than dpor on programs whose traces reach
// distinct states, far fewer where they converge.
//
// Fingerprints are 128-bit digests: two distinct states that collide are merged, with
// probability at most n^2 / 2^129 for n states (reported with the verdict, as TLC does).
//
// Memory: 24 bytes per stored state in a table bounded by Options::max_state_bytes; past the
// bound new states are not stored (the search stays complete and runs longer). Plus the path, as
// dfs, and, in audit mode, the recorded continuations of the audited states.
//
// Audit mode (Options::audit_period = k > 0): the states whose fingerprint is 0 modulo k are
// audited. At the first visit of an audited state the rest of that execution is recorded (its
// decisions, the fingerprint at each later scheduling point, its outcome, its violated property,
// its final state). A later visit of it that would be pruned replays that continuation instead
// and compares: a different fingerprint on the way, a decision that cannot be taken, a different
// outcome, property or final state means the fingerprint merged two states that behave
// differently (a local not declared, shared state not written): a ProgramError names them.
#pragma once

#include "explorer/strategies/decision_path.hpp"
#include "explorer/strategies/dpor/dependency.hpp"
#include "explorer/strategies/visited_states.hpp"
#include "explorer/core/strategy.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace interleave {

class StatefulStrategy final : public Strategy {
 public:
  struct Options {
    /// The most the visited table may take, in bytes.
    std::size_t max_state_bytes = std::size_t{1} << 30;
    /// 0: no audit; k: audit the states whose fingerprint is 0 modulo k (1: every state).
    std::uint64_t audit_period = 0;
  };

  StatefulStrategy() : StatefulStrategy(Options{}) {}
  explicit StatefulStrategy(Options options)
      : options_(options), visited_(options.max_state_bytes) {}

  std::string name() const override { return "stateful"; }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord& record) override;
  Coverage coverage() const override;
  std::string abandon_reason() const override { return abandon_reason_; }

  /// Distinct states stored in the visited table.
  std::size_t states() const { return visited_.size(); }
  /// Bytes of the visited table.
  std::size_t table_bytes() const { return visited_.bytes(); }
  /// Executions abandoned at a state explored before.
  std::uint64_t pruned() const { return pruned_; }
  /// Visits of a stored state under a sleep set that wakes actors asleep before: explored again.
  std::uint64_t reopened() const { return reopened_; }
  /// Visits of new states not stored (the table was at its bound).
  std::uint64_t unstored() const { return visited_.unstored(); }
  /// Audited revisits (replayed and compared instead of pruned).
  std::uint64_t audits() const { return audits_; }
  /// Deepest path seen (decisions).
  std::size_t max_depth() const { return max_depth_; }
  /// The bound on the probability that two distinct states explored had the same fingerprint.
  double collision_bound() const;

 private:
  struct Node : DecisionNode {
    ActorSet sleep;  // kActor: the sleep set the state was reached with
    ActorSet done;   // kActor: alternatives whose subtree is explored
  };
  struct Key {
    std::uint64_t hi, lo;
    friend auto operator<=>(const Key&, const Key&) = default;
  };
  // What followed the first visit of an audited state.
  struct Recording {
    std::vector<Decision> continuation;
    std::vector<Fingerprint> states;  // at each scheduling point after the audited one
    Outcome outcome = Outcome::kCompleted;
    std::string property;
    Fingerprint final_state{};  // for a completed execution
  };

  // The sleep set of the state after the step of `node`'s actor.
  ActorSet child_sleep(const Node& node, const SchedulingPoint& point) const;
  [[noreturn]] void audit_failure(const std::string& what) const;
  ActorId audit_next_actor(const SchedulingPoint& point, const Fingerprint& fp);

  Options options_;
  DecisionPath<Node> path_;
  VisitedStates visited_;
  // The declared conflicts extended for the invariants, as DPOR's (not all writes; invariants
  // ordered); configured at the first scheduling point of each execution.
  detail::dpor::Dependency dependency_{false, true};
  bool configured_ = false;
  ActorSet sleep_;  // the sleep set of the state the next new node is for
  std::size_t decisions_ = 0;  // decisions taken in the current execution
  // Audit mode: the audited states first visited in this execution (decision index, fingerprint),
  // the fingerprints of this execution's new scheduling points (decision index, fingerprint).
  std::vector<std::pair<std::size_t, Fingerprint>> opened_, trail_;
  std::map<Key, Recording> recordings_;
  const Recording* audit_ = nullptr;  // the continuation being replayed, if any
  Fingerprint audit_state_{};
  std::size_t audit_decision_ = 0, audit_point_ = 0;
  std::string abandon_reason_;
  std::uint64_t pruned_ = 0, reopened_ = 0, audits_ = 0;
  std::size_t max_depth_ = 0;
  bool started_ = false;
  bool exhausted_ = false;
};

}  // namespace interleave
