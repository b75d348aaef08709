// Benchmark of the stateful strategy (explorer/strategies/stateful.hpp) on the StarRocks model,
// side by side with DPOR in the same run (prints figures; not a timed test).
//
// The first configuration is the one measured with SPIN (a Promela model of the same race, leader
// only; issue 17): 1 FE, 1 CN, a cleaner of 2 passes, an async and a sync TaskRun of 1 iteration
// each with tablet_rows none, one client with one table, pr-79339-register-then-start ("2/1/1/2/1").
// SPIN (-O2, partial-order reduction, exhaustive) proves it in 1.34 s, 1 424 182 states, 239 MB;
// DPOR ran 3 233 861 executions in 180 s and ended incomplete. Those figures are quoted (no
// Promela model ships here); this benchmark measures the stateful search and DPOR on it, then on
// the same configuration under starrocks-4.1.1 (SPIN: 4.7 s), the seed, the grid of
// bench_model_grid and the large configuration of bench_model.
//
// For each: the verdict, executions, distinct states stored, revisits pruned, the hit rate
// (pruned / (pruned + stored)), the visited table's size, the time; and DPOR's verdict and
// executions within the same time budget. The process's peak resident memory is printed after
// the first configuration (the one compared with SPIN's 239 MB) and at the end.
//
// Usage: bench_stateful [budget=60] [only=spin]
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/stateful.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/program.hpp"
#include "tests/bench/bench_util.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace interleave;
using namespace interleave::model;

namespace {

struct Config {
  std::string name;
  WorldConfig world;
};

// The grid's key=value language (bench_model_grid): runs, sync, clients, fes, follower, passes,
// iterations, rows.
WorldConfig grid_world(const std::string& preset, int runs, int sync, int clients, int fes,
                       int follower, int passes, int iterations, TabletRows rows) {
  WorldConfig w;
  w.policy = find_preset(preset).value().policy;
  w.preset = preset;
  w.cluster.frontends = fes;
  w.actors.cleaner.passes = passes;
  for (int i = 0; i < runs; ++i) {
    TaskRunConfig t;
    t.name = "t" + std::to_string(i + 1);
    t.sync = i >= runs - sync;
    t.iterations = iterations;
    t.tablet_rows = rows;
    w.actors.task_runs.push_back(t);
  }
  for (int i = 0; i < clients; ++i) {
    ClientConfig c;
    c.name = "c" + std::to_string(i + 1);
    c.frontend = i >= clients - follower ? 1 : 0;
    w.actors.clients.push_back(c);
  }
  return w;
}

std::vector<Config> configurations() {
  std::vector<Config> all;
  all.push_back({"2/1/1/2/1 pr-79339-register-then-start (SPIN: 1.34 s, 1 424 182 states, 239 MB)",
                 grid_world("pr-79339-register-then-start", 2, 1, 1, 1, 0, 2, 1,
                            TabletRows::kNone)});
  all.push_back({"2/1/1/2/1 starrocks-4.1.1 (SPIN: 4.7 s)",
                 grid_world("starrocks-4.1.1", 2, 1, 1, 1, 0, 2, 1, TabletRows::kNone)});
  {
    // bench_model's seed: one async run (anchor only, rows explored), one client, one pass.
    WorldConfig w;
    TaskRunConfig t;
    t.name = "t1";
    w.actors.task_runs.push_back(t);
    ClientConfig c;
    c.name = "c1";
    w.actors.clients.push_back(c);
    all.push_back({"seed", w});
  }
  // The grid of bench_model_grid (docs/model.md, "What stays large"), under each preset.
  for (const char* preset : {"starrocks-4.1.1", "pr-79339", "pr-79339-register-then-start"}) {
    const std::string p = preset;
    all.push_back({"grid runs=1 passes=1 " + p,
                   grid_world(p, 1, 0, 0, 1, 0, 1, 0, TabletRows::kExplore)});
    all.push_back({"grid runs=1 sync=1 clients=1 " + p,
                   grid_world(p, 1, 1, 1, 1, 0, 1, 0, TabletRows::kExplore)});
    all.push_back({"grid runs=1 clients=1 fes=2 follower=1 iterations=0 rows=none " + p,
                   grid_world(p, 1, 0, 1, 2, 1, 1, 0, TabletRows::kNone)});
    all.push_back({"grid runs=2 sync=1 rows=none " + p,
                   grid_world(p, 2, 1, 0, 1, 0, 1, 0, TabletRows::kNone)});
    all.push_back({"grid runs=1 passes=2 " + p,
                   grid_world(p, 1, 0, 0, 1, 0, 2, 0, TabletRows::kExplore)});
    all.push_back({"grid clients=2 fes=2 follower=1 " + p,
                   grid_world(p, 0, 0, 2, 2, 1, 1, 0, TabletRows::kExplore)});
  }
  {
    // bench_model's large: 3 FEs, 3 runs (1 sync) of 2 iteration inserts (1 adds rows), rows
    // explored, 2 clients (1 on a follower), 2 passes, pr-79339.
    WorldConfig w = grid_world("pr-79339", 3, 1, 2, 3, 1, 2, 1, TabletRows::kExplore);
    all.push_back({"large", w});
  }
  return all;
}

double peak_rss_mb() {
  return static_cast<double>(bench::peak_rss_kib()) / 1024.0;
}

void run(const Config& c, double budget, bool print_rss = false) {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.minimize = false;
  o.time_budget_seconds = budget;
  StatefulStrategy stateful;
  Explorer ex(make_program(c.world), o);
  const ExplorationResult r = ex.explore(stateful);
  const double stored = static_cast<double>(stateful.states());
  const double pruned = static_cast<double>(stateful.pruned());
  std::printf("%s\n  stateful: %-10s executions=%llu states=%zu pruned=%llu hit=%.1f%% "
              "table=%.1fMB time=%.3fs\n",
              c.name.c_str(), std::string(to_string(r.verdict)).c_str(),
              static_cast<unsigned long long>(r.stats.executions), stateful.states(),
              static_cast<unsigned long long>(stateful.pruned()),
              stored + pruned > 0 ? 100.0 * pruned / (stored + pruned) : 0.0,
              static_cast<double>(stateful.table_bytes()) / (1 << 20), r.stats.elapsed_seconds);
  if (print_rss)
    std::printf("  peak resident memory of the process after the stateful search: %.1f MB "
                "(SPIN: 239 MB)\n",
                peak_rss_mb());
  std::fflush(stdout);
  DporStrategy dpor;
  Explorer ex2(make_program(c.world), o);
  const ExplorationResult d = ex2.explore(dpor);
  std::printf("  dpor:     %-10s executions=%llu time=%.3fs (executions against stateful: %.1fx)\n",
              std::string(to_string(d.verdict)).c_str(),
              static_cast<unsigned long long>(d.stats.executions), d.stats.elapsed_seconds,
              r.stats.executions > 0 ? static_cast<double>(d.stats.executions) /
                                           static_cast<double>(r.stats.executions)
                                     : 0.0);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  double budget = 60;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("budget=", 0) == 0) {
      budget = std::atof(a.c_str() + 7);
    } else if (a.rfind("only=", 0) == 0) {
      only = a.substr(5);
    } else {
      std::fprintf(stderr, "usage: bench_stateful [budget=60] [only=spin]\n");
      return 2;
    }
  }
  const std::vector<Config> all = configurations();
  run(all.front(), budget, true);
  if (only == "spin") return 0;
  for (std::size_t i = 1; i < all.size(); ++i)
    run(all[i], budget);
  std::printf("peak resident memory: %.1f MB\n", peak_rss_mb());
  return 0;
}
