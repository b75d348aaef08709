// The command line as a whole: help, usage errors, list, and the top-level guarantees (bad input
// exits 2 with one message, anything unexpected exits 4 with "internal error: ...").
#include "reports/run/expectation.hpp"
#include "reports/run/run.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <stdexcept>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

namespace {

// A model whose driver or program misbehaves, to exercise the internal-error path.
class BrokenDriver final : public ModelDriver {
 public:
  explicit BrokenDriver(std::string how) : how_(std::move(how)) {}
  std::string name() const override { return "broken"; }
  std::string description() const override { return "misbehaves on purpose"; }
  std::vector<std::string> sections() const override { return {}; }
  std::shared_ptr<const ModelConfig> parse(const json&, const std::string&) const override {
    if (how_ == "throws") throw std::runtime_error("driver bug");
    ModelInstance m;
    // Nondeterministic: a different actor set every time it runs.
    auto runs = std::make_shared<int>(0);
    m.program = [runs](Execution& ex) {
      const int n = ++*runs;
      auto& x = ex.make<Shared<int>>(ex, "x", 0);
      ex.spawn("A" + std::to_string(n), [&x](Actor& a) { x.write(a, "w", 1); });
      ex.spawn("B", [&x](Actor& a) { x.write(a, "w", 2); });
      ex.final_check("x == 1", [&x]() -> Check {
        if (x.peek() == 1) return std::nullopt;
        return std::string("x is 2");
      });
    };
    m.invariants = {"x == 1", "deadlock", "actor_failure"};
    return std::make_shared<InstanceConfig>(std::move(m));
  }
  ModelCatalog catalog() const override { return {}; }

 private:
  std::string how_;
};

ModelRegistry broken(const std::string& how) {
  ModelRegistry r;
  r.add(std::make_unique<BrokenDriver>(how));
  return r;
}

}  // namespace

TEST_CASE("--help on every subcommand, with examples", "[cli]") {
  const auto top = run_cli({"--help"});
  CHECK(top.code == 0);
  CHECK(top.err.empty());
  for (const char* cmd : {"check", "replay", "show", "validate", "list"}) {
    CHECK_THAT(top.out, Catch::Contains(std::string("  ") + cmd + " "));
    const auto r = run_cli({cmd, "--help"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains(std::string("Usage: interleave ") + cmd));
    CHECK_THAT(r.out, Catch::Contains("Examples:\n  interleave " + std::string(cmd)));
  }
  CHECK_THAT(top.out, Catch::Contains("Exit codes:\n  0  holds"));
  const auto check = run_cli({"check", "--help"});
  for (const char* opt : {"--strategy", "--max-executions", "--max-steps", "--time-budget",
                          "--seed", "--out", "--all-violations", "--json", "--quiet"})
    CHECK_THAT(check.out, Catch::Contains(opt));
  CHECK_THAT(check.out, Catch::Contains("one of: " + strategy_list()));  // from the factory
}

TEST_CASE("usage errors exit 2 with one message", "[cli]") {
  auto r = run_cli({});
  CHECK(r.code == 2);
  CHECK(r.err == "error: A subcommand is required\nRun 'interleave --help' for usage.\n");
  r = run_cli({"chek", "x.json"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "error: unknown command 'chek' (did you mean 'check'?)\nRun 'interleave --help' for "
        "usage.\n");
  r = run_cli({"check"});
  CHECK(r.code == 2);
  CHECK(r.err == "error: scenarios is required\nRun 'interleave check --help' for usage.\n");
  r = run_cli({"check", "x.json", "--strategy", "dfz"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::StartsWith("error: --strategy: unknown strategy 'dfz' (did you mean "
                                      "'dfs'?); known: " +
                                      strategy_list()));
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"check", "x.json", "--max-steps", "0"},
        {"check", "x.json", "--seed", "-3"},
        {"check", "x.json", "--max-executions", "many"},
        {"check", "x.json", "--time-budget", "-1"},
        {"check", "x.json", "--frobnicate"},
        {"show", "t.json", "--format", "svg"},
        {"replay"}}) {
    r = run_cli(bad);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::StartsWith("error: "));
  }
  TempDir tmp;
  write_file(tmp / "file", "x");
  r = run_cli({"check", test_scenario("racy.json"), "--out", tmp / "file"});
  CHECK(r.code == 2);
  CHECK(r.err == "error: --out: '" + tmp / "file" + "' exists and is not a directory\n");
  r = run_cli({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out == "interleave test\n");
}

TEST_CASE("an unwritable output directory is reported, not a crash", "[cli]") {
  TempDir tmp;
  std::filesystem::create_directories(tmp / "ro");
  std::filesystem::permissions(
      tmp / "ro", std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  const bool can_write_anyway = ::access((tmp / "ro").c_str(), W_OK) == 0;  // e.g. root
  const auto r = run_cli({"check", test_scenario("racy.json"), "--out", tmp / "ro/out"});
  if (!can_write_anyway) {
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("error: cannot write '" + tmp / "ro/out/"));
  } else {
    CHECK(r.code == 1);
  }
  std::filesystem::permissions(tmp / "ro", std::filesystem::perms::owner_all);
}

TEST_CASE("list: models with their catalog, and the strategies", "[cli]") {
  auto r = run_cli({"list"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "models:\n"
        "  counter: workers incrementing a shared counter, with or without a lock\n"
        "    scenario sections: counter\n"
        "    knobs (the section counter):\n"
        "      - workers (integer, default 2, 1..6)\n"
        "      - increments (integer, default 1, 1..5)\n"
        "      - lock (boolean, default false)\n"
        "    presets (the default: racy):\n"
        "      - racy: no lock\n"
        "      - locked: a lock around each increment\n"
        "    properties:\n"
        "      - counter <= total\n"
        "      - counter == total\n"
        "      - deadlock: no actor can run while some actor is unfinished (engine)\n"
        "      - actor_failure: an internal check of the model failed (engine)\n"
        "    coverage goals:\n"
        "      - all done\n"
        "      - both inside\n"
        "    log patterns (the lines its steps log):\n"
        "      - counter_written: INFO Counter: write counter = {value:int} (hypothetical: the "
        "note of the test model's write)\n"
        "strategies:\n" +
            [] {
              std::string list;
              for (const auto& n : run::exploration_strategy_names())
                list += "  " + n + (n == "portfolio" ? " (default)" : "") +
                   (n == "stateful" ? " (stateful: keeps the states it explored; the model must "
                                      "declare its state)"
                                    : "") +
                   "\n";
              std::string members;
              for (const PortfolioMember& m : default_portfolio())
                members += (members.empty() ? "" : ", ") + m.label;
              return list + "  (portfolio: " + members + ")\n";
            }());
  r = run_cli({"list", "--json"});
  CHECK(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["strategies"] == json(run::exploration_strategy_names()));
  CHECK(j["default_strategy"] == "portfolio");
  CHECK(j["portfolio"]["members"].size() == default_portfolio().size());
  CHECK(j["portfolio"]["members"][0]["strategy"] == "dpor");
  CHECK(j["models"][0]["name"] == "counter");
  CHECK(j["models"][0]["sections"] == json{"counter"});
  const json& goals = j["models"][0]["catalog"]["coverage_goals"];
  REQUIRE(goals.size() == 2);
  CHECK(goals[0]["name"] == "all done");
  CHECK(goals[1]["name"] == "both inside");
  CHECK(j["models"][0]["catalog"]["knob_section"] == "counter");
  CHECK(j["models"][0]["catalog"]["default_preset"] == "racy");
}

TEST_CASE("a model that throws or is not deterministic is an internal error (exit 4)", "[cli]") {
  TempDir tmp;
  write_file(tmp / "b.json",
             R"({"name": "b", "model": "broken", "exploration": {"strategy": "dfs"}})");
  auto r = run_cli({"check", tmp / "b.json", "--out", tmp / "out"}, broken("throws"));
  CHECK(r.code == 4);
  CHECK(r.err == "internal error: driver bug\n");
  r = run_cli({"check", tmp / "b.json", "--out", tmp / "out"}, broken("nondeterministic"));
  CHECK(r.code == 4);
  CHECK_THAT(r.err, Catch::StartsWith("internal error: the model misbehaved: "));
  CHECK(r.err.find('\n') == r.err.size() - 1);
}

TEST_CASE("check_expectation: verdict, exact invariant set, reached goals", "[expectation]") {
  ExplorationResult result;
  result.verdict = Verdict::kViolation;
  result.detail = "stopped at the first violation";
  Counterexample c;
  c.invariant = "a";
  c.message = "a failed";
  result.counterexamples = {c};
  result.covered = {{"g1", 3}};

  run::Expectation e;
  e.verdict = Verdict::kViolation;
  e.invariants = {"a"};
  e.reached = {"g1"};
  CHECK(run::check_expectation(e, result).met);
  CHECK(run::check_expectation(e, result).problems.empty());

  CHECK(run::describe_expectation(e) == "violation of 'a', reaching 'g1'");
  CHECK(run::describe_expectation(std::nullopt) == "no expectation");
  CHECK(run::describe_outcome(result) == "violation of 'a'");

  SECTION("no expectation never passes") {
    const auto check = run::check_expectation(std::nullopt, result);
    CHECK(!check.met);
    CHECK(check.problems ==
          std::vector<std::string>{"the scenario has no expectation (\"expect\"), so its result "
                                   "cannot pass"});
  }
  SECTION("another verdict") {
    e.verdict = Verdict::kHolds;
    e.invariants.clear();
    CHECK(run::check_expectation(e, result).problems ==
          std::vector<std::string>{"expected verdict 'holds', got 'violation' (a: a failed)"});
    result.verdict = Verdict::kIncomplete;
    result.counterexamples.clear();
    result.detail = "the time budget ran out";
    CHECK(run::describe_outcome(result) == "incomplete (the time budget ran out)");
    CHECK(run::check_expectation(e, result).problems ==
          std::vector<std::string>{
              "expected verdict 'holds', got 'incomplete' (the time budget ran out)"});
  }
  SECTION("other invariants") {
    e.invariants = {"a", "b"};
    Counterexample d;
    d.invariant = "d";
    result.counterexamples.push_back(d);
    CHECK(run::violated_invariants(result) == std::vector<std::string>{"a", "d"});
    CHECK(run::check_expectation(e, result).problems ==
          std::vector<std::string>{"expected to violate 'b', which the search did not",
                                   "violated 'd', which was not expected"});
  }
  SECTION("a holds expectation without goals cannot pass") {
    e.verdict = Verdict::kHolds;
    e.invariants.clear();
    e.reached.clear();
    result.verdict = Verdict::kHolds;
    result.counterexamples.clear();
    CHECK(run::check_expectation(e, result).problems ==
          std::vector<std::string>{
              "a holds expectation must name the coverage goals (\"reached\") that show the "
              "dangerous situation was explored; without them the pass could be vacuous"});
  }
  SECTION("an incomplete expectation without goals cannot pass") {
    e.verdict = Verdict::kIncomplete;
    e.invariants.clear();
    e.reached.clear();
    result.verdict = Verdict::kIncomplete;
    result.counterexamples.clear();
    CHECK(run::check_expectation(e, result).problems ==
          std::vector<std::string>{
              "an incomplete expectation must name the coverage goals (\"reached\") the partial "
              "search reaches; without them it passes whatever was searched"});
  }
  SECTION("a property not violated because the search stopped at the first violation says so") {
    e.invariants = {"b"};
    result.stopped_at_first_violation = true;
    CHECK(run::check_expectation(e, result).problems ==
          std::vector<std::string>{
              "expected to violate 'b', which the search did not reach: it stopped at the first "
              "violation ('a'); set /exploration/all_violations to true to search for every "
              "property",
              "violated 'a', which was not expected"});
  }
  SECTION("a goal never reached makes the pass vacuous") {
    e.reached = {"g1", "g2"};
    result.covered["g2"] = 0;
    CHECK(
        run::check_expectation(e, result).problems ==
        std::vector<std::string>{"coverage goal 'g2' was never reached, so the result is vacuous"});
  }
}

TEST_CASE("the test scenarios meet their expectations", "[expectation]") {
  // What the gate will do, on the scenarios of these tests.
  const ModelRegistry models = counter_registry();
  TempDir tmp;
  for (const char* file : {"racy.json", "locked.json", "deadlock.json", "failing.json"}) {
    const run::Scenario s = run::load_scenario(test_scenario(file), models);
    run::RunContext ctx;
    ctx.out_dir = tmp.path();
    const run::ScenarioRun run = run::run_scenario(s, s.exploration, ctx);
    const auto check = run::check_expectation(s.expect, run.result);
    INFO(file << ": " << (check.problems.empty() ? "" : check.problems.front()));
    CHECK(check.met);
  }
  // A locked counter that expects the race window to be reached: a vacuous pass fails.
  const run::Scenario s = run::parse_scenario(
      json::parse(R"({"name": "v", "model": "counter", "counter": {"lock": true},
                      "expect": {"verdict": "holds", "reached": ["both inside"]}})"),
      "v.json", models);
  const run::ScenarioRun run = run::run_scenario(s, s.exploration, {});
  CHECK(run.result.verdict == Verdict::kHolds);
  CHECK(!run::check_expectation(s.expect, run.result).met);
}
