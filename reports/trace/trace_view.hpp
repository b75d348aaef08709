// Read-only views of a counterexample shared by the renderers: actors in order of first
// appearance and the position of the violating step. (Its words are in reports/trace/trace.hpp.)
#pragma once

#include "explorer/search/explorer.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace interleave::reports {

/// Actor names in order of first appearance in the steps; the counterexample's actor (if any and
/// not already there) last.
std::vector<std::string> actors_in_order(const Counterexample& c);

/// Position in c.steps of the violating step: the step that found a property reported at the end
/// (c.found_at), else the step whose index is c.step; nullopt when the violation was detected
/// after the last step and no step found it (a final check, a deadlock).
std::optional<std::size_t> violating_position(const Counterexample& c);

}  // namespace interleave::reports
