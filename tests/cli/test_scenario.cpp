// Scenario files: every kind of bad input gives one message naming the file and the JSON path,
// exit code 2, and nothing written.
#include "reports/run/scenario.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using namespace interleave::test;

namespace {

// The error `check` reports for a scenario with this text (and checks that it wrote nothing).
std::string check_error(const std::string& text) {
  TempDir tmp;
  const std::string file = tmp / "s.json";
  write_file(file, text);
  const auto r = run_cli({"check", file, "--out", tmp / "out"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(!std::filesystem::exists(tmp / "out"));
  const std::string prefix = "error: " + file + ": ";
  if (r.err.rfind(prefix, 0) != 0) return "unexpected: " + r.err;
  std::string msg = r.err.substr(prefix.size());
  if (!msg.empty() && msg.back() == '\n') msg.pop_back();
  CHECK(msg.find('\n') == std::string::npos);  // one message, one line
  return msg;
}

const char* const kValid = R"({
  "name": "ok",
  "description": "fine",
  "model": "counter",
  "counter": {"workers": 2},
  "exploration": {"strategy": "dfs", "seed": 0, "max_executions": 0, "max_steps": 50,
                  "time_budget_seconds": 1.5, "all_violations": true, "minimize": false,
                  "max_preemptions": 3, "pct_depth": 4, "pct_steps": 100},
  "expect": {"verdict": "violation", "invariants": ["counter == total", "deadlock"],
             "reached": ["both inside"]}
})";

}  // namespace

TEST_CASE("a valid scenario is read with every envelope key", "[scenario]") {
  const ModelRegistry models = counter_registry();
  const run::Scenario s = run::parse_scenario(nlohmann::json::parse(kValid), "v.json", models);
  CHECK(s.name == "ok");
  CHECK(s.description == "fine");
  CHECK(s.model == "counter");
  CHECK(s.exploration.strategy == "dfs");
  CHECK(s.exploration.max_steps == 50);
  CHECK(s.exploration.time_budget_seconds == 1.5);
  CHECK(s.exploration.all_violations);
  CHECK(!s.exploration.minimize);
  CHECK(s.exploration.parameter("max_preemptions") == 3);
  CHECK(s.exploration.parameter("pct_depth") == 4);
  CHECK(s.exploration.parameter("pct_steps") == 100);
  REQUIRE(s.expect);
  CHECK(s.expect->verdict == Verdict::kViolation);
  CHECK(s.expect->invariants == std::vector<std::string>{"counter == total", "deadlock"});
  CHECK(s.expect->reached == std::vector<std::string>{"both inside"});
  CHECK(s.instance.coverage_goals == std::vector<std::string>{"all done", "both inside"});
  // Defaults.
  const run::Scenario d = run::parse_scenario(
      nlohmann::json::parse(R"({"name":"d","model":"counter","counter":{}})"), "d.json", models);
  CHECK(d.description.empty());
  CHECK(d.exploration == run::ExplorationSettings{});
  CHECK(d.exploration.max_steps == 10000);
  CHECK(!d.expect);
}

TEST_CASE("malformed, truncated and non-object scenario files", "[scenario][errors]") {
  CHECK(check_error("") ==
        "/: malformed JSON: parse error at line 1, column 1: syntax error while parsing value - "
        "unexpected end of input; expected '[', '{', or a literal");
  CHECK(check_error("{\"name\": \"x\",\n \"model\": \"counter\",\n") ==
        "/: malformed JSON: parse error at line 3, column 1: syntax error while parsing object "
        "key - unexpected end of input; expected string literal");
  CHECK(check_error("{\"name\": \"x\" \"model\": 1}") ==
        "/: malformed JSON: parse error at line 1, column 20: syntax error while parsing object "
        "- unexpected string literal; expected '}'");
  CHECK(check_error("[1, 2]") == "/: expected a scenario (a JSON object), got an array");
  CHECK(check_error(
            R"({"name": "a", "model": "counter", "counter": {"workers": 2, "workers": 3}})") ==
        "/counter/workers: duplicate key 'workers'");
}

TEST_CASE("the envelope: unknown keys, wrong types, out of range", "[scenario][errors]") {
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {}, "expcet": {}})") ==
        "/expcet: unknown key 'expcet' (did you mean 'expect'?); known keys: '$schema', 'name', "
        "'description', 'model', 'exploration', 'expect', 'constraints', 'incidents', "
          "'counter'");
  CHECK(check_error(R"({"name": "a", "model": "countr", "counter": {}})") ==
        "/model: unknown model 'countr' (did you mean 'counter'?); known models: 'counter'");
  CHECK(check_error(R"({"name": "a", "counter": {}})") ==
        "/model: missing (required): which model the scenario is for; known models: 'counter'");
  CHECK(check_error(R"({"model": "counter", "counter": {}})") == "/name: missing (required)");
  CHECK(check_error(R"({"name": 3, "model": "counter", "counter": {}})") ==
        "/name: expected a string, got an integer");
  CHECK(check_error(R"({"name": "a b", "model": "counter", "counter": {}})") ==
        "/name: 'a b' is not a valid scenario name: 1 to 128 letters, digits, '.', '_' or '-', "
        "starting with a letter or a digit (it names the counterexample files)");
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {},
                        "exploration": {"strategy": "dsf"}})") ==
        "/exploration/strategy: unknown value 'dsf' (did you mean 'dfs'?); expected one of " +
            strategy_list(", ", "'"));
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {},
                        "exploration": {"max_steps": 0}})") ==
        "/exploration/max_steps: must be between 1 and 100000000, got 0");
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {},
                        "exploration": {"max_executions": -1}})") ==
        "/exploration/max_executions: must be between 0 and 18446744073709551615, got -1");
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {},
                        "exploration": {"pct_depth": 0}})") ==
        "/exploration/pct_depth: must be between 1 and 1000, got 0");
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {},
                        "exploration": {"time_budget_seconds": "10s"}})") ==
        "/exploration/time_budget_seconds: expected a number, got a string");
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {},
                        "exploration": {"all_violation": true}})") ==
        "/exploration/all_violation: unknown key 'all_violation' (did you mean "
        "'all_violations'?); known keys: 'strategy', 'seed', 'max_executions', 'max_steps', "
        "'time_budget_seconds', 'all_violations', 'minimize', 'decompose', 'split_depth', "
        "'split_after', 'portfolio_executions', 'state_memory_mb', 'audit_period', "
        "'max_preemptions', 'pct_depth', 'pct_steps'");
}

TEST_CASE("the model's sections: errors come from the driver, with the path",
          "[scenario][errors]") {
  CHECK(check_error(R"({"name": "a", "model": "counter"})") == "/counter: missing (required)");
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {"wrokers": 2}})") ==
        "/counter/wrokers: unknown key 'wrokers' (did you mean 'workers'?); known keys: "
        "'preset', 'workers', 'increments', 'lock', 'deadlock', 'fail_on', 'total'");
  CHECK(check_error(R"({"name": "a", "model": "counter", "counter": {"workers": 9}})") ==
        "/counter/workers: must be between 1 and 6, got 9");
  CHECK(check_error(R"({"name": "a", "model": "counter",
                        "counter": {"workers": 1, "deadlock": true}})") ==
        "/counter/deadlock: a deadlock needs at least 2 workers (/counter/workers is 1)");
}

TEST_CASE("the expectation: names the model cannot report, contradictions", "[scenario][errors]") {
  const std::string head = R"({"name": "a", "model": "counter", "counter": {}, )";
  CHECK(check_error(head + R"("expect": {}})") == "/expect/verdict: missing (required)");
  CHECK(check_error(head + R"("expect": {"verdict": "hold"}})") ==
        "/expect/verdict: unknown value 'hold' (did you mean 'holds'?); expected one of "
        "'holds', 'violation', 'incomplete'");
  CHECK(check_error(head + R"("expect": {"verdict": "violation",
                                         "invariants": ["counter == totl"]}})") ==
        "/expect/invariants/0: unknown invariant 'counter == totl' (did you mean 'counter == "
        "total'?); this scenario's model can report: 'counter <= total', 'counter == total', "
        "'deadlock', 'actor_failure'");
  CHECK(check_error(head + R"("expect": {"verdict": "holds", "reached": ["all dun"]}})") ==
        "/expect/reached/0: unknown coverage goal 'all dun' (did you mean 'all done'?); this "
        "scenario's model can report: 'all done', 'both inside'");
  CHECK(check_error(head + R"("expect": {"verdict": "holds",
                                         "reached": ["all done", "all done"]}})") ==
        "/expect/reached/1: 'all done' is listed twice");
  CHECK(check_error(head + R"("expect": {"verdict": "violation"}})") ==
        "/expect/invariants: missing: an expected violation must name the invariants it violates");
  CHECK(check_error(head + R"("expect": {"verdict": "violation", "invariants": []}})") ==
        "/expect/invariants: must name at least one invariant when the verdict is 'violation'");
  CHECK(check_error(head + R"("expect": {"verdict": "holds", "invariants": ["deadlock"]}})") ==
        "/expect/invariants: must be empty when the expected verdict is 'holds' (only a "
        "violation violates invariants)");
  CHECK(check_error(head + R"("expect": {"verdict": "violation",
                                         "invariants": ["deadlock", "counter == total"]}})") ==
        "/expect/invariants: names 2 invariants but the search stops at the first violation; "
        "set /exploration/all_violations to true");
  // What the gate always rejects, validate rejects.
  CHECK(check_error(head + R"("expect": {"verdict": "holds"}})") ==
        "/expect/reached: missing: a 'holds' expectation must name the coverage goals that show "
        "the dangerous situation was explored (the gate rejects a 'holds' without them: the pass "
        "could be vacuous)");
  CHECK(check_error(head + R"("expect": {"verdict": "incomplete", "reached": []}})") ==
        "/expect/reached: must name at least one coverage goal: an 'incomplete' expectation "
        "must name the coverage goals the partial search reaches (the gate rejects one without "
        "them: it would pass whatever was searched)");
  CHECK(check_error(head + R"("expect": {"verdict": "violation", "invariants": "deadlock"}})") ==
        "/expect/invariants: expected an array, got a string");
}

TEST_CASE("a trace given as a scenario is recognised", "[scenario][errors]") {
  CHECK(check_error(R"({"format": "interleave-trace", "format_version": 1, "schedule": {}})") ==
        "/: this is a counterexample trace, not a scenario (use 'interleave replay' or "
        "'interleave show')");
}

TEST_CASE("scenario paths: missing files, directories, duplicate names", "[scenario][errors]") {
  TempDir tmp;
  auto r = run_cli({"check", tmp / "nope.json", "--out", tmp / "out"});
  CHECK(r.code == 2);
  CHECK(r.err == "error: " + tmp / "nope.json" + ": /: no such file or directory\n");
  std::filesystem::create_directories(tmp / "empty");
  r = run_cli({"check", tmp / "empty"});
  CHECK(r.code == 2);
  CHECK(r.err == "error: " + tmp / "empty" + ": /: no scenario files (*.json) in this directory\n");
  // Two files with the same scenario name would write the same counterexample files.
  write_file(tmp / "a.json", R"({"name": "same", "model": "counter", "counter": {}})");
  write_file(tmp / "b.json", R"({"name": "same", "model": "counter", "counter": {"lock": true}})");
  r = run_cli({"check", tmp / "a.json", tmp / "b.json", "--out", tmp / "out"});
  CHECK(r.code == 2);
  CHECK(r.err == "error: " + tmp / "b.json" + ": /name: the scenario name 'same' is also used by " +
                     tmp / "a.json" +
                     " (names must be unique: counterexample files are named after them)\n");
  CHECK(!std::filesystem::exists(tmp / "out"));
  // A bad scenario after a good one: nothing runs, nothing is written.
  write_file(tmp / "c.json", R"({"name": "c", "model": "counter", "counter": {"lock": 1}})");
  r = run_cli({"check", test_scenario("racy.json"), tmp / "c.json", "--out", tmp / "out"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "error: " + tmp / "c.json" + ": /counter/lock: expected a boolean, got an integer\n");
  CHECK(!std::filesystem::exists(tmp / "out"));
}

TEST_CASE("collect_scenario_files: sorted, recursive, schemas and hidden files skipped",
          "[scenario]") {
  TempDir tmp;
  std::filesystem::create_directories(tmp / "d/sub");
  for (const char* f :
       {"d/b.json", "d/a.json", "d/sub/c.json", "d/x.schema.json", "d/.h.json", "d/notes.txt"})
    write_file(tmp / f, "{}");
  CHECK(run::collect_scenario_files({tmp / "d", tmp / "d/notes.txt", tmp / "d/sub/../b.json"}) ==
        std::vector<std::string>{tmp / "d/a.json", tmp / "d/b.json", tmp / "d/sub/c.json",
                                 tmp / "d/notes.txt"});
}

TEST_CASE("validate: one line per valid scenario, one error per invalid file", "[validate]") {
  TempDir tmp;
  write_file(tmp / "bad.json", R"({"name": "bad", "model": "counter", "counter": {"workers": 0}})");
  auto r = run_cli({"validate", test_scenario("racy.json"), test_scenario("locked.json")});
  CHECK(r.code == 0);
  CHECK(r.out == "ok counter-racy (" + test_scenario("racy.json") + ")\nok counter-locked (" +
                     test_scenario("locked.json") + ")\n");
  r = run_cli({"validate", tmp / "bad.json", test_scenario("racy.json")});
  CHECK(r.code == 2);
  CHECK(r.out == "ok counter-racy (" + test_scenario("racy.json") + ")\n");
  CHECK(r.err ==
        "error: " + tmp / "bad.json" + ": /counter/workers: must be between 1 and 6, got 0\n");
}
