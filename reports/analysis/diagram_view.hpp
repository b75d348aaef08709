// What the diagrams (render_mermaid, render_dot) draw of a counterexample: the steps (the causal
// slice, or every step), their actors, the happens-before edges between them that no other path
// implies, the race's two steps and the violating step. Pure and deterministic.
#pragma once

#include "reports/analysis/happens_before.hpp"
#include "reports/trace/trace.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace interleave::reports {

struct DiagramView {
  /// drawn[p]: whether the step at position p is drawn.
  std::vector<bool> drawn;
  /// The actors of the drawn steps, in order of first appearance.
  std::vector<std::string> actors;
  /// diagram_edges of the drawn steps.
  std::vector<HbEdge> edges;
  /// Position of the violating step (reports/trace/trace_view.hpp), if it is drawn.
  std::optional<std::size_t> violating;
  /// Positions of the race's two steps, when the document names a race and both are drawn.
  std::optional<std::size_t> race_first, race_second;
  std::vector<std::string> race_objects;
  /// How many steps are not drawn.
  std::size_t left_out = 0;
};

/// "A, B": the objects of an edge's accesses, each once, in order (what the diagrams label an
/// edge with).
std::string objects_text(const std::vector<ConflictingAccess>& accesses);
/// "A, B": the race's objects.
std::string objects_text(const std::vector<std::string>& objects);

/// The view of `doc`: its causal slice, or every step when `full`.
DiagramView diagram_view(const TraceDocument& doc, bool full);

}  // namespace interleave::reports
