#include "reports/gate/gate_report.hpp"

#include "reports/render/render.hpp"
#include "reports/render/text_util.hpp"
#include "reports/trace/trace_view.hpp"

#include <string_view>

namespace interleave::reports {

namespace {

// ---- XML ----

std::string attr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + text::xml_escape(value, true) + "\"";
}

std::string case_details(const GateCase& c) {
  std::string s = (c.file.empty() ? std::string() : "file: " + c.file + "\n") +
                  "expected: " + c.expected + "\nactual: " + c.actual +
                  "\nexecutions: " + std::to_string(c.executions);
  for (const auto& path : c.counterexample_paths)
    s += "\ncounterexample: " + path;
  return s;
}

// ---- Markdown ----

// Inline Markdown text: one line, with every character that could start emphasis, code, a link,
// HTML, an entity, math, strikethrough or a table cell boundary backslash-escaped.
std::string md(std::string_view raw) {
  static constexpr std::string_view kSpecial = "\\`*_[]<>|~&#$!{}";
  const std::string s = text::printable(raw);
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    if (kSpecial.find(ch) != std::string_view::npos) out += '\\';
    out += ch;
  }
  return out;
}

std::string md_cell(std::string_view raw) {
  return raw.empty() ? std::string("-") : md(raw);
}

// A link target in Markdown: the characters that would end or break it percent-encoded.
std::string md_link_target(std::string_view raw) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : text::printable(raw)) {
    const auto u = static_cast<unsigned char>(ch);
    if (u <= 0x20 || ch == '(' || ch == ')' || ch == '<' || ch == '>' || ch == '\\' ||
        ch == '%' || ch == '|' || ch == '[' || ch == ']' || ch == '`') {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += ch;
    }
  }
  return out;
}

// ---- GitHub workflow commands ----

// The escaping of a workflow command's message (after "::") and, with `property`, of a value of
// its properties (between "::error " and "::").
std::string workflow_escape(std::string_view raw, bool property) {
  std::string out;
  for (char ch : text::valid_utf8(raw)) {
    switch (ch) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

void step_table(std::string& out, const Counterexample& c) {
  const std::optional<std::size_t> violating = violating_position(c);
  out += "| step | actor | label | accesses | what happened |\n";
  out += "|---:|---|---|---|---|\n";
  for (std::size_t s = 0; s < c.steps.size(); ++s) {
    const TraceStep& step = c.steps[s];
    const std::string index = std::to_string(step.index);
    out += "| " + (violating == s ? "**=> " + index + "**" : index) + " | " + md_cell(step.actor) +
           " | " + md_cell(step.label) + " | " +
           md_cell(describe_accesses(step, Wording::kReport)) + " | " + md_cell(step.what) + " |\n";
  }
}

}  // namespace

std::string junit_classname(const std::string& file) {
  std::string path = file;
  const std::size_t slash = path.find_last_of("/\\");
  const std::size_t dot = path.find_last_of('.');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  if (dot != std::string::npos && dot > base) path.erase(dot);  // not a leading dot (.hidden)
  std::string out;
  std::string part;
  auto flush = [&] {
    if (!part.empty() && part != ".") {
      if (!out.empty()) out += '.';
      out += part;
    }
    part.clear();
  };
  for (char ch : path) {
    if (ch == '/' || ch == '\\')
      flush();
    else
      part += ch;
  }
  flush();
  return out.empty() ? std::string("interleave") : out;
}

namespace {

// ", 3 not decided (interrupted by SIGINT)" for an interrupted run, "" otherwise.
std::string interruption_note(const GateReport& report, std::size_t skipped) {
  if (report.interrupted.empty() && skipped == 0) return "";
  return ", " + std::to_string(skipped) + " not decided (" +
         md(report.interrupted.empty() ? std::string("interrupted") : report.interrupted) + ")";
}

std::string result_word(const GateCase& c) {
  if (c.skipped) return "interrupted";
  return c.passed ? "pass" : "**FAIL**";
}

}  // namespace

std::string render_junit(const GateReport& report) {
  std::size_t failures = 0;
  std::size_t skipped = 0;
  std::uint64_t total_millis = 0;  // the sum of the cases' times as written
  for (const GateCase& c : report.cases) {
    if (c.skipped)
      ++skipped;
    else if (!c.passed)
      ++failures;
    total_millis += text::to_millis(c.seconds);
  }
  const std::string counts = attr("tests", std::to_string(report.cases.size())) +
                             attr("failures", std::to_string(failures)) + attr("errors", "0");
  const std::string time = attr("time", text::format_millis(total_millis));

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + attr("name", report.name) + counts + time + ">\n";
  out += "  <testsuite" + attr("name", report.name) + counts +
         attr("skipped", std::to_string(skipped)) + time + ">\n";
  for (const GateCase& c : report.cases) {
    out += "    <testcase" + attr("classname", junit_classname(c.file)) + attr("name", c.scenario) +
           attr("time", text::format_seconds(c.seconds)) + ">\n";
    if (c.skipped) {
      out += "      <skipped" + attr("message", c.failure) + "/>\n";
    } else if (!c.passed) {
      const std::string message = c.failure.empty() ? "the expectation was not met" : c.failure;
      out += "      <failure" + attr("message", message) + attr("type", "expectation") + ">" +
             text::xml_escape(message + "\n" + case_details(c), false) + "</failure>\n";
    }
    out += "      <system-out>" + text::xml_escape(case_details(c), false) + "</system-out>\n";
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n";
  out += "</testsuites>\n";
  return out;
}

std::string render_markdown_report(const GateReport& report) {
  const std::size_t failed = report.failed();
  const std::size_t skipped = report.skipped();

  std::string out = "# " + md(report.name) + "\n\n";
  out += std::to_string(report.cases.size()) + " scenario" + (report.cases.size() == 1 ? "" : "s") +
         ": " + std::to_string(report.cases.size() - failed - skipped) + " passed, " +
         std::to_string(failed) + " failed" + interruption_note(report, skipped) + ".\n\n";

  out += "| scenario | expected | actual | executions | time | result |\n";
  out += "|---|---|---|---:|---:|---|\n";
  for (const GateCase& c : report.cases) {
    out += "| " + md_cell(c.scenario) + " | " + md_cell(c.expected) + " | " + md_cell(c.actual) +
           " | " + std::to_string(c.executions) + " | " + text::format_seconds(c.seconds) +
           " s | " + result_word(c) + " |\n";
  }

  if (failed > 0) {
    out += "\n## Failures\n\n";
    for (const GateCase& c : report.cases) {
      if (c.passed || c.skipped) continue;
      out += "- **" + md_cell(c.scenario) + "** (" + md_cell(c.file) +
             "): " + md(c.failure.empty() ? "the expectation was not met" : c.failure);
      for (const auto& path : c.counterexample_paths)
        out += ". Counterexample: " + md(path);
      out += "\n";
    }
  }

  bool heading = false;
  for (const GateCase& c : report.cases) {
    for (std::size_t i = 0; i < c.traces.size(); ++i) {
      if (!heading) {
        out += "\n## Counterexamples\n";
        heading = true;
      }
      const Counterexample& cx = c.traces[i].counterexample;
      out += "\n### " + md_cell(c.scenario) + ": " + md_cell(cx.invariant) + "\n\n";
      out += "**Violation:** " + md(describe_violation(cx, Wording::kReport)) + "\n\n";
      if (i < c.counterexample_paths.size())
        out += "Counterexample file: " + md(c.counterexample_paths[i]) + "\n\n";
      out += "```mermaid\n" + render_mermaid(c.traces[i]) + "```\n\n";
      step_table(out, cx);
    }
  }
  return out;
}

std::string render_summary(const GateReport& report) {
  std::vector<const GateCase*> order;  // failed cases first, each group in run order
  for (const GateCase& c : report.cases)
    if (!c.passed && !c.skipped) order.push_back(&c);
  const std::size_t failed = order.size();
  for (const GateCase& c : report.cases)
    if (c.passed || c.skipped) order.push_back(&c);
  std::size_t skipped = 0;
  for (const GateCase& c : report.cases)
    if (c.skipped) ++skipped;

  auto counterexamples = [](const GateCase& c) {
    std::string s;
    for (std::size_t i = 0; i < c.counterexample_paths.size(); ++i) {
      const std::string& path = c.counterexample_paths[i];
      if (!s.empty()) s += ", ";
      if (i < c.counterexample_links.size() && !c.counterexample_links[i].empty())
        s += "[" + md(c.counterexample_links[i]) + "](" + md_link_target(c.counterexample_links[i]) +
             ")";
      else
        s += md(path);
    }
    return s;
  };

  std::string out = "## " + md(report.name) + ": ";
  out += failed == 0 ? "every scenario meets its expectation"
                     : std::to_string(failed) + " of " + std::to_string(report.cases.size()) +
                           " scenario" + (report.cases.size() == 1 ? "" : "s") +
                           (failed == 1 ? " does not meet its expectation"
                                        : " do not meet their expectation");
  if (!report.interrupted.empty()) out += " (" + md(report.interrupted) + ")";
  out += "\n\n" + std::to_string(report.cases.size() - failed - skipped) + " passed, " +
         std::to_string(failed) + " failed" + interruption_note(report, skipped) + ".\n";
  if (failed > 0) {
    out += "\n### Failures\n\n";
    for (std::size_t i = 0; i < failed; ++i) {
      const GateCase& c = *order[i];
      out += "- **" + md_cell(c.scenario) + "** (" + md_cell(c.file) +
             "): " + md(c.failure.empty() ? "the expectation was not met" : c.failure);
      if (!c.counterexample_paths.empty()) out += ". Counterexamples: " + counterexamples(c);
      out += "\n";
    }
  }
  out += "\n### Scenarios\n\n";
  out += "| scenario | expected | actual | result | counterexamples |\n";
  out += "|---|---|---|---|---|\n";
  for (const GateCase* c : order) {
    const std::string cx = counterexamples(*c);
    out += "| " + md_cell(c->scenario) + " | " + md_cell(c->expected) + " | " + md_cell(c->actual) +
           " | " + result_word(*c) + " | " + (cx.empty() ? "-" : cx) + " |\n";
  }
  return out;
}

std::string render_github_annotations(const GateReport& report) {
  std::string out;
  for (const GateCase& c : report.cases) {
    if (c.passed || c.skipped) continue;
    std::string message = c.failure.empty() ? "the expectation was not met" : c.failure;
    message += "\nexpected: " + c.expected + "\nactual: " + c.actual;
    for (const auto& path : c.counterexample_paths)
      message += "\ncounterexample: " + path;
    out += "::error ";
    if (!c.file.empty()) out += "file=" + workflow_escape(c.file, true) + ",";
    out += "title=" + workflow_escape(report.name + ": " + c.scenario, true) +
           "::" + workflow_escape(message, false) + "\n";
  }
  return out;
}

}  // namespace interleave::reports
