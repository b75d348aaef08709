// What a scenario's search would run, without searching: Knuth's estimate of its tree
// (explorer/search/estimate.hpp) for the systematic strategies, the execution count of a sampling one.
// What `interleave estimate` prints and the progress line's total and ETA.
#pragma once

#include "explorer/search/estimate.hpp"
#include "reports/run/exploration.hpp"
#include "reports/run/scenario.hpp"

#include <atomic>
#include <cstdint>
#include <string>

namespace interleave::run {

/// What a scenario's search is expected to run.
struct SearchEstimate {
  enum class Kind : std::uint8_t {
    kTree,        ///< dpor, dpor-all-writes, dfs: Knuth's estimate of the search's tree
    kUpperBound,  ///< a bounded search (preemption-bound): the estimate of the DFS tree
    kKnown,       ///< a sampling strategy: its own execution count, exactly
  };
  std::string strategy;
  Kind kind = Kind::kTree;
  EstimateOptions::Tree tree_shape = EstimateOptions::Tree::kSleepSets;
  TreeEstimate tree;        ///< kTree, kUpperBound
  std::uint64_t known = 0;  ///< kKnown
};
/// The estimate of the search `settings` ask for on `scenario` (for the portfolio: its DPOR
/// member's), from `probes` probes seeded with `seed`; `stop` is polled before each probe.
SearchEstimate estimate_search(const Scenario& scenario, const ExplorationSettings& settings,
                               std::uint64_t probes, std::uint64_t seed,
                               const std::atomic<bool>* stop);

}  // namespace interleave::run
