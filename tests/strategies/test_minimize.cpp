// Counterexample minimisation: the same property, the fewest preemptions, then the fewest steps,
// and the result replays strictly.
#include "explorer/search/explorer.hpp"
#include "explorer/search/minimize.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/random.hpp"

#include "tests/programs.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace interleave;

namespace {

// X writes x = 1 then, after some work, x = 2; Y does some work, then reads x: seeing 1 is the bug,
// and it needs exactly one preemption (X stopped between its writes). Three busy actors with lower
// ids run first under DFS, so DFS's counterexample is long.
Program window_bug() {
  return [](Execution& ex) {
    for (int i = 0; i < 3; ++i) {
      const ObjectId own = ex.object("busy" + std::to_string(i));
      ex.spawn("busy" + std::to_string(i), [own](Actor& a) {
        for (int s = 0; s < 4; ++s)
          a.step("work", {write(own)});
      });
    }
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    const ObjectId xs = ex.object("x_scratch");
    const ObjectId ys = ex.object("y_scratch");
    ex.spawn("X", [&x, xs](Actor& a) {
      x.write(a, "first", 1);
      a.step("between", {write(xs)});
      x.write(a, "second", 2);
    });
    ex.spawn("Y", [&x, ys](Actor& a) {
      a.step("prepare", {write(ys)});
      if (x.read(a, "look") == 1) a.violation("saw_intermediate", "Y read x = 1");
    });
  };
}

ExploreOptions raw() {
  ExploreOptions o;
  o.minimize = false;
  return o;
}

}  // namespace

TEST_CASE("DFS's long counterexample is minimised to one preemption and the steps it needs",
          "[minimize]") {
  Explorer ex(window_bug(), raw());
  DfsStrategy dfs;
  const auto r = ex.explore(dfs);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& found = r.counterexamples.at(0);
  CHECK(found.steps.size() == 16);  // the 12 busy steps come first under DFS

  const Minimized m = minimize(window_bug(), found.schedule, "saw_intermediate");
  CHECK(m.original_steps == 16);
  CHECK(m.preemptions == 1);
  CHECK(m.fewest_preemptions);  // bound 0 was searched in full: no violation there
  // X.first, then Y.prepare and Y.look: the causal past of the violating step, run with one switch.
  CHECK(m.steps == 3);
  CHECK(to_json(m.schedule).dump() == R"({"format_version":1,"seed":0,"steps":["X","Y","Y"]})");

  // Strict replay reproduces it, and the Explorer reports the same numbers.
  const Counterexample c = ex.make_counterexample(m.schedule, "saw_intermediate");
  CHECK(c.preemptions == 1);
  CHECK(c.steps.size() == 3);
  CHECK(c.message == "Y read x = 1");
}

TEST_CASE("a random walk's counterexample with many preemptions is minimised to one",
          "[minimize]") {
  Explorer ex(window_bug(), raw());
  RandomStrategy rnd(5, 2000);
  const auto r = ex.explore(rnd);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& found = r.counterexamples.at(0);
  CHECK(found.preemptions > 1);
  const Minimized m = minimize(window_bug(), found.schedule, "saw_intermediate");
  CHECK(m.original_preemptions == found.preemptions);
  CHECK(m.preemptions == 1);
  CHECK(m.steps == 3);
  CHECK(m.schedule.seed == found.schedule.seed);  // still names the execution that found it
  ReplayReport rep = ex.replay(m.schedule);
  REQUIRE(rep.violation);
  CHECK(rep.violation->invariant == "saw_intermediate");
  CHECK(!rep.diverged);
}

TEST_CASE("the Explorer minimises counterexamples by default", "[minimize]") {
  Explorer ex(window_bug());
  DfsStrategy dfs;
  const auto r = ex.explore(dfs);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.at(0);
  CHECK(c.invariant == "saw_intermediate");
  CHECK(c.preemptions == 1);
  REQUIRE(c.steps.size() == 3);
  CHECK(c.steps[0].actor == "X");
  CHECK(c.steps[0].label == "first");
  CHECK(c.steps[2].label == "look");
}

TEST_CASE("a lost update: one preemption, and the first such schedule in search order",
          "[minimize]") {
  // A.read, B.read, A.write, B.write: 2 preemptions. The same trace (the two reads commute) run as
  // B.read, A.read, A.write, B.write has 1; no schedule has 0. Among the schedules with 1
  // preemption and 4 steps, the one the bounded search meets first is kept: A, B, B, A.
  const Program prog = test::lost_update();
  Schedule s;
  s.steps = {ScheduleEntry::run("A"), ScheduleEntry::run("B"), ScheduleEntry::run("A"),
             ScheduleEntry::run("B")};
  const Minimized m = minimize(prog, s, "counter == 2");
  CHECK(m.original_preemptions == 2);
  CHECK(m.preemptions == 1);
  CHECK(m.steps == 4);
  CHECK(m.fewest_preemptions);
  CHECK(to_json(m.schedule).dump() == R"({"format_version":1,"seed":0,"steps":["A","B","B","A"]})");
}

TEST_CASE("the minimised counterexample does not depend on the strategy that found it",
          "[minimize]") {
  std::set<std::string> schedules;
  ExploreOptions o;  // minimisation on (the default)
  {
    Explorer ex(window_bug(), o);
    DfsStrategy s;
    schedules.insert(to_json(ex.explore(s).counterexamples.at(0).schedule).dump());
  }
  {
    Explorer ex(window_bug(), o);
    DporStrategy s;
    schedules.insert(to_json(ex.explore(s).counterexamples.at(0).schedule).dump());
  }
  for (std::uint64_t seed : {1, 2, 3}) {
    Explorer ex(window_bug(), o);
    RandomStrategy s(seed, 5000);
    Schedule sc = ex.explore(s).counterexamples.at(0).schedule;
    sc.seed = 0;  // the seed names the random execution that found it
    schedules.insert(to_json(sc).dump());
  }
  CHECK(schedules ==
        std::set<std::string>{R"({"format_version":1,"seed":0,"steps":["X","Y","Y"]})"});
}

TEST_CASE("fewer preemptions may need another trace: the bounded search finds it", "[minimize]") {
  // A writes x = 1 then x = 2; B reads x twice and fails if it ever saw 1. The schedule
  // A, B, A, B has B see 1 then 2: its steps are ordered A.1 < B.1 < A.2 < B.2 by what they
  // read and wrote, so every schedule of that trace has 2 preemptions. A, B, B (B sees 1 twice)
  // is another trace with 1; no schedule with 0 fails.
  auto prog = [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("A", [&x](Actor& a) {
      x.write(a, "w1", 1);
      x.write(a, "w2", 2);
    });
    ex.spawn("B", [&x](Actor& a) {
      const int r1 = x.read(a, "r1");
      const int r2 = x.read(a, "r2");
      if (r1 == 1 || r2 == 1) a.violation("saw_one", "B saw 1");
    });
  };
  Schedule s;
  s.steps = {ScheduleEntry::run("A"), ScheduleEntry::run("B"), ScheduleEntry::run("A"),
             ScheduleEntry::run("B")};
  const Minimized m = minimize(prog, s, "saw_one");
  CHECK(m.original_preemptions == 2);
  CHECK(m.preemptions == 1);
  CHECK(m.steps == 3);
  CHECK(m.fewest_preemptions);
  CHECK(to_json(m.schedule).dump() == R"({"format_version":1,"seed":0,"steps":["A","B","B"]})");
}

TEST_CASE("a deadlock is minimised too", "[minimize][deadlock]") {
  auto prog = [](Execution& ex) {
    auto& a = ex.make<Mutex>(ex, "a");
    auto& b = ex.make<Mutex>(ex, "b");
    const ObjectId o = ex.object("other");
    const ObjectId p = ex.object("private");
    ex.spawn("T1", [&a, &b, o](Actor& t) {
      a.lock(t, "la");
      t.step("work", {write(o)});
      b.lock(t, "lb");
      b.unlock(t, "ub");
      a.unlock(t, "ua");
    });
    ex.spawn("T2", [&a, &b](Actor& t) {
      b.lock(t, "lb");
      a.lock(t, "la");
      a.unlock(t, "ua");
      b.unlock(t, "ub");
    });
    ex.spawn("T3", [p](Actor& t) {
      t.step("w1", {write(p)});
      t.step("w2", {write(p)});
    });
  };
  // T1 la, T3 w1 (1), T1 work (2), T2 lb (3: T1 could take b), T3 w2: then T1 and T2 wait for
  // each other.
  Schedule s;
  s.steps = {ScheduleEntry::run("T1"), ScheduleEntry::run("T3"), ScheduleEntry::run("T1"),
             ScheduleEntry::run("T2"), ScheduleEntry::run("T3")};
  const Minimized m = minimize(prog, s, "deadlock");
  CHECK(m.original_preemptions == 3);
  // A deadlock needs one switch away from T1 while it holds a (no run-to-completion order
  // deadlocks): T1 la, T1 work, then T2 lb; T3's steps go where they cost nothing.
  CHECK(m.preemptions == 1);
  CHECK(m.fewest_preemptions);
  CHECK(m.steps == 5);
}

TEST_CASE("without a search budget only reordering is done, and minimality is not claimed",
          "[minimize]") {
  Schedule s;
  s.steps = {ScheduleEntry::run("Y"), ScheduleEntry::run("X"), ScheduleEntry::run("busy0"),
             ScheduleEntry::run("Y")};
  MinimizeOptions o;
  o.max_executions = 0;
  const Minimized m = minimize(window_bug(), s, "saw_intermediate", o);
  CHECK(m.original_preemptions == 3);
  CHECK(m.original_steps == 4);
  CHECK(m.steps == 3);        // busy0's step is not in the violation's causal past
  CHECK(m.preemptions == 1);  // X.first, Y.prepare, Y.look
  CHECK(!m.fewest_preemptions);
}

TEST_CASE("a schedule that does not violate the property is refused", "[minimize]") {
  Schedule s;
  s.steps = {ScheduleEntry::run("X"), ScheduleEntry::run("X"), ScheduleEntry::run("X")};
  CHECK_THROWS_AS(minimize(window_bug(), s, "saw_intermediate"), ProgramError);
}
