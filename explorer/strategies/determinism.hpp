// The errors a systematic strategy raises when replaying a recorded prefix of decisions finds the
// program behaving differently (shared by dfs, dpor and preemption-bound, through
// decision_path.hpp).
#pragma once

#include "explorer/core/execution.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace interleave::nondeterminism {

/// The same decisions led to another set of runnable actors at `step`.
inline ProgramError actors(std::uint64_t step) {
  return ProgramError("the program is not deterministic: at step " + std::to_string(step) +
                      " the same decisions led to a different set of runnable actors");
}

/// The same decisions led to another choice (another kind of decision or another range) at `step`.
inline ProgramError choice(std::uint64_t step) {
  return ProgramError("the program is not deterministic: at step " + std::to_string(step) +
                      " the same decisions led to a different choice");
}

/// An execution ended after `depth` decisions where the same decisions took `recorded` before.
inline ProgramError length(std::size_t depth, std::size_t recorded) {
  return ProgramError("the program is not deterministic: an execution ended after " +
                      std::to_string(depth) + " decisions where the same decisions took " +
                      std::to_string(recorded) + " before");
}

/// The program registered other invariants, or declared other reads for them, than in the first
/// execution (the dependency relation of DPOR depends on them).
inline ProgramError invariants() {
  return ProgramError(
      "the program is not deterministic: it registered other invariants (or other reads for "
      "them) than in the first execution");
}

}  // namespace interleave::nondeterminism
