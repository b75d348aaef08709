#include "explorer/strategies/factory.hpp"

#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/random.hpp"

#include <stdexcept>

namespace interleave {

std::vector<std::string> strategy_names() {
  return {"dfs", "random", "dpor", "dpor-all-writes"};
}

std::unique_ptr<Strategy> make_strategy(const StrategySpec& spec) {
  if (spec.name == "dfs") return std::make_unique<DfsStrategy>();
  if (spec.name == "dpor") return std::make_unique<DporStrategy>();
  if (spec.name == "dpor-all-writes")
    return std::make_unique<DporStrategy>(
        DporStrategy::Options{DporStrategy::Dependency::kAllWrites});
  if (spec.name == "random") {
    if (spec.executions == 0) throw std::invalid_argument("random: executions must be at least 1");
    return std::make_unique<RandomStrategy>(spec.seed, spec.executions);
  }
  std::string known;
  for (const auto& n : strategy_names())
    known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown strategy '" + spec.name + "' (known: " + known + ")");
}

}  // namespace interleave
