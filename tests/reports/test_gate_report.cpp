// The gate's reports: JUnit XML (exact, and parsed by xmllint) and the Markdown report (summary
// table, one mermaid block per counterexample, step lists), with adversarial scenario names.
#include "reports/gate/gate_report.hpp"
#include "reports/render/render.hpp"
#include "tests/reports/helpers.hpp"
#include "tests/reports/mermaid_check.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
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
    <testcase classname="scenarios.lost-update" name="lost-update" time="0.013">
      <system-out>file: scenarios/lost-update.json
expected: violation of counter == 2
actual: violation of counter == 2
executions: 2
counterexample: out/lost-update.trace.json</system-out>
    </testcase>
    <testcase classname="scenarios.races.locked-pair" name="locked-pair" time="1.500">
      <failure message="expected holds, got violation of x == y" type="expectation">expected holds, got violation of x == y
file: ./scenarios/races/locked-pair.json
expected: holds
actual: violation of x == y
executions: 7
counterexample: out/locked-pair.trace.json</failure>
      <system-out>file: ./scenarios/races/locked-pair.json
expected: holds
actual: violation of x == y
executions: 7
counterexample: out/locked-pair.trace.json</system-out>
    </testcase>
    <testcase classname="scenarios.with-mutex" name="with-mutex" time="0.250">
      <system-out>file: scenarios/with-mutex.json
expected: holds
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

// ---- The CI conventions: JUnit as Jenkins' xunit reads it, SARIF, the summary, annotations ----

namespace {

// The elements and attributes the strict JUnit schema of Jenkins' xunit plugin (junit-10.xsd)
// allows where this renderer writes them: attributes (the required ones marked), child elements.
struct XmlRule {
  std::vector<std::string> required;
  std::vector<std::string> optional;
  std::vector<std::string> children;
};
const std::map<std::string, XmlRule>& xunit_rules() {
  static const std::map<std::string, XmlRule> rules{
      {"testsuites", {{}, {"name", "time", "tests", "failures", "errors"}, {"testsuite"}}},
      {"testsuite",
       {{"name", "tests", "failures", "errors"},
        {"group", "time", "skipped", "timestamp", "hostname", "id", "package", "file", "log",
         "url"},
        {"testsuite", "properties", "testcase", "system-out", "system-err"}}},
      {"testcase",
       {{"name"},
        {"time", "classname", "group"},
        {"skipped", "error", "failure", "rerunFailure", "rerunError", "flakyFailure", "flakyError",
         "system-out", "system-err"}}},
      {"failure", {{}, {"type", "message"}, {}}},
      {"system-out", {{}, {}, {}}},
  };
  return rules;
}

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;  // raw (escaped) values
  std::vector<std::string> children;
};

// The elements of a document written by render_junit, in document order (a small reader for the
// shape it writes: a declaration, elements with double-quoted attributes, text; no comments).
std::vector<XmlElement> xml_elements(const std::string& xml) {
  std::vector<XmlElement> all;
  std::vector<std::size_t> open;
  std::size_t at = 0;
  REQUIRE(xml.starts_with("<?xml "));
  at = xml.find("?>") + 2;
  while ((at = xml.find('<', at)) != std::string::npos) {
    if (xml.compare(at, 2, "</") == 0) {
      const std::size_t end = xml.find('>', at);
      REQUIRE(end != std::string::npos);
      REQUIRE(!open.empty());
      CHECK(xml.substr(at + 2, end - at - 2) == all[open.back()].name);
      open.pop_back();
      at = end + 1;
      continue;
    }
    XmlElement e;
    std::size_t i = at + 1;
    while (i < xml.size() && xml[i] != ' ' && xml[i] != '>' && xml[i] != '/')
      e.name += xml[i++];
    bool closed = false;
    for (;;) {
      while (i < xml.size() && xml[i] == ' ')
        ++i;
      REQUIRE(i < xml.size());
      if (xml[i] == '>') break;
      if (xml.compare(i, 2, "/>") == 0) {
        closed = true;
        ++i;
        break;
      }
      const std::size_t eq = xml.find("=\"", i);
      REQUIRE(eq != std::string::npos);
      const std::size_t close = xml.find('"', eq + 2);
      REQUIRE(close != std::string::npos);
      const std::string name = xml.substr(i, eq - i);
      CHECK(e.attributes.count(name) == 0);  // an attribute at most once
      e.attributes[name] = xml.substr(eq + 2, close - eq - 2);
      i = close + 1;
    }
    if (!open.empty()) all[open.back()].children.push_back(e.name);
    all.push_back(std::move(e));
    if (!closed) open.push_back(all.size() - 1);
    at = i + 1;
  }
  CHECK(open.empty());
  return all;
}

void check_xunit_schema(const std::string& xml) {
  const std::vector<XmlElement> elements = xml_elements(xml);
  REQUIRE(!elements.empty());
  CHECK(elements.front().name == "testsuites");
  for (const XmlElement& e : elements) {
    INFO("element <" << e.name << ">");
    const auto rule = xunit_rules().find(e.name);
    REQUIRE(rule != xunit_rules().end());
    for (const auto& r : rule->second.required)
      CHECK(e.attributes.count(r) == 1);
    for (const auto& [name, value] : e.attributes) {
      INFO("attribute " << name);
      const auto& req = rule->second.required;
      const auto& opt = rule->second.optional;
      CHECK((std::count(req.begin(), req.end(), name) + std::count(opt.begin(), opt.end(), name)) ==
            1);
      if (name == "time" && e.name != "testcase") {  // SUREFIRE_TIME: digits, a fraction
        CHECK(!value.empty());
        CHECK(value.find_first_not_of("0123456789.") == std::string::npos);
      }
    }
    for (const auto& child : e.children) {
      INFO("child <" << child << ">");
      CHECK(std::count(rule->second.children.begin(), rule->second.children.end(), child) == 1);
    }
  }
}

}  // namespace

TEST_CASE("JUnit XML: only the elements and attributes of Jenkins' strict xunit schema",
          "[gate][junit]") {
  for (const GateReport& report : {small_report(), adversarial_report(), GateReport{}}) {
    const std::string xml = render_junit(report);
    check_xunit_schema(xml);
    CHECK(xml.find(" file=") == std::string::npos);  // not on a testcase, nor anywhere else
  }
  // The file moved into the system-out, first line.
  const std::vector<XmlElement> elements = xml_elements(render_junit(small_report()));
  std::size_t testcases = 0;
  for (const XmlElement& e : elements)
    if (e.name == "testcase") {
      ++testcases;
      CHECK(e.attributes.count("classname") == 1);
      CHECK(e.attributes.count("time") == 1);
      CHECK(e.children.back() == "system-out");
    }
  CHECK(testcases == 3);
  CHECK_THAT(render_junit(small_report()),
             Catch::Contains("<system-out>file: ./scenarios/races/locked-pair.json\nexpected: "));
}

namespace {

// small_report() as the gate fills it for SARIF: the properties, the version, what it expects.
GateReport sarif_report() {
  GateReport r = small_report();
  r.tool_version = "interleave 1.2.3";
  r.rules = {{"counter == 2", "the counter counts both increments"},
             {"deadlock", ""},
             {"x == y", "x and y move together"}};
  r.cases[0].expected_violations = {"counter == 2"};
  return r;
}

// The SARIF 2.1.0 objects this log uses, each with the properties its schema requires and the
// ones it allows (every object of SARIF 2.1.0 has additionalProperties false), and what each
// property holds: another object of the table, an array of one, or a JSON type.
struct SarifObject {
  std::vector<std::string> required;
  std::map<std::string, std::string> properties;  // name -> kind ("string", "integer", ...,
                                                  // "object:K", "array:K")
};
const std::map<std::string, SarifObject>& sarif_objects() {
  static const std::map<std::string, SarifObject> objects{
      {"sarifLog",
       {{"version", "runs"},
        {{"$schema", "string"}, {"version", "string"}, {"runs", "array:run"},
         {"properties", "object"}}}},
      {"run",
       {{"tool"},
        {{"tool", "object:tool"}, {"results", "array:result"}, {"properties", "object"}}}},
      {"tool", {{"driver"}, {{"driver", "object:toolComponent"}, {"properties", "object"}}}},
      {"toolComponent",
       {{"name"},
        {{"name", "string"},
         {"version", "string"},
         {"rules", "array:reportingDescriptor"},
         {"properties", "object"}}}},
      {"reportingDescriptor",
       {{"id"},
        {{"id", "string"},
         {"shortDescription", "object:multiformatMessageString"},
         {"properties", "object"}}}},
      {"multiformatMessageString", {{"text"}, {{"text", "string"}, {"properties", "object"}}}},
      {"message", {{"text"}, {{"text", "string"}, {"properties", "object"}}}},
      {"result",
       {{"message"},
        {{"ruleId", "string"},
         {"ruleIndex", "integer"},
         {"level", "string"},
         {"message", "object:message"},
         {"locations", "array:location"},
         {"relatedLocations", "array:location"},
         {"codeFlows", "array:codeFlow"},
         {"suppressions", "array:suppression"},
         {"properties", "object"}}}},
      {"location",
       {{},
        {{"id", "integer"},
         {"physicalLocation", "object:physicalLocation"},
         {"message", "object:message"},
         {"properties", "object"}}}},
      {"physicalLocation",
       {{"artifactLocation"},  // anyOf: address or artifactLocation; this log has no addresses
        {{"artifactLocation", "object:artifactLocation"}, {"properties", "object"}}}},
      {"artifactLocation", {{}, {{"uri", "string"}, {"properties", "object"}}}},
      {"codeFlow",
       {{"threadFlows"},
        {{"message", "object:message"},
         {"threadFlows", "array:threadFlow"},
         {"properties", "object"}}}},
      {"threadFlow",
       {{"locations"},
        {{"id", "string"},
         {"message", "object:message"},
         {"locations", "array:threadFlowLocation"},
         {"properties", "object"}}}},
      {"threadFlowLocation",
       {{},
        {{"location", "object:location"},
         {"executionOrder", "integer"},
         {"importance", "string"},
         {"properties", "object"}}}},
      {"suppression",
       {{"kind"},
        {{"kind", "string"},
         {"status", "string"},
         {"justification", "string"},
         {"properties", "object"}}}},
  };
  return objects;
}

// The enumerations and minimums of the properties this log writes.
void check_sarif_values(const std::string& kind, const nlohmann::json& o) {
  auto one_of = [](const nlohmann::json& v, std::set<std::string> values) {
    return values.count(v.get<std::string>()) == 1;
  };
  if (kind == "sarifLog") CHECK(o["version"] == "2.1.0");
  if (kind == "result" && o.contains("level"))
    CHECK(one_of(o["level"], {"none", "note", "warning", "error"}));
  if (kind == "result" && o.contains("ruleIndex")) CHECK(o["ruleIndex"].get<long>() >= -1);
  if (kind == "threadFlowLocation" && o.contains("importance"))
    CHECK(one_of(o["importance"], {"important", "essential", "unimportant"}));
  if (kind == "threadFlowLocation" && o.contains("executionOrder"))
    CHECK(o["executionOrder"].get<long>() >= -1);
  if (kind == "suppression") {
    CHECK(one_of(o["kind"], {"inSource", "external"}));
    if (o.contains("status")) CHECK(one_of(o["status"], {"accepted", "underReview", "rejected"}));
  }
  if (kind == "location" && o.contains("id")) CHECK(o["id"].get<long>() >= -1);
  if (kind == "codeFlow" || kind == "threadFlow") {  // minItems 1
    CHECK(!o[kind == "codeFlow" ? "threadFlows" : "locations"].empty());
  }
  if (kind == "artifactLocation" && o.contains("uri")) {  // a URI reference: no raw blanks
    const std::string uri = o["uri"].get<std::string>();
    CHECK(uri.find_first_of(" \t\n\"<>\\^`{|}") == std::string::npos);
  }
}

void check_sarif_object(const std::string& kind, const nlohmann::json& o, const std::string& at) {
  INFO(at << " (" << kind << ")");
  REQUIRE(o.is_object());
  const auto def = sarif_objects().find(kind);
  REQUIRE(def != sarif_objects().end());
  for (const auto& r : def->second.required)
    CHECK(o.contains(r));
  for (const auto& [name, value] : o.items()) {
    INFO("property " << name);
    const auto p = def->second.properties.find(name);
    REQUIRE(p != def->second.properties.end());
    const std::string& type = p->second;
    if (type == "string") CHECK(value.is_string());
    if (type == "integer") CHECK(value.is_number_integer());
    if (type == "object") CHECK(value.is_object());
    if (type.starts_with("object:")) check_sarif_object(type.substr(7), value, at + "/" + name);
    if (type.starts_with("array:")) {
      REQUIRE(value.is_array());
      for (std::size_t i = 0; i < value.size(); ++i)
        check_sarif_object(type.substr(6), value[i], at + "/" + name + "/" + std::to_string(i));
    }
  }
  check_sarif_values(kind, o);
}

}  // namespace

TEST_CASE("SARIF log: the structure SARIF 2.1.0 requires", "[gate][sarif]") {
  for (const GateReport& report : {sarif_report(), adversarial_report(), GateReport{}}) {
    const std::string text = render_sarif(report);
    REQUIRE(text.ends_with("}\n"));
    const nlohmann::json log = nlohmann::json::parse(text);
    check_sarif_object("sarifLog", log, "");
    CHECK(log["$schema"].get<std::string>().starts_with("https://"));
    REQUIRE(log["runs"].size() == 1);
    const nlohmann::json& run = log["runs"][0];
    CHECK(run["tool"]["driver"]["name"] == "interleave");
    // rules are unique (uniqueItems), and each result names its rule by id and index.
    const nlohmann::json& rules = run["tool"]["driver"]["rules"];
    std::set<std::string> ids;
    for (const auto& r : rules)
      CHECK(ids.insert(r["id"].get<std::string>()).second);
    for (const auto& result : run["results"]) {
      REQUIRE(result.contains("ruleIndex"));
      CHECK(rules[result["ruleIndex"].get<std::size_t>()]["id"] == result["ruleId"]);
      for (const auto& flow : result.value("codeFlows", nlohmann::json::array())) {
        std::set<std::string> threads;  // threadFlow ids unique within their codeFlow
        for (const auto& t : flow["threadFlows"]) {
          CHECK(threads.insert(t["id"].get<std::string>()).second);
          long last = -1;  // each thread's steps in execution order
          for (const auto& l : t["locations"]) {
            CHECK(l["executionOrder"].get<long>() > last);
            last = l["executionOrder"].get<long>();
          }
        }
      }
    }
  }
}

TEST_CASE("SARIF log: one result per counterexample, a thread flow per actor", "[gate][sarif]") {
  const GateReport report = sarif_report();
  const nlohmann::json run = nlohmann::json::parse(render_sarif(report))["runs"][0];
  const nlohmann::json& driver = run["tool"]["driver"];
  CHECK(driver["version"] == "1.2.3");
  std::vector<std::string> rule_ids;
  for (const auto& r : driver["rules"])
    rule_ids.push_back(r["id"]);
  CHECK(rule_ids ==
        std::vector<std::string>{"counter == 2", "deadlock", "x == y", "interleave.expectation"});
  CHECK(driver["rules"][0]["shortDescription"]["text"] == "the counter counts both increments");
  CHECK(!driver["rules"][1].contains("shortDescription"));

  // lost-update's counterexample, locked-pair's, and locked-pair's failed expectation.
  const nlohmann::json& results = run["results"];
  REQUIRE(results.size() == 3);
  const nlohmann::json& expected = results[0];
  CHECK(expected["ruleId"] == "counter == 2");
  CHECK(expected["ruleIndex"] == 0);
  CHECK(expected["level"] == "error");
  CHECK(expected["message"]["text"] ==
        describe_violation(report.cases[0].traces[0].counterexample, Wording::kReport));
  CHECK(expected["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "scenarios/lost-update.json");
  CHECK(expected["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "out/lost-update.trace.json");
  // The scenario expects it: suppressed, accepted.
  REQUIRE(expected.contains("suppressions"));
  CHECK(expected["suppressions"][0]["kind"] == "inSource");
  CHECK(expected["suppressions"][0]["status"] == "accepted");

  const nlohmann::json& unexpected = results[1];
  CHECK(unexpected["ruleId"] == "x == y");
  CHECK(unexpected["ruleIndex"] == 2);
  CHECK(!unexpected.contains("suppressions"));
  CHECK(unexpected["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "scenarios/races/locked-pair.json");  // "./" normalised away
  // One thread flow per actor, the actors' steps in them, every step exactly once.
  const Counterexample& cx = report.cases[1].traces[0].counterexample;
  const nlohmann::json& flows = unexpected["codeFlows"][0]["threadFlows"];
  std::set<std::string> actors;
  for (const auto& s : cx.steps)
    actors.insert(s.actor);
  CHECK(flows.size() == actors.size());
  std::size_t steps = 0;
  bool essential = false;
  for (const auto& t : flows) {
    for (const auto& l : t["locations"]) {
      const auto index = l["executionOrder"].get<std::size_t>();
      REQUIRE(index < cx.steps.size());
      CHECK(cx.steps[index].actor == t["id"]);
      CHECK_THAT(l["location"]["message"]["text"].get<std::string>(),
                 Catch::StartsWith("step " + std::to_string(index) + " (" + cx.steps[index].actor +
                                   "): "));
      essential = essential || l["importance"] == "essential";
      ++steps;
    }
  }
  CHECK(steps == cx.steps.size());
  CHECK(essential);  // the violating step

  const nlohmann::json& gate = results[2];
  CHECK(gate["ruleId"] == "interleave.expectation");
  CHECK(gate["ruleIndex"] == 3);
  CHECK(gate["message"]["text"] == "locked-pair: expected holds, got violation of x == y");
}

TEST_CASE("SARIF log: byte-identical for identical input, no timings", "[gate][sarif]") {
  GateReport a = sarif_report();
  GateReport b = sarif_report();
  for (auto& c : b.cases)
    c.seconds += 3.5;  // the wall time is no part of the log
  CHECK(render_sarif(a) == render_sarif(b));
  CHECK(render_sarif(adversarial_report()) == render_sarif(adversarial_report()));
  // The hostile texts are valid UTF-8 JSON, the odd path a URI reference.
  const nlohmann::json log = nlohmann::json::parse(render_sarif(adversarial_report()));
  CHECK(log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
           ["uri"] == "scenarios/we%7Crd%20%26%20%3Codd%3E.json");
}

TEST_CASE("summary: failures first, one table, relative links", "[gate][summary]") {
  GateReport report = small_report();
  std::string md = render_summary(report);
  CHECK(md.starts_with("## interleave gate: 1 of 3 scenarios does not meet its expectation\n\n"
                       "2 passed, 1 failed.\n\n### Failures\n\n"
                       "- **locked-pair** (./scenarios/races/locked-pair.json): expected holds, "
                       "got violation of x == y. Counterexamples: out/locked-pair.trace.json\n"));
  const std::string table = md.substr(md.find("### Scenarios"));
  CHECK(table == "### Scenarios\n\n"
                 "| scenario | expected | actual | result | counterexamples |\n"
                 "|---|---|---|---|---|\n"
                 "| locked-pair | holds | violation of x == y | **FAIL** | "
                 "out/locked-pair.trace.json |\n"
                 "| lost-update | violation of counter == 2 | violation of counter == 2 | pass | "
                 "out/lost-update.trace.json |\n"
                 "| with-mutex | holds | holds | pass | - |\n");
  // With links (the gate's --report directory), each counterexample is one.
  report.cases[1].counterexample_links = {"locked pair(1).trace.json"};
  md = render_summary(report);
  CHECK_THAT(md, Catch::Contains("[locked pair(1).trace.json](locked%20pair%281%29.trace.json)"));
  for (const auto& c : report.cases)
    CHECK(unescaped_pipes(md.substr(md.find("| " + c.scenario + " |"),
                                    md.find('\n', md.find("| " + c.scenario + " |")) -
                                        md.find("| " + c.scenario + " |"))) == 6);
  // No timings; nothing failed: no Failures section.
  CHECK(render_summary(small_report()) == render_summary(small_report()));
  GateReport passed;
  passed.cases.push_back(small_report().cases[2]);
  CHECK(render_summary(passed) ==
        "## interleave gate: every scenario meets its expectation\n\n1 passed, 0 failed.\n\n"
        "### Scenarios\n\n| scenario | expected | actual | result | counterexamples |\n"
        "|---|---|---|---|---|\n| with-mutex | holds | holds | pass | - |\n");
}

TEST_CASE("GitHub annotations: one ::error per failed scenario, escaped", "[gate][github]") {
  CHECK(render_github_annotations(small_report()) ==
        "::error file=./scenarios/races/locked-pair.json,title=interleave gate%3A "
        "locked-pair::expected holds, got violation of x == y%0Aexpected: holds%0Aactual: "
        "violation of x == y%0Acounterexample: out/locked-pair.trace.json\n");
  GateReport passed;
  passed.cases.push_back(small_report().cases[0]);
  CHECK(render_github_annotations(passed).empty());
  // % CR LF escaped in the message; those and : , in the properties.
  GateReport hostile;
  GateCase c;
  c.scenario = "a,b:c%d";
  c.file = "dir,x/s:1%.json";
  c.failure = "50% done\r\nnext, then: end";
  c.expected = "holds";
  c.actual = "holds";
  hostile.cases.push_back(c);
  CHECK(render_github_annotations(hostile) ==
        "::error file=dir%2Cx/s%3A1%25.json,title=interleave gate%3A a%2Cb%3Ac%25d::50%25 "
        "done%0D%0Anext, then: end%0Aexpected: holds%0Aactual: holds\n");
  // Exactly one line per failed case.
  const std::string two = render_github_annotations(adversarial_report());
  CHECK(std::count(two.begin(), two.end(), '\n') == 2);
  CHECK(two.find("::error title=gate <&> \"suite\"%3A no-message::") !=
        std::string::npos);  // no file: no file property
}
