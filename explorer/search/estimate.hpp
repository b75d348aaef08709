// Knuth's estimator of the size of a search tree (D. E. Knuth, "Estimating the efficiency of
// backtrack programs", Mathematics of Computation 29, 1975), for the number of executions a
// systematic search will run, before (or while) running it.
//
// A probe is one execution in which every decision is made uniformly at random among the
// branches the search would explore at that node, and which multiplies the numbers of branches
// met on the way: the product is an unbiased estimate of the number of leaves of the tree (its
// expectation is exactly that number), and so is its average over independent probes, whose
// standard error is the sample standard deviation over the square root of the probes. The tree:
//
//   - kSleepSets: the tree of a depth-first search with sleep sets over DPOR's dependency
//     relation (strategies/dpor/dependency.hpp: the declared accesses, the invariants' reads,
//     or every two state-changing steps for dpor-all-writes). A node's branches are its enabled
//     actors that are not asleep; a child's sleep set is the parent's plus the siblings explored
//     before it, less those dependent with the step taken (Godefroid 1996). Its leaves that are
//     not sleep-set blocked are one per Mazurkiewicz trace, which is what DPOR runs as complete
//     (or violating, deadlocked, cut) executions: `traces` estimates DPOR's executions less the
//     sleep-set-blocked ones (which optimal DPOR, the default for programs without blocking
//     operations, does not have).
//   - kAllInterleavings: the tree of DFS (every enabled actor at every node): `executions` ==
//     `traces` estimates what `dfs` runs.
//
// Most leaves of a sleep-set tree are blocked when actors are mostly independent (an actor put to
// sleep that nothing wakes up), and a uniform probe then rarely reaches a trace. Three things
// keep the probes on traces, all functions of the node, so the estimate keeps its meaning:
// siblings are ordered by how many pending steps of others they conflict with (the order of a
// depth-first search is free; it only changes which leaves are blocked); a branch is drawn with
// probability halving per actor asleep in its child (importance sampling: the weight is divided
// by the probability, not multiplied by the count, which keeps the mean exact); and after the
// first tenth of the probes, which learn what each actor (by name) accesses, a child in which an
// actor is asleep whose next step no access of any actor still to run depends on is not probed
// (it holds only blocked leaves). That last rule rests on the accesses seen: an access that no
// probe has made can make the estimate low.
//
// Every choose(n) multiplies by n (all values are explored). A probe runs the program like any
// execution (the step bound applies); it never looks at violations, so the estimate is of the
// whole search, not of the search up to the first violation. The same program, options and seed
// give the same estimate: it is deterministic.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/search/runner.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace interleave {

/// The estimate's limits (explorer/search/runner.hpp: the stop request ends it early, averaging
/// what ran; max_executions is not consulted: `probes` says how many) and what it adds.
struct EstimateOptions : RunLimits {
  enum class Tree : std::uint8_t { kSleepSets, kAllInterleavings };
  Tree tree = Tree::kSleepSets;
  /// kSleepSets: every two state-changing steps dependent (dpor-all-writes).
  bool all_writes = false;
  /// The documented default (docs/strategies.md, "Estimating the size of a search"): 10 000
  /// executions of the program, well under a second for the shipped scenarios.
  static constexpr std::uint64_t kDefaultProbes = 10000;
  std::uint64_t probes = kDefaultProbes;
  /// A sleep-set estimate whose probes end sleep-set blocked this often (a share of the probes)
  /// rests on the few that reach a trace: it is a lower bound of unknown quality
  /// (TreeEstimate::blind). On configurations DPOR cannot finish, 99.7 % and 99.99 % of the
  /// probes were blocked, and the estimates were 3 and 300 times too low.
  static constexpr double kBlindBlockedShare = 0.9;
  std::uint64_t seed = 0;
  /// The tree below a node instead of the whole tree (a split search's prefix,
  /// explorer/search/split.hpp): every probe first takes these decisions (an actor or a choice value
  /// each, in order), then goes on with `prefix_sleep` asleep.
  std::vector<std::uint32_t> prefix;
  ActorSet prefix_sleep;
};

struct TreeEstimate {
  std::uint64_t probes = 0;  ///< probes run
  /// Leaves of the tree probed, blocked ones included, and the standard error of that mean:
  /// DFS's executions for kAllInterleavings; for kSleepSets a by-product (the tree is pruned of
  /// blocked subtrees), not the count of any search.
  double executions = 0;
  double executions_error = 0;
  /// Leaves that are not sleep-set blocked: Mazurkiewicz traces (kSleepSets), all leaves
  /// (kAllInterleavings). DPOR's executions less its sleep-set-blocked ones.
  double traces = 0;
  double traces_error = 0;
  std::uint64_t blocked_probes = 0;  ///< probes that ended sleep-set blocked
  std::uint64_t cut_probes = 0;      ///< probes the step bound cut
  std::uint64_t max_depth = 0;       ///< the most steps of a probe
  /// The share of the probes that ended sleep-set blocked.
  double blocked_share() const {
    return probes == 0 ? 0 : static_cast<double>(blocked_probes) / static_cast<double>(probes);
  }
  /// So many probes ended blocked (EstimateOptions::kBlindBlockedShare) that `traces` is a lower
  /// bound of unknown quality: a caller shows no time left on it.
  bool blind() const { return blocked_share() >= EstimateOptions::kBlindBlockedShare; }
};

/// Runs `options.probes` probes of `program`'s tree. Throws ProgramError as an exploration does
/// (e.g. an access to an unregistered object).
TreeEstimate estimate_tree(const Program& program, const EstimateOptions& options = {});

}  // namespace interleave
