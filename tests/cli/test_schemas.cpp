// The JSON Schemas (draft 2020-12) hold for what we write and ship: every trace these tests
// produce validates against reports/trace/trace.schema.json, every scenario (scenarios/ and the test
// scenarios) against scenarios/scenario.schema.json. Checked by python3's jsonschema
// Draft202012Validator through tests/cli/check_schemas.py.
#include "tests/cli/helpers.hpp"

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace interleave::test;

namespace {

const std::string kSource = INTERLEAVE_SOURCE_DIR;

const char* const kStarRocks = R"({
  "$schema": "../scenarios/scenario.schema.json",
  "name": "seed-like",
  "description": "the seed's shape",
  "model": "starrocks-temp-tables",
  "cluster": {"frontends": 1},
  "actors": {"cleaner": {"passes": 1}, "task_runs": [{"name": "t1", "tablet_rows": "none"}],
             "clients": [{"name": "c1"}]},
  "policy": {"preset": "starrocks-4.1.1"},
  "exploration": {"strategy": "dfs"}
})";

struct Result {
  int code = -1;
  std::string output;
};

// check_schemas.py SCHEMA PATHS...
Result check_schemas(const std::string& schema, const std::vector<std::string>& paths) {
  TempDir tmp;
  std::string cmd =
      "python3 '" + kSource + "/tests/cli/check_schemas.py' '" + kSource + "/" + schema + "'";
  for (const auto& p : paths)
    cmd += " '" + p + "'";
  cmd += " >'" + tmp / "out" + "' 2>&1";
  const int status = std::system(cmd.c_str());
  Result r;
  if (WIFEXITED(status)) r.code = WEXITSTATUS(status);
  r.output = read_file(tmp / "out");
  return r;
}

}  // namespace

TEST_CASE("every trace the tests produce validates against trace.schema.json", "[schema]") {
  TempDir tmp;
  const std::string out = tmp / "traces";
  // Every kind of counterexample: an end-of-execution check, a deadlock, an actor failure, all
  // violations of a scenario, and random walks with seeds.
  for (const char* s : {"racy.json", "deadlock.json", "failing.json"})
    REQUIRE(run_cli({"check", test_scenario(s), "--out", out, "--quiet"}).code == 1);
  REQUIRE(run_cli({"check", test_scenario("racy.json"), "--out", tmp / "random", "--quiet",
                   "--strategy", "random", "--seed", "5", "--all-violations"})
              .code == 1);
  // And a StarRocks counterexample, from the real executable.
  write_file(tmp / "seed.json", kStarRocks);
  const std::string cmd = "'" + std::string(INTERLEAVE_BINARY) + "' check '" + tmp / "seed.json" +
                          "' --quiet --out '" + tmp / "model" + "' >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 1);
  CHECK(list_dir(out).size() == 4);
  CHECK(list_dir(tmp / "random").size() == 1);
  CHECK(list_dir(tmp / "model").size() == 1);
  const Result r = check_schemas("reports/trace/trace.schema.json", {out, tmp / "random", tmp / "model"});
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("6 of 6 document(s) valid"));

  // The schema is not vacuous: an edited trace fails it.
  nlohmann::json bad =
      nlohmann::json::parse(read_file(out + "/counter-racy.counter-total.trace.json"));
  bad["format_version"] = 2;
  bad["steps"][0].erase("label");
  std::filesystem::create_directories(tmp / "bad");
  write_file(tmp / "bad/t.json", bad.dump());
  const Result rb = check_schemas("reports/trace/trace.schema.json", {tmp / "bad"});
  CHECK(rb.code == 1);
  CHECK_THAT(rb.output, Catch::Contains("t.json: /format_version: "));
  CHECK_THAT(rb.output, Catch::Contains("t.json: /steps/0: 'label' is a required property"));
}

TEST_CASE("every scenario validates against scenario.schema.json", "[schema]") {
  const Result r = check_schemas("scenarios/scenario.schema.json",
                                 {kSource + "/scenarios", kSource + "/tests/cli/scenarios"});
  INFO(r.output);
  CHECK(r.code == 0);
  TempDir tmp;
  write_file(tmp / "a.json", R"({"name": "a b", "model": "counter",
                                 "expect": {"verdict": "violation"}})");
  const Result rb = check_schemas("scenarios/scenario.schema.json", {tmp / "a.json"});
  CHECK(rb.code == 1);
  CHECK_THAT(rb.output, Catch::Contains("a.json: /expect: 'invariants' is a required property"));
  CHECK_THAT(rb.output, Catch::Contains("a.json: /name: 'a b' does not match"));

  // A StarRocks scenario: its model sections are checked by model/starrocks/starrocks-temp-tables.schema.json
  // and nothing else may appear at the top level.
  std::filesystem::create_directories(tmp / "sr");
  write_file(tmp / "sr/ok.json", kStarRocks);
  const Result ok = check_schemas("scenarios/scenario.schema.json", {tmp / "sr"});
  INFO(ok.output);
  CHECK(ok.code == 0);
  nlohmann::json typo = nlohmann::json::parse(kStarRocks);
  typo["expcet"] = {{"verdict", "holds"}};
  typo["cluster"]["frontends"] = 9;
  write_file(tmp / "typo.json", typo.dump());
  const Result rt = check_schemas("scenarios/scenario.schema.json", {tmp / "typo.json"});
  CHECK(rt.code == 1);
  CHECK_THAT(rt.output, Catch::Contains("typo.json: /: Unevaluated properties are not allowed"));
  CHECK_THAT(rt.output, Catch::Contains("'expcet'"));
  CHECK_THAT(rt.output, Catch::Contains("typo.json: /cluster/frontends: 9 is greater than the "
                                        "maximum of 3"));
}
