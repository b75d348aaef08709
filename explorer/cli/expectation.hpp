// The comparison of an exploration's result with a scenario's expectation: what `interleave gate`
// decides on. A missing expectation never passes.
#pragma once

#include "explorer/cli/scenario.hpp"
#include "explorer/explorer.hpp"

#include <optional>
#include <string>
#include <vector>

namespace interleave::cli {

struct ExpectationCheck {
  bool met = false;
  /// Why it is not met, one sentence each, in a fixed order; empty when met.
  std::vector<std::string> problems;
};

/// The invariants the result violated: one per counterexample, sorted, unique.
std::vector<std::string> violated_invariants(const ExplorationResult& result);

/// Compares verdict, the exact set of violated invariants, and the coverage goals that must have
/// been reached. nullopt (no "expect" in the scenario) is a failure.
ExpectationCheck check_expectation(const std::optional<Expectation>& expected,
                                   const ExplorationResult& actual);

}  // namespace interleave::cli
