// Simulation (explorer/search/simulate.hpp): runs in time order with drawn durations. A window of D in
// a period of P is hit with probability D / P; the counts do not depend on the threads; the
// Wilson interval; each law's draws stay in bounds and have the law's mean.
#include "explorer/search/simulate.hpp"
#include "explorer/time/discrete_event.hpp"
#include "explorer/core/checked.hpp"
#include "explorer/core/primitives.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace interleave;

namespace {

std::uint64_t count(const SimulationResult& r, const std::string& property) {
  const auto it = r.violations.find(property);
  return it == r.violations.end() ? 0 : it->second;
}

// A daemon whose one pass comes at a phase free in [0, period); a task that creates a table at
// t = 1 ms and uses it `window` later. The pass drops the table: a violation when it lands
// between the create and the use, so with probability about window / period.
Program window_in_period(Micros window, Micros period) {
  return [window, period](Execution& ex) {
    auto& table = ex.make<Shared<int>>(ex, "table", 0);
    ex.spawn("task", [&table, window](Actor& a) {
      a.lasts(Duration::exactly(milliseconds(1)));
      table.write(a, "create", 1);
      a.lasts(Duration::exactly(window));
      if (table.read(a, "use") == 0) a.violation("table_dropped", "the table was dropped in use");
    });
    ex.spawn("daemon", [&table, period](Actor& a) {
      a.lasts(Duration::free_phase(period));
      table.write(a, "drop", 0);
    });
  };
}

}  // namespace

TEST_CASE("simulate: a window of D in a period of P is hit with probability D/P",
          "[simulate]") {
  for (const Micros d : {seconds(5), seconds(15), seconds(25)}) {
    SimulateOptions o;
    o.runs = 20'000;
    o.seed = 7;
    const SimulationResult r = simulate(window_in_period(d, seconds(30)), o);
    INFO("D = " << d << " us");
    CHECK(r.runs == 20'000);
    CHECK(r.timed);
    CHECK(r.timing_infeasible == 0);
    const double p = static_cast<double>(count(r, "table_dropped")) / 20'000.0;
    CHECK(std::abs(p - static_cast<double>(d) / static_cast<double>(seconds(30))) < 0.02);
    CHECK(r.completed + count(r, "table_dropped") == 20'000);
  }
  // A window longer than the period is always hit (but for a pass before the create).
  SimulateOptions o;
  o.runs = 5'000;
  const SimulationResult r = simulate(window_in_period(seconds(40), seconds(30)), o);
  CHECK(count(r, "table_dropped") >= 4'950);
}

TEST_CASE("simulate: the counts of a seed do not depend on the threads", "[simulate]") {
  const Program p = window_in_period(seconds(10), seconds(30));
  SimulateOptions o;
  o.runs = 3'000;
  o.seed = 11;
  const SimulationResult one = simulate(p, o);
  o.jobs = 3;
  const SimulationResult three = simulate(p, o);
  CHECK(one.violations == three.violations);
  CHECK(one.completed == three.completed);
  CHECK(one.runs == three.runs);
  o.seed = 12;
  const SimulationResult other = simulate(p, o);
  CHECK(other.violations != one.violations);  // another seed, other draws
}

TEST_CASE("simulate: a stop request ends the simulation between runs", "[simulate]") {
  std::atomic<bool> stop{true};
  SimulateOptions o;
  o.runs = 1'000;
  o.stop = &stop;
  const SimulationResult r = simulate(window_in_period(seconds(10), seconds(30)), o);
  CHECK(r.runs == 0);
  CHECK(r.interrupted);
}

TEST_CASE("simulate: the Wilson interval", "[simulate]") {
  const Proportion none = wilson(0, 1'000'000);
  CHECK(none.estimate == 0);
  CHECK(none.low == 0);
  // z^2 / (n + z^2): below 3.85e-6 per run at 95 %.
  CHECK(none.high == Approx(3.8415e-6).epsilon(1e-3));
  const Proportion half = wilson(50, 100);
  CHECK(half.estimate == 0.5);
  CHECK(half.low == Approx(0.4038).epsilon(1e-3));
  CHECK(half.high == Approx(0.5962).epsilon(1e-3));
  const Proportion all = wilson(20, 20);
  CHECK(all.high == 1);
  CHECK(all.low == Approx(0.8389).epsilon(1e-3));
  const Proportion empty = wilson(0, 0);
  CHECK(empty.low == 0);
  CHECK(empty.high == 1);
}

TEST_CASE("simulate: each law's draws stay in bounds and have its mean", "[simulate]") {
  struct Case {
    Duration d;
    double mean;
  };
  const Case cases[] = {
      {Duration::between(100, 300), 200},
      {Duration::sampled({Law::Kind::kFixed, 250, 0}, 0, kForever), 250},
      {Duration::sampled({Law::Kind::kUniform, 1'000, 3'000}, 0, kForever), 2'000},
      {Duration::sampled({Law::Kind::kNormal, 5'000, 500}, 0, kForever), 5'000},
      // exp(mu + sigma^2 / 2)
      {Duration::sampled({Law::Kind::kLognormal, 8, 0.5}, 0, kForever), std::exp(8 + 0.125)},
      {Duration::sampled({Law::Kind::kExponential, 4'000, 0}, 0, kForever), 4'000},
  };
  for (const Case& c : cases) {
    Rng rng(3);
    double sum = 0;
    const int n = 40'000;
    for (int i = 0; i < n; ++i) {
      const Micros x = draw(c.d, rng);
      REQUIRE(x >= c.d.min);
      REQUIRE(x <= c.d.max);
      sum += static_cast<double>(x);
    }
    INFO("law " << static_cast<int>(c.d.law.kind));
    CHECK(sum / n == Approx(c.mean).epsilon(0.02));
  }
  // Truncation: a normal cut to [4 900, 5 100] stays there.
  Rng rng(5);
  const Duration cut = Duration::sampled({Law::Kind::kNormal, 5'000, 500}, 4'900, 5'100);
  for (int i = 0; i < 1'000; ++i) {
    const Micros x = draw(cut, rng);
    REQUIRE(x >= 4'900);
    REQUIRE(x <= 5'100);
  }
}

TEST_CASE("simulate: a run counts every property its end checks find", "[simulate]") {
  const Program p = [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("a", [&x](Actor& a) { x.write(a, "w", 1); });
    ex.final_check("first", [&x]() -> Check {
      if (x.peek() == 1) return std::string("x is 1");
      return std::nullopt;
    });
    ex.final_check("second", [&x]() -> Check {
      if (x.peek() == 1) return std::string("x is still 1");
      return std::nullopt;
    });
  };
  SimulateOptions o;
  o.runs = 10;
  const SimulationResult r = simulate(p, o);
  CHECK(count(r, "first") == 10);
  CHECK(count(r, "second") == 10);
  CHECK(r.violating == 10);
}

TEST_CASE("simulate: the checked mode stops at a step that uses state it did not declare",
          "[simulate]") {
  const Program program = [](Execution& ex) {
    auto& value = ex.make<Checked<int>>(ex, "value", 0);
    const ObjectId other = ex.object("other");
    ex.spawn("writer", [&value, other](Actor& a) {
      a.lasts(Duration::exactly(milliseconds(1)));
      a.step("write", {write(other)});  // declares `other`, writes `value`
      value.write(a) = 1;
    });
  };
  SimulateOptions o;
  o.runs = 10;
  CHECK(simulate(program, o).completed == 10);
  o.check_accesses = true;
  CHECK_THROWS_AS(simulate(program, o), ProgramError);
  o.jobs = 3;
  CHECK_THROWS_AS(simulate(program, o), ProgramError);
}
