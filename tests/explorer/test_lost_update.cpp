// The classic lost update, with and without a mutex, and exact replay of its counterexample.
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/strategies/dfs.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

namespace {

Program lost_update(bool with_mutex) {
  return [with_mutex](Execution& ex) {
    auto& counter = ex.make<Shared<int>>(ex, "counter", 0);
    auto& m = ex.make<Mutex>(ex, "m");
    for (const char* name : {"A", "B"}) {
      const ObjectId done = ex.object(std::string("done_") + name);
      ex.spawn(name, [&counter, &m, with_mutex, done](Actor& a) {
        if (with_mutex) m.lock(a, "lock");
        const int v = counter.read(a, "read");
        counter.write(a, "write", v + 1);
        if (with_mutex) {
          m.unlock(a, "unlock");
          a.step("report", {write(done)});
        }
      });
    }
    ex.final_check("counter == 2", [&counter]() -> Check {
      if (counter.peek() == 2) return std::nullopt;
      return "counter is " + std::to_string(counter.peek()) + " after two increments";
    });
  };
}

}  // namespace

TEST_CASE("lost update: read-then-write increments can lose one", "[lost-update]") {
  auto r = test::explore_dfs(lost_update(false));
  REQUIRE(r.verdict == Verdict::kViolation);
  REQUIRE(r.counterexamples.size() == 1);
  const Counterexample& c = r.counterexamples.front();
  CHECK(c.invariant == "counter == 2");
  CHECK(c.message == "counter is 1 after two increments");
  // DFS goes A,A,B,B (fine) and then A,B,... : the first violating schedule is A,B,A,B.
  CHECK(r.stats.executions == 2);
  REQUIRE(c.steps.size() == 4);
  CHECK(c.steps[0].actor == "A");
  CHECK(c.steps[0].label == "read");
  CHECK(c.steps[0].what == "read counter = 0");
  CHECK(c.steps[1].what == "read counter = 0");
  CHECK(c.steps[3].what == "write counter = 1");

  SECTION("the counterexample's schedule replays to the same violation") {
    Explorer ex(lost_update(false));
    ReplayReport rep = ex.replay(c.schedule);
    REQUIRE(rep.violation);
    CHECK(rep.violation->invariant == "counter == 2");
    CHECK(rep.violation->message == c.message);
    CHECK(!rep.diverged);
    CHECK(rep.consumed == c.schedule.steps.size());
  }
  SECTION("exploring on finds every violating interleaving: 4 of the C(4,2) = 6") {
    ExploreOptions o;
    o.stop_on_first_violation = false;
    auto all = test::explore_dfs(lost_update(false), o);
    CHECK(all.stats.executions == 6);
    CHECK(all.stats.violations.at("counter == 2") == 4);
    CHECK(all.stats.completed == 2);
    CHECK(all.counterexamples.size() == 1);  // one per distinct property
  }
}

TEST_CASE("lost update: with a mutex the increment is safe", "[lost-update][mutex]") {
  // Derivation of the count. Each actor runs lock, read, write, unlock, report.
  // - The first step is a lock by A or by B: 2 ways. Say A.
  // - While A holds m, B's lock is disabled, so A's read, write, unlock run with no alternative.
  // - After A's unlock, A has 1 step left (report) and B has all 5 of its steps, each enabled in
  //   turn (m is free again): C(1 + 5, 1) = 6 interleavings.
  // Total: 2 * 6 = 12 executions, every one with counter == 2.
  auto r = test::explore_dfs(lost_update(true));
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.executions == 12);
  CHECK(r.stats.completed == 12);
  CHECK(r.stats.violations.empty());
}
