// The reports of `interleave gate`: JUnit XML for CI systems and a Markdown report for people.
//
// The gate runs each scenario, compares the outcome with the scenario's expectation and fills one
// GateCase per scenario; these functions only format what they are given (pure, deterministic,
// byte-identical for identical input; the only timings are the cases' `seconds`).
//
//   GateReport report;                      // report.name defaults to "interleave gate"
//   report.cases.push_back({.scenario = "seed-79294", .file = "scenarios/seed.json",
//                           .expected = "violation of no_orphan_drop", .actual = ..., ...});
//   write_file(junit_path, render_junit(report));
//   write_file(report_dir / "report.md", render_markdown_report(report));
//
// render_junit: <testsuites> holding one <testsuite name=report.name> with tests/failures/errors/
// skipped/time totals, and one <testcase classname=... name=scenario time=seconds> per case: only
// the elements and attributes the strict JUnit schema of Jenkins' xunit plugin allows (a
// testcase has no `file` attribute there; the file is the first line of its <system-out>).
// classname is the scenario file without its extension, directories joined by '.'
// ("scenarios/seed.json" -> "scenarios.seed"; "interleave" when there is no file). A failed case
// has <failure type="expectation" message=failure> whose text repeats expected, actual and the
// counterexample paths; every case has a <system-out> with the file (if any), expected, actual,
// executions and the counterexample paths (if any). All text is XML-escaped; characters XML
// cannot carry become U+FFFD.
//
// render_markdown_report: a title and totals line, the summary table (scenario | expected |
// actual | executions | time | result), a "Failures" section listing each failed case with its
// reason, then a "Counterexamples" section with, for each case that has a trace: the violation,
// the counterexample path, a ```mermaid block (render_mermaid) and the readable step list as a
// table (step | actor | label | accesses | what happened, the violating step marked "=>").
// Document text is Markdown-escaped (no accidental emphasis, links, HTML, math or table breaks).
//
// render_summary: the short Markdown for a CI run's page ($GITHUB_STEP_SUMMARY): a totals line,
// the failures first (each with its reason and counterexamples), then one table of every scenario
// (failed ones first, otherwise in run order): scenario | expected | actual | result |
// counterexamples. A counterexample is a relative link (its text the link) when the case has
// counterexample_links, else its path. No timings: byte-identical for identical outcomes.
//
// render_html_index (reports/render/render_html.cpp): the report directory's index.html; see there.
//
// render_github_annotations: one GitHub workflow command per failed case,
// "::error file=FILE,title=TITLE::MESSAGE", with the escaping of workflow commands (% CR LF in
// the message; those and : , in the properties); "" when every case passed.
//
// render_sarif (reports/gate/gate_sarif.cpp): a SARIF 2.1.0 log; see there.
#pragma once

#include "reports/trace/trace.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace interleave::reports {

/// One scenario of a gate run.
struct GateCase {
  std::string scenario;  ///< the scenario's name (the JUnit test case name)
  std::string file;      ///< the scenario file as given to the gate
  std::string expected;  ///< the expectation as the gate states it, e.g. "violation of X"
  std::string actual;    ///< the outcome, e.g. "holds", "violation of X", "incomplete (...)"
  bool passed = false;
  /// Not decided: the gate was interrupted while or before it ran (neither passed nor failed;
  /// JUnit <skipped>). `failure` then says why.
  bool skipped = false;
  std::string failure;  ///< why it failed (or was skipped), one line ("" when passed)
  /// The counterexample files written, one per violated invariant (none if it held).
  std::vector<std::string> counterexample_paths;
  std::uint64_t executions = 0;
  double seconds = 0;  ///< wall time of this scenario
  /// The counterexamples themselves (traces[i] is the file counterexample_paths[i]), for the
  /// Markdown report's diagrams and step lists.
  std::vector<TraceDocument> traces;
  /// The properties the expectation says are violated (sorted; empty unless it expects a
  /// violation): SARIF marks the results of these as suppressed (accepted).
  std::vector<std::string> expected_violations;
  /// counterexample_links[i]: counterexample_paths[i] as a relative link for the summary (the
  /// gate fills it when it writes a --report directory; empty: no links).
  std::vector<std::string> counterexample_links;
  /// counterexample_pages[i]: the HTML page of traces[i] (render_html), relative to the report
  /// directory, for the HTML index (the gate fills it when it writes a --report directory).
  std::vector<std::string> counterexample_pages;
};

/// A property a gate run checks (a SARIF rule).
struct GateRule {
  std::string id;           ///< the property's name, as counterexamples name it
  std::string description;  ///< one sentence ("" when the model gives none)
  friend bool operator==(const GateRule&, const GateRule&) = default;
};

/// A whole gate run: its cases in the order they ran.
struct GateReport {
  std::string name = "interleave gate";  ///< JUnit testsuite name, Markdown title
  std::vector<GateCase> cases;
  /// "" when the gate ran to the end, else e.g. "interrupted by SIGINT": every report says so
  /// (the cases it did not decide are skipped).
  std::string interrupted;
  std::string tool_version;  ///< "interleave X.Y.Z" ("" unknown), the SARIF driver's version
  /// Every property the scenarios can report, sorted by id, each once (the SARIF rules).
  std::vector<GateRule> rules;

  /// The cases that ran and did not meet their expectation.
  std::size_t failed() const {
    std::size_t n = 0;
    for (const GateCase& c : cases)
      n += !c.skipped && !c.passed;
    return n;
  }
  /// The cases not decided (an interrupted gate).
  std::size_t skipped() const {
    std::size_t n = 0;
    for (const GateCase& c : cases)
      n += c.skipped;
    return n;
  }
};

/// JUnit XML (UTF-8, with an XML declaration, trailing newline).
std::string render_junit(const GateReport& report);

/// The Markdown report (GitHub/GitLab flavoured: tables and ```mermaid blocks).
std::string render_markdown_report(const GateReport& report);

/// The CI run's summary (Markdown; see above).
std::string render_summary(const GateReport& report);

/// The report directory's index.html (reports/render/render_html.cpp): one self-contained page, a totals
/// line, then one table of every scenario, failed ones first (otherwise in run order): scenario
/// (and file) | expected | actual | executions | result | counterexamples, each counterexample a
/// link to its page (counterexample_pages) named by its violation. No timings: byte-identical for
/// identical outcomes. All text escaped.
std::string render_html_index(const GateReport& report);

/// GitHub workflow annotations (see above), one line each.
std::string render_github_annotations(const GateReport& report);

/// SARIF 2.1.0 (JSON, two-space indented, trailing newline; reports/gate/gate_sarif.cpp).
std::string render_sarif(const GateReport& report);

/// The JUnit classname of a scenario file (see above).
std::string junit_classname(const std::string& file);

}  // namespace interleave::reports
