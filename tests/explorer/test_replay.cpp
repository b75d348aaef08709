// Schedules as data: JSON round trip, strict replay, divergence and malformed input.
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/core/schedule.hpp"
#include "explorer/strategies/random.hpp"
#include "reports/trace/trace.hpp"  // to_json(ExplorationResult), to compare two explorations
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace interleave;

namespace {

// Three actors race on a shared value; one also makes a choice. Violated in several ways.
Program racy() {
  return [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("A", [&x](Actor& a) {
      x.read(a, "A.look");
      const auto c = a.choose(3);
      x.update(a, "A.add", [c](int& v) { v += static_cast<int>(c); });
      x.update(a, "A.double", [](int& v) { v *= 2; });
    });
    ex.spawn("B", [&x](Actor& a) { x.write(a, "B.set", 1); });
    ex.spawn("C", [&x](Actor& a) { x.update(a, "C.inc", [](int& v) { ++v; }); });
    ex.invariant("x < 7", [&x]() -> Check {
      if (x.peek() < 7) return std::nullopt;
      return "x reached " + std::to_string(x.peek());
    });
    ex.final_check("x != 3", [&x]() -> Check {
      if (x.peek() != 3) return std::nullopt;
      return std::string("x ended at 3");
    });
  };
}

}  // namespace

TEST_CASE("schedule JSON round trip", "[schedule]") {
  Schedule s;
  s.seed = 42;
  s.steps = {ScheduleEntry::run("A"), ScheduleEntry::choice(2), ScheduleEntry::run("B")};
  const auto j = to_json(s);
  CHECK(j.dump() == R"({"format_version":1,"seed":42,"steps":["A",2,"B"]})");
  CHECK(schedule_from_json(j) == s);
  CHECK(schedule_from_string(j.dump()) == s);
}

TEST_CASE("malformed or truncated schedules are rejected with a clear message", "[schedule]") {
  auto msg = [](const std::string& text) {
    try {
      schedule_from_string(text);
    } catch (const ScheduleFormatError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(msg(R"({"format_version":1,"seed":0,"steps":["A",)"),
             Catch::StartsWith("malformed JSON: "));
  CHECK(msg("").rfind("malformed JSON: ", 0) == 0);
  CHECK(msg("[]") == "/: a schedule must be a JSON object");
  CHECK(msg(R"({"seed":0,"steps":[]})") == "/format_version: missing");
  CHECK(msg(R"({"format_version":2,"steps":[]})") ==
        "/format_version: unsupported version 2 (this build reads 1)");
  CHECK(msg(R"({"format_version":1})") == "/steps: missing");
  CHECK(msg(R"({"format_version":1,"steps":{}})") == "/steps: expected an array");
  CHECK(msg(R"({"format_version":1,"steps":["A",true]})") ==
        "/steps/1: expected an actor name (string) or a choice value (integer)");
  CHECK(msg(R"({"format_version":1,"steps":[-1]})") == "/steps/0: choice value out of range");
  CHECK(msg(R"({"format_version":1,"steps":[],"extra":1})") ==
        "/extra: unknown key (expected format_version, seed, steps)");
  CHECK(msg(R"({"format_version":1,"seed":-3,"steps":[]})") ==
        "/seed: expected a non-negative integer");
}

TEST_CASE("every violation replays to the same violation", "[replay]") {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  auto r = test::explore_dfs(racy(), o);
  REQUIRE(r.verdict == Verdict::kViolation);
  REQUIRE(r.counterexamples.size() == 2);  // x < 7 and x != 3
  Explorer ex(racy());
  for (const auto& c : r.counterexamples) {
    ReplayReport rep = ex.replay(c.schedule);
    REQUIRE(rep.violation);
    CHECK(rep.violation->invariant == c.invariant);
    CHECK(rep.violation->message == c.message);
    CHECK(rep.violation->step == c.step);
    CHECK(!rep.diverged);
    CHECK(rep.consumed == c.schedule.steps.size());
    // Through JSON as well.
    ReplayReport rep2 = ex.replay(schedule_from_string(to_json(c.schedule).dump()));
    REQUIRE(rep2.violation);
    CHECK(rep2.violation->message == c.message);
  }
}

TEST_CASE("random walk violations replay too, each with its own seed", "[replay][random]") {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  Explorer ex(racy(), o);
  RandomStrategy rnd(7, 200);
  auto r = ex.explore(rnd);
  REQUIRE(r.verdict == Verdict::kViolation);
  for (const auto& c : r.counterexamples) {
    CHECK(c.schedule.seed != 0);
    ReplayReport rep = ex.replay(c.schedule);
    REQUIRE(rep.violation);
    CHECK(rep.violation->message == c.message);
  }
}

TEST_CASE("a schedule edited to diverge stops with the strict replay error", "[replay]") {
  auto r = test::explore_dfs(racy());
  REQUIRE(r.verdict == Verdict::kViolation);
  Schedule s = r.counterexamples.at(0).schedule;
  Explorer ex(racy());

  SECTION("an actor that does not exist") {
    s.steps.at(0) = ScheduleEntry::run("Z");
    ReplayReport rep = ex.replay(s);
    CHECK(rep.diverged);
    CHECK(rep.outcome == Outcome::kAbandoned);
    CHECK(rep.reason == "schedule entry 0 (step 0): expected to run Z, runnable were [A, B, C]");
  }
  SECTION("an actor that has already finished") {
    Schedule t;
    t.steps = {ScheduleEntry::run("B"), ScheduleEntry::run("B")};
    ReplayReport rep = ex.replay(t);
    CHECK(rep.diverged);
    CHECK(rep.reason == "schedule entry 1 (step 1): expected to run B, runnable were [A, C]");
  }
  SECTION("a choice where the program is at a scheduling point") {
    Schedule t;
    t.steps = {ScheduleEntry::choice(1)};
    ReplayReport rep = ex.replay(t);
    CHECK(rep.diverged);
    CHECK(rep.reason ==
          "schedule entry 0 (step 0): the schedule has the choice value 1 but the program is at a "
          "scheduling point; runnable were [A, B, C]");
  }
  SECTION("an actor where the program asks for a choice") {
    Schedule t;
    t.steps = {ScheduleEntry::run("A"), ScheduleEntry::run("B")};
    ReplayReport rep = ex.replay(t);
    CHECK(rep.diverged);
    CHECK(rep.reason ==
          "schedule entry 1 (step 1): expected to run B, but the program asks for a choice in [0, "
          "3)");
  }
  SECTION("a choice out of range") {
    Schedule t;
    t.steps = {ScheduleEntry::run("A"), ScheduleEntry::choice(5)};
    ReplayReport rep = ex.replay(t);
    CHECK(rep.diverged);
    CHECK(rep.reason ==
          "schedule entry 1 (step 1): the schedule chooses 5 but the program offers only [0, 3)");
  }
  SECTION("a schedule that ends early") {
    Schedule t;
    t.steps = {ScheduleEntry::run("B")};
    ReplayReport rep = ex.replay(t);
    CHECK(!rep.diverged);
    CHECK(rep.exhausted);
    CHECK(rep.reason == "the schedule ended after 1 entries while [A, C] could still run");
    CHECK_THROWS_AS(ex.make_counterexample(t), ProgramError);
  }
}

TEST_CASE("the same exploration twice gives byte-identical JSON", "[determinism]") {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  const std::string first = to_json(test::explore_dfs(racy(), o), false).dump(2);
  const std::string second = to_json(test::explore_dfs(racy(), o), false).dump(2);
  CHECK(first == second);
  Explorer e1(racy(), o), e2(racy(), o);
  RandomStrategy r1(99, 50), r2(99, 50);
  CHECK(to_json(e1.explore(r1), false).dump() == to_json(e2.explore(r2), false).dump());
}

TEST_CASE("two explorers in one process do not interfere", "[determinism]") {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  Explorer a(racy(), o), b(racy(), o);
  DfsStrategy da, db;
  auto ra = a.explore(da);
  auto rb = b.explore(db);
  CHECK(to_json(ra, false) == to_json(rb, false));
}
