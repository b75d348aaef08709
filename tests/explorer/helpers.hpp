// Small helpers shared by the engine's tests.
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/core/input_error.hpp"
#include "explorer/strategies/dfs.hpp"

#include <string>

namespace interleave::test {

inline ExplorationResult explore_dfs(Program p, ExploreOptions o = {}) {
  Explorer ex(std::move(p), std::move(o));
  DfsStrategy dfs;
  return ex.explore(dfs);
}

/// The message of the InputError that f() throws, or "no error".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace interleave::test
