// Renderers of a counterexample trace document. Each is a pure function of the document:
// deterministic, byte-identical for identical input, and valid UTF-8 out whatever the labels hold
// (invalid sequences become U+FFFD). docs/reports.md shows and explains each format.
#pragma once

#include "reports/trace/trace.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace interleave::reports {

struct TextOptions {
  /// Width of an actor's column; longer cells are word-wrapped onto continuation lines.
  std::size_t max_column_width = 40;
  /// Most actors drawn as columns: a trace with more (a cluster of dozens of owners) is drawn as
  /// a list instead, one step per line ("step | actor | label: what", wrapped at 100 columns),
  /// since a table of dozens of 40-character columns can be read on no screen.
  std::size_t max_columns = 24;
};

/// A timeline with one column per actor (in order of first appearance), one row per step: the
/// step index, then "label: what happened" in the column of the actor that took it. The violating
/// step is marked "=>" (more than TextOptions::max_columns actors: one line per step, the actor
/// named on it). After the table: the violation (invariant, where, message) and, when the
/// document has one, the shared state at the violation as indented JSON.
std::string render_text(const TraceDocument& doc);
std::string render_text(const TraceDocument& doc, const TextOptions& options);

/// The trace document as JSON text (to_json(doc) indented by 2, trailing newline). Defined in its
/// own file (render_json.cpp) because to_json(TraceDocument) lives in trace.cpp.
std::string render_json(const TraceDocument& doc);

/// What the diagrams draw. By default the causal slice (reports/analysis/causal_slice.hpp): the steps
/// the violation depends on, the others counted in one note or label; `full` draws every step.
struct DiagramOptions {
  bool full = false;
};

/// A Mermaid sequenceDiagram, drawn to be read at a glance: the actors of the drawn steps as
/// participants (in order of first appearance, aliased a0, a1, ...), each step a `Note over` its
/// actor of at most kDiagramNoteWidth columns ("#28 D2: drop temporary table hier…"; the details
/// stay in the text), and an arrow only where something passes from an earlier step to a later
/// one of another actor (diagram_edges along which passes_something: a write read, a lock released
/// and taken, an actor started), from the earlier step's actor to the later's, labelled with the
/// objects, just before the later step's note; the race's arrow says "the race: OBJ" even when
/// nothing passes along it. The race's two steps sit in amber `rect` blocks, the violating step
/// and a note "violation: PROPERTY" in a red one (a violation found after the last step: the red
/// block holds the note only, over every participant). Text is escaped with Mermaid entity codes
/// (`#59;` for ';', `#35;` for '#', ...): no raw '#', ';', quotes, '%', '<', '>', '`' or ':' from
/// the document, newlines become `<br/>`. Renders in GitHub and GitLab Markdown inside a
/// ```mermaid block.
std::string render_mermaid(const TraceDocument& doc);
std::string render_mermaid(const TraceDocument& doc, const DiagramOptions& options);

/// A Graphviz DOT digraph of the happens-before order of the drawn steps, built with Boost.Graph
/// and written with boost::write_graphviz. Node k is the k-th drawn step (label: "#index label"
/// and what happened, wrapped and cut to kDotLabelLines lines; tooltip in SVG: accesses and the
/// whole text), one cluster per actor. Edges are diagram_edges: class="program_order" (solid),
/// class="conflict" (dashed blue, labelled with the objects), class="enabling" (dotted gray),
/// class="race" (the race's pair, bold orange, "the race: OBJ"). A red octagon "violation" node
/// names the property, reached from the violating step by a class="violation" edge, or, for a
/// violation found after the last step, from the last drawn step of every actor (class="end").
/// The graph's label is the violation and how many steps were left out. Text is escaped for
/// Graphviz: '&' as "&amp;", backslashes literal in labels; in tooltips a backslash shows as
/// U+29F5 ("⧵"), because Graphviz expands escapes in tooltips twice.
std::string render_dot(const TraceDocument& doc);
std::string render_dot(const TraceDocument& doc, const DiagramOptions& options);

/// What an HTML page shows besides the document.
struct HtmlOptions {
  /// log[p]: the lines the step at position p printed (log_lines_by_step, reports/render/render_log.hpp);
  /// empty (the default) when the caller has no log patterns.
  std::vector<std::vector<std::string>> log;
};

/// One self-contained HTML page (docs/reports.md, "HTML"): no external script, style, font or
/// image (its script and style are reports/render/html/page.js and page.css, inline). A header with the
/// counterexample's headline, the violation and the race in their report wording and the causal
/// slice's size; a table with one lane (column) per actor in order of first appearance and one
/// row per step ("#index label", what happened, its log lines), the violating step and the race's
/// two steps marked, the steps not in the causal slice folded (a row per run of them, "N steps not
/// involved (ACTOR n, ...)"); a timed trace's steps at their times, each row lowered by its
/// compressed gap and gaps of a second or more marked. Then the steps' accesses, log lines and
/// states (as the changes each step made) as JSON, which the script shows on hover or click. All
/// text is escaped (the JSON holds no '<'); deterministic.
std::string render_html(const TraceDocument& doc, const HtmlOptions& options = {});

/// The widest note of a Mermaid diagram and the longest line of a DOT node label, in columns.
inline constexpr std::size_t kDiagramNoteWidth = 60;
inline constexpr std::size_t kDotLabelWidth = 34;
inline constexpr std::size_t kDotLabelLines = 3;

}  // namespace interleave::reports
