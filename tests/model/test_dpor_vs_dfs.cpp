// DPOR against plain DFS on the StarRocks model itself. The engine's soundness tests use random
// programs; these use the model's own configurations, where the invariants, the step-local checks
// and the coverage goals read several objects (owners, CAT, TTM), so that a dependency the model
// forgot to declare would show here as a property or goal DPOR misses.
//
// For each configuration both searches run to the end (past violations): they must agree on the
// verdict, on the set of violated properties and on the set of coverage goals reached; DFS's
// execution count is pinned, and DPOR must run far fewer.
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace interleave;
using namespace interleave::model;

namespace {

std::set<std::string> violated(const ExplorationResult& r) {
  std::set<std::string> out;
  for (const auto& [name, count] : r.stats.violations)
    if (count > 0) out.insert(name);
  return out;
}

std::set<std::string> reached(const ExplorationResult& r) {
  std::set<std::string> out;
  for (const auto& [name, count] : r.covered)
    if (count > 0) out.insert(name);
  return out;
}

void agree(const WorldConfig& w, std::uint64_t dfs_executions, std::uint64_t dpor_executions) {
  const ExplorationResult dfs = test::explore(w, false, 0, "dfs");
  const ExplorationResult dpor = test::explore(w, false, 0, "dpor");
  CHECK(dfs.stats.executions == dfs_executions);
  CHECK(dpor.stats.executions == dpor_executions);
  CHECK(dpor.verdict == dfs.verdict);
  CHECK(violated(dpor) == violated(dfs));
  CHECK(reached(dpor) == reached(dfs));
  CHECK(dpor.stats.executions * 10 < dfs.stats.executions);
}

}  // namespace

TEST_CASE("dpor vs dfs: a client session under the createTime guard (holds)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.clients.push_back(test::client("c1"));
  agree(w, 2304, 63);
}

TEST_CASE("dpor vs dfs: a failed listSessions aborts the pass (holds)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.cluster.unreachable_frontends = {0};
  w.actors.clients.push_back(test::client("c1"));
  agree(w, 2395, 78);
}

TEST_CASE("dpor vs dfs: no createTime guard, the NullPointerException (violations)",
          "[dpor-vs-dfs]") {
  WorldConfig w = test::world("no-create-time-guard");
  w.actors.clients.push_back(test::client("c1", 0, 1));
  agree(w, 12020, 258);
}

TEST_CASE("dpor vs dfs: the ignored failed RPC (violations)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("ignore-failed-frontend");
  w.cluster.unreachable_frontends = {0};
  w.actors.clients.push_back(test::client("c1"));
  agree(w, 7875, 250);
}
