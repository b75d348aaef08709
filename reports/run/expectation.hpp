// The comparison of an exploration's result with a scenario's expectation: what `interleave gate`
// decides on. A missing expectation never passes.
#pragma once

#include "reports/run/scenario.hpp"
#include "explorer/search/explorer.hpp"

#include <optional>
#include <string>
#include <vector>

namespace interleave::run {

struct ExpectationCheck {
  bool met = false;
  /// Why it is not met, one sentence each, in a fixed order; empty when met.
  std::vector<std::string> problems;
};

/// The invariants the result violated: one per counterexample, sorted, unique.
std::vector<std::string> violated_invariants(const ExplorationResult& result);

/// The expectation in words, e.g. "holds, reaching 'g'" or "violation of 'a', 'b'".
std::string describe_expectation(const std::optional<Expectation>& expected);
/// The outcome in the same words: "holds", "violation of 'a'", "incomplete (the step bound...)".
std::string describe_outcome(const ExplorationResult& actual);

/// Compares verdict, the exact set of violated invariants, and the coverage goals that must have
/// been reached. nullopt (no "expect" in the scenario) is a failure, and so is a "holds"
/// expectation that names no coverage goal (it could pass without exploring the danger).
ExpectationCheck check_expectation(const std::optional<Expectation>& expected,
                                   const ExplorationResult& actual);

}  // namespace interleave::run
