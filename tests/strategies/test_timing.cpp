// Virtual time (explorer/time/timing.hpp): timed DPOR against timed brute force on random programs with
// random durations, a violation that needs a step faster than its minimum, periodic actors, the
// earliest times of a counterexample and the windows between two steps.
#include "explorer/strategies/dpor.hpp"
#include "explorer/time/timing.hpp"
#include "reports/trace/trace.hpp"
#include "tests/strategies/oracle.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using namespace interleave::test;

namespace {

struct TimedCounts {
  std::uint64_t checked = 0;
  std::uint64_t with_infeasible = 0;  // programs where timing cut some executions
  std::uint64_t verdict_changed = 0;  // programs whose timed verdict differs from the untimed one
};

// DPOR and brute force (DFS) on the random program of `seed` with random durations: the same
// timed-feasible traces, final states, violated properties and verdict. False when the program is
// too large for brute force.
bool check_timed(std::uint64_t seed, RandomProgram::Shape shape, TimedCounts& counts) {
  RandomProgram rp(seed, shape);
  const Observed untimed_brute = [&] {
    DfsStrategy dfs;
    return observe([&rp](Sink* s) { return rp.program(s); }, dfs,
                   Relation(Dep::kDeclared, rp.invariant_reads()), 5'000);
  }();
  if (!untimed_brute.exhaustive) return false;
  rp.add_durations(seed);
  const Relation dep(Dep::kDeclared, rp.invariant_reads());
  auto make = [&rp](Sink* s) { return rp.program(s); };
  DfsStrategy dfs;
  const Observed brute = observe(make, dfs, dep, 5'000);
  if (!brute.exhaustive) return false;
  DporStrategy dpor;
  const Observed reduced = observe(make, dpor, dep);
  INFO("seed " << seed << "\n" << rp.describe());
  INFO("dfs: " << brute.completed << " completed, " << brute.traces.size() << " traces, "
               << brute.timing_infeasible << " timing-infeasible; dpor: " << reduced.completed
               << " completed, " << reduced.timing_infeasible << " timing-infeasible");
  CHECK(reduced.violated == brute.violated);
  CHECK(reduced.timed_final_states == brute.timed_final_states);
  CHECK(reduced.traces == brute.traces);
  CHECK(reduced.completed == brute.traces.size());
  CHECK(reduced.verdict == brute.verdict);
  // Timing only removes behaviours: the timed traces are some of the untimed ones.
  CHECK(std::includes(untimed_brute.traces.begin(), untimed_brute.traces.end(),
                      brute.traces.begin(), brute.traces.end()));
  ++counts.checked;
  if (brute.timing_infeasible > 0) ++counts.with_infeasible;
  if (brute.violated != untimed_brute.violated) ++counts.verdict_changed;
  return true;
}

// Writer: creates the table at time 0, uses it [20 ms, 30 ms] later. Dropper: drops it at
// `drop_at` after the origin. Untimed, the drop can come between the create and the use.
Program create_use_drop(Duration drop_at) {
  return [drop_at](Execution& ex) {
    auto& table = ex.make<Shared<int>>(ex, "table", 0);
    ex.spawn("Writer", [&table](Actor& a) {
      a.lasts(Duration::exactly(0));
      table.write(a, "create", 1);
      a.lasts(Duration::between(milliseconds(20), milliseconds(30)));
      const int v = table.read(a, "use");
      if (v == 0) a.violation("table_alive", "the table was dropped while in use");
    });
    ex.spawn("Dropper", [&table, drop_at](Actor& a) {
      a.lasts(drop_at);
      table.write(a, "drop", 0);
    });
  };
}

ExplorationResult explore_dpor(const Program& p, bool stop_on_first = true) {
  ExploreOptions o;
  o.stop_on_first_violation = stop_on_first;
  Explorer ex(p, o);
  DporStrategy dpor;
  return ex.explore(dpor);
}

}  // namespace

TEST_CASE("timing: timed DPOR agrees with timed brute force on random programs",
          "[timing][dpor][random]") {
  TimedCounts counts;
  std::uint64_t tried = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed, ++tried)
    check_timed(seed, RandomProgram::Shape::kSmall, counts);
  for (std::uint64_t seed = 10'001; seed <= 10'100; ++seed, ++tried)
    check_timed(seed, RandomProgram::Shape::kWide, counts);
  for (std::uint64_t seed = 60'001; seed <= 60'100; ++seed, ++tried)
    check_timed(seed, RandomProgram::Shape::kWaits, counts);
  INFO(counts.checked << " of " << tried << " checked, " << counts.with_infeasible
                      << " with timing-infeasible executions, " << counts.verdict_changed
                      << " whose violations timing changed");
  CHECK(counts.checked * 100 >= tried * 75);
  // Not vacuous: timing cuts executions in many programs and changes some verdicts.
  CHECK(counts.with_infeasible * 10 >= counts.checked);
  CHECK(counts.verdict_changed > 0);
}

TEST_CASE("timing: a violation that needs a step faster than its minimum holds timed", "[timing]") {
  // The drop comes at least 40 ms after the origin; the use at most 30 ms after the create at 0.
  const ExplorationResult timed =
      explore_dpor(create_use_drop(Duration::at_least(milliseconds(40))));
  CHECK(timed.verdict == Verdict::kHolds);
  CHECK(timed.timed);
  CHECK(timed.stats.timing_infeasible > 0);
  // The same program without durations: the drop between create and use is a violation.
  auto untimed = [](Execution& ex) {
    auto& table = ex.make<Shared<int>>(ex, "table", 0);
    ex.spawn("Writer", [&table](Actor& a) {
      table.write(a, "create", 1);
      if (table.read(a, "use") == 0) a.violation("table_alive", "dropped while in use");
    });
    ex.spawn("Dropper", [&table](Actor& a) { table.write(a, "drop", 0); });
  };
  const ExplorationResult plain = explore_dpor(untimed);
  CHECK(plain.verdict == Verdict::kViolation);
  CHECK_FALSE(plain.timed);
  CHECK(plain.stats.timing_infeasible == 0);
  // Untimed stats carry no timing field.
  CHECK_FALSE(to_json(plain.stats, false).contains("timing_infeasible"));
  CHECK_FALSE(to_json(plain, false).contains("timed"));
  CHECK_FALSE(to_json(plain, false).contains("windows"));
  CHECK(to_json(timed.stats, false).contains("timing_infeasible"));
}

TEST_CASE("timing: a timed counterexample carries the earliest feasible times", "[timing]") {
  // The drop may come from 25 ms on: before the use (20 to 30 ms after the create at 0).
  const ExplorationResult r =
      explore_dpor(create_use_drop(Duration::between(milliseconds(25), milliseconds(50))));
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.front();
  REQUIRE(c.steps.size() == 3);
  std::map<std::string, Micros> at;
  for (const TraceStep& s : c.steps) {
    REQUIRE(s.time.has_value());
    at[s.label] = *s.time;
  }
  CHECK(at["create"] == 0);
  CHECK(at["drop"] == milliseconds(25));
  CHECK(at["use"] == milliseconds(25));  // at or after the drop it read, 20 ms after the create
  CHECK(format_seconds(at["use"]) == "0.025s");
  CHECK(format_seconds(seconds(20) + milliseconds(4)) == "20.004s");
  CHECK(format_seconds(1) == "0.000001s");
}

TEST_CASE("timing: a periodic actor runs an interval after its previous run ends", "[timing]") {
  // A daemon with a 30 s interval and a free phase runs twice (work 1 ms each); a task holds a
  // table from 0 to exactly 45 s. Each run sees the table at most once in [0, 45 s]: both runs can
  // see it (phase below 14 s), the second cannot come before 30 s.
  auto program = [](Execution& ex) {
    auto& table = ex.make<Shared<int>>(ex, "table", 0);
    auto& seen = ex.make<Shared<int>>(ex, "seen", 0);
    ex.spawn("Task", [&table](Actor& a) {
      a.lasts(Duration::exactly(0));
      table.write(a, "create", 1);
      a.lasts(Duration::exactly(seconds(45)));
      table.write(a, "drop", 0);
    });
    ex.spawn("Daemon", [&table, &seen](Actor& a) {
      a.lasts(Duration::free_phase(seconds(30)));
      for (int run = 0; run < 2; ++run) {
        const int v = table.read(a, "look");
        a.lasts(Duration::exactly(milliseconds(1)));  // the run's work
        seen.update(a, "count", [v](int& s) { s += v; });
        a.lasts(Duration::exactly(seconds(30)));  // the interval, after the run ends
      }
    });
    ex.final_check("not_seen_twice", [&seen]() -> Check {
      if (seen.peek() < 2) return std::nullopt;
      return std::string("the daemon saw the table in both runs");
    });
  };
  const ExplorationResult r = explore_dpor(program);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.front();
  std::vector<Micros> looks;
  for (const TraceStep& s : c.steps)
    if (s.label == "look") looks.push_back(*s.time);
  REQUIRE(looks.size() == 2);
  // Earliest: first run at 0, its count 1 ms later, the second look 30 s after that.
  CHECK(looks[0] == 0);
  CHECK(looks[1] == seconds(30) + milliseconds(1));
}

TEST_CASE("timing: a program that asks for a negative duration is a program error", "[timing]") {
  auto program = [](Execution& ex) {
    ex.spawn("A", [](Actor& a) {
      a.lasts(Duration{5, 2});
      a.step("s", {});
    });
  };
  Explorer ex(program);
  DporStrategy dpor;
  CHECK_THROWS_AS(ex.explore(dpor), ProgramError);
}

TEST_CASE("timing: windows are measured over the violating executions", "[timing][window]") {
  // The drop lands between the create (at 0) and the use (20 to 30 ms later): from the create to
  // the drop is at least 25 ms (the drop's earliest) and at most 30 ms (the use's latest).
  Program p = create_use_drop(Duration::between(milliseconds(25), milliseconds(50)));
  Program declared = [p](Execution& ex) {
    p(ex);
    ex.window({"create..drop", {"Writer", "create", 1}, {"Dropper", "drop", 1}});
  };
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.minimize = false;
  o.windows = {{"drop..use", {"", "drop", 1}, {"", "use", 1}}};
  Explorer ex(declared, o);
  DporStrategy dpor;
  const ExplorationResult r = ex.explore(dpor);
  REQUIRE(r.verdict == Verdict::kViolation);
  REQUIRE(r.windows.size() == 2);
  const WindowBounds& cd = r.windows.at("create..drop");
  CHECK(cd.executions >= 1);
  CHECK(cd.least == milliseconds(25));
  CHECK(cd.greatest == milliseconds(30));
  const WindowBounds& du = r.windows.at("drop..use");
  CHECK(du.least == 0);
  CHECK(du.greatest == milliseconds(5));  // the drop at 25 ms at the earliest, the use by 30 ms
  CHECK(describe(cd).find("at least 0.025s, at most 0.030s") != std::string::npos);
  // The exploration's JSON carries them (and says it is timed); an untimed one's has neither.
  const nlohmann::json j = to_json(r, false);
  CHECK(j.contains("windows"));
  CHECK(j.value("timed", false));
}

TEST_CASE("timing: a timed counterexample's times and wall clock survive its JSON", "[timing]") {
  Program p = create_use_drop(Duration::between(milliseconds(25), milliseconds(50)));
  Program with_clock = [p](Execution& ex) {
    p(ex);
    ex.wall_clock({1'778'101'814'000'000, 8 * 60});
  };
  const ExplorationResult r = explore_dpor(with_clock);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample& c = r.counterexamples.front();
  REQUIRE(c.wall_clock.has_value());
  const nlohmann::json j = to_json(c);
  CHECK(j.at("steps").at(0).contains("time_us"));
  const Counterexample back = reports::counterexample_from_json(JsonReader(j, "trace.json"));
  REQUIRE(back.steps.size() == c.steps.size());
  for (std::size_t i = 0; i < c.steps.size(); ++i)
    CHECK(back.steps[i].time == c.steps[i].time);
  CHECK(back.wall_clock == c.wall_clock);
  // Replaying the schedule gives the same times (what `replay` compares).
  Explorer replayer(with_clock);
  const ReplayReport rep = replayer.replay(c.schedule);
  REQUIRE(rep.steps.size() == c.steps.size());
  for (std::size_t i = 0; i < c.steps.size(); ++i)
    CHECK(rep.steps[i].time == c.steps[i].time);
  // An untimed counterexample has no time, no wall clock.
  auto untimed = [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("A", [&x](Actor& a) {
      if (x.read(a, "r") == 0) a.violation("nonzero", "x is 0");
    });
  };
  const ExplorationResult u = explore_dpor(untimed);
  REQUIRE(u.verdict == Verdict::kViolation);
  const nlohmann::json ju = to_json(u.counterexamples.front());
  CHECK_FALSE(ju.at("steps").at(0).contains("time_us"));
  CHECK_FALSE(ju.contains("wall_clock"));
}
