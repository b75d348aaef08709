// `interleave show TRACE --format F`: render a counterexample trace.
#include "reports/cli/commands.hpp"
#include "reports/cli/text.hpp"
#include "reports/render/formats.hpp"
#include "reports/render/render.hpp"
#include "reports/render/render_log.hpp"
#include "reports/trace/trace.hpp"

#include <algorithm>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {
constexpr std::string_view kLogFormat = "log";
}  // namespace

CLI::App* add_show(CLI::App& app, ShowArgs& a) {
  CLI::App* c = app.add_subcommand("show", "Render a counterexample trace");
  c->add_option("trace", a.trace, "A counterexample trace written by 'interleave check'")
      ->required()
      ->type_name("TRACE");
  std::vector<std::string> names = reports::trace_format_names();
  a.format = names.front();
  // `log` renders with the model's log patterns, which only the command knows (not a report
  // format of reports/render/formats.hpp, whose renderers see the trace alone).
  names.push_back(std::string(kLogFormat));
  std::size_t width = kLogFormat.size();
  for (const auto& f : reports::trace_formats())
    width = std::max(width, f.name.size());
  std::string list, formats;
  for (const auto& f : reports::trace_formats()) {
    list += (list.empty() ? "" : ", ") + std::string(f.name);
    formats += "  " + std::string(f.name) + std::string(width - f.name.size() + 2, ' ') +
               std::string(f.description) + "\n";
  }
  list += ", " + std::string(kLogFormat);
  formats += "  " + std::string(kLogFormat) + std::string(width - kLogFormat.size() + 2, ' ') +
             "the lines the modelled program would log (fe.log's layout for an FE class, glog's "
             "for a CN file), from the steps' notes and the model's log patterns\n";
  c->add_option("--format,-f", a.format, "Output format: " + list + " (default: " + a.format + ")")
      ->type_name("FORMAT")
      ->check(CLI::IsMember(names));
  c->add_flag("--state", a.state,
              "Print every step with the keys of the shared state it changed (the first step: "
              "every key), then the state at the violation (text; not with --format)")
      ->excludes(c->get_option("--format"));
  c->add_flag("--full", a.full,
              "Diagrams (mermaid, dot) draw every step; by default they draw the causal slice, the "
              "steps the violation depends on (text and json always hold every step)");
  c->footer(
      "The trace is validated first: a malformed, truncated or edited trace exits with 2.\n\n"
      "Formats:\n" +
      formats +
      "\n"
      "Examples:\n"
      "  interleave show out/NAME.PROPERTY.trace.json\n"
      "  interleave show out/NAME.PROPERTY.trace.json --format mermaid\n"
      "  interleave show out/NAME.PROPERTY.trace.json --format mermaid --full\n"
      "  interleave show out/NAME.PROPERTY.trace.json --state\n"
      "  interleave show out/NAME.PROPERTY.trace.json --format html > trace.html\n"
      "  interleave show out/NAME.PROPERTY.trace.json --format dot | dot -Tsvg > hb.svg");
  return c;
}

std::string render_page(const reports::TraceDocument& doc, const ModelRegistry& models) {
  reports::HtmlOptions options;
  const std::string model = doc.scenario.is_object() ? doc.scenario.value("model", std::string())
                                                     : std::string();
  if (const ModelDriver* driver = models.find(model))
    options.log = reports::log_lines_by_step(doc, driver->log_patterns());
  return reports::render_html(doc, options);
}

std::string page_path(const std::string& trace) {
  constexpr std::string_view kTrace = ".trace.json";
  std::string path = trace;
  if (path.ends_with(kTrace)) path.resize(path.size() - kTrace.size());
  return path + ".html";
}

int run_show(const ShowArgs& args, const Context& ctx) {
  // Validated as replay validates it: the embedded scenario and the recorded options too.
  const ReplayInput input = read_replay_input(args.trace, "", ctx.models);
  if (args.state)
    ctx.out << format_states(input.doc) << std::flush;
  else if (args.format == kLogFormat) {
    const std::string model = input.doc.scenario.value("model", std::string());
    const ModelDriver* driver = ctx.models.find(model);
    // read_replay_input has checked the model: a driver the registry lacks is not reached.
    if (driver != nullptr) ctx.out << reports::render_log(input.doc, driver->log_patterns());
    ctx.out << std::flush;
  } else if (args.format == "html") {
    ctx.out << render_page(input.doc, ctx.models) << std::flush;
  } else {
    const reports::TraceFormat& format = reports::trace_format(args.format);
    const auto render = args.full && format.render_full ? format.render_full : format.render;
    ctx.out << render(input.doc) << std::flush;
  }
  return static_cast<int>(ExitCode::kHolds);
}

}  // namespace interleave::cli
