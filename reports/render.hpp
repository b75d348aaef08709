// Renderers of a counterexample trace document. Each is a pure function of the document:
// deterministic, byte-identical for identical input, and valid UTF-8 out whatever the labels hold
// (invalid sequences become U+FFFD). docs/reports.md shows and explains each format.
#pragma once

#include "reports/trace.hpp"

#include <cstddef>
#include <string>

namespace interleave::reports {

struct TextOptions {
  /// Width of an actor's column; longer cells are word-wrapped onto continuation lines.
  std::size_t max_column_width = 40;
};

/// A timeline with one column per actor (in order of first appearance), one row per step: the
/// step index, then "label: what happened" in the column of the actor that took it. The violating
/// step is marked "=>". After the table: the violation (invariant, where, message) and, when the
/// document has one, the shared state at the violation as indented JSON.
std::string render_text(const TraceDocument& doc);
std::string render_text(const TraceDocument& doc, const TextOptions& options);

/// The trace document as JSON text (to_json(doc) indented by 2, trailing newline). Defined in its
/// own file (render_json.cpp) because to_json(TraceDocument) lives in trace.cpp.
std::string render_json(const TraceDocument& doc);

/// A Mermaid sequenceDiagram: actors as participants (in order of first appearance, aliased
/// a0, a1, ... with their names as display text). Each step is a message `X->>Y` from the actor X
/// that took it to the actor Y of the latest earlier step it conflicts with (the conflict edge of
/// render_dot that ordered it), or a `Note over X` when no other actor's step ordered it. The
/// violating step and a note with the violation sit in a red `rect` block (for a violation
/// detected after the last step, e.g. a final check or a deadlock, the block holds the note only).
/// Text is escaped with Mermaid entity codes (`#59;` for ';', `#35;` for '#', ...): no raw '#',
/// ';', quotes, '%', '<', '>', '`' or ':' from the document, newlines become `<br/>`.
/// Renders in GitHub and GitLab Markdown inside a ```mermaid block.
std::string render_mermaid(const TraceDocument& doc);

/// A Graphviz DOT digraph of the happens-before graph (reports/happens_before.hpp), built with
/// Boost.Graph and written with boost::write_graphviz. Node N is the step at position N (label:
/// index, actor, step label; tooltip in SVG: accesses and what happened), one cluster per actor.
/// Edges carry class="program_order" (solid) or class="conflict" (dashed blue, labelled with the
/// object and the two access kinds). The violating step is red and bold; a violation detected
/// after the last step gets its own red node "violation", reached from the last step of every
/// actor by class="end" edges (dotted red). Text is escaped for Graphviz: '&' as "&amp;",
/// backslashes literal in labels; in tooltips a backslash shows as U+29F5 ("⧵"), because Graphviz
/// expands escapes in tooltips twice.
std::string render_dot(const TraceDocument& doc);

}  // namespace interleave::reports
