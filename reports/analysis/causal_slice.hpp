// The causal slice of a counterexample: the steps the violation depends on, and the others folded.
//
// The slice is the happens-before past (reports/analysis/happens_before.hpp: program order, conflicts, and
// the spawn and join orderings the steps record in `after`) of the violating step (the step that
// found a property reported at the end, else the step that violated it), together with the
// happens-before past of the race's two steps when the trace names a race (and so what enables
// each). A violation detected after the last step without a step of its own (a deadlock, an
// end-of-execution check) depends on the last step of every actor. Paths run only through steps
// not found not involved by a what-if run (reports/analysis/counterfactual.hpp: postponed past the
// violating step, the violation still occurs).
//
// The other steps are "not involved", and the renderers fold them into one line per actor
// ("Session:c1@fe1: 12 steps not involved"). The schedule itself stays complete (it still
// replays). Pure and deterministic.
#pragma once

#include "reports/trace/trace.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace interleave::reports {

struct CausalSlice {
  /// involved[p]: whether the step at position p of the counterexample is in the slice.
  std::vector<bool> involved;
  /// The position of the violating step (the slice's sink), nullopt when the violation was
  /// detected after the last step and no step found it.
  std::optional<std::size_t> violating;
  /// Per actor, in order of first appearance, the number of its steps not involved (actors with
  /// none are left out).
  struct Folded {
    std::string actor;
    std::size_t steps = 0;
  };
  std::vector<Folded> folded;

  std::size_t involved_count() const;
  bool complete() const { return folded.empty(); }
};

/// The slice of `c`: the happens-before past of the violating step (and of the race's two steps
/// when there is a race), through steps not listed in `not_involved` (indices) only.
CausalSlice causal_slice(const Counterexample& c, const std::optional<Race>& race = std::nullopt,
                         const std::vector<std::size_t>& not_involved = {});
/// The slice of a trace document, with its race and the steps it found not involved.
CausalSlice causal_slice(const TraceDocument& doc);

/// "Session:c1@fe1: 12 steps not involved" ("1 step not involved"); in trace_sentences.cpp.
std::string describe_folded(const CausalSlice::Folded& f);

}  // namespace interleave::reports
