// Builds a strategy from its name and parameters (what the CLI and scenario files name).
#pragma once

#include "explorer/strategy.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace interleave {

struct StrategySpec {
  std::string name = "dpor";        ///< one of strategy_names(); DPOR by default
  std::uint64_t seed = 0;           ///< random walk: the seed of the whole search
  std::uint64_t executions = 1000;  ///< random walk: how many executions
};

/// The names make_strategy accepts.
std::vector<std::string> strategy_names();
/// Throws std::invalid_argument for an unknown name or impossible parameters.
std::unique_ptr<Strategy> make_strategy(const StrategySpec& spec);

}  // namespace interleave
