// The stateful strategy (DFS with sleep sets and state caching) against brute force: on every
// program it must violate the same properties, reach the same final states and give the same
// verdict as plain DFS, while running fewer executions where traces converge; its audit mode must
// catch a fingerprint that leaves out a local that matters.
#include "explorer/strategies/stateful.hpp"
#include "tests/strategies/oracle.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using namespace interleave::test;

namespace {

constexpr std::uint64_t kBruteForceBudget = 5'000;

// False when the program is too large for brute force.
bool check_against_dfs(const ProgramFactory& make, const std::string& what,
                       StatefulStrategy::Options options = {}) {
  DfsStrategy dfs;
  const Observed brute = observe(make, dfs, Dep::kDeclared, kBruteForceBudget);
  if (!brute.exhaustive) return false;
  StatefulStrategy stateful(options);
  const Observed merged = observe(make, stateful, Dep::kDeclared);
  INFO(what);
  INFO("dfs: " << brute.executions << " executions; stateful: " << merged.executions
               << " executions, " << stateful.states() << " states, " << stateful.pruned()
               << " pruned, " << stateful.audits() << " audits");
  CHECK(merged.violated == brute.violated);
  CHECK(merged.final_states == brute.final_states);
  CHECK(merged.verdict == brute.verdict);
  CHECK(merged.executions <= brute.executions);
  return true;
}

void check_random_programs(std::uint64_t first, std::uint64_t last, RandomProgram::Shape shape,
                           StatefulStrategy::Options options = {}) {
  const std::uint64_t min_percent = brute_force_percent(shape);
  std::uint64_t checked = 0;
  for (std::uint64_t seed = first; seed <= last; ++seed) {
    RandomProgram rp(seed, shape);
    if (check_against_dfs([&rp](Sink* s) { return rp.program(s); },
                          "seed " + std::to_string(seed) + "\n" + rp.describe(), options))
      ++checked;
  }
  INFO("programs checked: " << checked << " of " << last - first + 1);
  CHECK(checked * 100 >= (last - first + 1) * min_percent);
}

ExplorationResult explore_with(const Program& prog, Strategy& s) {
  ExploreOptions o;
  o.minimize = false;
  o.stop_on_first_violation = false;
  Explorer ex(prog, o);
  return ex.explore(s);
}

// `actors` actors each adding 1 to one shared counter `steps` times: every interleaving is its
// own trace (the updates conflict), but the states are only the vectors of program counters.
Program counters(int actors, int steps, std::set<int>* finals) {
  return [=](Execution& ex) {
    auto& v = ex.make<Shared<int>>(ex, "v", 0);
    for (int i = 0; i < actors; ++i)
      ex.spawn("A" + std::to_string(i), [&v, steps](Actor& a) {
        struct L {
          int done = 0;
          void fingerprint(StateHasher& h) const { h << done; }
        } l;
        a.declare_locals(l);
        for (; l.done < steps; ++l.done)
          v.update(a, "add", [](int& x) { ++x; });
      });
    ex.fingerprint([&v](StateHasher& h) { h << v; });
    ex.final_check("record", [&v, finals]() -> Check {
      finals->insert(v.peek());
      return std::nullopt;
    });
  };
}

// A program whose fingerprint leaves out a local that decides the outcome: R reads x into `seen`,
// then, in a step that reads x again (so that it conflicts with W), writes `seen` to y; W sets x
// to 1. After R's read and W's write, in either order, the fingerprints are equal (x = 1, R about
// to write y), but `seen` is 0 or 1, and the final check fails only when it is 1. `declare` says
// whether R declares `seen`.
Program forgetful(bool declare) {
  return [declare](Execution& ex) {
    struct Cells {
      int x = 0, y = 0;
    };
    auto& c = ex.make<Cells>();
    const ObjectId x = ex.object("x"), y = ex.object("y");
    ex.spawn("R", [&c, x, y, declare](Actor& a) {
      struct L {
        int seen = 0;
        void fingerprint(StateHasher& h) const { h << seen; }
      } l;
      if (declare)
        a.declare_locals(l);
      else
        a.declare_no_locals();  // wrong: seen decides what R writes
      a.step("read x", {read(x)});
      l.seen = c.x;
      a.step("write y", {read(x), write(y)});
      c.y = l.seen;
    });
    ex.spawn("W", [&c, x](Actor& a) {
      a.declare_no_locals();
      a.step("write x", {write(x)});
      c.x = 1;
    });
    ex.fingerprint([&c](StateHasher& h) { h << c.x << c.y; });
    ex.final_check("y_stays_0", [&c]() -> Check {
      if (c.y == 0) return std::nullopt;
      return std::string("y is 1");
    });
  };
}

}  // namespace

TEST_CASE("stateful: random programs agree with brute force", "[stateful][random]") {
  check_random_programs(1, 200, RandomProgram::Shape::kSmall);
  check_random_programs(10'001, 10'100, RandomProgram::Shape::kWide);
  check_random_programs(20'001, 20'100, RandomProgram::Shape::kPlain);
}

TEST_CASE("stateful: random programs with locks, waits, invariants and wide steps agree",
          "[stateful][random]") {
  check_random_programs(30'001, 30'100, RandomProgram::Shape::kLocks);
  check_random_programs(60'001, 60'200, RandomProgram::Shape::kWaits);
  check_random_programs(70'001, 70'100, RandomProgram::Shape::kInvariants);
  check_random_programs(90'001, 90'100, RandomProgram::Shape::kWideOps);
}

TEST_CASE("stateful: the audit finds nothing where the fingerprints are complete",
          "[stateful][random][audit]") {
  StatefulStrategy::Options every_state;
  every_state.audit_period = 1;
  check_random_programs(1, 100, RandomProgram::Shape::kSmall, every_state);
  check_random_programs(60'001, 60'100, RandomProgram::Shape::kWaits, every_state);
}

TEST_CASE("stateful: converging traces are explored once", "[stateful]") {
  std::set<int> dfs_finals, stateful_finals;
  DfsStrategy dfs;
  const ExplorationResult brute = explore_with(counters(4, 2, &dfs_finals), dfs);
  StatefulStrategy stateful;
  const ExplorationResult merged = explore_with(counters(4, 2, &stateful_finals), stateful);
  // 8! / (2!)^4 = 2520 interleavings; 3^4 = 81 states, 80 of them scheduling points (the final
  // one is not: it is reached once per actor that can take the last step).
  CHECK(brute.stats.executions == 2520);
  CHECK(stateful.states() == 80);
  CHECK(merged.stats.executions < 200);
  CHECK(merged.stats.completed == 4);
  CHECK(merged.verdict == Verdict::kHolds);
  CHECK(stateful_finals == dfs_finals);
  CHECK(stateful.collision_bound() < 1e-30);
}

TEST_CASE("stateful: a missing local merges states that differ, and the audit says so",
          "[stateful][audit]") {
  // The program violates y_stays_0 when W writes x before R reads it.
  DfsStrategy dfs;
  CHECK(explore_with(forgetful(false), dfs).verdict == Verdict::kViolation);
  {
    // Declared: found.
    StatefulStrategy stateful;
    CHECK(explore_with(forgetful(true), stateful).verdict == Verdict::kViolation);
  }
  {
    // Left out: the search is unsound, it merges the two orders and misses the violation ...
    StatefulStrategy stateful;
    CHECK(explore_with(forgetful(false), stateful).verdict == Verdict::kHolds);
    CHECK(stateful.pruned() > 0);
  }
  {
    // ... which the audit catches.
    StatefulStrategy::Options audit;
    audit.audit_period = 1;
    StatefulStrategy stateful(audit);
    CHECK_THROWS_WITH(explore_with(forgetful(false), stateful),
                      Catch::Contains("stateful audit") && Catch::Contains("declare_locals"));
  }
}

TEST_CASE("stateful: a program that does not declare its state is refused", "[stateful]") {
  const Program no_fingerprint = [](Execution& ex) {
    ex.spawn("A", [](Actor& a) {
      a.declare_no_locals();
      a.step("s", {});
    });
  };
  StatefulStrategy s1;
  CHECK_THROWS_WITH(explore_with(no_fingerprint, s1),
                    Catch::Contains("no fingerprint of its shared state"));
  const Program no_locals = [](Execution& ex) {
    ex.spawn("Quiet", [](Actor& a) { a.step("s", {}); });
    ex.fingerprint([](StateHasher&) {});
  };
  StatefulStrategy s2;
  CHECK_THROWS_WITH(explore_with(no_locals, s2),
                    Catch::Contains("actor Quiet declared no local state"));
}

TEST_CASE("stateful: past its memory bound the table stores no more states, the search goes on",
          "[stateful]") {
  // 6 actors of 3 independent steps each: 4^6 = 4096 states, more than the first table holds
  // (3072 at its load factor).
  const Program program = [](Execution& ex) {
    for (int i = 0; i < 6; ++i) {
      const ObjectId own = ex.object("own" + std::to_string(i));
      ex.spawn("A" + std::to_string(i), [own](Actor& a) {
        a.declare_no_locals();
        a.step("s1", {write(own)});
        a.step("s2", {write(own)});
        a.step("s3", {write(own)});
      });
    }
    ex.fingerprint([](StateHasher&) {});
  };
  StatefulStrategy::Options tiny;
  tiny.max_state_bytes = 1;
  StatefulStrategy bounded(tiny);
  const ExplorationResult r = explore_with(program, bounded);
  CHECK(bounded.unstored() > 0);
  CHECK(bounded.states() < 4096);
  CHECK(r.verdict == Verdict::kHolds);
  StatefulStrategy roomy;
  explore_with(program, roomy);
  CHECK(roomy.states() == 4095);  // every state but the final one (not a scheduling point)
  CHECK(roomy.unstored() == 0);
}

TEST_CASE("stateful: the same exploration twice gives the same counts", "[stateful]") {
  RandomProgram rp(7, RandomProgram::Shape::kWaits);
  Sink sink;
  StatefulStrategy a, b;
  const ExplorationResult ra = explore_with(rp.program(&sink), a);
  const ExplorationResult rb = explore_with(rp.program(&sink), b);
  CHECK(ra.stats.executions == rb.stats.executions);
  CHECK(ra.stats.steps == rb.stats.steps);
  CHECK(a.states() == b.states());
  CHECK(a.pruned() == b.pruned());
}
