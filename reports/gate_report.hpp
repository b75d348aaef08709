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
// skipped/time totals, and one <testcase classname=... name=scenario file=... time=seconds> per
// case. classname is the scenario file without its extension, directories joined by '.'
// ("scenarios/seed.json" -> "scenarios.seed"; "interleave" when there is no file). A failed case
// has <failure type="expectation" message=failure> whose text repeats expected, actual and the
// counterexample paths; every case has a <system-out> with expected, actual, executions and the
// counterexample paths (if any). All text is XML-escaped; characters XML cannot carry become
// U+FFFD.
//
// render_markdown_report: a title and totals line, the summary table (scenario | expected |
// actual | executions | time | result), a "Failures" section listing each failed case with its
// reason, then a "Counterexamples" section with, for each case that has a trace: the violation,
// the counterexample path, a ```mermaid block (render_mermaid) and the readable step list as a
// table (step | actor | label | accesses | what happened, the violating step marked "=>").
// Document text is Markdown-escaped (no accidental emphasis, links, HTML, math or table breaks).
#pragma once

#include "reports/trace.hpp"

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
  std::string failure;  ///< why it failed, one line ("" when passed)
  /// The counterexample files written, one per violated invariant (none if it held).
  std::vector<std::string> counterexample_paths;
  std::uint64_t executions = 0;
  double seconds = 0;  ///< wall time of this scenario
  /// The counterexamples themselves (traces[i] is the file counterexample_paths[i]), for the
  /// Markdown report's diagrams and step lists.
  std::vector<TraceDocument> traces;
};

/// A whole gate run: its cases in the order they ran.
struct GateReport {
  std::string name = "interleave gate";  ///< JUnit testsuite name, Markdown title
  std::vector<GateCase> cases;
};

/// JUnit XML (UTF-8, with an XML declaration, trailing newline).
std::string render_junit(const GateReport& report);

/// The Markdown report (GitHub/GitLab flavoured: tables and ```mermaid blocks).
std::string render_markdown_report(const GateReport& report);

/// The JUnit classname of a scenario file (see above).
std::string junit_classname(const std::string& file);

}  // namespace interleave::reports
