// The StarRocks worlds more than one benchmark measures (tests/bench/).
#pragma once

#include "model/starrocks/config.hpp"
#include "model/starrocks/policy.hpp"

#include <string>

namespace interleave::bench {

/// The large configuration: 3 FEs, 3 TaskRuns (1 sync, each one iteration that adds rows and
/// one that adds none), 2 clients (one on a follower), 2 cleaner passes, under pr-79339.
inline model::WorldConfig large_world() {
  using namespace interleave::model;
  WorldConfig w;
  w.policy = find_preset("pr-79339")->policy;
  w.preset = "pr-79339";
  w.cluster.frontends = 3;
  w.actors.cleaner.passes = 2;
  for (int i = 0; i < 3; ++i) {
    TaskRunConfig t;
    t.name = "t" + std::to_string(i + 1);
    t.sync = i == 2;
    t.iterations = 1;  // and one that adds no rows
    w.actors.task_runs.push_back(t);
  }
  ClientConfig c1;
  c1.name = "c1";
  ClientConfig c2;
  c2.name = "c2";
  c2.frontend = 1;
  w.actors.clients = {c1, c2};
  return w;
}

}  // namespace interleave::bench
