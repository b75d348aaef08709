// `interleave check`: verdicts, exit codes, the printed counterexample, the trace files written
// when found, the JSON summary, and determinism.
#include "reports/run/run.hpp"
#include "reports/run/scenario.hpp"
#include "reports/trace/trace.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

namespace {

// The stats of a trace or summary without wall time (for byte-identity checks).
json without_timing(json j) {
  if (j.contains("stats")) {
    j["stats"].erase("elapsed_seconds");
    j["stats"].erase("worker_executions");
  }
  if (j.contains("scenarios"))
    for (auto& s : j["scenarios"]) {
      s["stats"].erase("elapsed_seconds");
      s["stats"].erase("worker_executions");
    }
  return j;
}

}  // namespace

TEST_CASE("check: a lost update is a violation, printed and written as a trace", "[check]") {
  TempDir tmp;
  const auto r = run_cli({"check", test_scenario("racy.json"), "--out", tmp / "out"});
  CHECK(r.code == 1);
  CHECK(r.err.empty());
  // DFS: the first execution runs W0 then W1 (no loss); the second, W0 R, W1 R, W0 W, W1 W,
  // loses W0's update (2 preemptions). Minimised, it becomes W0 R, W1 R, W1 W, W0 W (1
  // preemption). Both workers read 0, so the end-of-execution check fails.
  const std::string trace = tmp / "out/counter-racy.counter-total.trace.json";
  CHECK(r.out ==
        "counter-racy: violation (counter == total)\n"
        "  Two workers increment a counter without a lock: an update can be lost.\n"
        "  'counter == total' violated at the end of the execution (after step #3): counter is 1, "
        "expected 2\n"
        // W0's read reversed with W1's write: W0 reads 1 and writes 2, every property holds.
        "  the race: #0 W0 R reads counter = 0 before #2 W1 W: write counter = 1\n"
        "    #0  W0  R  read counter = 0  <-- the race\n"
        "    #1  W1  R  read counter = 0\n"
        "    #2  W1  W  write counter = 1  <-- the race\n"
        "    #3  W0  W  write counter = 1\n"
        "  counterexample: " +
            trace +
            "\n"
            "  searched: 2 executions, 8 steps; stopped at the first violation\n"
            "  coverage:\n"
            "    'all done' reached in 2 executions\n"
            "    'both inside' reached in 1 execution\n");
  REQUIRE(list_dir(tmp / "out") ==
          std::vector<std::string>{"counter-racy.counter-total.trace.json"});
  const reports::TraceDocument doc = reports::read_trace_file(trace);
  CHECK(doc.tool_version == "interleave test");
  CHECK(doc.scenario_file == test_scenario("racy.json"));
  CHECK(doc.scenario == read_json_file(test_scenario("racy.json")));
  CHECK(doc.strategy == "dfs");
  CHECK(doc.counterexample.invariant == "counter == total");
  CHECK(doc.counterexample.step == 4);
  CHECK(doc.counterexample.actor.empty());
  CHECK(doc.counterexample.state == json{{"counter", 1}, {"lock", "free"}});
  CHECK(doc.stats.executions == 2);
  CHECK(doc.stats.violations == std::map<std::string, std::uint64_t>{{"counter == total", 1}});
  CHECK(doc.counterexample.preemptions == 1);
  CHECK(doc.options == json::parse(R"({"strategy":"dfs","seed":0,"max_executions":0,
      "max_steps":10000,"time_budget_seconds":0.0,"all_violations":false,"minimize":true,
      "decompose":false,"split_depth":0,"split_after":1000,"portfolio_executions":20000,"state_memory_mb":1024,"audit_period":0,
      "max_preemptions":2,"pct_depth":3,"pct_steps":0})"));
}

TEST_CASE("check: a locked counter holds over all 6 interleavings of critical sections",
          "[check]") {
  // Each worker runs two critical sections (L R W U); the lock makes each one atomic, so the
  // executions are the orders of 2+2 sections: C(4,2) = 6, each 16 steps.
  TempDir tmp;
  const auto r = run_cli({"check", test_scenario("locked.json"), "--out", tmp / "out"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "counter-locked: holds\n"
        "  The same two workers behind a lock: no update is lost.\n"
        "  searched: 6 executions, 96 steps; every interleaving and every choice value "
        "(exhaustive DFS)\n"
        "  coverage:\n"
        "    'all done' reached in 6 executions\n"
        "    'both inside' never reached\n");
  CHECK(list_dir(tmp / "out").empty());  // nothing written, not even the directory
  CHECK(!std::filesystem::exists(tmp / "out"));
}

TEST_CASE("check: bounds and budgets make the verdict incomplete (exit 3)", "[check]") {
  TempDir tmp;
  SECTION("execution budget") {
    const auto r = run_cli({"check", test_scenario("locked.json"), "--out", tmp / "out",
                            "--max-executions", "2", "--quiet"});
    CHECK(r.code == 3);
    CHECK(r.out == "counter-locked: incomplete\n");
    const auto full = run_cli(
        {"check", test_scenario("locked.json"), "--out", tmp / "out", "--max-executions", "2"});
    CHECK_THAT(full.out, Catch::Contains("searched: 2 executions, 32 steps; the execution budget "
                                         "(2 executions) ran out"));
  }
  SECTION("step bound") {
    const auto r =
        run_cli({"check", test_scenario("locked.json"), "--out", tmp / "out", "--max-steps", "5"});
    CHECK(r.code == 3);
    CHECK_THAT(r.out, Catch::Contains("the step bound (5 steps) cut"));
  }
  SECTION("a non-exhaustive strategy never claims holds") {
    const auto r = run_cli({"check", test_scenario("locked.json"), "--out", tmp / "out",
                            "--strategy", "random", "--seed", "3", "--max-executions", "20"});
    CHECK(r.code == 3);
    CHECK_THAT(r.out, Catch::StartsWith("counter-locked: incomplete\n"));
  }
}

TEST_CASE("check: deadlocks and actor failures are violations with their own names", "[check]") {
  TempDir tmp;
  SECTION("deadlock") {
    const auto r = run_cli({"check", test_scenario("deadlock.json"), "--out", tmp / "out"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::StartsWith("counter-deadlock: violation (deadlock)\n"));
    CHECK(list_dir(tmp / "out") ==
          std::vector<std::string>{"counter-deadlock.deadlock.trace.json"});
  }
  SECTION("all violations: one counterexample per invariant, each in its own file") {
    const auto r = run_cli({"check", test_scenario("failing.json"), "--out", tmp / "out"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out,
               Catch::StartsWith("counter-failing: violation (actor_failure, counter == total)\n"));
    CHECK(list_dir(tmp / "out") ==
          std::vector<std::string>{"counter-failing.actor-failure.trace.json",
                                   "counter-failing.counter-total.trace.json"});
    // DFS order: the first execution already fails (W1 reads W0's 1), the second loses an update.
    CHECK_THAT(r.out, Catch::Contains("  'actor_failure' violated at step #2 by W1: W1 failed at "
                                      "step R: read the forbidden value 1\n"
                                      // Reversing W0 W and W1 R loses an update instead.
                                      "  the race: none found (no swap of two dependent steps "
                                      "of the slice makes every property hold)\n"
                                      "    #0  W0  R  read counter = 0\n"
                                      "    #1  W0  W  write counter = 1\n"
                                      "    #2  W1  R  read counter = 1  <-- violation\n"));
  }
}

TEST_CASE("check --all-violations overrides the scenario", "[check]") {
  TempDir tmp;
  const auto r = run_cli(
      {"check", test_scenario("racy.json"), "--out", tmp / "out", "--all-violations", "--json"});
  CHECK(r.code == 1);
  const json j = json::parse(r.out);
  REQUIRE(j["scenarios"].size() == 1);
  const json& s = j["scenarios"][0];
  CHECK(s["verdict"] == "violation");
  CHECK(s["options"]["all_violations"] == true);
  // All C(4,2) = 6 interleavings: 4 lose an update (both reads before both writes).
  CHECK(s["stats"]["executions"] == 6);
  CHECK(s["stats"]["violations"] == json{{"counter == total", 4}});
  CHECK(s["counterexamples"].size() == 1);
}

TEST_CASE("check --json: a machine-readable summary, exit code included", "[check]") {
  TempDir tmp;
  const auto r = run_cli({"check", test_scenario("locked.json"), test_scenario("racy.json"),
                          "--out", tmp / "out", "--json"});
  CHECK(r.code == 1);
  const json j = without_timing(json::parse(r.out));
  CHECK(j["tool_version"] == "interleave test");
  CHECK(j["exit_code"] == 1);
  REQUIRE(j["scenarios"].size() == 2);
  CHECK(j["scenarios"][0]["name"] == "counter-locked");
  CHECK(j["scenarios"][0]["verdict"] == "holds");
  CHECK(j["scenarios"][0]["coverage"] == json{{"all done", 6}, {"both inside", 0}});
  const json& racy = j["scenarios"][1];
  CHECK(racy["verdict"] == "violation");
  // Each counterexample in the one JSON shape of reports/trace/trace.hpp, plus the path of its trace.
  const json& c = racy["counterexamples"][0];
  CHECK(c["violation"] == json{{"invariant", "counter == total"},
                               {"message", "counter is 1, expected 2"},
                               {"step", 4},
                               {"actor", ""}});
  CHECK(c["preemptions"] == 1);
  CHECK(c["steps"].size() == 4);
  CHECK(c["trace"] == tmp / "out/counter-racy.counter-total.trace.json");
  // The same object as the trace file holds at its top level: one shape, one serializer.
  const json trace = json::parse(read_file(tmp / "out/counter-racy.counter-total.trace.json"));
  json from_trace;
  for (const auto& key : reports::counterexample_keys())
    if (trace.contains(key)) from_trace[key] = trace.at(key);
  from_trace["trace"] = c["trace"];
  CHECK(c == from_trace);
  CHECK_FALSE(c.contains("wall_clock"));  // an untimed scenario has no wall clock
}

TEST_CASE("check: strategy parameters and minimisation from the command line", "[check]") {
  TempDir tmp;
  const auto trace = [&tmp](const std::string& dir) {
    return reports::read_trace_file(tmp / (dir + "/counter-racy.counter-total.trace.json"));
  };
  // Without minimisation: the counterexample as DFS found it, with 2 preemptions.
  auto r = run_cli({"check", test_scenario("racy.json"), "--out", tmp / "raw", "--no-minimize"});
  CHECK(r.code == 1);
  CHECK(trace("raw").counterexample.preemptions == 2);
  CHECK(trace("raw").options["minimize"] == false);
  // Preemption bounding: the lost update needs one preemption.
  r = run_cli({"check", test_scenario("racy.json"), "--out", tmp / "pb0", "--strategy",
               "preemption-bound", "--max-preemptions", "0", "--quiet"});
  CHECK(r.code == 3);
  r = run_cli({"check", test_scenario("racy.json"), "--out", tmp / "pb1", "--strategy",
               "preemption-bound", "--max-preemptions", "1", "--quiet"});
  CHECK(r.code == 1);
  CHECK(trace("pb1").strategy == "preemption-bound");
  CHECK(trace("pb1").options["max_preemptions"] == 1);
  // PCT: seeded, its parameters recorded in the trace.
  r = run_cli({"check", test_scenario("racy.json"), "--out", tmp / "pct", "--strategy", "pct",
               "--seed", "4", "--pct-depth", "2", "--pct-steps", "4", "--max-executions", "200"});
  CHECK(r.code == 1);
  CHECK(trace("pct").options["pct_depth"] == 2);
  CHECK(trace("pct").options["pct_steps"] == 4);
  CHECK(trace("pct").options["seed"] == 4);
  for (const char* bad : {"--pct-depth=0", "--max-preemptions=-1", "--pct-steps=x"})
    CHECK(run_cli({"check", test_scenario("racy.json"), bad}).code == 2);
}

TEST_CASE("check: several scenarios, the exit code of the worst verdict", "[check]") {
  TempDir tmp;
  CHECK(run_cli({"check", test_scenario("locked.json"), "--out", tmp / "o", "--quiet"}).code == 0);
  const auto both = run_cli({"check", test_scenario("locked.json"), test_scenario("racy.json"),
                             "--out", tmp / "o", "--quiet"});
  CHECK(both.code == 1);
  CHECK(both.out == "counter-locked: holds\ncounter-racy: violation (counter == total)\n");
  const auto incomplete = run_cli({"check", test_scenario("locked.json"), "--out", tmp / "o",
                                   "--quiet", "--max-executions", "1"});
  CHECK(incomplete.code == 3);
  // A directory is searched for scenarios, in sorted order.
  const auto dir = run_cli({"check", std::string(INTERLEAVE_SOURCE_DIR) + "/tests/cli/scenarios",
                            "--out", tmp / "o", "--quiet"});
  CHECK(dir.code == 1);
  CHECK(dir.out ==
        "counter-deadlock: violation (deadlock)\n"
        "counter-failing: violation (actor_failure, counter == total)\n"
        "counter-locked: holds\n"
        "counter-racy: violation (counter == total)\n");
}

TEST_CASE("check is deterministic: same scenario and options, byte-identical output", "[check]") {
  TempDir a, b;
  for (const std::string strategy : {"dfs", "random"}) {
    const auto ra = run_cli({"check", test_scenario("failing.json"), "--out", a / "out",
                             "--strategy", strategy, "--seed", "11", "--max-executions", "50"});
    const auto rb = run_cli({"check", test_scenario("failing.json"), "--out", b / "out",
                             "--strategy", strategy, "--seed", "11", "--max-executions", "50"});
    CHECK(ra.code == 1);
    CHECK(rb.code == ra.code);
    // Text output names the trace paths, which differ only by the directory.
    std::string out_b = rb.out;
    for (std::size_t p; (p = out_b.find(b.path().string())) != std::string::npos;)
      out_b.replace(p, b.path().string().size(), a.path().string());
    CHECK(ra.out == out_b);
    const auto files = list_dir(a / "out");
    REQUIRE(files == list_dir(b / "out"));
    for (const auto& f : files) {
      const json ja = json::parse(read_file(a / ("out/" + f)));
      const json jb = json::parse(read_file(b / ("out/" + f)));
      CHECK(without_timing(ja).dump(2) == without_timing(jb).dump(2));
    }
  }
}

TEST_CASE("a counterexample is on disk the moment it is found", "[check]") {
  TempDir tmp;
  const ModelRegistry models = counter_registry();
  const run::Scenario s = run::load_scenario(test_scenario("racy.json"), models);
  run::ExplorationSettings settings = s.exploration;
  settings.all_violations = true;
  run::RunContext ctx;
  ctx.tool_version = "interleave test";
  ctx.out_dir = tmp.path() / "out";
  ctx.progress_interval = 1;
  std::vector<std::pair<std::uint64_t, bool>> seen;  // (executions, trace on disk)
  ctx.on_progress = [&](const Stats& st) {
    seen.emplace_back(st.executions, std::filesystem::exists(
                                         ctx.out_dir / "counter-racy.counter-total.trace.json"));
  };
  const run::ScenarioRun run = run::run_scenario(s, settings, ctx);
  REQUIRE(run.result.verdict == Verdict::kViolation);
  REQUIRE(run.trace_files.size() == 1);
  // Execution 2 is the first violation; the trace exists right after it, before the search ends.
  REQUIRE(seen.size() == 6);
  CHECK(seen[0] == std::pair<std::uint64_t, bool>{1, false});
  CHECK(seen[1] == std::pair<std::uint64_t, bool>{2, true});
  // No temporary file is left behind.
  CHECK(list_dir(ctx.out_dir) == std::vector<std::string>{"counter-racy.counter-total.trace.json"});
}

TEST_CASE("check: a progress line on stderr only when it is a terminal", "[check]") {
  TempDir tmp;
  const std::string scenario = tmp / "big.json";
  // 3 workers x 3 locked increments: 9! / (3! 3! 3!) = 1680 orders of critical sections, enough
  // for one progress report (every 1024 executions).
  write_file(scenario, R"({"name": "big", "model": "counter",
                           "counter": {"workers": 3, "increments": 3, "lock": true},
                           "exploration": {"strategy": "dfs"}})");
  const ModelRegistry models = counter_registry();
  const auto quiet = run_cli({"check", scenario, "--out", tmp / "out"}, models, false);
  CHECK(quiet.err.empty());
  const auto tty = run_cli({"check", scenario, "--out", tmp / "out"}, models, true);
  CHECK(tty.code == quiet.code);
  CHECK(tty.out == quiet.out);  // stdout is unaffected
  CHECK_THAT(tty.err, Catch::StartsWith("\rbig: 1024 executions ("));
  CHECK_THAT(tty.err, Catch::EndsWith("\r\x1b[K"));  // erased when done
}

TEST_CASE("write_file_atomically replaces a file and fails cleanly", "[check][files]") {
  TempDir tmp;
  const std::string path = tmp / "d/e/f.json";
  run::write_file_atomically(path, "one");
  run::write_file_atomically(path, "two");
  CHECK(read_file(path) == "two");
  CHECK(list_dir(tmp / "d/e") == std::vector<std::string>{"f.json"});
  write_file(tmp / "plain", "x");
  CHECK_THROWS_WITH(run::write_file_atomically(tmp / "plain/f.json", "x"),
                    Catch::StartsWith("cannot write '" + tmp / "plain/f.json" + "': "));
}

TEST_CASE("trace file names are deterministic and distinct", "[check][files]") {
  CHECK(run::slug("counter == total") == "counter-total");
  CHECK(run::slug("TTM/CAT agree!") == "ttm-cat-agree");
  CHECK(run::slug("==") == "violation");
  CHECK(run::trace_file_name("s", "a b", {}) == "s.a-b.trace.json");
  CHECK(run::trace_file_name("s", "a-b", {"s.a-b.trace.json"}) == "s.a-b-2.trace.json");
  CHECK(run::trace_file_name("s", "a_b", {"s.a-b.trace.json", "s.a-b-2.trace.json"}) ==
        "s.a-b-3.trace.json");
}

TEST_CASE("check --set and --preset edit the scenario, validated like the file and recorded in "
          "the trace",
          "[check][overrides]") {
  TempDir tmp;
  const std::string racy = test_scenario("racy.json");
  SECTION("a knob set on the command line changes the verdict and is printed") {
    const auto r = run_cli({"check", racy, "--out", tmp / "out", "--set", "counter.lock=true"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::StartsWith("counter-racy: holds\n"
                                        "  with --set counter.lock=true\n"));
  }
  SECTION("exploration keys too, applied in order (the last one wins)") {
    const auto r = run_cli({"check", racy, "--out", tmp / "out", "--set",
                            "exploration.max_executions=5", "--set",
                            "exploration.max_executions=1", "--quiet"});
    CHECK(r.code == 3);  // the first DFS execution loses no update; the budget stops it there
    CHECK(r.out == "counter-racy: incomplete\n");
  }
  SECTION("the trace embeds the edited scenario and lists the options; replay reproduces it") {
    const auto r = run_cli({"check", racy, "--out", tmp / "out", "--set",
                            "counter.workers=3", "--set", "exploration.minimize=false"});
    CHECK(r.code == 1);
    const std::string trace = tmp / "out/counter-racy.counter-total.trace.json";
    const reports::TraceDocument doc = reports::read_trace_file(trace);
    CHECK(doc.overrides ==
          std::vector<std::string>{"--set counter.workers=3", "--set exploration.minimize=false"});
    CHECK(doc.scenario["counter"]["workers"] == 3);
    CHECK(doc.scenario["exploration"]["minimize"] == false);
    CHECK(doc.scenario_hash == reports::scenario_hash(doc.scenario));
    CHECK(run_cli({"replay", trace, "--quiet"}).code == 1);
  }
  SECTION("a bad value is an input error naming the file, the JSON path and the option") {
    const auto r = run_cli({"check", racy, "--out", tmp / "out", "--set", "counter.lock=3"});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains(racy + ": /counter/lock: ") &&
                          Catch::Contains("(set by --set counter.lock=3)"));
    const auto unknown = run_cli({"check", racy, "--set", "counter.lok=true"});
    CHECK(unknown.code == 2);
    CHECK_THAT(unknown.err, Catch::Contains("/counter/lok: unknown key 'lok' (did you mean "
                                            "'lock'?)") &&
                                Catch::Contains("(set by --set counter.lok=true)"));
    const auto into_string = run_cli({"check", racy, "--set", "name.x=1"});
    CHECK(into_string.code == 2);
    CHECK_THAT(into_string.err,
               Catch::Contains(racy + ": /name: --set name.x=1: 'x' cannot be set here: this is "
                                      "string, not an object"));
    // A preset of another model: the counter model's section names none such.
    const auto preset = run_cli({"check", racy, "--preset", "pr-79339"});
    CHECK(preset.code == 2);
    CHECK_THAT(preset.err, Catch::Contains(racy + ": /counter/preset: ") &&
                               Catch::Contains("(set by --preset pr-79339)"));
    const auto syntax = run_cli({"check", racy, "--set", "counter.lock"});
    CHECK(syntax.code == 2);
    CHECK_THAT(syntax.err, Catch::Contains("--set 'counter.lock': expected PATH=VALUE"));
    CHECK(!std::filesystem::exists(tmp / "out"));  // nothing ran
  }
}

TEST_CASE("check --strategy stateful: the shipped models' verdicts, and a model without state",
          "[check][stateful]") {
  TempDir tmp;
  const std::string scenarios = std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios/";
  // The StarRocks model and the lease-lock model declare their state: the stateful search gives
  // the scenarios' expected verdicts (exit 0 holds, 1 violation).
  for (const auto& [file, code] : std::vector<std::pair<std::string, int>>{
           {"seed-register-then-start.json", 0},
           {"seed-starrocks-4.1.1.json", 1},
           {"lease-lock-fencing-tokens.json", 0},
           {"lease-lock-no-fencing.json", 1}}) {
    INFO(file);
    const auto r = run_binary({"check", scenarios + file, "--strategy", "stateful",
                               "--audit-period", "3", "--out", tmp / "out"});
    CHECK(r.code == code);
    CHECK_THAT(r.out, Catch::Contains(code == 0 ? ": holds" : ": violation"));
  }
  // The counter model of these tests declares none: the search stops, naming what is missing.
  const auto r = run_cli({"check", test_scenario("locked.json"), "--strategy", "stateful",
                          "--out", tmp / "out"});
  CHECK(r.code == 4);
  CHECK_THAT(r.err, Catch::Contains("no fingerprint of its shared state"));
}
