// Small helpers shared by the engine's tests.
#pragma once

#include "explorer/explorer.hpp"
#include "explorer/strategies/dfs.hpp"

namespace interleave::test {

inline ExplorationResult explore_dfs(Program p, ExploreOptions o = {}) {
  Explorer ex(std::move(p), std::move(o));
  DfsStrategy dfs;
  return ex.explore(dfs);
}

}  // namespace interleave::test
