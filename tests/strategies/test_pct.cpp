// PCT: seeded, reproducible per execution, finds shallow bugs, never claims "holds".
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/strategies/pct.hpp"
#include "reports/trace/trace.hpp"  // to_json(ExplorationResult), to compare two explorations

#include <catch2/catch.hpp>

using namespace interleave;

namespace {

// Three actors; the bug needs B's read between A's two writes (depth 2: A.set before B.get, B.get
// before A.reset).
Program window() {
  return [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    const ObjectId noise = ex.object("noise");
    ex.spawn("A", [&x](Actor& a) {
      x.write(a, "set", 1);
      x.write(a, "reset", 0);
    });
    ex.spawn("B", [&x](Actor& a) {
      if (x.read(a, "get") == 1) a.violation("saw_the_window", "B read 1");
    });
    ex.spawn("C", [noise](Actor& a) {
      for (int i = 0; i < 4; ++i)
        a.step("work", {write(noise)});
    });
  };
}

}  // namespace

TEST_CASE("pct finds a depth-2 bug and the counterexample replays", "[pct]") {
  ExploreOptions o;
  o.minimize = false;
  Explorer ex(window(), o);
  PctStrategy pct({/*seed=*/7, /*executions=*/500, /*depth=*/2, /*steps=*/0, 0});
  auto r = ex.explore(pct);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.at(0);
  CHECK(c.invariant == "saw_the_window");
  CHECK(c.schedule.seed != 0);
  CHECK(pct.steps() == 7);  // learned from the first execution: 2 + 1 + 4 steps
  ReplayReport rep = ex.replay(c.schedule);
  REQUIRE(rep.violation);
  CHECK(rep.violation->invariant == "saw_the_window");

  SECTION("the execution's seed alone runs that execution again") {
    PctStrategy again({7, 500, 2, pct.steps(), /*only_seed=*/c.schedule.seed});
    auto r2 = ex.explore(again);
    CHECK(r2.stats.executions == 1);
    REQUIRE(r2.verdict == Verdict::kViolation);
    CHECK(r2.counterexamples.at(0).schedule == c.schedule);
  }
}

TEST_CASE("pct is deterministic and never claims holds", "[pct]") {
  auto prog = [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    for (const char* n : {"A", "B", "C"})
      ex.spawn(n, [&x](Actor& a) { x.update(a, "inc", [](int& v) { ++v; }); });
  };
  Explorer e1(prog), e2(prog);
  PctStrategy p1({3, 50, 3, 0, 0}), p2({3, 50, 3, 0, 0});
  auto r1 = e1.explore(p1);
  auto r2 = e2.explore(p2);
  CHECK(to_json(r1, false) == to_json(r2, false));
  CHECK(r1.verdict == Verdict::kIncomplete);
  CHECK(r1.stats.executions == 50);
  CHECK(r1.detail ==
        "50 PCT executions (depth 3, change points among the first 3 steps, seed 3); a random "
        "search never proves that a property holds");
}

TEST_CASE("pct with depth 1 runs each execution by fixed random priorities", "[pct]") {
  // Depth 1: no change point, so an actor runs until it blocks or ends: never a preemption.
  auto prog = [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    for (const char* n : {"A", "B"}) {
      ex.spawn(n, [&x](Actor& a) {
        const int v = x.read(a, "read");
        x.write(a, "write", v + 1);
      });
    }
    ex.final_check("x == 2", [&x]() -> Check {
      if (x.peek() == 2) return std::nullopt;
      return std::string("lost update");
    });
  };
  Explorer ex(prog);
  PctStrategy pct({11, 200, 1, 0, 0});
  auto r = ex.explore(pct);
  CHECK(r.verdict == Verdict::kIncomplete);  // the lost update needs depth 2
  CHECK(r.stats.completed == 200);
}
