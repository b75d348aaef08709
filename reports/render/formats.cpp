// The table of output formats (reports/render/formats.hpp).
#include "reports/render/formats.hpp"

#include "reports/render/render.hpp"

#include <stdexcept>

namespace interleave::reports {

namespace {

std::string text_renderer(const TraceDocument& doc) {
  return render_text(doc);  // the default TextOptions
}
std::string html_renderer(const TraceDocument& doc) {
  return render_html(doc);  // without log lines: `show --format html` adds the model's
}
std::string mermaid_slice(const TraceDocument& doc) {
  return render_mermaid(doc);
}
std::string mermaid_full(const TraceDocument& doc) {
  return render_mermaid(doc, DiagramOptions{true});
}
std::string dot_slice(const TraceDocument& doc) {
  return render_dot(doc);
}
std::string dot_full(const TraceDocument& doc) {
  return render_dot(doc, DiagramOptions{true});
}

template <class Input>
const Format<Input>* find_in(const std::vector<Format<Input>>& table, std::string_view name) {
  for (const auto& f : table)
    if (f.name == name) return &f;
  return nullptr;
}

template <class Input>
const Format<Input>& get_from(const std::vector<Format<Input>>& table, std::string_view name) {
  if (const auto* f = find_in(table, name)) return *f;
  throw std::logic_error("no output format named '" + std::string(name) + "'");
}

}  // namespace

const std::vector<TraceFormat>& trace_formats() {
  static const std::vector<TraceFormat> formats{
      {"text", "a timeline, one column per actor", ".txt", "show --format", &text_renderer},
      {"json", "the trace document (the input of replay and show)", ".trace.json", "show --format",
       &render_json},
      {"mermaid", "a sequenceDiagram for Markdown (GitHub, GitLab)", ".mmd", "show --format",
       &mermaid_slice, &mermaid_full},
      {"dot", "the happens-before graph for Graphviz", ".dot", "show --format", &dot_slice,
       &dot_full},
      {"html", "one self-contained page: a lane per actor, the race and the slice, hover for state",
       ".html", "show --format", &html_renderer},
  };
  return formats;
}

const std::vector<GateFormat>& gate_formats() {
  static const std::vector<GateFormat> formats{
      {"junit", "JUnit XML, one test case per scenario (the CI's test view)", ".xml",
       "gate --junit", &render_junit},
      {"markdown", "Markdown: summary, failures, each counterexample's diagram and steps", ".md",
       "gate --report", &render_markdown_report},
      {"html", "index.html: scenarios, failures first, links to each counterexample's page",
       ".html", "gate --report", &render_html_index},
      {"sarif", "SARIF 2.1.0, one result per counterexample, a thread flow per actor", ".sarif",
       "gate --sarif", &render_sarif},
      {"summary", "Markdown for the CI run's page: failures first, one table of scenarios", ".md",
       "gate --summary", &render_summary},
  };
  return formats;
}

const TraceFormat* find_trace_format(std::string_view name) {
  return find_in(trace_formats(), name);
}

const GateFormat* find_gate_format(std::string_view name) {
  return find_in(gate_formats(), name);
}

const TraceFormat& trace_format(std::string_view name) {
  return get_from(trace_formats(), name);
}

const GateFormat& gate_format(std::string_view name) {
  return get_from(gate_formats(), name);
}

std::vector<std::string> trace_format_names() {
  std::vector<std::string> names;
  for (const auto& f : trace_formats())
    names.emplace_back(f.name);
  return names;
}

}  // namespace interleave::reports
