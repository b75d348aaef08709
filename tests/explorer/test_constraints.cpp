// Ordering constraints between labelled steps of named actors (explorer/core/constraints.hpp): exact
// counts under exhaustive DFS, infeasible executions, unsatisfiable constraints, the parse-time
// errors, and strict replay of a schedule that breaks a constraint.
//
// Two actors A and B of two steps each, both labelled "s", each writing its own object (no step
// depends on another actor's): C(4, 2) = 6 interleavings. Under one constraint, counted by hand:
//   B's 1st s after A's 2nd s  -> only a1 a2 b1 b2                                      = 1
//   A's 2nd s after B's 1st s  -> all but a1 a2 b1 b2                                   = 5
//   B's 1st s after A's 1st s  -> a1 first, then a2 anywhere among b1 b2: a2b1b2, b1a2b2, b1b2a2 = 3
//   both of the last two       -> a1 b1 then {a2, b2} in either order                   = 2
#include "explorer/core/constraints.hpp"
#include "explorer/search/explorer.hpp"
#include "explorer/core/input_error.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace interleave;

namespace {

StepSelector sel(std::string actor, std::string label, std::uint32_t n = 1) {
  return StepSelector{std::move(actor), std::move(label), n};
}

// Actors named in `names`, each with `steps` steps labelled "s" writing its own object; `order`
// stated after the set-up. Each completed execution's order of steps is added to `seen`.
Program two_step_actors(std::vector<OrderConstraint> order, std::set<std::string>* seen = nullptr,
                        std::vector<std::string> names = {"A", "B"}, int steps = 2) {
  return [order, seen, names, steps](Execution& ex) {
    auto& log = ex.make<std::string>();
    auto& finished = ex.make<int>(0);
    for (const std::string& name : names) {
      const ObjectId own = ex.object("x" + name);
      ex.spawn(name, [own, steps, &log, &finished, seen, n = names.size()](Actor& a) {
        for (int s = 1; s <= steps; ++s) {
          a.step("s", {write(own)});
          log += a.name() + std::to_string(s) + " ";
        }
        if (++finished == static_cast<int>(n) && seen != nullptr) seen->insert(log);
      });
    }
    ex.order(order);
  };
}

ExplorationResult dfs(Program p) {
  return test::explore_dfs(std::move(p));
}

}  // namespace

TEST_CASE("constraints: without any, two actors of two steps have 6 executions", "[constraints]") {
  std::set<std::string> seen;
  const auto r = dfs(two_step_actors({}, &seen));
  CHECK(r.stats.completed == 6);
  CHECK(r.stats.infeasible == 0);
  CHECK(seen.size() == 6);
}

TEST_CASE("constraints: exact counts under one or two constraints", "[constraints]") {
  std::set<std::string> seen;
  SECTION("B's 1st s after A's 2nd s: 1") {
    const auto r = dfs(two_step_actors({{sel("A", "s", 2), sel("B", "s", 1)}}, &seen));
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 1);
    CHECK(r.stats.completed == 1);
    CHECK(seen == std::set<std::string>{"A1 A2 B1 B2 "});
  }
  SECTION("A's 2nd s after B's 1st s: 5") {
    const auto r = dfs(two_step_actors({{sel("B", "s", 1), sel("A", "s", 2)}}, &seen));
    CHECK(r.stats.executions == 5);
    CHECK(r.stats.completed == 5);
    CHECK(r.stats.infeasible == 0);
    CHECK_FALSE(seen.contains("A1 A2 B1 B2 "));
  }
  SECTION("B's 1st s after A's 1st s: 3") {
    const auto r = dfs(two_step_actors({{sel("A", "s", 1), sel("B", "s", 1)}}, &seen));
    CHECK(r.stats.completed == 3);
    CHECK(seen == std::set<std::string>{"A1 A2 B1 B2 ", "A1 B1 A2 B2 ", "A1 B1 B2 A2 "});
  }
  SECTION("both: 2") {
    const auto r = dfs(two_step_actors(
        {{sel("A", "s", 1), sel("B", "s", 1)}, {sel("B", "s", 1), sel("A", "s", 2)}}, &seen));
    CHECK(r.stats.completed == 2);
    CHECK(seen == std::set<std::string>{"A1 B1 A2 B2 ", "A1 B1 B2 A2 "});
  }
}

TEST_CASE("constraints: a before step that never runs makes every execution infeasible",
          "[constraints][infeasible]") {
  // A has no 3rd s: B can never take its 1st. A runs alone (1 execution), then nothing can run.
  const auto r = dfs(two_step_actors({{sel("A", "s", 3), sel("B", "s", 1)}}));
  CHECK(r.stats.executions == 1);
  CHECK(r.stats.infeasible == 1);
  CHECK(r.stats.completed == 0);
  CHECK(r.stats.deadlocked == 0);
  CHECK(r.stats.violations.empty());
  // Not "holds": nothing satisfied the constraints, so nothing was checked.
  CHECK(r.verdict == Verdict::kIncomplete);
  CHECK_THAT(r.detail, Catch::Contains("ordering constraints are unsatisfiable"));
}

TEST_CASE("constraints: constraints that wait on each other are infeasible at run time",
          "[constraints][infeasible]") {
  // Stated to the engine directly (the scenario parser refuses this cycle, see the errors below):
  // B's 1st s after A's 1st, C's 1st after B's 2nd, A's 1st after C's 1st. Every actor is held at
  // its first step: nothing can run.
  const auto r = dfs(two_step_actors({{sel("A", "s", 1), sel("B", "s", 1)},
                                      {sel("B", "s", 2), sel("C", "s", 1)},
                                      {sel("C", "s", 1), sel("A", "s", 1)}},
                                     nullptr, {"A", "B", "C"}, 1));
  // Every actor is held at its first step: nothing runs.
  CHECK(r.stats.executions == 1);
  CHECK(r.stats.infeasible == 1);
  CHECK(r.verdict == Verdict::kIncomplete);
}

TEST_CASE("constraints: a constraint naming a step that never runs as 'after' is vacuous",
          "[constraints]") {
  const auto r = dfs(two_step_actors({{sel("A", "s", 1), sel("B", "s", 3)}}));
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.completed == 6);
}

TEST_CASE("constraints: actors spawned later are named when spawned", "[constraints]") {
  // The parent P spawns A and B in its one step; B's 1st s after A's 2nd s: 1 interleaving of
  // A and B.
  const Program p = [](Execution& ex) {
    const ObjectId x = ex.object("x");
    const ObjectId y = ex.object("y");
    ex.spawn("P", [x, y](Actor& parent) {
      parent.step("spawn", {});
      for (const auto& [name, obj] : {std::pair{"A", x}, std::pair{"B", y}}) {
        const ObjectId o = obj;
        parent.spawn(name, [o](Actor& a) {
          a.step("s", {write(o)});
          a.step("s", {write(o)});
        });
      }
    });
    ex.order({{sel("A", "s", 2), sel("B", "s", 1)}});
  };
  const auto r = dfs(p);
  CHECK(r.stats.completed == 1);
}

TEST_CASE("constraints: the held and the holding step are declared dependent",
          "[constraints][dpor]") {
  // Independent actors, so DPOR alone would run one execution; the constraint object makes A's
  // 2nd s and B's 1st s dependent, and DPOR still runs exactly one per trace of DFS.
  std::set<std::string> seen;
  Explorer ex(two_step_actors({{sel("B", "s", 1), sel("A", "s", 2)}}, &seen), {});
  DporStrategy dpor;
  const auto r = ex.explore(dpor);
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.completed == 1);
  CHECK(r.stats.infeasible == 0);
  const std::string only = *seen.begin();
  CHECK(only.find("B1") < only.find("A2"));
  // The declarations themselves: B's 1st s writes constraint[0], A's 2nd s waits on it.
  Schedule s;
  for (const char* a : {"A", "B", "A", "B"})
    s.steps.push_back(ScheduleEntry::run(a));
  const ReplayReport rep = ex.replay(s);
  REQUIRE(rep.steps.size() == 4);
  auto declares = [](const TraceStep& step, AccessKind kind) {
    for (const TraceAccess& acc : step.accesses)
      if (acc.object == "constraint[0]" && acc.kind == kind) return true;
    return false;
  };
  CHECK(declares(rep.steps[1], AccessKind::kWrite));  // B's 1st s
  CHECK(declares(rep.steps[2], AccessKind::kWait));   // A's 2nd s
  CHECK_FALSE(declares(rep.steps[0], AccessKind::kWait));
  CHECK(rep.steps[0].accesses.size() == 1);  // A's 1st s: its own write only
}

TEST_CASE("constraints: replaying a schedule that breaks a constraint diverges",
          "[constraints][replay]") {
  Explorer ex(two_step_actors({{sel("A", "s", 2), sel("B", "s", 1)}}), {});
  Schedule s;
  for (const char* a : {"A", "B", "A", "B"})
    s.steps.push_back(ScheduleEntry::run(a));
  const ReplayReport r = ex.replay(s);
  CHECK(r.diverged);
  CHECK_THAT(r.reason, Catch::Contains("expected to run B"));
  Schedule ok;
  for (const char* a : {"A", "A", "B", "B"})
    ok.steps.push_back(ScheduleEntry::run(a));
  const ReplayReport r2 = ex.replay(ok);
  CHECK_FALSE(r2.diverged);
  CHECK(r2.outcome == Outcome::kCompleted);
}

TEST_CASE("constraints: parse-time errors name the JSON path", "[constraints][errors]") {
  const ConstraintVocabulary v{{"A", "B"}, {}};
  auto error_of = [&](const char* text) -> std::string {
    const nlohmann::json j = nlohmann::json::parse(text);
    try {
      order_constraints_from_json(JsonReader(j, "f.json", "/constraints"), v);
    } catch (const InputError& e) {
      return e.path() + ": " + e.message();
    }
    return "no error";
  };
  CHECK(error_of(R"([{"before": {"actor": "A", "label": "s"}, "after": {"actor": "B", "label": "s"}}])") ==
        "no error");
  CHECK_THAT(error_of(R"([{"before": {"actor": "A", "label": "s"}, "after": {"actor": "X", "label": "s"}}])"),
             Catch::StartsWith("/constraints/0/after/actor: unknown actor 'X'"));
  CHECK_THAT(error_of(R"([{"before": {"actor": "A", "label": "s", "occurrence": 0}, "after": {"actor": "B", "label": "s"}}])"),
             Catch::StartsWith("/constraints/0/before/occurrence"));
  CHECK_THAT(error_of(R"([{"before": {"actor": "A", "label": "s"}, "after": {"actor": "A", "label": "s", "occurrence": 1}}])"),
             Catch::StartsWith("/constraints/0: orders A's 1st s after itself"));
  CHECK_THAT(error_of(R"([{"before": {"actor": "A", "label": "s"}, "after": {"actor": "B", "label": "s"}},
                          {"before": {"actor": "B", "label": "s"}, "after": {"actor": "A", "label": "s"}}])"),
             Catch::StartsWith("/constraints/1: orders A's 1st s after B's 1st s") &&
                 Catch::Contains("cycle"));
  // Through the actor's own order: A's 2nd s before B's s before A's 1st s.
  CHECK_THAT(error_of(R"([{"before": {"actor": "A", "label": "s", "occurrence": 2}, "after": {"actor": "B", "label": "s"}},
                          {"before": {"actor": "B", "label": "s"}, "after": {"actor": "A", "label": "s"}}])"),
             Catch::StartsWith("/constraints/1") && Catch::Contains("cycle"));
  CHECK_THAT(error_of(R"([{"before": {"actor": "A", "label": "s"}, "after": {"actor": "B", "lable": "s"}}])"),
             Catch::StartsWith("/constraints/0/after"));
  CHECK_THAT(error_of(R"([{"before": {"actor": "A", "label": "s"}}])"),
             Catch::StartsWith("/constraints/0/after"));
  CHECK_THAT(error_of(R"({"before": 1})"), Catch::StartsWith("/constraints"));
}
