// Benchmark of simulation (explorer/search/simulate.hpp; prints figures, not a timed test): sampled runs
// per second against DPOR's executions per second on the same timed world, on one thread, and
// the simulation on every core against one thread.
//
// The world: the timed seed (1 FE, 1 CN, one async recursive-CTE TaskRun whose tablet gets no
// rows, one client, one cleaner pass, starrocks-4.1.1, the anchor insert lasting 18 s, a 30 s
// cleaner of free phase). DPOR explores it exhaustively past every violation (no minimisation);
// the simulation runs 20 000 runs. Each figure is the fastest of three.
//
// Usage: bench_simulate
#include "explorer/search/explorer.hpp"
#include "explorer/search/simulate.hpp"
#include "explorer/strategies/dpor.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/program.hpp"
#include "tests/bench/bench_util.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

using namespace interleave;
using namespace interleave::bench;

namespace {

model::WorldConfig timed_seed() {
  model::WorldConfig w;
  w.policy = model::find_preset("starrocks-4.1.1").value().policy;
  model::TaskRunConfig t;
  t.name = "t1";
  t.tablet_rows = model::TabletRows::kNone;
  t.anchor_insert = Duration::exactly(seconds(18));
  w.actors.task_runs.push_back(t);
  model::ClientConfig c;
  c.name = "c1";
  w.actors.clients.push_back(c);
  w.timing.on = true;
  return w;
}

struct Rate {
  double per_second = 0;
  std::uint64_t count = 0;
};

Rate dpor_rate(const Program& p) {
  Rate best;
  for (int i = 0; i < 3; ++i) {
    ExploreOptions o;
    o.stop_on_first_violation = false;
    o.minimize = false;
    Explorer ex(p, o);
    DporStrategy dpor;
    const auto t = Clock::now();
    const ExplorationResult r = ex.explore(dpor);
    const double rate = static_cast<double>(r.stats.executions) / seconds_since(t);
    if (rate > best.per_second) best = {rate, r.stats.executions};
  }
  return best;
}

Rate simulate_rate(const Program& p, unsigned jobs) {
  Rate best;
  for (int i = 0; i < 3; ++i) {
    SimulateOptions o;
    o.runs = 20'000;
    o.jobs = jobs;
    const auto t = Clock::now();
    const SimulationResult r = simulate(p, o);
    const double rate = static_cast<double>(r.runs) / seconds_since(t);
    if (rate > best.per_second) best = {rate, r.runs};
  }
  return best;
}

}  // namespace

int main() {
  const Program p = model::make_program(timed_seed());
  const Rate dpor = dpor_rate(p);
  const Rate one = simulate_rate(p, 1);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const Rate all = simulate_rate(p, cores);
  std::printf("timed seed world, one thread: dpor %9.0f execs/s (%llu execs), simulate %9.0f "
              "runs/s: simulate/dpor %.2f\n",
              dpor.per_second, static_cast<unsigned long long>(dpor.count), one.per_second,
              one.per_second / dpor.per_second);
  std::printf("simulate on %u threads: %9.0f runs/s, %.2fx one thread\n", cores, all.per_second,
              all.per_second / one.per_second);
  return 0;
}
