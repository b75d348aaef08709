// Benchmark of partial-order reduction (prints figures; not a timed test).
//
// 1. The bare Boost.Context round trip, the unit of every per-step cost below.
// 2. DFS and DPOR on a program where both run the same executions (DPOR's own overhead per step),
//    then plain DFS and DPOR on the literature benchmarks (tests/strategies/literature.hpp) at a
//    few sizes: executions (complete / sleep-set blocked), steps, executions and steps per second,
//    and the cost of a step (all engine and strategy work divided by the steps executed) in bare
//    round trips. Each row is the fastest of three explorations, as the round trip is the fastest
//    of five timings. DPOR's complete executions are checked against the published trace counts.
// 3. Peak memory of DPOR after growing numbers of executions (measured first): the current path
//    and the wakeup trees, which are bounded by a multiple of the depth.
// 4. A synthetic workload of the StarRocks model's shape (8 actors of 10 steps; the model itself
//    is measured by bench_model): exhaustive DPOR, timed.
//
// Usage: bench_dpor [quick]   ("quick" skips the largest sizes)
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "tests/bench/bench_util.hpp"
#include "tests/strategies/literature.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace interleave;
using namespace interleave::bench;

namespace {

double g_round_trip_ns = 0;  // measured once in main

struct Row {
  std::string program;
  std::string strategy;
  std::uint64_t published = 0;  // 0: none
};

void print_header() {
  std::printf("%-16s %-5s %10s %9s %11s %8s %11s %12s %8s %6s  %s\n", "program", "strat",
              "complete", "blocked", "steps", "seconds", "exec/s", "steps/s", "ns/step", "x rt",
              "published");
}

// Each row is timed as the fastest of kRuns explorations (a fresh Explorer and strategy each, the
// same executions every time), as the bare round trip is the fastest of its timings: both sides of
// the ratio measured the same way, with the noise of a shared machine taken out.
constexpr int kRuns = 3;

template <class S>
ExplorationResult run(const Row& row, const Program& p) {
  ExplorationResult r;
  double secs = 0;
  for (int i = 0; i < kRuns; ++i) {
    S s;
    Explorer ex(p, ExploreOptions{});
    const auto t = Clock::now();
    ExplorationResult ri = ex.explore(s);
    const double si = seconds_since(t);
    if (i > 0 && (ri.stats.executions != r.stats.executions || ri.stats.steps != r.stats.steps)) {
      std::fprintf(stderr, "%s: runs differ\n", row.program.c_str());
      std::exit(1);
    }
    if (i == 0 || si < secs) secs = si;
    r = std::move(ri);
  }
  const auto steps = static_cast<double>(r.stats.steps);
  const double ns_per_step = secs * 1e9 / steps;
  std::string pub = "-";
  if (row.published != 0)
    pub = std::to_string(row.published) +
          (r.stats.completed == row.published ? " (matches)" : " (DIFFERS)");
  std::printf("%-16s %-5s %10llu %9llu %11llu %8.3f %11.0f %12.0f %8.1f %6.2f  %s\n",
              row.program.c_str(), row.strategy.c_str(),
              static_cast<unsigned long long>(r.stats.completed),
              static_cast<unsigned long long>(r.stats.blocked),
              static_cast<unsigned long long>(r.stats.steps), secs,
              static_cast<double>(r.stats.executions) / secs, steps / secs, ns_per_step,
              ns_per_step / g_round_trip_ns, pub.c_str());
  return r;
}

void dfs(const std::string& name, const Program& p) {
  run<DfsStrategy>({name, "dfs", 0}, p);
}

void dpor(const std::string& name, const Program& p, std::uint64_t published) {
  run<DporStrategy>({name, "dpor", published}, p);
}

// Two actors whose every step writes the same object: every interleaving is its own trace, so DFS
// and DPOR run exactly the same C(2n, n) executions, and the difference of their costs per step is
// what DPOR's bookkeeping (clocks, race detection, wakeup trees, sleep sets) adds.
Program contended(int steps) {
  return [steps](Execution& ex) {
    const ObjectId x = ex.object("x");
    for (const char* name : {"A", "B"}) {
      ex.spawn(name, [x, steps](Actor& a) {
        for (int i = 0; i < steps; ++i)
          a.step("w", {write(x)});
      });
    }
  };
}

// Eight actors of ten steps, shaped like the StarRocks model: each works mostly on its own state,
// and touches shared structures (a catalog under a reader-writer lock, a manager map, a journal)
// in a few steps. DFS would face 80! / (10!)^8 (about 10^70) interleavings.
Program starrocks_shaped() {
  return [](Execution& ex) {
    auto& catalog_lock = ex.make<RwLock>(ex, "db_lock");
    const ObjectId catalog = ex.object("CAT");
    const ObjectId manager = ex.object("TTM");
    const ObjectId running = ex.object("RUN");
    for (int i = 0; i < 8; ++i) {
      const ObjectId own = ex.object("local" + std::to_string(i));
      ex.spawn("actor" + std::to_string(i), [=, &catalog_lock](Actor& a) {
        a.step("L1", {write(own)});
        a.step("L2", {read(own)});
        if (i % 4 == 0) {  // a cleaner-like actor: looks, then maybe drops
          a.step("C2", {read(running)});
          a.step("C4", {read(manager)});
          catalog_lock.lock(a, "D2.lock");
          a.step("D2", {write(catalog)});
          catalog_lock.unlock(a, "D2.unlock");
        } else if (i % 4 == 1) {  // a task-like actor: registers, creates, uses
          a.step("S3", {write(running)});
          catalog_lock.lock_shared(a, "E3.lock");
          a.step("E3", {read(catalog)});
          catalog_lock.unlock_shared(a, "E3.unlock");
          a.step("E2a", {read_modify_write(manager)});
        } else {  // mostly local work and a lookup
          a.step("N1", {write(own)});
          catalog_lock.lock_shared(a, "N2.lock");
          a.step("N2", {read(catalog)});
          catalog_lock.unlock_shared(a, "N2.unlock");
          a.step("N3", {write(own)});
        }
        a.step("L3", {write(own)});
        a.step("L4", {write(own)});
        a.step("L5", {read(own)});
      });
    }
  };
}

// The fixed cost of one exploration (explorer and strategy set-up, one execution of one actor
// that takes no step), the fastest of 20: what a run of a few executions mostly measures.
double exploration_setup_us() {
  const Program empty = [](Execution& ex) { ex.spawn("A", [](Actor&) {}); };
  double best = 0;
  for (int i = 0; i < 20; ++i) {
    DporStrategy s;
    Explorer ex(empty, ExploreOptions{});
    const auto t = Clock::now();
    ex.explore(s);
    const double us = seconds_since(t) * 1e6;
    if (i == 0 || us < best) best = us;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "quick") == 0;
  g_round_trip_ns = bare_round_trip_ns(20'000'000);
  std::printf("bare fiber round trip: %.2f ns (\"x rt\": cost of a step in round trips)\n\n",
              g_round_trip_ns);

  // First, so that the peak reflects these runs alone. DPOR keeps the current path and the wakeup
  // trees of its states; the trees hold the reversals still to explore, which for lastzero grow
  // with the frontier of the search, up to the bound (wakeup_steps_per_step x depth).
  std::printf("peak memory (RSS) of DPOR against executions explored:\n");
  for (std::uint64_t n : {1'000ull, 10'000ull, 70'000ull}) {
    DporStrategy s;
    ExploreOptions o;
    o.max_executions = n;
    Explorer ex(literature::lastzero(14), o);
    const ExplorationResult r = ex.explore(s);
    std::printf(
        "  lastzero(14) after %6llu executions (depth %2llu): %6ld KiB; wakeup steps: peak %6zu, "
        "bound %zu\n",
        static_cast<unsigned long long>(r.stats.executions),
        static_cast<unsigned long long>(r.stats.max_depth), peak_rss_kib(), s.peak_wakeup_steps(),
        DporStrategy::Options{}.wakeup_steps_per_step * s.max_depth());
  }
  const double setup_us = exploration_setup_us();
  std::printf(
      "\nset-up of one DPOR exploration (one actor, no step): %.2f us = %.0f round trips\n\n",
      setup_us, setup_us * 1e3 / g_round_trip_ns);
  print_header();
  dfs("contended(2x10)", contended(10));
  dpor("contended(2x10)", contended(10), 184756);  // C(20, 10)
  dfs("lastzero(4)", literature::lastzero(4));
  dpor("lastzero(4)", literature::lastzero(4), 0);
  dpor("lastzero(5)", literature::lastzero(5), 64);
  dpor("lastzero(10)", literature::lastzero(10), 3328);
  if (!quick) dpor("lastzero(15)", literature::lastzero(15), 147456);
  dfs("indexer(3)", literature::indexer(3));
  dpor("indexer(3)", literature::indexer(3), 0);
  dpor("indexer(12)", literature::indexer(12), 8);
  dpor("indexer(13)", literature::indexer(13), 64);
  dpor("indexer(14)", literature::indexer(14), 512);
  if (!quick) dpor("indexer(15)", literature::indexer(15), 4096);
  dpor("filesystem(16)", literature::filesystem(16), 8);
  dpor("filesystem(19)", literature::filesystem(19), 64);
  dfs("readers(8)", literature::readers(8));
  dpor("readers(8)", literature::readers(8), 256);
  dpor("readers(13)", literature::readers(13), 8192);

  std::printf("\nStarRocks-shaped workload (8 actors x 10 steps), exhaustive:\n");
  print_header();
  const ExplorationResult r = run<DporStrategy>({"8x10", "dpor", 0}, starrocks_shaped());
  std::printf("verdict: %s (%s)\n", std::string(to_string(r.verdict)).c_str(), r.detail.c_str());
  return 0;
}
