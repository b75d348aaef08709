// The output formats, in one table: each with its name (what `show --format` takes), what it
// shows, the extension of a file written in it, the command that writes it, and its renderer.
// `show` renders a trace in any trace format, the gate writes its reports in the gate formats, and
// `list` prints the table; none of them names a renderer itself. docs/reports.md shows and explains
// each format.
#pragma once

#include "reports/gate/gate_report.hpp"
#include "reports/trace/trace.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace interleave::reports {

/// One output format of documents of type Input (a TraceDocument or a GateReport).
template <class Input>
struct Format {
  std::string_view name;         ///< e.g. "mermaid"
  std::string_view description;  ///< one line, e.g. "a sequenceDiagram for Markdown"
  std::string_view extension;    ///< of a file in this format, with its dot, e.g. ".mmd"
  std::string_view command;      ///< the command line that writes it, e.g. "show --format"
  std::string (*render)(const Input&);
  /// The same with nothing left out (`show --full`), for a format that by default draws only the
  /// causal slice (the diagrams); nullptr when `render` already shows everything.
  std::string (*render_full)(const Input&) = nullptr;
};

using TraceFormat = Format<TraceDocument>;
using GateFormat = Format<GateReport>;

/// How a counterexample trace can be shown: text (the default, first), json, mermaid, dot, html.
const std::vector<TraceFormat>& trace_formats();
/// How a gate run is reported: junit (JUnit XML for CI), markdown (the report for people), html
/// (the report directory's index.html, linking each counterexample's page), sarif
/// (code scanning), summary (the CI run's page).
const std::vector<GateFormat>& gate_formats();

/// The format named `name`, or nullptr.
const TraceFormat* find_trace_format(std::string_view name);
const GateFormat* find_gate_format(std::string_view name);
/// The format named `name`; throws std::logic_error if there is none (a bug of the caller).
const TraceFormat& trace_format(std::string_view name);
const GateFormat& gate_format(std::string_view name);

/// The names of the formats, in table order.
std::vector<std::string> trace_format_names();

}  // namespace interleave::reports
