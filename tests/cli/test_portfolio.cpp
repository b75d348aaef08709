// The portfolio through the binary: a scenario that names no strategy runs it (summary, JSON,
// traces that replay), a strategy named runs alone, the output does not depend on the threads
// (check and gate), a shard runs the portfolio's DPOR member alone, and the what-if of issue 13
// falls to a bug finder in the first round.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace interleave::test;
using nlohmann::json;

namespace {

const std::string kScenarios = std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios/";
const std::string kSeed = kScenarios + "seed-pr-79339.json";
const std::string kHolds = kScenarios + "register-then-start-sync-and-client.json";

json summary(const CliResult& r) {
  INFO(r.err);
  json j = json::parse(r.out);
  for (json& s : j["scenarios"]) {
    s["stats"].erase("elapsed_seconds");
    s["stats"].erase("worker_executions");
    for (json& c : s["counterexamples"])
      c.erase("trace");  // the output directory differs
  }
  return j;
}

// A trace with its wall time taken out (the only thing that varies between runs).
json trace_without_time(const std::string& path) {
  json t = json::parse(read_file(path));
  t["stats"].erase("elapsed_seconds");
  return t;
}

}  // namespace

TEST_CASE("check: a scenario that names no strategy runs the portfolio", "[cli][portfolio]") {
  TempDir tmp;
  const CliResult r = run_binary({"check", kSeed, "--json", "--out", tmp / "out"});
  CHECK(r.code == 1);
  const json s = summary(r)["scenarios"][0];
  CHECK(s["strategy"] == "portfolio");
  CHECK(s["options"]["strategy"] == "portfolio");
  CHECK(s["verdict"] == "violation");
  REQUIRE(s.contains("portfolio"));
  CHECK(s["portfolio"]["members"].size() == interleave::default_portfolio().size());
  CHECK(s["portfolio"]["members"][0]["label"] == "dpor");
  REQUIRE(s["portfolio"]["found_by"].size() == s["counterexamples"].size());
  const json& found = s["portfolio"]["found_by"][0];
  CHECK(found["round"] >= 1);
  // The sum of the members' executions is the search's.
  std::uint64_t executions = 0;
  for (const json& m : s["portfolio"]["members"])
    executions += m["stats"]["executions"].get<std::uint64_t>();
  CHECK(s["stats"]["executions"] == executions);
  // Its trace names the member and replays (exit 1: the violation reproduces).
  const std::string trace = json::parse(r.out)["scenarios"][0]["counterexamples"][0]["trace"];
  const json doc = json::parse(read_file(trace));
  CHECK(doc["strategy"] == "portfolio: " + found["member"].get<std::string>());
  CHECK(run_binary({"replay", trace, "--quiet"}).code == 1);
  // The text summary says which member found it, in which round.
  const CliResult text = run_binary({"check", kSeed, "--out", tmp / "out"});
  CHECK_THAT(text.out, Catch::Contains("  portfolio: "));
  CHECK_THAT(text.out, Catch::Contains(" found by " + found["member"].get<std::string>() +
                                       " in round " + std::to_string(found["round"].get<int>())));
}

TEST_CASE("check: a strategy named runs alone", "[cli][portfolio]") {
  TempDir tmp;
  const json s = summary(run_binary(
      {"check", kHolds, "--strategy", "dpor", "--json", "--out", tmp / "out"}))["scenarios"][0];
  CHECK(s["strategy"] == "dpor");
  CHECK_FALSE(s.contains("portfolio"));
  // The portfolio holds where DPOR alone holds, with DPOR's trace count in its DPOR member.
  const json p =
      summary(run_binary({"check", kHolds, "--json", "--out", tmp / "out"}))["scenarios"][0];
  CHECK(p["verdict"] == "holds");
  CHECK(s["verdict"] == "holds");
  CHECK(p["detail"] == s["detail"]);
  CHECK(p["portfolio"]["members"][0]["stats"]["completed"] == s["stats"]["completed"]);
  CHECK(p["stats"]["executions"] > s["stats"]["executions"]);  // the bug finders ran too
}

TEST_CASE("check and gate: the portfolio's output does not depend on the threads",
          "[cli][portfolio]") {
  TempDir tmp;
  // check --jobs N (N > 1) splits DPOR at the depth chosen for the scenario once the bug finders
  // are over (it is handed over); the output is the same for 2 and 4 threads.
  for (const std::string& file : {kSeed, kHolds}) {
    const CliResult two = run_binary(
        {"check", file, "--json", "--all-violations", "--jobs", "2", "--out", tmp / "a"});
    const CliResult four = run_binary(
        {"check", file, "--json", "--all-violations", "--jobs", "4", "--out", tmp / "b"});
    CHECK(summary(two) == summary(four));
    CHECK(two.code == four.code);
  }
  // A search longer than the bug finders' caps is handed over to the split search.
  const json handed = summary(run_binary({"check", kHolds, "--json", "--jobs", "2",
                                          "--portfolio-executions", "100", "--out",
                                          tmp / "a"}))["scenarios"][0];
  CHECK(handed["options"]["portfolio_executions"] == 100);
  for (std::size_t i = 1; i < handed["portfolio"]["members"].size(); ++i)
    CHECK(handed["portfolio"]["members"][i]["stats"]["executions"] <= 100);
  CHECK(handed["portfolio"]["handed_over"] == true);
  CHECK(handed["verdict"] == "holds");
  CHECK(handed["split"]["prefixes"] >= 8);
  // The gate: the rounds on 1 or 2 threads, the same traces.
  for (const char* jobs : {"1", "2"}) {
    const CliResult g =
        run_binary({"gate", kSeed, kHolds, kScenarios + "h10-atomic-add-still-leaks.json",
                    "--quiet", "--jobs", jobs, "--out", tmp / ("gate-" + std::string(jobs))});
    CHECK(g.code == 0);
  }
  const auto files = list_dir(tmp / "gate-1");
  CHECK(files.size() >= 6);
  CHECK(files == list_dir(tmp / "gate-2"));
  for (const std::string& f : files) {
    INFO(f);
    CHECK(trace_without_time(tmp / ("gate-1/" + f)) == trace_without_time(tmp / ("gate-2/" + f)));
  }
}

TEST_CASE("check --shard: the portfolio's DPOR member runs alone", "[cli][portfolio]") {
  TempDir tmp;
  const json s = summary(run_binary(
      {"check", kHolds, "--shard", "1/2", "--json", "--out", tmp / "out"}))["scenarios"][0];
  CHECK(s["options"]["strategy"] == "dpor");
  CHECK(s["strategy"] == "dpor");
  CHECK_FALSE(s.contains("portfolio"));
  CHECK(s["split"]["shard"]["count"] == 2);
}

TEST_CASE("check: the what-if of two async runs and a follower client falls in the second round",
          "[cli][portfolio]") {
  // DPOR alone does not find its first counterexample in a minute (bench_portfolio).
  TempDir tmp;
  const std::string file = tmp / "what-if.json";
  std::ofstream(file) << R"({
    "name": "what-if",
    "model": "starrocks-temp-tables",
    "cluster": {"frontends": 2},
    "actors": {
      "cleaner": {"passes": 2},
      "task_runs": [{"name": "t1"}, {"name": "t2"}],
      "clients": [{"name": "c1", "frontend": "fe2"}]
    },
    "policy": {"preset": "pr-79339-register-then-start"}
  })";
  const CliResult r = run_binary({"check", file, "--json", "--out", tmp / "out"});
  CHECK(r.code == 1);
  const json s = summary(r)["scenarios"][0];
  REQUIRE(s["portfolio"]["found_by"].size() == 1);
  CHECK(s["portfolio"]["found_by"][0]["round"] == 2);
  CHECK(s["portfolio"]["found_by"][0]["member"] != "dpor");
  CHECK(s["portfolio"]["rounds"] == 2);
  CHECK(s["stats"]["executions"] < 2000);
}
