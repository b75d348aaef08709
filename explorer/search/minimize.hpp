// Counterexample minimisation: from a schedule that violates a property, derive one that violates
// the same property with the fewest preemptions, then the fewest steps, and still replays exactly
// (strict replay).
//
// Two techniques, each checked by replaying the candidate:
//   - Reordering within the trace. Only the steps the violation depends on are kept (for a
//     violation raised inside a step: that step's causal past, i.e. everything that happens before
//     it through program order, spawn/join and conflicting accesses; for a property of the state
//     after a step, of the final state or a deadlock: every step up to it) and they are rescheduled
//     so that each actor runs as long as it can. Equivalent interleavings reach the same state, so
//     the violation is the same, with fewer steps and switches.
//   - Preemption-bounded search (preemption_bound.hpp) with bounds 0, 1, ... below the best found,
//     which finds violations that need a different trace.
// Both are deterministic. The searches have an execution budget; when it runs out the result is
// the best found, and Minimized::fewest_preemptions says whether it is proven minimal.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/schedule.hpp"
#include "explorer/search/runner.hpp"

#include <cstdint>
#include <string>

namespace interleave {

/// Minimisation's limits (explorer/search/runner.hpp). max_executions is what the
/// preemption-bounded searches may run in all (0: reordering only); the stop request and the time
/// budget are not consulted (a minimisation under way is finished).
struct MinimizeOptions : RunLimits {
  static constexpr std::uint64_t kDefaultBudget = 20'000;
  MinimizeOptions() { max_executions = kDefaultBudget; }
};

struct Minimized {
  /// Violates the same property; strict replay reproduces it. Its seed is the original one (the
  /// execution that found the violation).
  Schedule schedule;
  std::uint64_t preemptions = 0;
  std::size_t steps = 0;  ///< steps executed, up to the violation
  std::uint64_t original_preemptions = 0;
  std::size_t original_steps = 0;
  /// True when every schedule with fewer preemptions was searched without finding the violation.
  bool fewest_preemptions = false;
  std::uint64_t executions = 0;  ///< executions the minimisation ran (replays included)
};

/// Minimises `schedule`, which must violate `invariant` when replayed (else ProgramError).
Minimized minimize(const Program& program, const Schedule& schedule, const std::string& invariant,
                   const MinimizeOptions& options = {});

}  // namespace interleave
