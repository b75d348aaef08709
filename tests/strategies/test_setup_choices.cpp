// Choices made while the program sets its execution up (Execution::choose): every systematic
// strategy enumerates them like Actor::choose, they are recorded in the schedule before every step
// and replay, and DPOR explores the traces of each value as it would a program without the choice
// (it belongs to no step, so no wakeup sequence ends at it: optimal DPOR, nothing blocked).
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace interleave;

namespace {

// Two writers of x, and with the set-up choice 1 a third one: 2 + 6 interleavings, as many
// traces. With the choice 2, A's step fails.
Program writers() {
  return [](Execution& ex) {
    const std::uint32_t v = ex.choose(3);
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("A", [&x, v](Actor& a) {
      x.write(a, "A", 1);
      if (v == 2) a.fail("the set-up chose 2");
    });
    ex.spawn("B", [&x](Actor& a) { x.write(a, "B", 2); });
    if (v == 1) ex.spawn("C", [&x](Actor& a) { x.write(a, "C", 3); });
  };
}

}  // namespace

TEST_CASE("a set-up choice is enumerated once per value, by dfs and by optimal dpor",
          "[choice][dpor]") {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.minimize = false;
  DfsStrategy dfs;
  const ExplorationResult brute = Explorer(writers(), o).explore(dfs);
  // 2 (value 0) + 6 (value 1) + 2 (value 2: A fails after its write, or B wrote first)
  CHECK(brute.stats.executions == 10);
  DporStrategy dpor;
  const ExplorationResult reduced = Explorer(writers(), o).explore(dpor);
  CHECK(reduced.stats.executions == 10);
  CHECK(reduced.stats.blocked == 0);
  REQUIRE(reduced.counterexamples.size() == 1);
  CHECK(reduced.counterexamples[0].invariant == "actor_failure");
}

TEST_CASE("a program whose only choice is made at set-up keeps dpor optimal", "[choice][dpor]") {
  Program p = [](Execution& ex) {
    const std::uint32_t v = ex.choose(2);
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    auto& y = ex.make<Shared<int>>(ex, "y", 0);
    ex.spawn("A", [&x, &y, v](Actor& a) {
      x.write(a, "A1", 1);
      if (v == 1) y.write(a, "A2", 1);
    });
    ex.spawn("B", [&x, &y](Actor& a) {
      x.read(a, "B1");
      y.read(a, "B2");
    });
  };
  DfsStrategy dfs;
  const ExplorationResult brute = Explorer(p).explore(dfs);
  DporStrategy dpor;
  const ExplorationResult reduced = Explorer(p).explore(dpor);
  CHECK(brute.verdict == Verdict::kHolds);
  CHECK(reduced.verdict == Verdict::kHolds);
  // value 0: A1 before or after B1 (2 traces); value 1: each of A1/B1 and A2/B2 either way (4)
  CHECK(brute.stats.executions == 3 + 6);  // interleavings
  CHECK(reduced.stats.executions == 2 + 4);
  CHECK(reduced.stats.blocked == 0);
  CHECK(dpor.optimal());
}

TEST_CASE("a set-up choice is the first entry of a schedule and replays", "[choice][replay]") {
  Explorer explorer(writers());
  DfsStrategy dfs;
  const ExplorationResult r = explorer.explore(dfs);
  REQUIRE(r.counterexamples.size() == 1);
  const Schedule& s = r.counterexamples[0].schedule;
  REQUIRE_FALSE(s.steps.empty());
  CHECK(s.steps[0].kind == ScheduleEntry::Kind::kChoice);
  CHECK(s.steps[0].value == 2);
  const ReplayReport replayed = explorer.replay(s);
  CHECK(replayed.outcome == Outcome::kActorFailure);
  CHECK_FALSE(replayed.diverged);
}

TEST_CASE("Execution::choose is refused once the execution runs", "[choice]") {
  Program p = [](Execution& ex) {
    ex.spawn("A", [](Actor& a) {
      a.step("A", {});
      a.execution().choose(2);
    });
  };
  DfsStrategy dfs;
  const ExplorationResult r = Explorer(p).explore(dfs);
  REQUIRE(r.counterexamples.size() == 1);
  CHECK(r.counterexamples[0].message.find("Execution::choose is for the set-up") !=
        std::string::npos);
}
