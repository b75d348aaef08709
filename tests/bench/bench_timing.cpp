// Benchmark of virtual time (explorer/time/timing.hpp; prints figures, not a timed test): what timed
// feasibility adds to DPOR's time per execution.
//
// 1. The seed world (bench_model's: 1 FE, 1 CN, one TaskRun, one client, one cleaner pass,
//    starrocks-4.1.1), exhaustive DPOR past every violation, two ways: with synthetic durations
//    (at the end of each execution a wrapper builds the constraint graph of its trace with every
//    step's work in [1 ms, 5 ms] and every actor starting in [0, 30 s): TimingGraph::build, then
//    feasible(), the work Execution does at the end of a timed execution), and with the model's
//    own durations (its "timing" section on: model/starrocks/durations.cpp), against the same
//    world untimed. The ratio is of the fastest of three explorations each way.
// 2. A timed program of the same shape with real durations (Actor::lasts): 4 actors of 4 steps
//    over 3 shared objects, each step lasting [1, 3] ms, against the same program untimed.
//
// Usage: bench_timing
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/time/timing.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/program.hpp"
#include "tests/bench/bench_util.hpp"

#include <cstdio>
#include <string>

using namespace interleave;
using namespace interleave::bench;

namespace {

// Runs `inner` and, when `check` is set, checks every execution's timed feasibility under
// synthetic durations.
class TimingProbe final : public Strategy {
 public:
  TimingProbe(Strategy& inner, bool check) : inner_(inner), check_(check) {}
  std::string name() const override { return inner_.name(); }
  bool begin_execution() override { return inner_.begin_execution(); }
  ActorId next_actor(const SchedulingPoint& p) override { return inner_.next_actor(p); }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& p) override {
    return inner_.next_choice(p);
  }
  void end_execution(const ExecutionRecord& r) override {
    if (check_) {
      record_.clear();
      record_.timed = true;
      record_.work.resize(r.trace.size());
      for (auto& w : record_.work)
        w.add(Duration::between(milliseconds(1), milliseconds(5)));
      ActorId actors = 0;
      for (const Event& e : r.trace)
        actors = std::max<ActorId>(actors, static_cast<ActorId>(e.actor + 1));
      record_.start.resize(actors);
      for (auto& s : record_.start)
        s.add(Duration::free_phase(seconds(30)));
      record_.spawned_at.assign(actors, -1);
      graph_.build(r.trace, record_);
      feasible_ += graph_.feasible() ? 1 : 0;
    }
    inner_.end_execution(r);
  }
  Coverage coverage() const override { return inner_.coverage(); }
  std::string abandon_reason() const override { return inner_.abandon_reason(); }

  std::uint64_t feasible_ = 0;

 private:
  Strategy& inner_;
  bool check_;
  TimingRecord record_;
  TimingGraph graph_;
};

struct Timing {
  double seconds = 0;
  std::uint64_t executions = 0;
  std::uint64_t feasible = 0;
};

Timing fastest_of_three(const Program& p, bool check) {
  Timing best;
  for (int i = 0; i < 3; ++i) {
    ExploreOptions o;
    o.stop_on_first_violation = false;
    o.minimize = false;
    Explorer ex(p, o);
    DporStrategy dpor;
    TimingProbe probe(dpor, check);
    const auto t = Clock::now();
    const ExplorationResult r = ex.explore(probe);
    const double s = seconds_since(t);
    if (i == 0 || s < best.seconds)
      best = {s, r.stats.executions,
              check ? probe.feasible_ : r.stats.executions - r.stats.timing_infeasible};
  }
  return best;
}

Program shaped(bool timed) {
  return [timed](Execution& ex) {
    ObjectId objs[3] = {ex.object("x"), ex.object("y"), ex.object("z")};
    for (int a = 0; a < 4; ++a)
      ex.spawn("A" + std::to_string(a), [a, timed, objs](Actor& act) {
        if (timed) act.lasts(Duration::between(0, milliseconds(2)));
        for (int s = 0; s < 4; ++s) {
          const ObjectId o = objs[(a + s) % 3];
          act.step("s", {s % 2 == 0 ? read(o) : write(o)});
          if (timed) act.lasts(Duration::between(milliseconds(1), milliseconds(3)));
        }
      });
  };
}

void print(const char* what, const Timing& base, const Timing& timed) {
  const double per_base = base.seconds * 1e6 / static_cast<double>(base.executions);
  const double per_timed = timed.seconds * 1e6 / static_cast<double>(timed.executions);
  std::printf("%-34s %9llu execs  untimed %8.2f us/exec  timed %8.2f us/exec  +%5.1f %%", what,
              static_cast<unsigned long long>(base.executions), per_base, per_timed,
              (per_timed / per_base - 1) * 100);
  std::printf("  (%llu feasible)\n", static_cast<unsigned long long>(timed.feasible));
}

}  // namespace

int main() {
  model::WorldConfig w;
  model::TaskRunConfig t;
  t.name = "t1";
  w.actors.task_runs.push_back(t);
  model::ClientConfig c;
  c.name = "c1";
  w.actors.clients.push_back(c);
  const Program seed = model::make_program(w);
  const Timing untimed = fastest_of_three(seed, false);
  print("seed world, synthetic durations", untimed, fastest_of_three(seed, true));
  w.timing.on = true;
  print("seed world, the model's durations", untimed,
        fastest_of_three(model::make_program(w), false));

  const Timing base = fastest_of_three(shaped(false), false);
  Timing timed;
  for (int i = 0; i < 3; ++i) {
    ExploreOptions o;
    o.stop_on_first_violation = false;
    o.minimize = false;
    Explorer ex(shaped(true), o);
    DporStrategy dpor;
    const auto t0 = Clock::now();
    const ExplorationResult r = ex.explore(dpor);
    const double s = seconds_since(t0);
    if (i == 0 || s < timed.seconds)
      timed = {s, r.stats.executions, r.stats.executions - r.stats.timing_infeasible};
  }
  print("4x4 program, Actor::lasts", base, timed);
  return 0;
}
