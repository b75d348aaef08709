// The gate's reports: JUnit XML (exact, and parsed by xmllint) and the Markdown report (summary
// table, one mermaid block per counterexample, step lists), with adversarial scenario names.
#include "reports/gate_report.hpp"
#include "reports/render.hpp"
#include "tests/reports/helpers.hpp"
#include "tests/reports/mermaid_check.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

using namespace interleave;
using namespace interleave::reports;

namespace {

// Three scenarios: an expected violation (pass), an unexpected one (fail), a holds (pass).
GateReport small_report() {
  GateReport r;
  GateCase a;
  a.scenario = "lost-update";
  a.file = "scenarios/lost-update.json";
  a.expected = "violation of counter == 2";
  a.actual = "violation of counter == 2";
  a.passed = true;
  a.counterexample_paths = {"out/lost-update.trace.json"};
  a.executions = 2;
  a.seconds = 0.0125;
  a.traces = {test::explore_to_document(test::lost_update(), "lost-update")};
  r.cases.push_back(std::move(a));
  GateCase b;
  b.scenario = "locked-pair";
  b.file = "./scenarios/races/locked-pair.json";
  b.expected = "holds";
  b.actual = "violation of x == y";
  b.passed = false;
  b.failure = "expected holds, got violation of x == y";
  b.counterexample_paths = {"out/locked-pair.trace.json"};
  b.executions = 7;
  b.seconds = 1.5;
  b.traces = {test::explore_to_document(test::locked_pair_race(), "locked-pair")};
  r.cases.push_back(std::move(b));
  GateCase c;
  c.scenario = "with-mutex";
  c.file = "scenarios/with-mutex.json";
  c.expected = "holds";
  c.actual = "holds";
  c.passed = true;
  c.executions = 12;
  c.seconds = 0.25;
  r.cases.push_back(std::move(c));
  return r;
}

// A failing case whose every text is hostile to XML and Markdown.
GateReport adversarial_report() {
  GateReport r;
  r.name = "gate <&> \"suite\"";
  GateCase c;
  c.scenario = "a|b *c* _d_ <e> [f](g) $x$ `h` ]]> & \x01 \xff";
  c.file = "scenarios/we|rd & <odd>.json";
  c.expected = "holds | never";
  c.actual = "violation of <x>";
  c.passed = false;
  c.failure = "expected \"holds\",\ngot 'violation' & <more>";
  c.counterexample_paths = {"out/a|b <c>.json"};
  c.executions = 1;
  c.seconds = 0.001;
  c.traces = {test::adversarial_document()};
  r.cases.push_back(std::move(c));
  GateCase empty;  // a failed case with no message at all
  empty.scenario = "no-message";
  r.cases.push_back(std::move(empty));
  return r;
}

std::string xpath(const std::string& file, const std::string& expression) {
  std::string out;
  REQUIRE(test::run_command("xmllint --xpath '" + expression + "' '" + file + "'", out) == 0);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Table cells of a Markdown table row: splits at '|' not preceded by a backslash.
std::size_t unescaped_pipes(const std::string& line) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++n;
  return n;
}

// The contents of each ```mermaid block.
std::vector<std::string> mermaid_blocks(const std::string& md) {
  std::vector<std::string> blocks;
  std::size_t at = 0;
  while ((at = md.find("```mermaid\n", at)) != std::string::npos) {
    const std::size_t begin = at + 11;
    const std::size_t end = md.find("\n```\n", begin);
    REQUIRE(end != std::string::npos);
    blocks.push_back(md.substr(begin, end + 1 - begin));
    at = end;
  }
  return blocks;
}

}  // namespace

TEST_CASE("JUnit XML of a gate run, exactly", "[gate][junit]") {
  const std::string expected = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="interleave gate" tests="3" failures="1" errors="0" time="1.763">
  <testsuite name="interleave gate" tests="3" failures="1" errors="0" skipped="0" time="1.763">
    <testcase classname="scenarios.lost-update" name="lost-update" file="scenarios/lost-update.json" time="0.013">
      <system-out>expected: violation of counter == 2
actual: violation of counter == 2
executions: 2
counterexample: out/lost-update.trace.json</system-out>
    </testcase>
    <testcase classname="scenarios.races.locked-pair" name="locked-pair" file="./scenarios/races/locked-pair.json" time="1.500">
      <failure message="expected holds, got violation of x == y" type="expectation">expected holds, got violation of x == y
expected: holds
actual: violation of x == y
executions: 7
counterexample: out/locked-pair.trace.json</failure>
      <system-out>expected: holds
actual: violation of x == y
executions: 7
counterexample: out/locked-pair.trace.json</system-out>
    </testcase>
    <testcase classname="scenarios.with-mutex" name="with-mutex" file="scenarios/with-mutex.json" time="0.250">
      <system-out>expected: holds
actual: holds
executions: 12</system-out>
    </testcase>
  </testsuite>
</testsuites>
)";
  CHECK(render_junit(small_report()) == expected);
}

TEST_CASE("JUnit classnames come from the scenario file", "[gate][junit]") {
  CHECK(junit_classname("scenarios/seed.json") == "scenarios.seed");
  CHECK(junit_classname("./scenarios//races/x.y.json") == "scenarios.races.x.y");
  CHECK(junit_classname("/abs/path/s.json") == "abs.path.s");
  CHECK(junit_classname("dir.d/noext") == "dir.d.noext");
  CHECK(junit_classname(".hidden") == ".hidden");
  CHECK(junit_classname("") == "interleave");
}

TEST_CASE("JUnit XML parses with xmllint and carries counts and messages",
          "[gate][junit][xmllint]") {
  if (!test::have_tool("xmllint")) {
    WARN("xmllint (libxml2-utils) is not installed: the JUnit XML was not parsed");
    return;
  }
  SECTION("the small report") {
    const test::TempFile f("junit.xml", render_junit(small_report()));
    std::string out;
    CHECK(test::run_command("xmllint --noout '" + f.path() + "'", out) == 0);
    CHECK(out.empty());
    CHECK(xpath(f.path(), "count(/testsuites/testsuite/testcase)") == "3");
    CHECK(xpath(f.path(), "string(/testsuites/testsuite/@tests)") == "3");
    CHECK(xpath(f.path(), "string(/testsuites/testsuite/@failures)") == "1");
    CHECK(xpath(f.path(), "count(//testcase/failure)") == "1");
    CHECK(xpath(f.path(), "string(//testcase[failure]/@name)") == "locked-pair");
    CHECK(xpath(f.path(), "string(//testcase[@name=\"locked-pair\"]/failure/@message)") ==
          "expected holds, got violation of x == y");
    CHECK(xpath(f.path(), "string(//testcase[@name=\"with-mutex\"]/@time)") == "0.250");
  }
  SECTION("hostile names, messages and paths") {
    const test::TempFile f("junit-adversarial.xml", render_junit(adversarial_report()));
    std::string out;
    CHECK(test::run_command("xmllint --noout '" + f.path() + "'", out) == 0);
    CHECK(out.empty());
    CHECK(xpath(f.path(), "string(/testsuites/@name)") == "gate <&> \"suite\"");
    CHECK(xpath(f.path(), "string(//testcase[1]/@name)") ==
          "a|b *c* _d_ <e> [f](g) $x$ `h` ]]> & \xEF\xBF\xBD \xEF\xBF\xBD");
    // The newline of the message survives in the attribute (written as &#10;).
    CHECK(xpath(f.path(), "string(//testcase[1]/failure/@message)") ==
          "expected \"holds\",\ngot 'violation' & <more>");
    CHECK(xpath(f.path(), "string(//testcase[2]/failure/@message)") ==
          "the expectation was not met");
    CHECK(xpath(f.path(), "string(/testsuites/@failures)") == "2");
  }
}

TEST_CASE("Markdown report: the summary table, failures, a mermaid block per counterexample",
          "[gate][markdown]") {
  const GateReport report = small_report();
  const std::string md = render_markdown_report(report);
  const std::string head = R"(# interleave gate

3 scenarios: 2 passed, 1 failed.

| scenario | expected | actual | executions | time | result |
|---|---|---|---:|---:|---|
| lost-update | violation of counter == 2 | violation of counter == 2 | 2 | 0.013 s | pass |
| locked-pair | holds | violation of x == y | 7 | 1.500 s | **FAIL** |
| with-mutex | holds | holds | 12 | 0.250 s | pass |

## Failures

- **locked-pair** (./scenarios/races/locked-pair.json): expected holds, got violation of x == y. Counterexample: out/locked-pair.trace.json

## Counterexamples

### lost-update: counter == 2

**Violation:** counter == 2 violated after the last step: counter is 1 after two increments

Counterexample file: out/lost-update.trace.json

```mermaid
)";
  CHECK(md.substr(0, head.size()) == head);

  const std::vector<std::string> blocks = mermaid_blocks(md);
  REQUIRE(blocks.size() == 2);  // with-mutex has no counterexample
  CHECK(blocks[0] == render_mermaid(report.cases[0].traces.at(0)));
  CHECK(blocks[1] == render_mermaid(report.cases[1].traces.at(0)));
  for (const std::string& b : blocks)
    CHECK_NOTHROW(test::parse_mermaid(b));

  const std::string steps = R"(| step | actor | label | accesses | what happened |
|---:|---|---|---|---|
| 0 | Writer1 | lock | acquire m | - |
| 1 | Writer1 | set x | write x | write x = 1 |
| 2 | Writer1 | set y | write y | write y = 1 |
| 3 | Writer1 | unlock | release m | - |
| 4 | Writer2 | lock | acquire m | - |
| 5 | Writer2 | set x | write x | write x = 2 |
| 6 | Auditor | read x | read x | read x = 2 |
| **=> 7** | Auditor | read y | read y | read y = 1 |
)";
  CHECK(md.size() >= steps.size());
  CHECK(md.substr(md.size() - steps.size()) == steps);
  CHECK(md.find("### locked-pair: x == y\n") != std::string::npos);
}

TEST_CASE("Markdown report escapes hostile text without breaking tables or diagrams",
          "[gate][markdown]") {
  const GateReport report = adversarial_report();
  const std::string md = render_markdown_report(report);
  INFO(md);
  // Every table row keeps its cells: 7 pipes in the summary, 6 in the step list.
  std::istringstream in(md);
  std::string line;
  std::size_t summary_rows = 0;
  std::size_t step_rows = 0;
  bool in_mermaid = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) in_mermaid = !in_mermaid;
    if (in_mermaid) continue;
    for (std::size_t i = 0; i < line.size(); ++i)  // no HTML outside the diagrams
      if (line[i] == '<') CHECK((i > 0 && line[i - 1] == '\\'));
    if (line.empty() || line[0] != '|') continue;
    const std::size_t pipes = unescaped_pipes(line);
    CHECK((pipes == 7 || pipes == 6));
    (pipes == 7 ? summary_rows : step_rows)++;
  }
  CHECK(summary_rows == 4);  // header, rule, two cases
  CHECK(step_rows == 8);     // header, rule, six steps
  CHECK(md.find("a\\|b \\*c\\* \\_d\\_ \\<e\\> \\[f\\](g) \\$x\\$ \\`h\\` \\]\\]\\> \\&") !=
        std::string::npos);
  CHECK(md.find("| \\<script\\>alert(1)\\</script\\> |") != std::string::npos);
  CHECK(md.find('\x01') == std::string::npos);
  const std::vector<std::string> blocks = mermaid_blocks(md);
  REQUIRE(blocks.size() == 1);
  CHECK_NOTHROW(test::parse_mermaid(blocks[0]));
  CHECK(md.find("- **no-message** (-): the expectation was not met\n") != std::string::npos);
}

TEST_CASE("gate reports are pure functions of their input", "[gate]") {
  CHECK(render_junit(small_report()) == render_junit(small_report()));
  CHECK(render_markdown_report(small_report()) == render_markdown_report(small_report()));
  CHECK(render_markdown_report(GateReport{}) ==
        "# interleave gate\n\n0 scenarios: 0 passed, 0 failed.\n\n"
        "| scenario | expected | actual | executions | time | result |\n"
        "|---|---|---|---:|---:|---|\n");
}
