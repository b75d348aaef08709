// Fidelity checks of issue 14 (docs/model.md, "Fidelity, round 2"): what StarRocks' source does
// and the model follows, or the hypothetical variant the model adds to show what a difference
// would do.
// - point 3: MetadataMgr.cleanTemporaryTables catches the DdlException of the catalog drop and
//   still removes the session; the knob catalog_drop (hypothetical may_fail) explores that catch.
// - point 6: task_retry_attempts: the attempts loop in one executor (one dispatch, the run stays
//   in RUN until the last attempt's E7), each attempt with a fresh ConnectContext (session).
// - point 1: TaskRunManager.killRunningTaskRun removes the run from RUN only with force; without
//   it the run stays in RUN until S1 sees the final state E7 sets. A killed run still retries.
// - point 5: getFrontends(null) lists a down FE too, so every pass aborts at its failed
//   listSessions RPC and no dead session's table is cleaned while it is down.
#include "model/starrocks/world.hpp"
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace interleave;
using namespace interleave::model;
using test::counterexample;
using test::covered;
using test::find_step;

namespace {

std::size_t count_steps(const std::vector<TraceStep>& steps, const std::string& actor,
                        const std::string& label) {
  return static_cast<std::size_t>(
      std::count_if(steps.begin(), steps.end(),
                    [&](const TraceStep& s) { return s.actor == actor && s.label == label; }));
}

// The world's program with one more final check, `probe`, that fails when `witness` holds of
// the world at the end: the counterexample is a trace of an execution that got there.
Program probed(const WorldConfig& cfg, std::function<bool(const World&)> witness) {
  auto plan = std::make_shared<const SpawnPlan>(cfg);
  return [cfg, plan, witness](Execution& ex) {
    World& w = ex.make<World>(ex, cfg, *plan);
    w.setup();
    ex.final_check("probe", [&w, witness]() -> Check {
      if (witness(w)) return std::string("witness");
      return std::nullopt;
    });
  };
}

ExplorationResult explore_program(Program p) {
  ExploreOptions o;
  o.stop_on_first_violation = true;
  Explorer ex(std::move(p), o);
  auto s = make_strategy(StrategySpec{});
  return ex.explore(*s);
}

}  // namespace

TEST_CASE("point 3: a failed catalog drop in cleanTemporaryTables leaves an untracked table",
          "[fidelity][catalog_drop]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.clients.push_back(test::client("c1"));

  SECTION("succeeds (StarRocks: IF EXISTS and FORCE leave nothing to throw): unchanged, holds") {
    CHECK(w.policy.catalog_drop == CatalogDrop::kSucceeds);
    const auto r = test::explore(w, true);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 41);  // as in hazard 5: the default adds no choice
    CHECK(covered(r, goal::kCatalogDropFailed) == 0);
  }

  SECTION("may_fail: the catch is taken, D4 still removes the session, the table is orphaned") {
    w.policy.catalog_drop = CatalogDrop::kMayFail;
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    CHECK(covered(r, goal::kCatalogDropFailed) > 0);
    // Only the orphan: no live owner loses a table, nothing else breaks.
    REQUIRE(r.counterexamples.size() == 1);
    const Counterexample* c = counterexample(r, inv::kUntrackedTempTable);
    REQUIRE(c != nullptr);
    CHECK_THAT(c->message, Catch::Contains("removed session c1 from TemporaryTableMgr while its "
                                           "entry still held temporary table tmp_c1_1"));
    CHECK_THAT(c->message, Catch::Contains("whose catalog drop failed at D2 (caught and logged)"));
    // The failing D2 logs StarRocks' message, the D3 of that table is skipped (it is inside the
    // same try), and D4 follows.
    const auto& s = c->steps;
    const std::size_t d2 = std::min(find_step(s, "TemporaryTableCleaner", "D2", "Failed to drop"),
                                    find_step(s, "Session:c1@fe1", "D2", "Failed to drop"));
    REQUIRE(d2 < s.size());
    CHECK_THAT(s[d2].what, Catch::Contains("Failed to drop temporary table db16061.tmp_c1_1 in "
                                           "session c1"));
    CHECK(s.back().label == "D4");
    CHECK(s.back().actor == s[d2].actor);
    CHECK(count_steps(s, s[d2].actor, "D3") == 0);
    CHECK(test::all_replay(w, r));
  }

  SECTION("may_fail with the sweep: the orphan is reported at D4, before the sweep could see it") {
    w.policy.catalog_drop = CatalogDrop::kMayFail;
    w.actors.cleaner.sweep = true;
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    CHECK(counterexample(r, inv::kUntrackedTempTable) != nullptr);
    CHECK(counterexample(r, inv::kTempTableLeak) == nullptr);
    CHECK(covered(r, goal::kSweepPassCompleted) > 0);
  }
}

TEST_CASE("point 6: retries loop in one executor, the run stays in RUN, a fresh session each",
          "[fidelity][retries]") {
  WorldConfig w = test::world("pr-79339");
  TaskRunConfig t = test::task_run("t1");
  t.retries = 1;
  w.actors.task_runs.push_back(t);
  const auto r = test::find_violations(w, 5000);
  REQUIRE(r.verdict == Verdict::kViolation);
  // Attempt 1 fails through hazard 3 (its staging table dropped in the S2a..S3 window); the
  // executor then starts attempt 2 itself.
  const Counterexample* c = counterexample(r, inv::kSinkTableNotFound);
  REQUIRE(c != nullptr);
  CHECK_THAT(c->message, Catch::Contains("session t1#1"));
  const auto& s = c->steps;
  const std::size_t e1_1 = find_step(s, "TaskRun:t1", "E1", "session t1#1");
  const std::size_t e6_1 = find_step(s, "TaskRun:t1", "E6");
  const std::size_t e1_2 = find_step(s, "TaskRun:t1", "E1", "session t1#2");
  const std::size_t e7 = find_step(s, "TaskRun:t1", "E7");
  const std::size_t s1 = find_step(s, "TaskRunScheduler", "S1");
  REQUIRE(e1_2 < s.size());
  CHECK(e1_1 < e6_1);
  CHECK(e6_1 < e1_2);  // the finally of attempt 1 runs before attempt 2 starts
  CHECK(e1_2 < e7);
  // One dispatch for both attempts (no second PEND -> RUN), one reaping, after the last E7: the
  // run is in RUN from S3 until S1, across the attempts.
  CHECK(count_steps(s, "TaskRunScheduler", "S2a") == 1);
  CHECK(count_steps(s, "TaskRunScheduler", "S3") == 1);
  CHECK(count_steps(s, "TaskRun:t1", "E1") == 2);
  if (s1 < s.size()) CHECK(e7 < s1);
  // Attempt 2 has its own staging table (the statement runs again: a new CTE table).
  CHECK(find_step(s, "TaskRun:t1", "E2", "of session t1#2") < s.size());
  CHECK(test::all_replay(w, r));
}

TEST_CASE("point 1: hazard 9 under the forced and the graceful kill", "[fidelity][kill]") {
  WorldConfig w = test::world("pr-79339-register-then-start");
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  w.actors.task_runs.push_back(test::task_run("t1", false, TabletRows::kNone));

  SECTION("forced (kill: true, what the model always did): out of RUN at K, the drop is allowed") {
    w.actors.task_runs[0].kill = KillMode::kForce;
    const auto r = test::explore(w, false);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 748);  // scenarios/h9-kill-then-drop-allowed.json, unchanged
    CHECK(covered(r, goal::kKilledRunTableDropped) > 0);
    CHECK(covered(r, goal::kFinalizeNoop) > 0);
  }

  SECTION("graceful: the run stays in RUN until E7, so C3 spares it and no drop precedes E6") {
    w.actors.task_runs[0].kill = KillMode::kGraceful;
    const auto r = test::explore(w, false);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 276);
    CHECK(covered(r, goal::kKilledRunTableDropped) == 0);
    CHECK(covered(r, goal::kFinalizeNoop) == 0);
    CHECK(covered(r, goal::kTaskSessionSpared) > 0);
  }

  SECTION("graceful under 4.1.1 (RUN not read): K leaves the run in RUN, S1 comes after E7") {
    WorldConfig v = test::world("starrocks-4.1.1");
    v.policy.add_temporary_table = AddTemporaryTable::kAtomic;
    v.actors.task_runs.push_back(test::task_run("t1", false, TabletRows::kNone));
    v.actors.task_runs[0].kill = KillMode::kGraceful;
    // An execution in which K killed the running run before its E7.
    const auto r = explore_program(
        probed(v, [](const World& world) { return world.scheduler.task(0).killed; }));
    REQUIRE(r.verdict == Verdict::kViolation);
    const Counterexample* c = counterexample(r, "probe");
    REQUIRE(c != nullptr);
    const auto& s = c->steps;
    const std::size_t k = find_step(s, "Kill:t1", "K", "left in RUN until its final state");
    const std::size_t e7 = find_step(s, "TaskRun:t1", "E7");
    const std::size_t s1 = find_step(s, "TaskRunScheduler", "S1", "removed from RUN");
    REQUIRE(k < s.size());
    REQUIRE(s1 < s.size());
    CHECK(k < e7);
    CHECK(e7 < s1);
  }
}

TEST_CASE("point 1: a killed run retries, with a new session its kill did not touch",
          "[fidelity][kill][retries]") {
  WorldConfig w = test::world("pr-79339-register-then-start");
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  TaskRunConfig t = test::task_run("t1", false, TabletRows::kNone);
  t.kill = KillMode::kForce;
  t.retries = 1;
  w.actors.task_runs.push_back(t);
  // An execution in which attempt 1 was killed and attempt 2 then succeeded.
  const auto r = explore_program(probed(w, [](const World& world) {
    const TaskRun& tr = world.scheduler.task(0);
    return tr.killed_attempt == 1 && tr.attempt == 2 && world.owners.at("t1#2").finalized;
  }));
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample* c = counterexample(r, "probe");
  REQUIRE(c != nullptr);
  const auto& s = c->steps;
  const std::size_t k = find_step(s, "Kill:t1", "K");
  const std::size_t e1_2 = find_step(s, "TaskRun:t1", "E1", "session t1#2");
  REQUIRE(k < s.size());
  REQUIRE(e1_2 < s.size());
  CHECK(k < e1_2);
  CHECK(find_step(s, "TaskRun:t1", "E2", "of session t1#2") < s.size());
  // Attempt 2's statements are not cancelled by the kill (its ConnectContext is new).
  bool e3_2 = false;
  for (std::size_t i = e1_2; i < s.size(); ++i)
    if (s[i].actor == "TaskRun:t1" && s[i].label == "E3") {
      e3_2 = true;
      CHECK(s[i].what.find("cancelled") == std::string::npos);
    }
  CHECK(e3_2);
}

TEST_CASE("point 5: a down follower: no pass completes, the dead session's table stays",
          "[fidelity][down_frontends]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.cluster.frontends = 3;
  w.actors.cleaner.passes = 0;
  w.actors.cleaner.sweep = true;
  w.actors.clients.push_back(test::client("c1", 2));

  SECTION("fe2 up: the sweep pass drops what c1's own clean missed") {
    const auto r = test::explore(w, false);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 4);
    CHECK(covered(r, goal::kSweepPassCompleted) > 0);
  }

  SECTION("fe2 down: the sweep pass aborts at its RPC, the table is never cleaned") {
    w.cluster.down_frontends = {1};
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    CHECK(r.stats.executions == 2);
    REQUIRE(r.counterexamples.size() == 1);
    const Counterexample* c = counterexample(r, inv::kUnreachableFrontendLeak);
    REQUIRE(c != nullptr);
    CHECK_THAT(c->message, Catch::Contains("tmp_c1_1"));
    CHECK_THAT(c->message,
               Catch::Contains("aborted at the listSessions RPC to fe2, which is down"));
    CHECK(find_step(c->steps, "TemporaryTableCleaner", "C2",
                    "fe2 is down: listSessions return error from fe2, skip clean temporary "
                    "tables") < c->steps.size());
    CHECK(covered(r, goal::kSweepPassCompleted) == 0);
    CHECK(covered(r, goal::kListSessionsFailed) > 0);
    CHECK(test::all_replay(w, r));
  }

  SECTION("fe2 down, ignore_frontend (hypothetical): the passes go on, the sweep cleans") {
    w.cluster.down_frontends = {1};
    w.policy.failed_list_sessions = FailedListSessions::kIgnoreFrontend;
    const auto r = test::explore(w, false);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(covered(r, goal::kSweepPassCompleted) > 0);
  }
}
