// `interleave replay`: every counterexample reproduces; against a changed scenario the replay
// says exactly where it departs from the trace.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace interleave;
using namespace interleave::test;

namespace {

struct Traces {
  TempDir tmp;
  std::string racy, failing_actor, failing_total, deadlock;
  Traces() {
    for (const char* s : {"racy.json", "failing.json", "deadlock.json"})
      REQUIRE(run_cli({"check", test_scenario(s), "--out", tmp / "out", "--quiet"}).code == 1);
    racy = tmp / "out/counter-racy.counter-total.trace.json";
    failing_actor = tmp / "out/counter-failing.actor-failure.trace.json";
    failing_total = tmp / "out/counter-failing.counter-total.trace.json";
    deadlock = tmp / "out/counter-deadlock.deadlock.trace.json";
  }
  // A scenario like racy.json with this "counter" section.
  std::string scenario(const std::string& file, const std::string& counter) const {
    write_file(tmp / file,
               R"({"name": "counter-racy", "model": "counter", "counter": )" + counter + "}");
    return tmp / file;
  }
};

}  // namespace

TEST_CASE("replay: every counterexample the tests produce reproduces", "[replay]") {
  Traces t;
  for (const auto& trace : {t.racy, t.failing_actor, t.failing_total, t.deadlock}) {
    const auto r = run_cli({"replay", trace});
    CHECK(r.code == 1);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Catch::Contains("\nresult: the violation reproduces: "));
    CHECK_THAT(r.out, !Catch::Contains("first difference"));
  }
  const auto r = run_cli({"replay", t.racy});
  CHECK(r.out ==
        "replay of " + t.racy +
            "\n"
            "  scenario: counter-racy (embedded in the trace)\n"
            "  recorded: 'counter == total' violated at the end of the execution (after step "
            "#3): counter is 1, expected 2\n"
            "    #0  W0  R  read counter = 0\n"
            "    #1  W1  R  read counter = 0\n"
            "    #2  W1  W  write counter = 1\n"
            "    #3  W0  W  write counter = 1\n"
            "result: the violation reproduces: 'counter == total' violated at the end of the "
            "execution (after step #3): counter is 1, expected 2\n");
  const auto quiet = run_cli({"replay", t.deadlock, "--quiet"});
  CHECK(quiet.code == 1);
  CHECK_THAT(quiet.out, Catch::Contains("result: the violation reproduces: 'deadlock' violated at "
                                        "the end of the execution"));
  CHECK_THAT(quiet.out, !Catch::Contains("#0"));
}

TEST_CASE("replay --scenario: an identical scenario reproduces", "[replay]") {
  Traces t;
  const auto r = run_cli({"replay", t.racy, "--scenario", test_scenario("racy.json")});
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("  scenario: counter-racy from " + test_scenario("racy.json") +
                                    " (identical to the trace's)\n"));
  CHECK_THAT(r.out, Catch::Contains("result: the violation reproduces"));
}

TEST_CASE("replay --scenario: a fix that changes the steps diverges, and says where", "[replay]") {
  Traces t;
  const std::string fixed = t.scenario("fixed.json", R"({"workers": 2, "lock": true})");
  const auto r = run_cli({"replay", t.racy, "--scenario", fixed});
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains(" (differs from the trace's: fnv1a64:"));
  CHECK_THAT(r.out, Catch::EndsWith(
                        "    #0  W0  L  [lock acquire]\n"
                        "result: the replay diverges from the schedule at schedule entry 1 (step "
                        "1): expected to run W1, runnable were [W0]\n"
                        "first difference from the trace: step #0 differs: the trace has 'W0 R: "
                        "read counter = 0', the replay has 'W0 L: [lock acquire]'\n"));
}

TEST_CASE("replay --scenario: the same steps without the violation run to completion (exit 0)",
          "[replay]") {
  Traces t;
  const std::string lenient = t.scenario("lenient.json", R"({"workers": 2, "total": 1})");
  const auto r = run_cli({"replay", t.racy, "--scenario", lenient});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::EndsWith("result: the violation does not reproduce: the schedule runs "
                                    "to completion and every property holds\n"));
}

TEST_CASE("replay --scenario: the schedule ends before the violation (exit 3)", "[replay]") {
  Traces t;
  const std::string no_fail = t.scenario("nofail.json", R"({"workers": 2})");
  const auto r = run_cli({"replay", t.failing_actor, "--scenario", no_fail});
  CHECK(r.code == 3);
  CHECK_THAT(r.out,
             Catch::EndsWith("result: the violation does not reproduce within the recorded "
                             "schedule: the schedule ended after 3 entries while [W1] could still "
                             "run\n"));
}

TEST_CASE("replay --scenario: another violation is not the recorded one", "[replay]") {
  Traces t;
  const std::string earlier = t.scenario("earlier.json", R"({"workers": 2, "fail_on": 0})");
  const auto r = run_cli({"replay", t.failing_actor, "--scenario", earlier});
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::EndsWith(
                        "result: a violation occurs, but not the recorded one: 'actor_failure' "
                        "violated at step #0 by W0: W0 failed at step R: read the forbidden "
                        "value 0\n"
                        "first difference from the trace: the replay stopped after 1 steps; the "
                        "trace goes on with step #1 'W0 W: write counter = 1'\n"));
}

TEST_CASE("replay: bad traces and scenarios are input errors", "[replay][errors]") {
  Traces t;
  auto r = run_cli({"replay", t.tmp / "missing.json"});
  CHECK(r.code == 2);
  CHECK(r.err == "error: " + t.tmp / "missing.json" +
                     ": /: cannot read the file: No such file or directory\n");
  r = run_cli({"replay", t.racy, "--scenario", t.scenario("bad.json", R"({"workers": "2"})")});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "error: " + t.tmp / "bad.json" + ": /counter/workers: expected an integer, got a string\n");
  // The embedded scenario needs its model.
  const ModelRegistry none;
  r = run_cli({"replay", t.racy}, none);
  CHECK(r.code == 2);
  CHECK(r.err == "error: " + t.racy +
                     ": /scenario/model: unknown model 'counter'; known models: none (in the "
                     "scenario embedded in the trace)\n");
  CHECK(r.out.empty());
}

TEST_CASE("replay: a trace whose schedule breaks the scenario's ordering constraints diverges",
          "[replay][constraints]") {
  Traces t;
  // W1 reads at step #1 of the trace; the constraint holds it back until W0 has written.
  write_file(t.tmp / "ordered.json",
             R"({"name": "counter-racy", "model": "counter",
                 "counter": {"workers": 2, "increments": 1, "lock": false},
                 "constraints": [{"before": {"actor": "W0", "label": "W"},
                                  "after": {"actor": "W1", "label": "R"}}]})");
  const auto r = run_cli({"replay", t.racy, "--scenario", t.tmp / "ordered.json"});
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains("result: the replay diverges from the schedule at "));
  CHECK_THAT(r.out, Catch::Contains("expected to run W1, runnable were "));
  // Under the constraint the lost update cannot happen: the search holds.
  const auto c = run_cli({"check", t.tmp / "ordered.json", "--strategy", "dfs", "--quiet"});
  CHECK(c.code == 0);
}
