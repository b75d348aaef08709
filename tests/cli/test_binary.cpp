// End-to-end: the real `interleave` executable, its exit codes and its help.
#include "tests/cli/helpers.hpp"

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace interleave::test;

namespace {

using Run = CliResult;

// `base` with a JSON merge patch (RFC 7386) applied, as text.
std::string patched(const char* base, const char* patch) {
  nlohmann::json j = nlohmann::json::parse(base);
  j.merge_patch(nlohmann::json::parse(patch));
  return j.dump();
}

}  // namespace

TEST_CASE("binary: --help and --version", "[binary]") {
  auto r = run_binary({"--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("interleave: a deterministic interleaving explorer"));
  CHECK(r.err.empty());
  for (const char* cmd : {"check", "replay", "show", "validate", "list"}) {
    r = run_binary({cmd, "--help"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("Examples:"));
  }
  r = run_binary({"--version"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("interleave "));
}

TEST_CASE("binary: exit code 2 for usage and input errors, nothing on stdout", "[binary]") {
  TempDir tmp;
  write_file(tmp / "bad.json", "{\"name\": \"x\",");
  for (const std::vector<std::string>& args : {std::vector<std::string>{},
                                               {"nonsense"},
                                               {"check"},
                                               {"check", tmp / "missing.json"},
                                               {"check", tmp / "bad.json"},
                                               {"validate", tmp / "bad.json"},
                                               {"replay", tmp / "bad.json"},
                                               {"show", tmp / "bad.json", "--format", "json"}}) {
    const Run r = run_binary(args);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::StartsWith("error: "));
  }
  const Run r = run_binary({"check", tmp / "bad.json", "--out", tmp / "out"});
  CHECK(r.err == "error: " + tmp / "bad.json" +
                     ": /: malformed JSON: parse error at line 1, column 14: syntax error while "
                     "parsing object key - unexpected end of input; expected string literal\n");
  CHECK(!std::filesystem::exists(tmp / "out"));
}

TEST_CASE("binary: list shows the strategies", "[binary]") {
  const Run r = run_binary({"list"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("strategies:\n"));
  for (const auto& name : interleave::strategy_names())
    CHECK_THAT(r.out, Catch::Contains("\n  " + name));
}

// ---- with the StarRocks model (model/), through the real executable ----

namespace {

// A client session alone: the cleaner never drops a live client's table.
const char* const kClientOnly = R"({
  "name": "client-only",
  "model": "starrocks-temp-tables",
  "actors": {"cleaner": {"passes": 1}, "clients": [{"name": "c1"}]},
  "policy": {"preset": "starrocks-4.1.1"},
  "exploration": {"strategy": "dfs"},
  "expect": {"verdict": "holds", "reached": ["client_session_spared"]}
})";

}  // namespace

TEST_CASE("binary + model: check, replay and show a StarRocks counterexample", "[binary][model]") {
  TempDir tmp;
  write_file(tmp / "seed.json", kSeedLike);
  const Run check = run_binary({"check", tmp / "seed.json", "--out", tmp / "out"});
  INFO(check.out << check.err);
  CHECK(check.code == 1);
  CHECK(check.err.empty());
  CHECK_THAT(check.out, Catch::StartsWith("seed-like: violation ("));
  CHECK_THAT(check.out, Catch::Contains("  <-- violation\n"));
  const auto files = list_dir(tmp / "out");
  REQUIRE(files.size() == 1);
  const std::string trace = tmp / ("out/" + files[0]);
  CHECK_THAT(check.out, Catch::Contains("  counterexample: " + trace + "\n"));

  const Run replay = run_binary({"replay", trace});
  CHECK(replay.code == 1);
  CHECK_THAT(replay.out, Catch::Contains("\nresult: the violation reproduces: "));
  for (const char* format : {"text", "json", "mermaid", "dot"}) {
    const Run show = run_binary({"show", trace, "--format", format});
    CHECK(show.code == 0);
    CHECK(!show.out.empty());
  }
  // The same scenario with the fix's policy: the old trace no longer reproduces.
  write_file(tmp / "fixed.json", patched(kSeedLike, R"({"policy": {"preset": "pr-79339",
                                                "add_temporary_table": "atomic"}})"));
  const Run fixed = run_binary({"replay", trace, "--scenario", tmp / "fixed.json", "--quiet"});
  CHECK(fixed.code == 3);
  CHECK_THAT(fixed.out, Catch::Contains("\nfirst difference from the trace: step #"));
}

TEST_CASE("binary + model: a holds verdict, validate, and a model input error", "[binary][model]") {
  TempDir tmp;
  write_file(tmp / "client.json", kClientOnly);
  const Run holds = run_binary({"check", tmp / "client.json", "--out", tmp / "out"});
  CHECK(holds.code == 0);
  CHECK_THAT(holds.out, Catch::StartsWith("client-only: holds\n"));
  CHECK_THAT(holds.out, Catch::Contains("    'client_session_spared' reached in "));
  CHECK(!std::filesystem::exists(tmp / "out"));
  CHECK(run_binary({"validate", tmp / "client.json"}).code == 0);

  write_file(tmp / "bad.json", R"({"name": "bad", "model": "starrocks-temp-tables",
                                   "actors": {"clients": [{"name": "c1", "frontend": "fe3"}]}})");
  const Run bad = run_binary({"check", tmp / "bad.json", "--out", tmp / "out"});
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK(bad.err == "error: " + tmp / "bad.json" +
                       ": /actors/clients/0/frontend: no frontend 'fe3' in this cluster (did you "
                       "mean 'fe1'?): /cluster/frontends is 1 (fe1)\n");
  // An expectation naming a property the model does not have.
  write_file(tmp / "typo.json", patched(kClientOnly, R"({"expect": {"verdict": "violation",
                                                "invariants": ["live_owner_table_droped"],
                                                "reached": []}})"));
  const Run typo = run_binary({"validate", tmp / "typo.json"});
  CHECK(typo.code == 2);
  CHECK_THAT(typo.err, Catch::StartsWith("error: " + tmp / "typo.json" +
                                         ": /expect/invariants/0: unknown invariant "
                                         "'live_owner_table_droped' (did you mean "
                                         "'live_owner_table_dropped'?)"));
}

TEST_CASE("binary + model: a trace recorded before the model refined its objects still replays",
          "[binary][model][replay]") {
  // Recorded when C2 declared a read of the whole TTM_L and CS_fe1; the model now declares one
  // TTM_L row and one CS_f row per session. The same violation occurs through steps whose words are identical, so the first
  // difference names the declared accesses.
  const Run r = run_binary(
      {"replay",
       std::string(INTERLEAVE_SOURCE_DIR) + "/tests/cli/traces/stale-declared-objects.trace.json",
       "--quiet"});
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("result: the same violation occurs, but through different "
                                    "steps (below): 'live_owner_table_dropped'"));
  CHECK_THAT(r.out, Catch::Contains("first difference from the trace: step #1 differs: the trace "
                                    "has 'TemporaryTableCleaner C2: listSessions"
                                    "(temporary_table_only) on fe1: [] [CS_fe1 read, TTM_L read]', "
                                    "the replay has 'TemporaryTableCleaner C2: listSessions"
                                    "(temporary_table_only) on fe1: [] [CS_fe1[c1] read, "
                                    "TTM_L[c1] read]'"));
}
