// Fidelity checks (docs/model.md, "Fidelity"): what StarRocks' source does
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
// - point 2: RecursiveCTEExecutor: a failed start statement thrown or only logged (the outer
//   statement then runs and decides), the iteration loop's rows-before-errors order and early stop,
//   the finalize as MetadataMgr.dropTemporaryTable's three steps, the finalize switched off, and
//   several staging tables in one session (createTime fixed at the first).
#include "model/starrocks/world.hpp"
#include "model/starrocks/log_patterns.hpp"
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
// the world at the end: the counterexample is a trace of an execution that got there. It is
// registered before the world's own end-of-execution checks, so that the first failing one
// reported for an execution is the probe's: another property's violation cannot hide it.
Program probed(const WorldConfig& cfg, std::function<bool(const World&)> witness) {
  auto plan = std::make_shared<const SpawnPlan>(cfg);
  return [cfg, plan, witness](Execution& ex) {
    World& w = ex.make<World>(ex, cfg, *plan);
    ex.final_check("probe", [&w, witness]() -> Check {
      if (witness(w)) return std::string("witness");
      return std::nullopt;
    });
    w.setup();
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
  const std::size_t e6_1 = find_step(s, "TaskRun:t1", "E6a");
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
  // The kill stops no statement, so every kill scenario can commit after the kill; what the
  // cleaner may drop depends on when the run leaves RUN.
  auto only_commits = [](const ExplorationResult& r) {
    return r.verdict == Verdict::kViolation && counterexample(r, inv::kKilledRunCommits) &&
           !counterexample(r, inv::kLiveOwnerTableDropped) &&
           !counterexample(r, inv::kSinkTableNotFound);
  };

  SECTION("forced: out of RUN at K, the cleaner may drop the table the run still writes") {
    w.actors.task_runs[0].kill = KillMode::kForce;
    const auto r = test::explore(w, false);
    CHECK(only_commits(r));
    CHECK(r.stats.executions == 1806);  // h9-kill-then-drop-allowed
    CHECK(covered(r, goal::kKilledRunTableDropped) > 0);
    CHECK(covered(r, goal::kFinalizeNoop) > 0);
  }

  SECTION("graceful, 4.1.1 (future_done): S1 reaps the run once K completed its future") {
    w.actors.task_runs[0].kill = KillMode::kGraceful;
    const auto r = test::explore(w, false);
    CHECK(only_commits(r));
    CHECK(covered(r, goal::kKilledRunTableDropped) > 0);
    // An execution in which S1 removed the killed run from RUN before its E7.
    const auto p = explore_program(probed(w, [](const World& world) {
      return world.scheduler.task(0).killed;
    }));
    const Counterexample* c = counterexample(p, "probe");
    REQUIRE(c != nullptr);
    CHECK(find_step(c->steps, "Kill:t1", "K", "left in RUN until the dispatcher's next check") <
          c->steps.size());
  }

  SECTION("graceful, final_state: the run stays in RUN until E7, C3 spares it before E6") {
    w.actors.task_runs[0].kill = KillMode::kGraceful;
    w.policy.graceful_kill_reap = GracefulKillReap::kFinalState;
    const auto r = test::explore(w, false);
    CHECK(only_commits(r));
    CHECK(r.stats.executions == 332);  // h9-graceful-kill-keeps-run
    CHECK(covered(r, goal::kKilledRunTableDropped) == 0);
    CHECK(covered(r, goal::kFinalizeNoop) == 0);
    CHECK(covered(r, goal::kTaskSessionSpared) > 0);
  }

  SECTION("graceful, final_state under 4.1.1 (RUN not read): S1 comes after E7") {
    WorldConfig v = test::world("starrocks-4.1.1");
    v.policy.add_temporary_table = AddTemporaryTable::kAtomic;
    v.policy.graceful_kill_reap = GracefulKillReap::kFinalState;
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

TEST_CASE("point 1: a kill stops no statement of the recursive CTE, and the run still commits",
          "[fidelity][kill]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  TaskRunConfig t = test::task_run("t1", false, TabletRows::kNone);
  t.kill = KillMode::kForce;
  t.iterations = 1;
  w.actors.task_runs.push_back(t);
  // Killed before its first insert, the run still runs every insert and its outer statement.
  const auto r = explore_program(probed(w, [](const World& world) {
    const TaskRun& tr = world.scheduler.task(0);
    return tr.killed && tr.outer_ran && tr.outcome.empty() && tr.iterations_run == 2;
  }));
  const Counterexample* c = counterexample(r, "probe");
  REQUIRE(c != nullptr);
  const auto& s = c->steps;
  const std::size_t k = find_step(s, "Kill:t1", "K");
  const std::size_t e3 = find_step(s, "TaskRun:t1", "E3");
  const std::size_t e5 = find_step(s, "TaskRun:t1", "E5");
  REQUIRE(e5 < s.size());
  CHECK(k < e3);
  CHECK(find_step(s, "TaskRun:t1", "E7", "was killed: it stays FAILED") < s.size());
  // The property: found at E5, whatever the cleaner does.
  const auto v = test::explore(w, false);
  REQUIRE(v.verdict == Verdict::kViolation);
  const Counterexample* commits = counterexample(v, inv::kKilledRunCommits);
  REQUIRE(commits != nullptr);
  REQUIRE(commits->found_at.has_value());
  CHECK(commits->steps.at(*commits->found_at).label == "E5");
  // A run that is not killed never reports it.
  w.actors.task_runs[0].kill = KillMode::kNone;
  CHECK(counterexample(test::explore(w, false), inv::kKilledRunCommits) == nullptr);
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

namespace {

// A probe's verdict: kViolation if some execution ends with `witness` true of the world (the
// probe's counterexample is then a trace of it), kHolds if none does.
// The search goes on past the world's own violations (one counterexample per property).
Verdict probe(const WorldConfig& w, std::function<bool(const World&)> witness) {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  Explorer ex(probed(w, std::move(witness)), o);
  auto s = make_strategy(StrategySpec{});
  const auto r = ex.explore(*s);
  if (counterexample(r, "probe") != nullptr) return Verdict::kViolation;
  return r.verdict == Verdict::kIncomplete ? Verdict::kIncomplete : Verdict::kHolds;
}

// The world of the recursive-CTE control-flow checks: one TaskRun whose staging table the
// cleaner can drop under 4.1.1 (client sessions only), hazard 10 kept out (atomic add).
WorldConfig cte_world(const std::string& preset, int iterations = 0) {
  WorldConfig w = test::world(preset);
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  TaskRunConfig t = test::task_run("t1", false, TabletRows::kNone);
  t.iterations = iterations;
  w.actors.task_runs.push_back(t);
  return w;
}

}  // namespace

TEST_CASE("point 2: a failed start statement, thrown or only logged", "[fidelity][recursive_cte]") {
  WorldConfig w = cte_world("starrocks-4.1.1");

  SECTION("rows_first (default): the attempt fails at E3 with StarRocks' message, E5 never runs") {
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    const Counterexample* c = counterexample(r, inv::kSinkTableNotFound);
    REQUIRE(c != nullptr);
    const auto& s = c->steps;
    CHECK(find_step(s, "TaskRun:t1", "E5") == s.size());
    CHECK(find_step(s, "TaskRun:t1", "E7",
                    "FAILED: Error occurred during executing recursive CTE start statement: ") <
          s.size());
    // A failed start statement is the run's result, and then the outer statement never ran.
    CHECK(probe(w, [](const World& world) {
            const TaskRun& tr = world.scheduler.task(0);
            return tr.outer_ran && tr.outcome.find("start statement") != std::string::npos;
          }) == Verdict::kHolds);
  }

  SECTION("warn_and_continue (8872747f): logged, the outer statement runs and decides") {
    w.policy.recursive_cte_errors = RecursiveCteErrors::kWarnAndContinue;
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    const Counterexample* c = counterexample(r, inv::kSinkTableNotFound);
    REQUIRE(c != nullptr);
    const auto& s = c->steps;
    const std::size_t warn =
        find_step(s, "TaskRun:t1", "E3",
                  "WARN Error occurred during executing recursive CTE start statement: ");
    const std::size_t e5 =
        find_step(s, "TaskRun:t1", "E5", "outer statement failed: Unknown table");
    const std::size_t e7 = find_step(s, "TaskRun:t1", "E7", "FAILED: Unknown table 'hierarchy_");
    REQUIRE(e7 < s.size());
    CHECK(warn < e5);
    CHECK(e5 < e7);
    // The run's result is the outer statement's: never the start statement's error.
    CHECK(probe(w, [](const World& world) {
            return world.scheduler.task(0).outcome.find("start statement") != std::string::npos;
          }) == Verdict::kHolds);
    CHECK(probe(w, [](const World& world) {
            const TaskRun& tr = world.scheduler.task(0);
            return tr.outer_ran && tr.outcome.rfind("Unknown table", 0) == 0;
          }) == Verdict::kViolation);
  }
}

TEST_CASE("point 2: the iteration loop: a failed iteration, by executor version",
          "[fidelity][recursive_cte]") {
  WorldConfig w = cte_world("starrocks-4.1.1", 2);
  auto failed_at_1 = [](const World& world) {
    return world.scheduler.task(0).iteration_failed == 1;
  };
  auto outcome_starts = [](std::string prefix) {
    return [prefix](const World& world) {
      return world.scheduler.task(0).outcome.rfind(prefix, 0) == 0;
    };
  };

  SECTION("rows_first (default): the stale affected rows pass, the error throws, no iteration") {
    CHECK(probe(w, outcome_starts("Error occurred during executing recursive CTE recursive "
                                  "statement: ")) == Verdict::kViolation);
    CHECK(probe(w, outcome_starts("Error occurred during executing recursive CTE recursive "
                                  "statement at iteration")) == Verdict::kHolds);
    CHECK(probe(w, [&](const World& world) {
            return failed_at_1(world) && world.scheduler.task(0).outer_ran;
          }) == Verdict::kHolds);
  }

  SECTION("error_first: the error first, its message names the iteration") {
    w.policy.recursive_cte_errors = RecursiveCteErrors::kErrorFirst;
    CHECK(probe(w, outcome_starts("Error occurred during executing recursive CTE recursive "
                                  "statement at iteration 1: ")) == Verdict::kViolation);
    CHECK(probe(w, [&](const World& world) {
            return failed_at_1(world) && world.scheduler.task(0).outer_ran;
          }) == Verdict::kHolds);
  }

  SECTION("warn_and_continue: a failed iteration is logged, prepare returns, the outer runs") {
    w.policy.recursive_cte_errors = RecursiveCteErrors::kWarnAndContinue;
    CHECK(probe(w, [&](const World& world) {
            const TaskRun& tr = world.scheduler.task(0);
            return failed_at_1(world) && tr.outer_ran && tr.iterations_run == 1;
          }) == Verdict::kViolation);
    CHECK(probe(w, [&](const World& world) {
            const TaskRun& tr = world.scheduler.task(0);
            return failed_at_1(world) && (!tr.outer_ran || tr.iterations_run != 1);
          }) == Verdict::kHolds);
    // The iteration's error is only logged: the run reports the outer statement's result.
    CHECK(probe(w, [](const World& world) {
            return world.scheduler.task(0).outcome.find("recursive statement") != std::string::npos;
          }) == Verdict::kHolds);
  }
}

TEST_CASE("point 3: the recursion ends at an insert that adds no rows, or at the depth limit",
          "[fidelity][recursive_cte]") {
  SECTION("two iterations add rows: a third adds none and ends it, and the run succeeds") {
    WorldConfig v = cte_world("pr-79339-register-then-start", 2);
    CHECK(test::explore(v, false).verdict == Verdict::kHolds);
    CHECK(probe(v, [](const World& world) {
            const TaskRun& tr = world.scheduler.task(0);
            return tr.finished && tr.outcome.empty() && tr.iterations_run == 3;
          }) == Verdict::kViolation);
    CHECK(probe(v, [](const World& world) {
            return world.scheduler.task(0).iterations_run > 3;
          }) == Verdict::kHolds);
  }

  SECTION("no iteration adds rows: the anchor is still followed by one empty iteration") {
    WorldConfig v = cte_world("pr-79339-register-then-start", 0);
    CHECK(probe(v, [](const World& world) {
            const TaskRun& tr = world.scheduler.task(0);
            return tr.finished && tr.outcome.empty() && tr.iterations_run != 1;
          }) == Verdict::kHolds);
  }

  WorldConfig limit = cte_world("pr-79339-register-then-start", 1);
  limit.actors.task_runs[0].recursive_cte_max_depth = 2;
  auto succeeded = [](const World& world) {
    const TaskRun& tr = world.scheduler.task(0);
    return tr.finished && tr.outcome.empty();
  };
  SECTION("the depth limit with rows still added throws (rows_first, error_first)") {
    for (RecursiveCteErrors v : {RecursiveCteErrors::kRowsFirst, RecursiveCteErrors::kErrorFirst}) {
      limit.policy.recursive_cte_errors = v;
      CHECK(probe(limit, succeeded) == Verdict::kHolds);
      CHECK(probe(limit, [](const World& world) {
              return world.scheduler.task(0).outcome ==
                     "Recursive query aborted after: 2 iterations.";
            }) == Verdict::kViolation);
      CHECK(probe(limit, [](const World& world) {
              return world.scheduler.task(0).outer_ran;
            }) == Verdict::kHolds);
    }
  }
  SECTION("recursive_cte_throw_limit_exception false, or the draft executor: the outer runs") {
    limit.actors.task_runs[0].throw_limit_exception = false;
    CHECK(probe(limit, succeeded) == Verdict::kViolation);
    limit.actors.task_runs[0].throw_limit_exception = true;
    limit.policy.recursive_cte_errors = RecursiveCteErrors::kWarnAndContinue;
    CHECK(probe(limit, succeeded) == Verdict::kViolation);
  }
}

TEST_CASE("point 2: the finalize is three steps, E6a resolve, E6b catalog drop, E6c manager",
          "[fidelity][recursive_cte]") {
  WorldConfig w = cte_world("pr-79339-register-then-start");
  const auto r = explore_program(
      probed(w, [](const World& world) { return world.scheduler.task(0).finished; }));
  const Counterexample* c = counterexample(r, "probe");
  REQUIRE(c != nullptr);
  const auto& s = c->steps;
  const std::size_t e6a = find_step(s, "TaskRun:t1", "E6a", "the session's entry has table id");
  const std::size_t e6b = find_step(s, "TaskRun:t1", "E6b", "DropInfo journaled");
  const std::size_t e6c = find_step(s, "TaskRun:t1", "E6c", "drop temporary table, session[" + session_uuid("t1#1") + "]");
  const std::size_t e7 = find_step(s, "TaskRun:t1", "E7");
  REQUIRE(e6c < s.size());
  CHECK(e6a < e6b);
  CHECK(e6b < e6c);
  CHECK(e6c < e7);
  CHECK(count_steps(s, "TaskRun:t1", "E6b") == 1);
}

TEST_CASE("point 2: recursive_cte_finalize_temporal_table false leaves the table to the cleaner",
          "[fidelity][recursive_cte]") {
  WorldConfig w = cte_world("pr-79339-register-then-start");
  w.actors.task_runs[0].finalize_temporal_table = false;
  w.actors.cleaner.sweep = true;
  auto table_left = [](const World& world) { return !world.cat.present().empty(); };

  SECTION("every FE up: the sweep pass takes it, no temp_table_leak") {
    const auto r = test::explore(w, false);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(covered(r, goal::kFinalizeSkipped) > 0);
    CHECK(covered(r, goal::kFinalizeNoop) == 0);
    CHECK(probe(w, table_left) == Verdict::kHolds);
    // Without the sweep, the table is still there when the run has ended.
    WorldConfig v = w;
    v.actors.cleaner.sweep = false;
    CHECK(probe(v, table_left) == Verdict::kViolation);
  }

  SECTION("a down FE: no pass completes, the leak is for good; the finalize on avoids it") {
    w.cluster.frontends = 2;
    w.cluster.down_frontends = {1};
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    REQUIRE(r.counterexamples.size() == 1);
    const Counterexample* c = counterexample(r, inv::kUnreachableFrontendLeak);
    REQUIRE(c != nullptr);
    CHECK_THAT(c->message, Catch::Contains("session t1#1"));
    CHECK(find_step(c->steps, "TaskRun:t1", "E6a") == c->steps.size());
    w.actors.task_runs[0].finalize_temporal_table = true;
    CHECK(test::explore(w, false).verdict == Verdict::kHolds);
  }
}

TEST_CASE("point 2: several staging tables: createTime is the first's, later ones unguarded",
          "[fidelity][recursive_cte]") {
  WorldConfig w = cte_world("starrocks-4.1.1");

  SECTION("one staging table: the guard spares every table created after C1") {
    const auto r = test::explore(w, false);
    CHECK(covered(r, goal::kLaterTableUnguarded) == 0);
  }

  SECTION("two: the second, created after C1, is dropped by that pass") {
    w.actors.task_runs[0].staging_tables = 2;
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    CHECK(covered(r, goal::kLaterTableUnguarded) > 0);
    // One session, one createTime: the entry made at the first table's E2a holds both tables.
    CHECK(probe(w, [](const World& world) {
            if (!world.cat.created(kFirstTableId + kTableIdStride)) return false;
            const TableInfo& first = world.cat.info(kFirstTableId);
            const TableInfo& second = world.cat.info(kFirstTableId + kTableIdStride);
            return first.session == "t1#1" && second.session == "t1#1" &&
                   second.e2a_step == first.e2a_step && second.own_e2a_step > first.own_e2a_step;
          }) == Verdict::kViolation);
  }
}

TEST_CASE("point 4: the CN that ran the create-tablet task answers its lookups from its cache",
          "[fidelity][schema]") {
  // The seed's world (an async run, a client, one pass, 4.1.1).
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.task_runs.push_back(test::task_run("t1", false, TabletRows::kNone));
  w.actors.clients.push_back(test::client("c1"));

  SECTION("no modelled CN created the tablets (the default): the lookup asks the leader") {
    const auto r = test::explore(w, false);
    CHECK(counterexample(r, inv::kSinkTableNotFound) != nullptr);
  }

  SECTION("cn1 ran the create-tablet task: its sinks never ask, the drop is still found") {
    w.cluster.creator_cn = 0;
    const auto r = test::explore(w, false);
    CHECK(counterexample(r, inv::kSinkTableNotFound) == nullptr);
    const Counterexample* c = counterexample(r, inv::kLiveOwnerTableDropped);
    REQUIRE(c != nullptr);
    CHECK(find_step(c->steps, "TaskRun:t1", "E2",
                    "cn1: create tablet 52305 with create_schema_file: schema 52301 cached") <
          c->steps.size());
    CHECK(test::all_replay(w, r));
  }

  SECTION("two CNs, cn1 the creator: only cn2's sink can fail") {
    w.cluster.compute_nodes = 2;
    w.cluster.creator_cn = 0;
    const auto r = test::explore(w, false);
    const Counterexample* c = counterexample(r, inv::kSinkTableNotFound);
    REQUIRE(c != nullptr);
    CHECK_THAT(c->message, Catch::Contains("/cn2"));
    CHECK(probe(w, [](const World& world) {
            return world.scheduler.task(0).failure.rfind("cn1:", 0) == 0;
          }) == Verdict::kHolds);
  }
}
