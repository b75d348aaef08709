// Benchmark of the estimator of a search's size (prints figures; not a timed test): Knuth's
// estimate (explorer/search/estimate.hpp) at the default probes, seed 0, against the known sizes of
// tests/strategies/known_counts.hpp: the literature programs' Mazurkiewicz trace counts (what
// DPOR runs), then the whole DFS tree of small programs (what DFS runs). Per program: the known
// count, the estimate, its standard error and the ratio estimate / known. The table of
// docs/strategies.md ("How good") is this output; tests/strategies/test_estimate.cpp holds each
// ratio within a factor of 2 but the two misses.
//
// Usage: bench_estimate
#include "explorer/search/estimate.hpp"
#include "tests/bench/bench_util.hpp"
#include "tests/strategies/known_counts.hpp"

#include <cstdio>
#include <vector>

using namespace interleave;

int main() {
  const auto start = bench::Clock::now();
  std::printf("%-20s %10s %12s %8s %8s\n", "program", "known", "estimate", "se", "ratio");
  std::vector<test::Known> all = test::literature_traces();
  for (test::Known& k : test::literature_misses())
    all.push_back(std::move(k));
  for (const test::Known& k : all) {
    const TreeEstimate e = estimate_tree(k.program);
    if (e.traces == 0) {  // every probe blocked: no estimate, no error to give
      std::printf("%-20s %10.0f %12.1f %8s %8.2f\n", k.name, k.count, 0.0, "-", 0.0);
      continue;
    }
    std::printf("%-20s %10.0f %12.1f %7.1f%% %8.2f\n", k.name, k.count, e.traces,
                100 * e.traces_error / e.traces, e.traces / k.count);
  }
  for (const test::Known& k : test::dfs_programs()) {
    EstimateOptions o;
    o.tree = EstimateOptions::Tree::kAllInterleavings;
    const TreeEstimate e = estimate_tree(k.program, o);
    std::printf("dfs %-16s %10.0f %12.1f %7.1f%% %8.2f\n", k.name, k.count, e.executions,
                100 * e.executions_error / e.executions, e.executions / k.count);
  }
  std::printf("wall time: %.1f s\n", bench::seconds_since(start));
  return 0;
}
