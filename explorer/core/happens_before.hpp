// The happens-before order of one execution's steps, the one of the engine: step i happens
// directly before a later step j when they are steps of the same actor (program order), when i
// spawned j's actor or is the last step of the actor j joins (Event::hb_pred), or when their
// declared accesses conflict (conflicts() in explorer/core/types.hpp); happens-before is its
// transitive closure. Two executions that order every such pair alike are the same
// Mazurkiewicz trace: what a step saw depends only on the steps that happen before it.
//
// Explain, minimisation, virtual time and the reports' drawing of a trace use this relation. DPOR
// keeps, incrementally, vector clocks of its own dependency relation
// (explorer/strategies/dpor/vector_clocks.hpp), which may order more pairs than this one (all
// state-changing steps under dpor-all-writes, the invariants' ghost accesses): a strategy's
// parameter, not another definition of what a trace is.
#pragma once

#include "explorer/core/strategy.hpp"
#include "explorer/core/types.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace interleave {

/// Calls f(i) for each step i that happens directly before step j of `trace`: its hb_pred first,
/// then every earlier step of its actor or conflicting with it, in order (the hb_pred may be
/// named twice).
template <class F>
void for_each_direct_predecessor(std::span<const Event> trace, std::size_t j, F&& f) {
  const Event& e = trace[j];
  if (e.hb_pred >= 0) f(static_cast<std::size_t>(e.hb_pred));
  for (std::size_t i = 0; i < j; ++i)
    if (trace[i].actor == e.actor || conflicts(trace[i].op, e.op)) f(i);
}

/// Closes the steps `past` marks (one entry per step of `trace`) under happens-before, from step
/// `last` down: afterwards it marks the causal past of the marked steps up to `last` (the steps
/// after it are left as they are).
void close_causal_past(std::span<const Event> trace, std::span<char> past, std::size_t last);

/// Happens-before as a relation to query: before(a, b) for any two steps, in constant time
/// (quadratic to build, a bit per pair).
class HappensBefore {
 public:
  explicit HappensBefore(std::span<const Event> trace);
  /// Whether step a happens before step b.
  bool before(std::size_t a, std::size_t b) const {
    return a < b && test(&past_[b * words_], a);
  }

 private:
  static bool test(const std::uint64_t* bits, std::size_t i) {
    return (bits[i / 64] >> (i % 64)) & 1u;
  }
  std::size_t n_;
  std::size_t words_;
  std::vector<std::uint64_t> past_;  // past_[s * words_ ...]: the steps before s
};

}  // namespace interleave
