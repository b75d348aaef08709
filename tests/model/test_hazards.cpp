// One small configuration per hazard of docs/model.md's verdict table ("Verdicts"), with its
// asserted outcome under starrocks-4.1.1, pr-79339 and the variant that closes it, if any.
//
// Exhaustive searches use DPOR, the engine's default (tests/model/test_dpor_vs_dfs.cpp checks that
// it agrees with plain DFS on these configurations); a violation may also be established by a
// budgeted random search, since a counterexample is definite.
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using namespace interleave::model;
using test::counterexample;
using test::covered;
using test::find_step;

namespace {

WorldConfig one_task(const std::string& preset, bool sync = false,
                     TabletRows rows = TabletRows::kSome) {
  WorldConfig w = test::world(preset);
  w.actors.task_runs.push_back(test::task_run("t1", sync, rows));
  return w;
}

}  // namespace

TEST_CASE("hazard 1: starrocks-4.1.1 drops a live TaskRun's staging table, the sink fails",
          "[hazard][h1]") {
  const WorldConfig w = one_task("starrocks-4.1.1");
  const auto r = test::find_violations(w, 2000);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample* c = counterexample(r, inv::kLiveOwnerTableDropped);
  REQUIRE(c != nullptr);
  CHECK_THAT(c->message, Catch::Contains("of session t1#1, owner TaskRun t1 (attempt 1) while its "
                                         "owner is live"));
  REQUIRE(counterexample(r, inv::kSinkTableNotFound) != nullptr);
  // Liveness is client sessions only: the pass has no C3, and C2 lists nothing.
  CHECK(find_step(c->steps, "TemporaryTableCleaner", "C3") == c->steps.size());
  CHECK(find_step(c->steps, "TemporaryTableCleaner", "C2",
                  "listSessions(temporary_table_only) on fe1: []") < c->steps.size());
  CHECK(test::all_replay(w, r));
}

TEST_CASE("hazard 2: the partial fix (RUN only) misses a sync run before S3", "[hazard][h2]") {
  const WorldConfig w = one_task("pr-79339-run-only", /*sync=*/true);
  const auto r = test::find_violations(w, 5000);
  REQUIRE(r.verdict == Verdict::kViolation);
  REQUIRE(counterexample(r, inv::kLiveOwnerTableDropped) != nullptr);
  const Counterexample& c = *counterexample(r, inv::kLiveOwnerTableDropped);
  // The pass's snapshot of RUN was taken before S3: the running sync run was in no map it read.
  const std::size_t c3 = find_step(c.steps, "TemporaryTableCleaner", "C3", "task runs in RUN: []");
  const std::size_t s3 = find_step(c.steps, "TaskRunScheduler", "S3");
  const std::size_t e2 = find_step(c.steps, "TaskRun:t1", "E2");
  CHECK(e2 < c3);
  CHECK(c3 < s3);
  CHECK(test::all_replay(w, r));
}

TEST_CASE("hazard 3: pr-79339 leaves the S2a..S3 window open, register-then-start closes it",
          "[hazard][h3]") {
  SECTION("pr-79339, async run: the pass snapshots RUN and SYNC before S3") {
    const WorldConfig w = one_task("pr-79339");
    const auto r = test::find_violations(w, 5000);
    REQUIRE(r.verdict == Verdict::kViolation);
    REQUIRE(counterexample(r, inv::kLiveOwnerTableDropped) != nullptr);
    const Counterexample& c = *counterexample(r, inv::kLiveOwnerTableDropped);
    const std::size_t run =
        find_step(c.steps, "TemporaryTableCleaner", "C3", "task runs in RUN: []");
    const std::size_t s3 = find_step(c.steps, "TaskRunScheduler", "S3");
    const std::size_t e2a = find_step(c.steps, "TaskRun:t1", "E2a");
    const std::size_t c1 = find_step(c.steps, "TemporaryTableCleaner", "C1");
    CHECK(e2a < c1);  // the table was created before the pass started
    CHECK(c1 < run);
    CHECK(run < s3);
    CHECK(test::all_replay(w, r));
  }
  SECTION("pr-79339, sync run: also before its Y2, which the dispatcher's poll may precede") {
    const WorldConfig w = one_task("pr-79339", /*sync=*/true);
    const auto r = test::find_violations(w, 100000);
    REQUIRE(r.verdict == Verdict::kViolation);
    REQUIRE(counterexample(r, inv::kLiveOwnerTableDropped) != nullptr);
    const Counterexample& c = *counterexample(r, inv::kLiveOwnerTableDropped);
    const std::size_t run =
        find_step(c.steps, "TemporaryTableCleaner", "C3", "task runs in RUN: []");
    const std::size_t sync =
        find_step(c.steps, "TemporaryTableCleaner", "C3", "task runs in SYNC: []");
    const std::size_t y2 = find_step(c.steps, "SyncSubmit:t1", "Y2");
    const std::size_t s2a = find_step(c.steps, "TaskRunScheduler", "S2a");
    const std::size_t s3 = find_step(c.steps, "TaskRunScheduler", "S3");
    CHECK(s2a < run);
    CHECK(run < s3);
    CHECK(sync < y2);
    CHECK(test::all_replay(w, r));
  }
  SECTION("pr-79339-register-then-start holds, and a pass did consider the running task") {
    const WorldConfig w = one_task("pr-79339-register-then-start", false, TabletRows::kNone);
    const auto r = test::explore(w, true);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.counterexamples.empty());
    CHECK(covered(r, goal::kTaskSessionCandidate) > 0);
    CHECK(covered(r, goal::kTaskSessionSpared) == covered(r, goal::kTaskSessionCandidate));
    CHECK(covered(r, goal::kTaskRunSeenByC3) > 0);
  }
}

TEST_CASE("hazard 4: C3 before C1 loses a task scheduled between them", "[hazard][h4]") {
  // register-then-start closes hazard 3, so what remains is the snapshot order.
  WorldConfig w = one_task("pr-79339-register-then-start");
  w.policy.task_run_snapshot = TaskRunSnapshot::kBeforeStartTime;
  const auto r = test::find_violations(w, 5000);
  REQUIRE(r.verdict == Verdict::kViolation);
  REQUIRE(counterexample(r, inv::kLiveOwnerTableDropped) != nullptr);
  const Counterexample& c = *counterexample(r, inv::kLiveOwnerTableDropped);
  const std::size_t c3 = find_step(c.steps, "TemporaryTableCleaner", "C3");
  const std::size_t c1 = find_step(c.steps, "TemporaryTableCleaner", "C1");
  const std::size_t e2a = find_step(c.steps, "TaskRun:t1", "E2a");
  CHECK(c3 < e2a);
  CHECK(e2a < c1);
  CHECK(test::all_replay(w, r));
}

TEST_CASE(
    "hazard 5: without the createTime guard a session's first table between C2 and C4 is "
    "dropped",
    "[hazard][h5]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.clients.push_back(test::client("c1"));
  SECTION("starrocks-4.1.1 (guard on) holds; the guard did spare a session") {
    const auto r = test::explore(w, true);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 41);  // DFS: 2304
    CHECK(covered(r, goal::kSparedByCreateTimeGuard) > 0);
    CHECK(covered(r, goal::kClientSessionSpared) > 0);
  }
  SECTION("pr-79339 (guard on) holds too") {
    w.policy = test::world("pr-79339").policy;
    const auto r = test::explore(w, true);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(covered(r, goal::kSparedByCreateTimeGuard) > 0);
  }
  SECTION("no-create-time-guard drops the live client's table") {
    w.policy = test::world("no-create-time-guard").policy;
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    const Counterexample* c = counterexample(r, inv::kLiveOwnerTableDropped);
    REQUIRE(c != nullptr);
    CHECK_THAT(c->message, Catch::Contains("temporary table tmp_c1_1 (id 62300) of session c1, "
                                           "owner client session c1 on fe1 while its owner is "
                                           "live"));
    const std::size_t c2 = find_step(c->steps, "TemporaryTableCleaner", "C2", "on fe1: []");
    const std::size_t e2a = find_step(c->steps, "Session:c1@fe1", "E2a");
    const std::size_t c4 = find_step(c->steps, "TemporaryTableCleaner", "C4");
    CHECK(c2 < e2a);
    CHECK(e2a < c4);
    CHECK(covered(r, goal::kDroppedTableCreatedAfterStart) > 0);
    CHECK(test::all_replay(w, r));
  }
}

TEST_CASE("hazard 6: a failed listSessions must abort the pass", "[hazard][h6]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.cluster.unreachable_frontends = {0};
  w.actors.clients.push_back(test::client("c1"));
  SECTION("starrocks-4.1.1 aborts the pass: holds, and the RPC did fail") {
    const auto r = test::explore(w, true);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 53);  // DFS: 2395
    CHECK(covered(r, goal::kListSessionsFailed) > 0);
  }
  SECTION("pr-79339 aborts the pass too: holds") {
    w.policy = test::world("pr-79339").policy;
    const auto r = test::explore(w, true);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(covered(r, goal::kListSessionsFailed) > 0);
  }
  SECTION("ignore-failed-frontend drops the tables of the unreachable FE's live sessions") {
    w.policy = test::world("ignore-failed-frontend").policy;
    const auto r = test::explore(w, true);
    REQUIRE(r.verdict == Verdict::kViolation);
    const Counterexample& c = r.counterexamples.at(0);
    CHECK(c.invariant == inv::kLiveOwnerTableDropped);
    CHECK_THAT(c.message,
               Catch::Contains("owner client session c1 on fe1 while its owner is live"));
    CHECK(find_step(c.steps, "TemporaryTableCleaner", "C2", "listSessions return error from fe1") <
          c.steps.size());
    CHECK(test::all_replay(w, r));
  }
}

TEST_CASE("hazard 7: follower replay lag drops a live follower client's table", "[hazard][h7]") {
  for (const char* preset : {"starrocks-4.1.1", "pr-79339"}) {
    DYNAMIC_SECTION(preset) {
      WorldConfig w = test::world(preset);
      w.cluster.frontends = 2;
      w.actors.clients.push_back(test::client("c1", 1));
      const auto r = test::find_violations(w, 5000);
      REQUIRE(r.verdict == Verdict::kViolation);
      REQUIRE(counterexample(r, inv::kLiveOwnerTableDropped) != nullptr);
      const Counterexample& c = *counterexample(r, inv::kLiveOwnerTableDropped);
      CHECK_THAT(c.message,
                 Catch::Contains("owner client session c1 on fe2 while its owner is live"));
      // The leader created the table before C1; fe2 answered before replaying it.
      const std::size_t e2a = find_step(c.steps, "Session:c1@fe2", "E2a");
      const std::size_t c1 = find_step(c.steps, "TemporaryTableCleaner", "C1");
      const std::size_t c2 = find_step(c.steps, "TemporaryTableCleaner", "C2", "on fe2: []");
      const std::size_t r1 = find_step(c.steps, "Replayer:fe2", "R1");
      CHECK(e2a < c1);
      CHECK(c2 < r1);
      CHECK(covered(r, goal::kFollowerOmittedSession) > 0);
      CHECK(test::all_replay(w, r));
    }
  }
}

TEST_CASE("hazard 8: createTime compared across FEs defeats the guard", "[hazard][h8]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.cluster.frontends = 2;
  w.cluster.clock_offsets[1] = -1000;  // fe2's clock is behind the leader's
  w.actors.clients.push_back(test::client("c1", 1));
  SECTION(
      "leader clock (4.1.1): hazard 7 remains, but no pass drops a table created after it "
      "started") {
    const auto r = test::explore(w, false);
    CHECK(r.verdict == Verdict::kViolation);  // hazard 7
    CHECK(r.stats.executions == 196);         // DFS: 74908
    CHECK(covered(r, goal::kDroppedTableCreatedAfterStart) == 0);
  }
  SECTION("cross-frontend-create-time: a table created after C1 looks old and is dropped") {
    w.policy = test::world("cross-frontend-create-time").policy;
    const auto r = test::find_violations(w, 5000);
    CHECK(r.verdict == Verdict::kViolation);
    CHECK(covered(r, goal::kDroppedTableCreatedAfterStart) > 0);
  }
}

TEST_CASE("hazard 9: a kill lets the cleaner drop the run's table, E6 is then a no-op",
          "[hazard][h9]") {
  // register-then-start closes hazard 3 and the atomic add closes the check-then-act a killed
  // run's executor would still race (hazard 10), so what is left is the kill itself.
  WorldConfig w = one_task("pr-79339-register-then-start", false, TabletRows::kNone);
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  w.actors.task_runs[0].kill = KillMode::kForce;
  // Exhaustive (too large for plain DFS, which a budget of 100 000 executions cut).
  const auto r = test::explore(w, false);
  // Drops after the kill are allowed: the only property that fails is the kill's own (it cancels
  // no statement, so the run may still commit), and never two DropInfo for one table (that would
  // be an actor_failure of the model's own check).
  CHECK(r.verdict == Verdict::kViolation);
  REQUIRE(r.counterexamples.size() == 1);
  CHECK(r.counterexamples[0].invariant == inv::kKilledRunCommits.name);
  CHECK(r.stats.violations.size() == 1);
  CHECK(covered(r, goal::kKilledRunTableDropped) > 0);
  CHECK(covered(r, goal::kFinalizeNoop) > 0);
}

TEST_CASE("hazard 10: the check-then-act of addTemporaryTable", "[hazard][h10]") {
  SECTION("starrocks-4.1.1: a D4 between E2a and E2b/E2c: NullPointerException or untracked") {
    const WorldConfig w = one_task("starrocks-4.1.1");
    const auto r = test::find_violations(w, 5000);
    const Counterexample* npe = counterexample(r, inv::kManagerNullPointer);
    REQUIRE(npe != nullptr);
    CHECK_THAT(npe->message, Catch::Contains("TemporaryTableMgr.get(t1#1) returned null"));
    const std::size_t d4 = find_step(npe->steps, "TemporaryTableCleaner", "D4");
    const std::size_t e2a = find_step(npe->steps, "TaskRun:t1", "E2a");
    CHECK(e2a < d4);
    CHECK(npe->steps.at(npe->step).label == "E2b");
    const Counterexample* untracked = counterexample(r, inv::kUntrackedTempTable);
    REQUIRE(untracked != nullptr);
    const std::string at = untracked->steps.at(untracked->step).label;
    CHECK((at == "E2c" || at == "D4"));
    CHECK(test::all_replay(w, r));
  }
  // A client whose session the cleaner wrongly takes for dead (no guard) while it creates its
  // second table.
  SECTION("check_then_act: the NullPointerException") {
    WorldConfig w = test::world("no-create-time-guard");
    w.actors.clients.push_back(test::client("c1", 0, 1));
    const auto r = test::explore(w, false);
    CHECK(r.stats.executions == 179);  // DFS: 12020
    CHECK(counterexample(r, inv::kManagerNullPointer) != nullptr);
  }
  SECTION("atomic: no NullPointerException, but a whole E2 between D1 and D4 still leaks") {
    WorldConfig w = test::world("no-create-time-guard");
    w.actors.clients.push_back(test::client("c1", 0, 2));
    w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
    const auto r = test::explore(w, false);
    CHECK(r.stats.executions == 1435);  // DFS: 151329
    CHECK(r.stats.violations.count(std::string(inv::kManagerNullPointer)) == 0);
    const Counterexample* c = counterexample(r, inv::kUntrackedTempTable);
    REQUIRE(c != nullptr);
    CHECK(c->steps.at(c->step).label == "D4");
    CHECK_THAT(c->message, Catch::Contains("tmp_c1_2"));
    const std::size_t d1 = find_step(c->steps, "TemporaryTableCleaner", "D1");
    const std::size_t add2 = find_step(c->steps, "Session:c1@fe1", "E2a-E2c", "tmp_c1_2");
    CHECK(d1 < add2);
    CHECK(add2 < c->step);
    CHECK(test::all_replay(w, r));
  }
}
