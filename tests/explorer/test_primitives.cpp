// Blocking waits, spawn and join, reader-writer locks: counts derived by hand.
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

TEST_CASE("a blocked wait is not runnable until its condition holds", "[wait]") {
  // setter: set, tidy.   waiter: wait(flag == 1), after.
  // The wait is disabled until "set", so "set" is always first; then the waiter's 2 steps and
  // the setter's 1 remaining step interleave freely: C(3, 1) = 3 executions.
  auto prog = [](Execution& ex) {
    auto& flag = ex.make<Shared<int>>(ex, "flag", 0);
    const ObjectId other = ex.object("other");
    const ObjectId mine = ex.object("mine");
    ex.spawn("waiter", [&flag, mine](Actor& a) {
      flag.wait_until(a, "wait", [](int v) { return v == 1; });
      a.step("after", {write(mine)});
    });
    ex.spawn("setter", [&flag, other](Actor& a) {
      flag.write(a, "set", 1);
      a.step("tidy", {write(other)});
    });
  };
  auto r = test::explore_dfs(prog);
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.executions == 3);
}

TEST_CASE("a wait that never becomes true is a deadlock naming the waiter", "[wait]") {
  auto prog = [](Execution& ex) {
    auto& flag = ex.make<Shared<int>>(ex, "flag", 0);
    ex.spawn("waiter",
             [&flag](Actor& a) { flag.wait_until(a, "Y3", [](int v) { return v == 1; }); });
  };
  auto r = test::explore_dfs(prog);
  REQUIRE(r.verdict == Verdict::kViolation);
  CHECK(r.counterexamples.at(0).message ==
        "deadlock: no actor can run; waiter is blocked at Y3 waiting for wait of flag");
}

TEST_CASE("spawn and join order the child's steps inside the parent's", "[spawn]") {
  // parent: [spawn c1, c2] join(c1), join(c2), read.  c1: w1.  c2: w2.
  // Constraints: w1 < join1 < join2 < read, w2 < join2. The orders of {w1, w2, join1} with
  // w1 < join1 are 3; then join2 and read: 3 executions.
  auto prog = [](Execution& ex) {
    const ObjectId o1 = ex.object("o1"), o2 = ex.object("o2");
    ex.spawn("parent", [o1, o2](Actor& p) {
      const ActorId c1 = p.spawn("c1", [o1](Actor& a) { a.step("w1", {write(o1)}); });
      const ActorId c2 = p.spawn("c2", [o2](Actor& a) { a.step("w2", {write(o2)}); });
      p.join("join1", c1);
      p.join("join2", c2);
      p.step("read", {read(o1), read(o2)});
    });
  };
  auto r = test::explore_dfs(prog);
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.executions == 3);
}

TEST_CASE("a child spawned inside a step starts after that step", "[spawn]") {
  // parent: s1 (spawns child inside), s2.   child: c.
  // child's c can run after s1 only: orders s1 c s2, s1 s2 c: 2 executions, and the events carry
  // the spawn edge (the child's first event has the parent's s1 as hb_pred).
  struct Probe final : Strategy {
    DfsStrategy dfs;
    std::vector<std::int32_t> child_preds;
    std::string name() const override { return "probe"; }
    bool begin_execution() override { return dfs.begin_execution(); }
    ActorId next_actor(const SchedulingPoint& p) override { return dfs.next_actor(p); }
    std::optional<std::uint32_t> next_choice(const ChoicePoint& p) override {
      return dfs.next_choice(p);
    }
    void end_execution(const ExecutionRecord& r) override {
      for (const Event& e : r.trace)
        if (e.actor == 1) child_preds.push_back(e.hb_pred);
      dfs.end_execution(r);
    }
    Coverage coverage() const override { return dfs.coverage(); }
  };
  auto prog = [](Execution& ex) {
    const ObjectId x = ex.object("x"), y = ex.object("y");
    ex.spawn("parent", [x, y](Actor& p) {
      p.step("s1", {write(x)});
      p.spawn("child", [y](Actor& c) { c.step("c", {write(y)}); });
      p.step("s2", {write(x)});
    });
  };
  Explorer ex(prog);
  Probe probe;
  auto r = ex.explore(probe);
  CHECK(r.stats.executions == 2);
  CHECK(probe.child_preds == std::vector<std::int32_t>{0, 0});
}

TEST_CASE("a reader-writer lock admits readers together, never a writer with anyone", "[rwlock]") {
  auto prog = [](Execution& ex) {
    auto& l = ex.make<RwLock>(ex, "rw");
    auto& inside = ex.make<std::array<int, 2>>();  // readers inside, writers inside
    auto reader = [&](Actor& a) {
      l.lock_shared(a, "rlock");
      ++inside[0];
      a.step("rwork", {read(l.id())});
      --inside[0];
      l.unlock_shared(a, "runlock");
    };
    ex.spawn("R1", reader);
    ex.spawn("R2", reader);
    ex.spawn("W", [&](Actor& a) {
      l.lock(a, "wlock");
      ++inside[1];
      a.step("wwork", {write(l.id())});
      --inside[1];
      l.unlock(a, "wunlock");
    });
    ex.invariant("no writer with others", [&]() -> Check {
      if (inside[1] == 0 || (inside[1] == 1 && inside[0] == 0)) return std::nullopt;
      return std::string("writer overlaps");
    });
    ex.invariant("readers never overlap", [&]() -> Check {
      if (inside[0] < 2) return std::nullopt;
      return std::string("two readers inside");
    });
  };
  ExploreOptions o;
  o.stop_on_first_violation = false;
  auto r = test::explore_dfs(prog, o);
  // Readers do overlap (that second "invariant" is deliberately false)...
  CHECK(r.stats.violations.count("readers never overlap") == 1);
  // ...and a writer never overlaps anyone.
  CHECK(r.stats.violations.count("no writer with others") == 0);
  CHECK(r.stats.deadlocked == 0);
}
