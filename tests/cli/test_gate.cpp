// `interleave gate`: expectations per scenario, the summary, JUnit XML and the Markdown report;
// a deliberately broken expectation fails the gate.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

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

TEST_CASE("gate: --github, --sarif and --summary report a failing run", "[gate][ci]") {
  TempDir tmp;  // the scenarios (a directory the gate searches for *.json)
  TempDir out;  // what the gate writes
  copy_test_scenarios(tmp);
  std::string racy = read_file(tmp / "racy.json");
  const auto at = racy.find("\"expect\"");
  REQUIRE(at != std::string::npos);
  write_file(tmp / "racy.json",
             racy.substr(0, at) + R"("expect": {"verdict": "holds", "reached": ["both inside"]}})");
  const std::vector<std::string> args{"gate",       tmp.path().string(), "--github",
                                      "--sarif",    out / "gate.sarif",  "--summary",
                                      out / "summary.md", "--report",    out / "report"};
  const auto r = run_cli(args);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  // One annotation, on the scenario file, just before the summary line.
  CHECK_THAT(r.out, Catch::Contains("\n::error file=" + (tmp / "racy.json") +
                                    ",title=interleave gate%3A counter-racy::"));
  std::size_t errors = 0;
  for (std::size_t p = 0; (p = r.out.find("::error ", p)) != std::string::npos; ++p)
    ++errors;
  CHECK(errors == 1);
  CHECK_THAT(r.out, Catch::Contains("expected verdict 'holds', got 'violation'"));
  CHECK_THAT(r.out, Catch::Contains("%0Aexpected: holds"));
  CHECK(r.out.find("::error") < r.out.find("gate: 3 of 4 scenarios"));

  // SARIF: a result per counterexample (racy, deadlock, failing twice) plus the failed
  // expectation; only racy's counterexample is not expected.
  const std::string sarif = read_file(out / "gate.sarif");
  const nlohmann::json log = nlohmann::json::parse(sarif);
  CHECK(log["version"] == "2.1.0");
  const nlohmann::json& results = log["runs"][0]["results"];
  CHECK(results.size() == 5);
  std::size_t suppressed = 0;
  for (const auto& result : results)
    if (result.contains("suppressions")) ++suppressed;
  CHECK(suppressed == 3);
  std::vector<std::string> rules;
  for (const auto& rule : log["runs"][0]["tool"]["driver"]["rules"])
    rules.push_back(rule["id"]);
  CHECK(std::count(rules.begin(), rules.end(), "counter == total") == 1);
  CHECK(std::count(rules.begin(), rules.end(), "deadlock") == 1);
  CHECK(rules.back() == "interleave.expectation");

  // The summary: the failure first, its counterexample a link relative to the report directory.
  const std::string summary = read_file(out / "summary.md");
  CHECK(summary.starts_with("## interleave gate: 1 of 4 scenarios does not meet its "
                            "expectation\n"));
  CHECK(summary.find("counter-racy") < summary.find("counter-locked"));
  CHECK_THAT(summary, Catch::Contains("](counter-racy"));
  CHECK(summary.find("](/") == std::string::npos);

  // The same run again: the same SARIF, byte for byte.
  const auto again = run_cli(args);
  CHECK(again.code == 1);
  CHECK(read_file(out / "gate.sarif") == sarif);
}

TEST_CASE("gate: --github prints nothing more when every scenario passes", "[gate][ci]") {
  TempDir tmp;
  TempDir out;
  copy_test_scenarios(tmp);
  const auto plain = run_cli({"gate", tmp.path().string(), "--out", out / "plain"});
  const auto github = run_cli({"gate", tmp.path().string(), "--out", out / "github", "--github"});
  CHECK(plain.code == 0);
  CHECK(github.code == 0);
  CHECK(github.out.find("::") == std::string::npos);
  CHECK(github.out.size() == plain.out.size());  // only the times may differ
}

TEST_CASE("gate: an unusable or shared --sarif or --summary file is exit 2 and runs nothing", "[gate][ci]") {
  TempDir tmp;
  copy_test_scenarios(tmp);
  std::filesystem::create_directory(tmp.path() / "dir");
  write_file(tmp / "file", "x");
  struct Bad {
    std::string option, path, message;
  };
  for (const Bad& bad : {Bad{"--sarif", tmp / "dir", "--sarif: '" + (tmp / "dir") + "'"},
                         Bad{"--summary", tmp / "dir", "--summary: '" + (tmp / "dir") + "'"},
                         Bad{"--sarif", tmp / "file/gate.sarif", "--sarif: cannot create"},
                         Bad{"--summary", tmp / "file/s.md", "--summary: cannot create"},
                         Bad{"--summary", tmp / "r/report.md",
                             "--report: '" + (tmp / "r/report.md") + "' is also the file of "
                             "--summary"},
                         Bad{"--sarif", tmp / "s.md", "--summary: '" + (tmp / "s.md") +
                             "' is also the file of --sarif"}}) {
    INFO(bad.option << " " << bad.path);
    std::vector<std::string> args{"gate", tmp.path().string(), "--out", tmp / "out", bad.option,
                                  bad.path};
    if (bad.message.find("is also the file of --summary") != std::string::npos)
      args.insert(args.end(), {"--report", tmp / "r"});
    if (bad.message.find("is also the file of --sarif") != std::string::npos)
      args.insert(args.end(), {"--summary", tmp / "s.md"});
    const auto r = run_cli(args);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains(bad.message));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.empty());
    CHECK(!std::filesystem::exists(tmp.path() / "out"));
  }
}
