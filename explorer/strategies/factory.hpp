// Builds a strategy from its name and parameters (what the CLI and scenario files name).
#pragma once

#include "explorer/strategy.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace interleave {

struct StrategySpec {
  std::string name = "dpor";          ///< one of strategy_names(); DPOR by default
  std::uint64_t seed = 0;             ///< random, pct: the seed of the whole search
  std::uint64_t executions = 1000;    ///< random, pct: how many executions
  std::uint32_t max_preemptions = 2;  ///< preemption-bound: the last bound (bounds 0..max in turn)
  std::uint32_t pct_depth = 3;        ///< pct: the bug depth d (d - 1 priority change points)
  std::uint32_t pct_steps = 0;        ///< pct: k, steps the change points fall in (0: learned)
};

/// The names make_strategy accepts:
///   dfs               every interleaving and every choice value (no reduction)
///   random            seeded random walk (never "holds")
///   dpor              optimal DPOR: one execution per Mazurkiewicz trace (the default)
///   dpor-all-writes   DPOR where all state-changing steps are dependent (sound for invariants
///                     over several objects, less reduction)
///   preemption-bound  every execution with at most max_preemptions preemptions, bound 0 first
///   pct               probabilistic concurrency testing, seeded (never "holds")
std::vector<std::string> strategy_names();
/// Throws std::invalid_argument for an unknown name or impossible parameters.
std::unique_ptr<Strategy> make_strategy(const StrategySpec& spec);

}  // namespace interleave
