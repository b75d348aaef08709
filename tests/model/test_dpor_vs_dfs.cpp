// DPOR against plain DFS on the StarRocks model itself. The engine's soundness tests use random
// programs; these use the model's own configurations, where the invariants, the step-local checks
// and the coverage goals read several objects (owners, CAT, TTM), so that a dependency the model
// forgot to declare would show here as a property or goal DPOR misses.
//
// For each configuration both searches run to the end (past violations): they must agree on the
// verdict, on the set of violated properties and on the set of coverage goals reached; DFS's
// execution count is pinned, and DPOR must run far fewer. The stateful search (sleep sets and
// state caching over the model's fingerprints) must agree with DFS too, in no more executions,
// and with every state audited (audit_period 1) the audit must find no state the fingerprints
// merge wrongly: a field a component or an actor forgot to write would show here. A configuration too large for DFS is
// checked against random executions instead (what they reach, DPOR must reach).
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
  const ExplorationResult stateful = test::explore(w, false, 0, "stateful");
  CHECK(stateful.verdict == dfs.verdict);
  CHECK(violated(stateful) == violated(dfs));
  CHECK(reached(stateful) == reached(dfs));
  CHECK(stateful.stats.executions <= dfs.stats.executions);
  ExploreOptions o;
  o.stop_on_first_violation = false;
  StrategySpec audited{"stateful"};
  audited.parameters["audit_period"] = 1;
  Explorer ex(make_program(w), o);
  const auto strategy = make_strategy(audited);
  ExplorationResult audit;
  CHECK_NOTHROW(audit = ex.explore(*strategy));
  CHECK(audit.verdict == dfs.verdict);
}

}  // namespace

TEST_CASE("dpor vs dfs: a client session under the createTime guard (holds)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.clients.push_back(test::client("c1"));
  agree(w, 2304, 41);
}

TEST_CASE("dpor vs dfs: a failed listSessions aborts the pass (holds)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.cluster.unreachable_frontends = {0};
  w.actors.clients.push_back(test::client("c1"));
  agree(w, 2395, 53);
}

TEST_CASE("dpor vs dfs: no createTime guard, the NullPointerException (violations)",
          "[dpor-vs-dfs]") {
  WorldConfig w = test::world("no-create-time-guard");
  w.actors.clients.push_back(test::client("c1", 0, 1));
  agree(w, 12020, 179);
}

TEST_CASE("dpor vs dfs: the ignored failed RPC (violations)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("ignore-failed-frontend");
  w.cluster.unreachable_frontends = {0};
  w.actors.clients.push_back(test::client("c1"));
  agree(w, 7875, 143);
}

TEST_CASE("dpor vs dfs: a failed catalog drop in cleanTemporaryTables (violation, hypothetical)",
          "[dpor-vs-dfs]") {
  // The choice inside D2 (catalog_drop = may_fail) and the D4 check that reads CAT[k].
  WorldConfig w = test::world("starrocks-4.1.1");
  w.policy.catalog_drop = CatalogDrop::kMayFail;
  w.actors.clients.push_back(test::client("c1"));
  agree(w, 3659, 76);
}

// A TaskRun whose recursion is its anchor insert alone (recursive_cte_max_depth 1, the depth
// limit's exception off): DFS stays within reach (one iteration insert more multiplies it by 4).
TaskRunConfig anchor_only(const std::string& name) {
  TaskRunConfig t = test::task_run(name, false, TabletRows::kNone);
  t.recursive_cte_max_depth = 1;
  t.throw_limit_exception = false;
  return t;
}

// The configurations below exercise the per-table and per-session objects (docs/model.md,
// "Declared objects").

TEST_CASE("dpor vs dfs: a follower client and its replayer (violation, hazard 7)",
          "[dpor-vs-dfs]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.cluster.frontends = 2;
  w.actors.clients.push_back(test::client("c1", 1));
  agree(w, 74908, 196);
}

TEST_CASE("dpor vs dfs: two tables of one session, no guard (violations)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("no-create-time-guard");
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  w.actors.clients.push_back(test::client("c1", 0, 2));
  agree(w, 151329, 1435);
}

TEST_CASE("dpor vs dfs: two clients, then the sweep pass (holds)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  w.actors.cleaner.passes = 0;
  w.actors.cleaner.sweep = true;
  w.actors.clients.push_back(test::client("c1"));
  w.actors.clients.push_back(test::client("c2"));
  agree(w, 352716, 1);
}

TEST_CASE("dpor vs dfs: a TaskRun seen by C3 under register-then-start (holds)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("pr-79339-register-then-start");
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  w.actors.task_runs.push_back(anchor_only("t1"));
  agree(w, 959361, 21);  // DFS: 420 200 with a one-step finalize E6, 643 008 with N1 too
}

TEST_CASE("dpor vs dfs: a killed TaskRun, then the sweep pass (violation: it still commits)",
          "[dpor-vs-dfs]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  w.actors.cleaner.passes = 0;
  w.actors.cleaner.sweep = true;
  w.actors.task_runs.push_back(anchor_only("t1"));
  w.actors.task_runs[0].kill = KillMode::kForce;
  // DFS: 2 963 with a one-step finalize E6, 4 230 with N1 too, 6 190 when the kill cancelled the
  // run's next statement.
  agree(w, 6930, 18);
}

// A TaskRun together with a client is far too large for plain DFS (the seed's configuration has
// more than 10^7 interleavings). Random executions are executions DFS would run: every property
// and goal they reach, DPOR must reach.
TEST_CASE("dpor vs random: the seed's configuration (a TaskRun and a client)", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.task_runs.push_back(test::task_run("t1", false, TabletRows::kNone));
  w.actors.clients.push_back(test::client("c1"));
  for (const char* preset : {"starrocks-4.1.1", "pr-79339", "pr-79339-register-then-start"}) {
    DYNAMIC_SECTION(preset) {
      w.policy = test::world(preset).policy;
      const ExplorationResult dpor = test::explore(w, false, 0, "dpor");
      const ExplorationResult random = test::find_violations(w, 30000);
      CHECK(dpor.stats.executions < 30000);
      const std::set<std::string> v = violated(dpor), g = reached(dpor);
      for (const std::string& name : violated(random))
        CHECK(v.count(name) == 1);
      for (const std::string& name : reached(random))
        CHECK(g.count(name) == 1);
      if (dpor.verdict == Verdict::kHolds) CHECK(random.verdict != Verdict::kViolation);
    }
  }
}

// The configurations below exercise what lets sessions commute (docs/model.md, "Declared
// objects"): per-key table ids, the per-session rows that C4 and listSessions read (TTM_L[s],
// CS_f[c]), the split of an entry into its presence and its tables, the leader's logical clock,
// and the session_frontend clock that still ticks.

TEST_CASE("dpor vs dfs: a follower client under the session_frontend clock (violation, hazard 8)",
          "[dpor-vs-dfs]") {
  WorldConfig w = test::world("cross-frontend-create-time");
  w.cluster.frontends = 2;
  w.cluster.clock_offsets[1] = -1000;
  w.actors.clients.push_back(test::client("c1", 1));
  agree(w, 415912, 698);
}

namespace {

// Every property and goal that random executions (executions DFS would run) reach, DPOR reaches.
void agree_with_random(const WorldConfig& w) {
  const ExplorationResult dpor = test::explore(w, false, 0, "dpor");
  const ExplorationResult random = test::find_violations(w, 30000);
  CHECK(dpor.verdict != Verdict::kIncomplete);
  const std::set<std::string> v = violated(dpor), g = reached(dpor);
  for (const std::string& name : violated(random))
    CHECK(v.count(name) == 1);
  for (const std::string& name : reached(random))
    CHECK(g.count(name) == 1);
  if (dpor.verdict == Verdict::kHolds) CHECK(random.verdict != Verdict::kViolation);
}

}  // namespace

// Two clients and a pass are too large for plain DFS (millions of interleavings).
TEST_CASE("dpor vs random: two clients and two passes", "[dpor-vs-dfs]") {
  for (const char* preset : {"starrocks-4.1.1", "no-create-time-guard"}) {
    DYNAMIC_SECTION(preset) {
      WorldConfig w = test::world(preset);
      w.actors.cleaner.passes = 2;
      w.actors.clients.push_back(test::client("c1"));
      w.actors.clients.push_back(test::client("c2"));
      agree_with_random(w);
    }
  }
}

TEST_CASE("dpor vs random: a leader and a follower client under the session_frontend clock",
          "[dpor-vs-dfs]") {
  WorldConfig w = test::world("cross-frontend-create-time");
  w.cluster.frontends = 2;
  w.cluster.clock_offsets[1] = -1000;
  w.actors.clients.push_back(test::client("c1"));
  w.actors.clients.push_back(test::client("c2", 1));
  agree_with_random(w);
}

// Two TaskRuns and a pass are far too large for plain DFS: random executions instead.
TEST_CASE("dpor vs random: two TaskRuns, a client and a pass", "[dpor-vs-dfs]") {
  WorldConfig w = test::world("pr-79339");
  w.actors.task_runs.push_back(test::task_run("t1", false, TabletRows::kNone));
  w.actors.task_runs.push_back(test::task_run("t2", true, TabletRows::kNone));
  w.actors.clients.push_back(test::client("c1"));
  for (const char* preset : {"starrocks-4.1.1", "pr-79339", "pr-79339-register-then-start"}) {
    DYNAMIC_SECTION(preset) {
      w.policy = test::world(preset).policy;
      agree_with_random(w);
    }
  }
}

// The journal is declared per follower (J[f], docs/model.md "Journal"): the appends of a TaskRun
// (E2, E6) and of a leader client no longer order the follower replayer's steps. Whatever random
// executions reach with those appends interleaved anywhere, DPOR must reach.
TEST_CASE("dpor vs random: a TaskRun, a leader client and a follower client", "[dpor-vs-dfs]") {
  for (const char* preset : {"starrocks-4.1.1", "pr-79339"}) {
    DYNAMIC_SECTION(preset) {
      WorldConfig w = test::world(preset);
      w.cluster.frontends = 2;
      w.actors.task_runs.push_back(test::task_run("t1", false, TabletRows::kNone));
      w.actors.clients.push_back(test::client("c1"));
      w.actors.clients.push_back(test::client("c2", 1));
      agree_with_random(w);
    }
  }
}
