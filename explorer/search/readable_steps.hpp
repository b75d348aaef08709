// The readable steps of the execution that just ran in `buffers` (its trace, the notes and times
// recorded while tracing), as replay and explain report them.
#pragma once

#include "explorer/search/explorer.hpp"

#include <vector>

namespace interleave {

/// One TraceStep per executed step: actor and object names, label, notes, `after`, and the
/// step's time when the execution was timed and traced.
std::vector<TraceStep> readable_steps(const Execution& ex, const ExecutionBuffers& buffers);

}  // namespace interleave
