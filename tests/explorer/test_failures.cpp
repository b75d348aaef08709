// Engine-detected failures: deadlock, the step bound, exceptions and failed checks in actors.
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

TEST_CASE("lock-order inversion is a deadlock naming both actors and the locks", "[deadlock]") {
  auto prog = [](Execution& ex) {
    auto& a = ex.make<Mutex>(ex, "lock_a");
    auto& b = ex.make<Mutex>(ex, "lock_b");
    ex.spawn("T1", [&](Actor& t) {
      a.lock(t, "T1.lock_a");
      b.lock(t, "T1.lock_b");
      b.unlock(t, "T1.unlock_b");
      a.unlock(t, "T1.unlock_a");
    });
    ex.spawn("T2", [&](Actor& t) {
      b.lock(t, "T2.lock_b");
      a.lock(t, "T2.lock_a");
      a.unlock(t, "T2.unlock_a");
      b.unlock(t, "T2.unlock_b");
    });
  };
  auto r = test::explore_dfs(prog);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.at(0);
  CHECK(c.invariant == "deadlock");
  CHECK(c.message ==
        "deadlock: no actor can run; T1 is blocked at T1.lock_b waiting for acquire of lock_b "
        "(held by T2); T2 is blocked at T2.lock_a waiting for acquire of lock_a (held by T1)");
  CHECK(c.step == 2);  // detected after the two first acquisitions
  CHECK(r.stats.deadlocked == 1);

  Explorer ex(prog);
  ReplayReport rep = ex.replay(c.schedule);
  CHECK(rep.outcome == Outcome::kDeadlock);
  REQUIRE(rep.violation);
  CHECK(rep.violation->message == c.message);
}

TEST_CASE("an actor that spins forever is cut by the step bound: incomplete, never holds",
          "[bound]") {
  auto prog = [](Execution& ex) {
    const ObjectId flag = ex.object("flag");
    ex.spawn("spinner", [flag](Actor& a) {
      for (;;)
        a.step("poll", {read(flag)});
    });
    ex.spawn("other", [flag](Actor& a) { a.step("set", {write(flag)}); });
  };
  ExploreOptions o;
  o.max_steps = 20;
  auto r = test::explore_dfs(prog, o);
  CHECK(r.verdict == Verdict::kIncomplete);
  CHECK(r.stats.cut_by_bound == r.stats.executions);
  // "set" at any of the 20 positions, or not within the first 20 steps at all: 21 executions.
  CHECK(r.stats.cut_by_bound == 21);
  CHECK(r.detail == "the step bound (20 steps) cut 21 execution(s)");
}

TEST_CASE("the execution budget makes the verdict incomplete", "[bound]") {
  auto prog = [](Execution& ex) {
    for (const char* n : {"A", "B"}) {
      const ObjectId o = ex.object(n);
      ex.spawn(n, [o](Actor& a) {
        for (int i = 0; i < 4; ++i)
          a.step("s", {write(o)});
      });
    }
  };
  ExploreOptions o;
  o.max_executions = 10;
  auto r = test::explore_dfs(prog, o);
  CHECK(r.verdict == Verdict::kIncomplete);
  CHECK(r.stats.executions == 10);
  CHECK(r.detail == "the execution budget (10 executions) ran out");
}

TEST_CASE("an exception inside an actor is an actor failure with actor and label", "[failure]") {
  auto prog = [](Execution& ex) {
    const ObjectId x = ex.object("x");
    ex.spawn("worker", [x](Actor& a) {
      a.step("W1", {write(x)});
      a.step("W2", {read(x)});
      throw std::runtime_error("boom");
    });
  };
  auto r = test::explore_dfs(prog);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.at(0);
  CHECK(c.invariant == "actor_failure");
  CHECK(c.message == "worker threw at step W2: boom");
  CHECK(c.actor == "worker");
  CHECK(c.step == 1);
}

TEST_CASE("a failed check inside an actor is an actor failure with actor and label", "[failure]") {
  auto prog = [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("writer", [&x](Actor& a) { x.write(a, "set", 5); });
    ex.spawn("checker", [&x](Actor& a) {
      const int v = x.read(a, "get");
      a.check(v == 0, "x must still be 0");
    });
  };
  auto r = test::explore_dfs(prog);
  REQUIRE(r.verdict == Verdict::kViolation);
  CHECK(r.counterexamples.at(0).message == "checker failed at step get: x must still be 0");
}

TEST_CASE("a step-local violation names the invariant and stops the execution", "[failure]") {
  auto prog = [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("A", [&x](Actor& a) { x.write(a, "set", 1); });
    ex.spawn("B", [&x](Actor& a) {
      if (x.read(a, "get") == 1) a.violation("saw_one", "B read 1");
      a.step("after", {write(x.id())});
    });
  };
  auto r = test::explore_dfs(prog);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.at(0);
  CHECK(c.invariant == "saw_one");
  CHECK(c.actor == "B");
  CHECK(c.step == 1);
  CHECK(c.steps.size() == 2);  // nothing after the violating step
}

TEST_CASE("fibers of abandoned executions are unwound: destructors run", "[fiber]") {
  int constructed = 0, destroyed = 0;
  struct Guard {
    int* d;
    ~Guard() { ++*d; }
  };
  auto prog = [&](Execution& ex) {
    auto& a = ex.make<Mutex>(ex, "a");
    auto& b = ex.make<Mutex>(ex, "b");
    ex.spawn("T1", [&](Actor& t) {
      Guard g{&destroyed};
      ++constructed;
      a.lock(t, "la");
      b.lock(t, "lb");
      b.unlock(t, "ub");
      a.unlock(t, "ua");
    });
    ex.spawn("T2", [&](Actor& t) {
      Guard g{&destroyed};
      ++constructed;
      b.lock(t, "lb");
      a.lock(t, "la");
      a.unlock(t, "ua");
      b.unlock(t, "ub");
    });
  };
  ExploreOptions o;
  o.stop_on_first_violation = false;
  auto r = test::explore_dfs(prog, o);
  CHECK(r.stats.deadlocked >= 1);
  CHECK(constructed > 0);
  CHECK(constructed == destroyed);
}

TEST_CASE("a join that cannot finish is a deadlock naming the joined actor's lifecycle object",
          "[deadlock][spawn]") {
  // P holds m and joins C; C needs m. Object names are reused from one execution to the next and
  // lifecycle objects are named only when asked: every execution must still name them right.
  auto prog = [](Execution& ex) {
    auto& m = ex.make<Mutex>(ex, "m");
    ex.spawn("P", [&m](Actor& p) {
      m.lock(p, "P.lock");
      const ActorId c = p.spawn("C", [&m](Actor& a) {
        m.lock(a, "C.lock");
        m.unlock(a, "C.unlock");
      });
      p.join("P.join", c);
      m.unlock(p, "P.unlock");
    });
  };
  ExploreOptions o;
  o.stop_on_first_violation = false;
  auto r = test::explore_dfs(prog, o);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.at(0);
  CHECK(c.message ==
        "deadlock: no actor can run; P is blocked at P.join waiting for wait of actor:C; C is "
        "blocked at C.lock waiting for acquire of m (held by P)");
  REQUIRE_FALSE(c.steps.empty());
  CHECK(r.stats.deadlocked == r.stats.executions);
}

TEST_CASE("an object array's elements are named name[i] in reports, in every execution",
          "[deadlock][objects]") {
  auto prog = [](Execution& ex) {
    const ObjectId before = ex.object("before");
    const ObjectId slot = ex.objects("slot", 3);
    const ObjectId after = ex.object("after");
    ex.describe_object(slot + 2, [] { return std::string("never set"); });
    ex.spawn("A", [=](Actor& a) {
      a.step("a1", {write(before)});
      a.wait_until("A.wait", {Access{static_cast<ObjectId>(slot + 2), AccessKind::kWait}},
                   [] { return false; });
    });
    ex.spawn("B", [=](Actor& a) {
      a.step("b1", {write(static_cast<ObjectId>(slot + 1))});
      a.step("b2", {write(after)});
    });
    CHECK(slot == before + 1);
    CHECK(after == slot + 3);
  };
  ExploreOptions o;
  o.stop_on_first_violation = false;
  auto r = test::explore_dfs(prog, o);
  REQUIRE(r.verdict == Verdict::kViolation);
  CHECK(r.stats.deadlocked == r.stats.executions);
  CHECK(r.stats.executions == 3);  // a1 before, between or after b1, b2
  REQUIRE(r.counterexamples.size() == 1);
  CHECK(r.counterexamples[0].message ==
        "deadlock: no actor can run; A is blocked at A.wait waiting for wait of slot[2] (never "
        "set)");
}

// Repeated actor names are checked in every execution. An execution that spawns the previous
// one's names in the same order skips the check (those were found distinct); this program makes
// the storage reused by a later execution hold names from older executions, which must not pass.
TEST_CASE("two actors with one name are an actor failure, in whichever execution they appear",
          "[failure]") {
  auto prog = [](Execution& ex) {
    ex.spawn("P", [](Actor& a) {
      const auto noop = [](Actor&) {};
      switch (a.choose(3)) {
        case 0:  // P, A, B, C
          a.spawn("A", noop);
          a.spawn("B", noop);
          a.spawn("C", noop);
          break;
        case 1:  // P, C: the storage of A is renamed C; B's and C's are left over
          a.spawn("C", noop);
          break;
        default:  // P, C, X, C: the second C gets the storage left over from the first execution
          a.spawn("C", noop);
          a.spawn("X", noop);
          a.spawn("C", noop);
          break;
      }
    });
  };
  ExploreOptions o;
  o.stop_on_first_violation = false;
  auto r = test::explore_dfs(prog, o);
  CHECK(r.stats.executions == 3);
  REQUIRE(r.counterexamples.size() == 1);
  CHECK(r.counterexamples[0].invariant == "actor_failure");
  CHECK(r.counterexamples[0].message.find("two actors are named 'C'") != std::string::npos);
}
