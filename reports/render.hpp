// Renderers of a counterexample trace document. Each is a pure function of the document:
// deterministic, byte-identical for identical input.
#pragma once

#include "reports/trace.hpp"

#include <string>

namespace interleave::reports {

/// A timeline with one column per actor, one row per step, the violating step marked.
std::string render_text(const TraceDocument& doc);
/// The trace document as JSON text (indented, trailing newline).
std::string render_json(const TraceDocument& doc);
/// A Mermaid sequenceDiagram: actors as participants, each step a message or note, the violating
/// step highlighted. Renders in GitHub and GitLab Markdown.
std::string render_mermaid(const TraceDocument& doc);
/// A Graphviz DOT digraph of the happens-before graph: nodes are steps, edges are program order
/// and the conflicts that ordered the steps, the violating step marked.
std::string render_dot(const TraceDocument& doc);

}  // namespace interleave::reports
