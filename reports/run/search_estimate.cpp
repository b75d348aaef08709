#include "reports/run/search_estimate.hpp"

#include "explorer/strategies/factory.hpp"

namespace interleave::run {

SearchEstimate estimate_search(const Scenario& scenario, const ExplorationSettings& settings,
                               std::uint64_t probes, std::uint64_t seed,
                               const std::atomic<bool>* stop) {
  SearchEstimate e;
  // The portfolio: its exhaustive member's tree (the bug finders' executions are capped), and
  // the estimate says whose it is.
  const std::string strategy = single_strategy(settings).strategy;
  e.strategy = strategy;
  const StrategyDescriptor* d = find_strategy(strategy);
  if (d != nullptr && d->sampling) {
    e.kind = SearchEstimate::Kind::kKnown;
    e.known = settings.max_executions != 0 ? settings.max_executions : StrategySpec{}.executions;
    return e;
  }
  EstimateOptions o;
  if (strategy == "dpor" || strategy == "dpor-all-writes") {
    o.tree = EstimateOptions::Tree::kSleepSets;
    o.all_writes = strategy == "dpor-all-writes";
    e.kind = SearchEstimate::Kind::kTree;
  } else {
    // dfs runs the whole tree; for a bounded search (preemption-bound) it is an upper bound.
    o.tree = EstimateOptions::Tree::kAllInterleavings;
    e.kind = strategy == "dfs" ? SearchEstimate::Kind::kTree
                                        : SearchEstimate::Kind::kUpperBound;
  }
  o.probes = probes;
  o.seed = seed;
  o.max_steps = static_cast<std::size_t>(settings.max_steps);
  o.stop = stop;
  e.tree_shape = o.tree;
  e.tree = estimate_tree(scenario.instance.program, o);
  return e;
}

}  // namespace interleave::run
