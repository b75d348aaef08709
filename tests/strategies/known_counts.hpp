// Programs whose size is known, for the estimator (explorer/search/estimate.hpp): the literature
// programs of tests/strategies/literature.hpp with their published Mazurkiewicz trace counts
// (POPL 2014 Table 1), and small programs whose DFS tree is counted by running DFS. Shared by
// tests/strategies/test_estimate.cpp (each estimate within a factor of 2) and
// tests/bench/bench_estimate.cpp (the figures of docs/strategies.md).
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dfs.hpp"
#include "tests/strategies/literature.hpp"

#include <utility>
#include <vector>

namespace interleave::test {

struct Known {
  const char* name;
  Program program;
  double count;
};

inline std::vector<Known> literature_traces() {
  return {{"readers(2)", literature::readers(2), 4},
          {"readers(8)", literature::readers(8), 256},
          {"readers(13)", literature::readers(13), 8192},
          {"lastzero(5)", literature::lastzero(5), 64},
          {"lastzero(10)", literature::lastzero(10), 3328},
          {"lastzero(15)", literature::lastzero(15), 147456},
          {"indexer(12)", literature::indexer(12), 8},
          {"indexer(13)", literature::indexer(13), 64},
          {"indexer(14)", literature::indexer(14), 512},
          {"indexer(15)", literature::indexer(15), 4096},
          {"filesystem(14)", literature::filesystem(14), 2},
          {"filesystem(16)", literature::filesystem(16), 8}};
}

// Where the estimate at the default probes is not within a factor of 2 (docs/strategies.md says
// why): almost every leaf of their sleep-set tree is blocked.
inline std::vector<Known> literature_misses() {
  return {{"filesystem(18)", literature::filesystem(18), 32},
          {"filesystem(19)", literature::filesystem(19), 64}};
}

// Small programs whose whole DFS tree is counted by running DFS.
inline std::vector<Known> dfs_programs() {
  std::vector<Known> out;
  for (const auto& [name, p] :
       std::vector<std::pair<const char*, Program>>{{"lastzero(3)", literature::lastzero(3)},
                                                    {"lastzero(4)", literature::lastzero(4)},
                                                    {"readers(4)", literature::readers(4)}}) {
    Explorer ex(p);
    DfsStrategy dfs;
    const ExplorationResult r = ex.explore(dfs);
    out.push_back({name, p, static_cast<double>(r.stats.executions)});
  }
  return out;
}

}  // namespace interleave::test
