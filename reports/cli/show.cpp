// `interleave show TRACE --format F`: render a counterexample trace.
#include "reports/cli/commands.hpp"
#include "reports/render.hpp"
#include "reports/trace.hpp"

#include <functional>
#include <utility>

namespace interleave::cli {

namespace {

using Renderer = std::function<std::string(const reports::TraceDocument&)>;

// The formats `show` offers, the default first.
std::vector<std::pair<std::string, Renderer>> renderers() {
  return {
      {"text", [](const reports::TraceDocument& d) { return reports::render_text(d); }},
      {"json", [](const reports::TraceDocument& d) { return reports::render_json(d); }},
      {"mermaid", [](const reports::TraceDocument& d) { return reports::render_mermaid(d); }},
      {"dot", [](const reports::TraceDocument& d) { return reports::render_dot(d); }},
  };
}

std::vector<std::string> format_names() {
  std::vector<std::string> names;
  for (const auto& [name, _] : renderers())
    names.push_back(name);
  return names;
}

}  // namespace

CLI::App* add_show(CLI::App& app, ShowArgs& a) {
  CLI::App* c = app.add_subcommand("show", "Render a counterexample trace");
  c->add_option("trace", a.trace, "A counterexample trace written by 'interleave check'")
      ->required()
      ->type_name("TRACE");
  const auto names = format_names();
  a.format = names.front();
  std::string list;
  for (const auto& n : names)
    list += (list.empty() ? "" : ", ") + n;
  c->add_option("--format,-f", a.format, "Output format: " + list + " (default: " + a.format + ")")
      ->type_name("FORMAT")
      ->check(CLI::IsMember(names));
  c->footer(
      "The trace is validated first: a malformed, truncated or edited trace exits with 2.\n\n"
      "Formats: text (a timeline, one column per actor), json (the trace document), mermaid (a\n"
      "sequenceDiagram for Markdown), dot (the happens-before graph for Graphviz).\n\n"
      "Examples:\n"
      "  interleave show out/seed-starrocks-4.1.1.temp-table-lost.trace.json\n"
      "  interleave show out/seed.temp-table-lost.trace.json --format mermaid\n"
      "  interleave show out/seed.temp-table-lost.trace.json --format dot | dot -Tsvg > hb.svg");
  return c;
}

int run_show(const ShowArgs& args, const Context& ctx) {
  const reports::TraceDocument doc = reports::read_trace_file(args.trace);
  for (const auto& [name, render] : renderers()) {
    if (name == args.format) {
      ctx.out << render(doc) << std::flush;
      return static_cast<int>(ExitCode::kHolds);
    }
  }
  throw std::logic_error("show: no renderer for format '" + args.format + "'");
}

}  // namespace interleave::cli
