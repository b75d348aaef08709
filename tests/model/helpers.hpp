// Helpers shared by the model's tests: small worlds and explorations of them.
#pragma once

#include "explorer/explorer.hpp"
#include "explorer/strategies/dfs.hpp"
#include "model/config.hpp"
#include "model/world.hpp"

#include <string>

namespace interleave::model::test {

/// A world with the given policy preset and nothing else (add actors to it).
inline WorldConfig world(const std::string& preset) {
  WorldConfig w;
  w.policy = find_preset(preset).value().policy;
  w.preset = preset;
  return w;
}

inline TaskRunConfig task_run(const std::string& name, bool sync = false,
                              TabletRows rows = TabletRows::kSome) {
  TaskRunConfig t;
  t.name = name;
  t.sync = sync;
  t.tablet_rows = rows;
  return t;
}

inline ClientConfig client(const std::string& name, int frontend = 0, int tables = 1) {
  ClientConfig c;
  c.name = name;
  c.frontend = frontend;
  c.temp_tables = tables;
  return c;
}

/// Exhaustive DFS of the world.
inline ExplorationResult explore(const WorldConfig& w, bool stop_on_first = true,
                                 std::uint64_t max_executions = 0) {
  ExploreOptions o;
  o.stop_on_first_violation = stop_on_first;
  o.max_executions = max_executions;
  Explorer ex(make_program(w), o);
  DfsStrategy dfs;
  return ex.explore(dfs);
}

}  // namespace interleave::model::test
