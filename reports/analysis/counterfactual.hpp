// What-if runs of a counterexample: which steps the violation does not need, and which race made
// it. Both are answered by running the program again in another order of the same steps, so they
// need the program (the command line runs them when it writes a trace; the trace document keeps
// the answers, and the renderers read them from there).
//
// Not involved. The causal slice (reports/analysis/causal_slice.hpp) starts from the happens-before past
// of the violating step. Happens-before is about declared accesses, so it also holds steps whose
// effect the violation does not depend on (a client session registered and gone before the
// cleaner listed the sessions: the listing read its entry, but would have found the task's
// session dead either way). For each actor with steps in that past (other than the violating
// actor), in order of first appearance, the program runs once with every step of that actor
// before the violating step (an actor's steps keep their program order) postponed until after it,
// on top of the actors already found not involved; when the same property is still violated,
// they are not involved.
//
// The race. The candidates are the conflict edges of the happens-before graph from a step i of
// the slice to a later step j of another actor (which may come after the violating step: the
// write that came too late), with no other happens-before path from i to j (nothing else orders
// them, so they can be swapped). For each, the program runs once in the reversed order: first
// every step before j that does not happen after i, then j, then i. A candidate is the race when
// that execution runs to completion with every property holding.
//
// How a reordered run goes on: the listed steps that must run first run exactly so: each one's
// actor can run and announces the recorded step's label (otherwise that order cannot run and the
// trial is dropped); after them, at each point the earliest remaining
// recorded step whose actor can run goes next (the program may now behave differently), and when
// none can, the lowest actor that can. Each step gets the choice values it was recorded with.
//
// Candidates for the race are tried in a fixed order, the first that makes the violation disappear
// wins: first the stale reads of the violating actor (i, a step of the actor that violated the
// property, only observes an object that j changes: "C3 reads RUN = [] before S3 RUN.put(t1)":
// it decided on what a later step made wrong), then the other stale reads, then the rest; within
// each group the pair closest to the violation (latest j, then latest i). Deterministic.
#pragma once

#include "explorer/search/explorer.hpp"
#include "reports/trace/trace.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace interleave::reports {

struct Explanation {
  /// Indices of the steps found not involved (postponed past the violating step, the same
  /// property is violated), sorted.
  std::vector<std::size_t> not_involved;
  std::optional<Race> race;
  std::size_t runs = 0;  ///< reordered executions run
};

/// Explains `c`, a counterexample of `program`, running each reordered execution under `options`'
/// step bound and stack size (nothing else of them). At most `max_runs` executions.
Explanation explain(const Program& program, const Counterexample& c, const ExploreOptions& options,
                    std::size_t max_runs = 256);

/// Adds explain()'s answers to the document (its not_involved and race).
void explain(TraceDocument& doc, const Program& program, const ExploreOptions& options);

}  // namespace interleave::reports
