// A DPOR search split into independent parts: for worker threads (--jobs) and for processes on
// other machines (--shard k/n), with a result that depends on the split and never on how many
// threads or shards ran it.
//
// The tree of executions is cut at a depth d (steps). Above it the search branches over every
// actor that is not asleep (sleep sets, no wakeup trees); each node it reaches at depth d (or an
// execution that ends before d) is a prefix. Below each prefix, DPOR searches alone, starting with
// the sleep set the prefix reached and replaying the prefix in every execution; a race with a
// step of the prefix adds nothing, since the nodes above d branch fully anyway.
//
// Why each Mazurkiewicz trace is explored exactly once (as in the single search):
// - at least once: the full branching above d with sleep sets reaches, for every trace, a prefix
//   that some linearisation of the trace starts with and whose sleep set does not exclude it
//   (Godefroid's sleep-set theorem); DPOR below a node with a sleep set explores every trace from
//   that node that the sleep set does not exclude (its own proof is per node: the root's sleep set
//   is inherited like any other);
// - at most once: two prefixes part at a node where one took actor p and the other, later, q;
//   p stays asleep along the second until a step dependent with it runs, so no execution below
//   the second is equivalent to one below the first (the sleep set is inherited by DPOR below).
// So the complete executions are those of the single search up to equivalence (the same number,
// the same Foata forms, the same final states and violations); what differs is the sleep-set
// blocked executions (below a prefix whose first actors are all asleep, or above d) and which
// interleaving represents a trace. tests/explorer/test_split.cpp checks it against the single
// search on random programs and on the model.
//
// Determinism: the prefixes are enumerated in the same order by every process; each is searched
// by a fresh strategy, so its result does not depend on the thread that ran it; the results are
// combined in prefix order (counts added, the first counterexample of each property in prefix
// order kept, the search stopped after the first prefix with a violation unless every violation
// is wanted, an execution budget cut at the same execution). Only wall time and the moment an
// interruption lands vary.
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dpor.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace interleave {

struct SplitOptions {
  std::size_t depth = 4;  ///< steps above which the search branches fully (at least 1)
  unsigned jobs = 1;      ///< worker threads (at least 1)
  /// This process searches the prefixes assigned to shard shard_index (0-based) of shard_count:
  /// each prefix's subtree is estimated (Knuth's estimator below it, `shard_probes` probes,
  /// explorer/search/estimate.hpp) and the prefixes go, largest first, to the shard with the least
  /// estimated work so far (assign_shards): every shard computes the same assignment.
  std::size_t shard_index = 0;
  std::size_t shard_count = 1;
  std::uint64_t shard_probes = 500;
  /// Work sharing: every this many executions of its own, a prefix's search shares its first node
  /// below the fixed part (DporStrategy::split_when_large): the alternatives DPOR scheduled there
  /// become new jobs at once, the others the races below the node demand once every job below it
  /// is over (0: never). Deterministic: it depends on that search alone. Not with an execution
  /// budget (ExploreOptions::max_executions), which keeps the prefixes of the depth.
  static constexpr std::uint64_t kDefaultSplitAfter = 1000;
  std::uint64_t split_after = kDefaultSplitAfter;
  /// For tests: wraps the strategy that searches below a prefix (e.g. to canonicalise each
  /// execution). Called from the worker threads; null: none.
  std::function<std::unique_ptr<Strategy>(Strategy& inner, std::size_t job)> wrap;
};

struct SplitResult {
  /// The shard's result: with one shard, the search's (verdict as Explorer::explore gives it);
  /// with several, a shard that found no violation says incomplete (its part alone proves
  /// nothing about the program) and part_complete tells whether its part was searched to the end.
  ExplorationResult result;
  std::size_t prefixes = 0;  ///< prefixes of the whole split (every shard sees the same ones)
  std::size_t shard_prefixes = 0;     ///< prefixes of this shard
  std::size_t searched_prefixes = 0;  ///< of this shard (split-off ones too), searched to the end
  /// counterexample_prefix[i]: the prefix below which result.counterexamples[i] was found: its
  /// index among the prefixes of the depth, then, for one split off a larger prefix, its place
  /// there (prefixes compare in commit order as these vectors compare).
  std::vector<std::vector<std::uint32_t>> counterexample_prefix;
  /// Prefixes split off larger ones while they ran (split_after), searched too; of them, those
  /// the races below a shared node demanded once the searches below it were over.
  std::size_t split_off_prefixes = 0;
  std::size_t demanded_prefixes = 0;
  /// Executions that enumerated the prefixes (the price of a split: each shard pays it).
  std::uint64_t enumeration_executions = 0;
  /// Executions of the enumeration sleep-set blocked above the depth (counted by shard 0 in
  /// result.stats, as executions and as blocked ones).
  std::uint64_t blocked_prefixes = 0;
  /// With several shards: the shard (0-based) of each prefix, and each shard's share of the
  /// estimated executions (assign_shards); empty with one.
  std::vector<std::uint32_t> assignment;
  std::vector<double> shard_shares;
  bool part_complete = false;  ///< every prefix of this shard was searched to its end
  /// What the searches below the prefixes covered, with the split ("every interleaving ... (optimal
  /// DPOR), split at depth 8 into 40 prefixes"): the detail of a search that holds, also for a
  /// shard, whose own detail says it is only a part.
  std::string coverage;
};

/// The split depth for a search of `program` that has no depth given: the smallest depth (steps,
/// from 1 to `max_depth`) at which the tree has at least `min_prefixes` prefixes, `max_depth` if
/// none has. Each deeper level costs sleep-set blocked executions (the prefixes full branching
/// reaches that DPOR alone would not: bench_split measures +0.2 % executions at depth 3 against
/// +19 % at depth 4 on one configuration), so the depth is kept as small as the parallelism
/// allows. Deterministic: it depends on the program only, never on threads or timing.
std::size_t choose_split_depth(const Program& program, const ExploreOptions& options,
                               const DporStrategy::Options& dpor, std::size_t min_prefixes = 8,
                               std::size_t max_depth = 16);

/// The shard (0-based) of each of the prefixes of estimated sizes `sizes`: the largest first
/// (ties: the earlier prefix), each to the shard with the least estimated work so far (ties: the
/// lower shard). Deterministic; no shard exceeds the mean by more than the largest size.
std::vector<std::uint32_t> assign_shards(const std::vector<double>& sizes, std::size_t shards);

/// Searches `program` with DPOR (`dpor` options) split as `split` says, under `options` (bounds,
/// budgets, callbacks: on_counterexample and on_progress are called from the calling thread or,
/// for progress, from a worker under a lock, never two at once). Throws std::invalid_argument for
/// an impossible split (depth 0, no jobs, shard_index >= shard_count).
SplitResult explore_split(const Program& program, const ExploreOptions& options,
                          const DporStrategy::Options& dpor, const SplitOptions& split);

}  // namespace interleave
