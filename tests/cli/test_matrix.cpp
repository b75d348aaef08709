// `interleave matrix`: every scenario under every combination of policies, one table.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

TEST_CASE(
    "matrix: rows are the combinations, a row where every scenario holds is marked, and "
    "the smallest change is named",
    "[matrix]") {
  const std::string racy = test_scenario("racy.json");
  const std::string locked = test_scenario("locked.json");
  const auto r = run_cli({"matrix", racy, locked, "--vary", "counter.lock=false,true"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out ==
        "   policy              change     counter-racy  counter-locked\n"
        "   counter.lock=false  no change  violation 1   violation 1\n"
        "*  counter.lock=true   lock=true  holds         holds\n"
        "* every scenario holds; violated: 1 counter == total\n"
        "the smallest change from the first value of each --vary that makes every scenario "
        "hold: lock=true (counter.lock=true)\n");
  // Deterministic: the same command prints the same bytes.
  CHECK(run_cli({"matrix", racy, locked, "--vary", "counter.lock=false,true"}).out == r.out);
}

TEST_CASE("matrix: JSON and Markdown carry the same table", "[matrix]") {
  const std::string racy = test_scenario("racy.json");
  const auto j = run_cli({"matrix", racy, "--vary", "counter.lock=false,true", "--vary",
                          "counter.workers=2,3", "--format", "json"});
  CHECK(j.code == 0);
  const json doc = json::parse(j.out);
  CHECK(doc["scenarios"] == json::array({"counter-racy"}));
  REQUIRE(doc["rows"].size() == 4);  // the first --vary slowest
  CHECK(doc["rows"][0]["policy"] == "counter.lock=false counter.workers=2");
  CHECK(doc["rows"][1]["policy"] == "counter.lock=false counter.workers=3");
  CHECK(doc["rows"][2]["policy"] == "counter.lock=true counter.workers=2");
  CHECK(doc["rows"][0]["cells"][0] ==
        json::parse(R"({"verdict":"violation","violated":["counter == total"]})"));
  CHECK(doc["rows"][2]["all_hold"] == true);
  CHECK(doc["rows"][2]["changes"] == json::parse(R"({"lock":true})"));
  CHECK(doc["rows"][3]["changes"] == json::parse(R"({"lock":true,"workers":3})"));
  CHECK(doc["smallest_change"] == "counter.lock=true counter.workers=2");
  const auto md =
      run_cli({"matrix", racy, "--vary", "counter.lock=false,true", "--format", "markdown"});
  CHECK(md.out ==
        "| | policy | change from the first values | counter-racy |\n"
        "|---|---|---|---|\n"
        "|  | `counter.lock=false` | no change | violation: counter == total |\n"
        "| **✓** | `counter.lock=true` | lock=true | holds |\n"
        "\n"
        "the smallest change from the first value of each --vary that makes every scenario "
        "hold: lock=true (counter.lock=true).\n");
}

TEST_CASE("matrix: a violation whose search a budget cut says its list may be partial",
          "[matrix]") {
  // The scenario asks for every violated property (all_violations); 200 executions find two of
  // its four, the whole search finds all four.
  std::string h2 = INTERLEAVE_SOURCE_DIR;  // the StarRocks model's: the binary runs it
  h2 += "/scenarios/h2-run-only-sync-task-run.json";
  const std::vector<std::string> base = {"matrix", h2, "--presets", "pr-79339"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = base;
    args.insert(args.end(), more.begin(), more.end());
    return run_binary(args);
  };
  const auto cut = with({"--max-executions", "200", "--format", "json"});
  const json c = json::parse(cut.out)["rows"][0]["cells"][0];
  CHECK(c["verdict"] == "violation");
  CHECK(c["violated"].size() == 2);
  CHECK(c["cut"] == true);
  CHECK_THAT(with({"--max-executions", "200"}).out, Catch::Contains("violation 1,2 (cut)"));
  CHECK_THAT(with({"--max-executions", "200", "--format", "markdown"}).out,
             Catch::Contains(" (search cut: maybe more) |"));
  const json whole = json::parse(with({"--format", "json"}).out)["rows"][0]["cells"][0];
  CHECK(whole["violated"].size() == 4);
  CHECK(!whole.contains("cut"));
  CHECK_THAT(with({}).out, !Catch::Contains("(cut)"));
}

TEST_CASE("matrix: bad input is reported before anything runs (exit 2)", "[matrix][errors]") {
  const std::string racy = test_scenario("racy.json");
  const auto bad = run_cli({"matrix", racy, "--vary", "counter.lock=false,3"});
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK_THAT(bad.err, Catch::Contains(racy + ": /counter/lock: ") &&
                          Catch::Contains("(set by --set counter.lock=3)"));
  const auto syntax = run_cli({"matrix", racy, "--vary", "counter.lock"});
  CHECK(syntax.code == 2);
  CHECK_THAT(syntax.err, Catch::Contains("--vary 'counter.lock': expected PATH=A,B,..."));
  const auto nothing = run_cli({"matrix", racy});
  CHECK(nothing.code == 2);
  CHECK_THAT(nothing.err, Catch::Contains("nothing to vary"));
  // The test model's presets set its section "counter": locked makes the racy scenario hold.
  const auto presets = run_cli({"matrix", racy, "--presets", "all"});
  INFO(presets.err);
  CHECK(presets.code == 0);
  CHECK_THAT(presets.out, Catch::Contains("racy") && Catch::Contains("locked") &&
                              Catch::Contains("lock=true"));
  const auto unknown = run_cli({"matrix", racy, "--presets", "nope"});
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("--presets: unknown preset 'nope'"));
  // No row makes every scenario hold: exit 1.
  const auto none = run_cli({"matrix", racy, "--vary", "counter.workers=2,3"});
  CHECK(none.code == 1);
  CHECK_THAT(none.out, Catch::EndsWith("no policy tried makes every scenario hold\n"));
}
