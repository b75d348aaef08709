// Benchmark of the engine's hot path (prints figures; not a timed test).
//
// 1. The bare Boost.Context round trip: resume a fiber and let it yield straight back.
// 2. Exhaustive DFS on two actors with many steps each: steps per second, and the cost of one step
//    as a multiple of the bare round trip measured in the same run (target: at most 5).
// 3. Peak memory after growing numbers of executions: stateless search keeps only the current
//    path, so it must not grow with the number of executions.
//
// Usage: bench_explorer [steps_per_actor=40] [executions=200000]
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dfs.hpp"
#include "tests/bench/bench_util.hpp"

#include <cstdio>
#include <cstdlib>

using namespace interleave;
using namespace interleave::bench;

namespace {

Program two_actors(int steps) {
  return [steps](Execution& ex) {
    for (const char* name : {"A", "B"}) {
      const ObjectId own = ex.object(name);
      ex.spawn(name, [own, steps](Actor& a) {
        for (int i = 0; i < steps; ++i)
          a.step("s", {write(own)});
      });
    }
  };
}

struct Run {
  Stats stats;
  double seconds;
};

Run run_dfs(int steps, std::uint64_t executions) {
  ExploreOptions o;
  o.max_executions = executions;
  Explorer ex(two_actors(steps), o);
  DfsStrategy dfs;
  const auto t = Clock::now();
  ExplorationResult r = ex.explore(dfs);
  return {r.stats, seconds_since(t)};
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 40;
  const std::uint64_t executions = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 200'000;

  const double bare = bare_round_trip_ns(20'000'000);
  std::printf("bare fiber round trip:        %8.2f ns\n", bare);

  run_dfs(steps, 1000);  // warm the stack pool and the caches
  const Run r = run_dfs(steps, executions);
  const double per_step = r.seconds * 1e9 / static_cast<double>(r.stats.steps);
  std::printf("DFS, 2 actors x %d steps:     %llu executions, %llu steps in %.3f s\n", steps,
              static_cast<unsigned long long>(r.stats.executions),
              static_cast<unsigned long long>(r.stats.steps), r.seconds);
  std::printf("  executions per second:      %12.0f\n",
              static_cast<double>(r.stats.executions) / r.seconds);
  std::printf("  steps per second:           %12.0f\n",
              static_cast<double>(r.stats.steps) / r.seconds);
  std::printf("  cost per step:              %8.2f ns = %.2f bare round trips (target <= 5)\n",
              per_step, per_step / bare);

  std::printf("peak memory (RSS) against executions explored:\n");
  for (std::uint64_t n : {executions / 100, executions / 10, executions}) {
    run_dfs(steps, n);
    std::printf("  after %9llu executions:  %ld KiB\n", static_cast<unsigned long long>(n),
                peak_rss_kib());
  }
  return 0;
}
