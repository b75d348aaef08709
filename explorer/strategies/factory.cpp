#include "explorer/strategies/factory.hpp"

#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/pct.hpp"
#include "explorer/strategies/preemption_bound.hpp"
#include "explorer/strategies/random.hpp"

#include <stdexcept>

namespace interleave {

std::vector<std::string> strategy_names() {
  return {"dfs", "random", "dpor", "dpor-all-writes", "preemption-bound", "pct"};
}

std::unique_ptr<Strategy> make_strategy(const StrategySpec& spec) {
  if (spec.name == "dfs") return std::make_unique<DfsStrategy>();
  if (spec.name == "random") {
    if (spec.executions == 0) throw std::invalid_argument("random: executions must be at least 1");
    return std::make_unique<RandomStrategy>(spec.seed, spec.executions);
  }
  if (spec.name == "dpor") return std::make_unique<DporStrategy>();
  if (spec.name == "dpor-all-writes")
    return std::make_unique<DporStrategy>(
        DporStrategy::Options{DporStrategy::Dependency::kAllWrites, 0});
  if (spec.name == "preemption-bound")
    return std::make_unique<PreemptionBoundStrategy>(
        PreemptionBoundStrategy::Options{spec.max_preemptions, true});
  if (spec.name == "pct") {
    if (spec.executions == 0) throw std::invalid_argument("pct: executions must be at least 1");
    if (spec.pct_depth == 0) throw std::invalid_argument("pct: depth must be at least 1");
    return std::make_unique<PctStrategy>(
        PctStrategy::Options{spec.seed, spec.executions, spec.pct_depth, spec.pct_steps, 0});
  }
  std::string known;
  for (const auto& n : strategy_names())
    known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown strategy '" + spec.name + "' (known: " + known + ")");
}

}  // namespace interleave
