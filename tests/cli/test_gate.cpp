// `interleave gate`: expectations per scenario, the summary, JUnit XML and the Markdown report;
// a deliberately broken expectation fails the gate.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace interleave;
using namespace interleave::test;

namespace {

// The four test scenarios copied into `dir` (so that one can be edited).
void copy_test_scenarios(const TempDir& dir) {
  for (const char* f : {"racy.json", "locked.json", "deadlock.json", "failing.json"})
    write_file(dir / f, read_file(test_scenario(f)));
}

bool have(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace

TEST_CASE("gate: every scenario meets its expectation, exit 0", "[gate]") {
  TempDir tmp;
  copy_test_scenarios(tmp);
  const auto r = run_cli(
      {"gate", tmp.path().string(), "--junit", tmp / "gate.xml", "--report", tmp / "report"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK_THAT(r.out, Catch::Contains("gate: 4 of 4 scenarios meet their expectation\n"));
  CHECK_THAT(r.out, Catch::Contains("counter-racy"));
  CHECK_THAT(r.out, Catch::Contains("violation of 'counter == total'"));
  // The report directory holds the Markdown report and the counterexample traces.
  const auto files = list_dir(tmp.path() / "report");
  CHECK(std::count(files.begin(), files.end(), "report.md") == 1);
  CHECK(std::count_if(files.begin(), files.end(), [](const std::string& f) {
          return f.ends_with(".trace.json");
        }) == 4);  // racy, deadlock, failing (two invariants)
  const std::string md = read_file(tmp / "report/report.md");
  CHECK_THAT(md, Catch::Contains("```mermaid"));
  const std::string xml = read_file(tmp / "gate.xml");
  CHECK_THAT(xml, Catch::Contains("tests=\"4\" failures=\"0\""));
  if (have("xmllint")) CHECK(std::system(("xmllint --noout " + (tmp / "gate.xml")).c_str()) == 0);
}

TEST_CASE("gate: a deliberately broken expectation fails the gate, exit 1", "[gate]") {
  TempDir tmp;
  copy_test_scenarios(tmp);
  SECTION("a violation expected to hold") {
    std::string racy = read_file(tmp / "racy.json");
    const auto at = racy.find("\"expect\"");
    REQUIRE(at != std::string::npos);
    racy = racy.substr(0, at) + R"("expect": {"verdict": "holds", "reached": ["both inside"]}})"
                                "\n";
    write_file(tmp / "racy.json", racy);
    const auto r =
        run_cli({"gate", tmp.path().string(), "--junit", tmp / "gate.xml", "--out", tmp / "out"});
    INFO(r.out << r.err);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("gate: 3 of 4 scenarios meet their expectation, 1 do not"));
    CHECK_THAT(r.out, Catch::Contains("FAIL counter-racy"));
    CHECK_THAT(r.out, Catch::Contains("expected verdict 'holds', got 'violation'"));
    const std::string xml = read_file(tmp / "gate.xml");
    CHECK_THAT(xml, Catch::Contains("tests=\"4\" failures=\"1\""));
    CHECK_THAT(xml, Catch::Contains("<failure"));
  }
  SECTION("a scenario without an expectation never passes") {
    std::string locked = read_file(tmp / "locked.json");
    const auto at = locked.find(",\n  \"expect\"");
    REQUIRE(at != std::string::npos);
    write_file(tmp / "locked.json", locked.substr(0, at) + "\n}\n");
    const auto r = run_cli({"gate", tmp.path().string(), "--out", tmp / "out"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("the scenario has no expectation"));
  }
  SECTION("a holds expectation with a goal that is never reached is vacuous") {
    std::string locked = read_file(tmp / "locked.json");
    const auto at = locked.find("\"all done\"");
    REQUIRE(at != std::string::npos);
    locked.replace(at, std::string("\"all done\"").size(), "\"both inside\"");
    write_file(tmp / "locked.json", locked);
    const auto r = run_cli({"gate", tmp.path().string(), "--out", tmp / "out"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("coverage goal 'both inside' was never reached"));
  }
}

TEST_CASE("gate: bad input is exit 2 and writes nothing", "[gate]") {
  TempDir tmp;
  copy_test_scenarios(tmp);
  write_file(tmp / "broken.json",
             R"({"name": "b", "model": "counter", "counter": {}, "expect": {"verdict": "hold"}})");
  const auto r = run_cli(
      {"gate", tmp.path().string(), "--junit", tmp / "gate.xml", "--report", tmp / "report"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("broken.json: /expect/verdict: unknown value 'hold'"));
  CHECK(list_dir(tmp.path()) == std::vector<std::string>{"broken.json", "deadlock.json",
                                                         "failing.json", "locked.json",
                                                         "racy.json"});
}
