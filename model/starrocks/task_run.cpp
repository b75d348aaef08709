// A TaskRun executing a recursive CTE (fe-core scheduler/TaskRun, qe/recursivecte: SUBMIT TASK ...
// INSERT OVERWRITE ... WITH RECURSIVE), and the caller of a sync run.
// - The executor, per attempt: E1 runCtx := a new ConnectContext (a fresh session id, registered in
//   no CS_f); E2 create the staging table, then addTemporaryTable E2a..E2c (metadata_mgr.cpp);
//   E3 the anchor insert and E4 the iteration inserts (those that add rows, then one that adds
//   none, or up to the depth limit recursive_cte_max_depth - 1), each planned against TTM_L and
//   CAT and sunk by one tablet sink per CN (tablet_sink.cpp); E2..E4 once per recursive CTE
//   (staging_tables), in the one session; E5 the outer statement; E6a..E6c (finally) DROP
//   TEMPORARY TABLE IF EXISTS ... FORCE of each staging table (E6a resolve in TTM_L, E6b drop
//   from CAT, E6c remove from TTM_L), unless finalize_temporal_table is false. A failed start
//   statement or iteration, or a recursion stopped by the depth limit, ends the attempt
//   (recursive_cte_errors rows_first or error_first) or, with warn_and_continue, is logged and the
//   outer statement still runs and decides. With retries (hypothetical: 4.1.1 runs one attempt) a
//   failed attempt is retried from E1 with a new session id; then E7 sets the final state and
//   completes the future. A kill (task_run_scheduler.cpp) cancels no statement here: the
//   attempt's inserts and its outer statement run to their end (killed_run_commits at E5), and its
//   owner counts as ended from the kill on (the run's future was completed by it).
// - The sync caller (EXECUTE TASK ... sync): Y1 submit into PEND, Y2 SYNC.put, Y3 wait on the
//   future, Y4 SYNC.remove.
// Promises: at most one DropInfo per table (E6b drops only what is still in CAT); the
// owner of an attempt is live from its E1 until E7 or the next attempt's E1, unless killed.
// Locals (state fingerprints): the executor's attempt, its result so far (ok, the error E7
// states), whether a finalize was skipped, the attempt's staging tables and its positions (the
// CTE g, the iteration i, the table k being dropped), the entry E2b got; the sync caller has none
// (its run is its name's). The insert's txn id is history (descriptions only).
#include "model/starrocks/actors.hpp"

#include <vector>

namespace interleave::model {

namespace {

// What the executor keeps from one step to the next.
struct TaskRunLocals {
  int attempt = 0;
  bool ok = false;
  std::string error;  // the attempt's error: E7 states it (the run's outcome)
  bool finalize_skipped = false;
  std::vector<int> tables;  // the attempt's staging tables
  int g = 0;                // the recursive CTE prepared (E2..E4)
  int i = 0;                // its iteration (E4)
  std::size_t k = 0;        // the staging table dropped (E6a..E6c)
  AddTableLocals add;       // E2a..E2c
  void fingerprint(StateHasher& h) const {
    h << attempt << ok << error << finalize_skipped << tables << g << i << k << add;
  }
};

// One INSERT into the staging table (E3 anchor, E4 iteration `level`): plan it, let a tablet sink
// on each CN write and finish, wait for their reports. False (with `error`) if it failed.
bool insert(Actor& a, World& w, int t, int attempt, const std::string& session, int table,
            Label label, int group, int level, std::string& error) {
  TaskRunScheduler& sched = w.scheduler;
  TaskRun& tr = sched.task(t);
  a.step(label, {sched.read_runctx(t), w.ttm.read_row(session), w.ttm.read_tables(session),
                 w.cat.read_table(table)});
  const std::string& name = w.cat.info(table).name;
  // A kill does not reach this insert: its StmtExecutor is neither the runCtx's executor nor a
  // registered sub-executor, and no step of the recursion reads a kill mark.
  const TtmEntry* e = w.ttm.get(session);
  if (e == nullptr || e->tables.count(table) == 0 || !w.cat.contains(table)) {
    error = "Unknown table '" + name + "'";
    World::note(a, [&] { return "planning failed: " + error; });
    return false;
  }
  const long long txn = w.next_txn++;
  // Whether the data has rows (tablet_rows): decided here, in the run's first insert that gets
  // this far, for all its sinks.
  w.tablets_get_rows(a, t);
  tr.reports = 0;
  tr.failure.clear();
  const int cns = w.cfg.cluster.compute_nodes;
  for (int cn = 0; cn < cns; ++cn) {
    const std::string& sink = w.plan.tablet_sink(
        t, attempt, (group - 1) * (1 + w.task_cfg(t).iteration_inserts()) + level, cn);
    const Duration& load = level == 0 ? w.task_cfg(t).anchor_insert : w.task_cfg(t).iteration;
    a.spawn(sink, [&w, t, table, cn, txn, &sink, &load](Actor& s) {
      tablet_sink(s, w, t, table, cn, txn, sink, load);
    });
  }
  World::note(a, [&] {
    return (level == 0 ? "anchor INSERT INTO "
                       : "iteration " + std::to_string(level) + ": INSERT INTO ") +
           name + " (txn " + std::to_string(txn) + "): connector_scan -> chunk_accumulate -> " +
           "project -> olap_table_sink on " + std::to_string(cns) + " CN(s)";
  });
  a.wait_until(label, {sched.wait_coord(t)},
               [&sched, t, cns] { return sched.task(t).reports == cns; });
  if (!tr.failure.empty()) {
    error = tr.failure;
    World::note(a, [&] { return "the load failed: " + error; });
    return false;
  }
  World::note(a, [&] { return "the load of txn " + std::to_string(txn) + " finished"; });
  return true;
}

// E1: a new attempt, with a new runCtx (a fresh session id, its owner live unless the run was
// killed); the previous attempt's owner has ended. The attempt's locals are reset first (before
// E1, so that every attempt's E1 sees the same; E1 does not read them). Returns the session.
std::string begin_attempt(Actor& a, World& w, int t, TaskRunLocals& l) {
  const TaskRunConfig& tc = w.task_cfg(t);
  TaskRunScheduler& sched = w.scheduler;
  TaskRun& tr = sched.task(t);
  const int attempt = l.attempt;
  l.error.clear();
  l.ok = true;
  l.tables.clear();
  l.g = l.i = 0;
  l.k = 0;
  a.step("E1", {sched.write_runctx(t)});
  if (!tr.session.empty()) w.owners.at(tr.session).live = false;
  const std::string session = task_run_session(tc.name, attempt);  // the attempt's (l.attempt)
  tr.session = session;
  tr.attempt = attempt;
  Owner o;
  o.kind = Owner::Kind::kTaskRun;
  o.index = t;
  o.attempt = attempt;
  o.live = !tr.killed;
  w.owners.add(session, o);
  World::note(a, [&] {
    return "task run " + tc.name + " attempt " + std::to_string(attempt) +
           ": runCtx := new ConnectContext, session " + session;
  });
  return session;
}

// prepareRecursiveCTE: per recursive CTE, its staging table (E2, E2a..E2c), the start statement
// (E3) and the iterations (E4): those that add rows (iterations), then one that adds none, unless
// the depth limit (recursive_cte_max_depth - 1 iterations) comes first; all the tables are the one
// session's. A failure ends the attempt (l.ok false, l.error) unless recursive_cte_errors is
// warn_and_continue. Every failure the model has (a planning error, a failed load, a cancelled
// statement) is an exception in StmtExecutor.execute, so it sets the QueryState's errType that
// the executor tests; the anchor adds rows.
void prepare_recursive_ctes(Actor& a, World& w, int t, const std::string& session,
                            TaskRunLocals& l) {
  const TaskRunConfig& tc = w.task_cfg(t);
  TaskRun& tr = w.scheduler.task(t);
  const int attempt = l.attempt;
  std::string& error = l.error;
  bool& ok = l.ok;
  std::vector<int>& tables = l.tables;
  const RecursiveCteErrors version = w.cfg.policy.recursive_cte_errors;
  const bool warn = version == RecursiveCteErrors::kWarnAndContinue;
  tr.iterations_run = 0;
  tr.iteration_failed = 0;
  tr.outer_ran = false;
  // Set when prepare returns early (warn_and_continue): the later CTEs get no table.
  bool returned = false;
  for (l.g = 1; ok && !returned && l.g <= tc.staging_tables; ++l.g) {
    const int g = l.g;
    l.i = 0;
    const int table = create_table(a, w, "E2", session, "", 0, g);
    w.owners.at(session).staged = true;
    add_temporary_table(a, w, session, table, 0, l.add);
    tables.push_back(table);
    std::string e;
    if (!insert(a, w, t, attempt, session, table, "E3", g, 0, e)) {
      const std::string msg =
          "Error occurred during executing recursive CTE start statement: " + e;
      if (!warn) {
        ok = false;
        error = msg;
        break;
      }
      // Logged only; prepareRecursiveCTE returns: the later CTEs get no table, and the outer
      // statement is planned and run.
      World::note(a,
                  [&] { return "WARN " + msg + " (prepare returns, the outer statement runs)"; });
      returned = true;
      break;
    }
    for (l.i = 1; l.i <= tc.iteration_inserts(); ++l.i) {
      const int i = l.i;
      ++tr.iterations_run;
      const bool loaded = insert(a, w, t, attempt, session, table, "E4", g, i, e);
      if (!loaded) {
        if (tr.iteration_failed == 0) tr.iteration_failed = i;
        // error_first tests the error before the rows; rows_first and warn_and_continue test the
        // affected rows first, and a failed insert leaves them at the previous insert's count
        // (the anchor's or iteration i-1's, both > 0), so they too come to the error.
        if (version == RecursiveCteErrors::kErrorFirst) {
          error = "Error occurred during executing recursive CTE recursive statement at "
                  "iteration " +
                  std::to_string(i) + ": " + e;
        } else {
          error = "Error occurred during executing recursive CTE recursive statement: " + e;
        }
        if (!warn) {
          ok = false;
        } else {
          World::note(a, [&] {
            return "WARN " + error + " (prepare returns, the outer statement runs)";
          });
          error.clear();
          returned = true;
        }
        break;
      }
      if (i > tc.iterations) {
        // affected rows <= 0: the recursion of this CTE stops (the next CTE, if any, goes on).
        World::note(a, [&] {
          return "iteration " + std::to_string(i) +
                 " affected 0 rows: no more rows inserted, the recursion stops";
        });
        break;
      }
    }
    if (ok && !returned && tc.reaches_depth_limit() && !warn) {
      // The depth limit: the loop ran out and its last insert still added rows.
      if (tc.throw_limit_exception) {
        ok = false;
        error = "Recursive query aborted after: " + std::to_string(tc.recursive_cte_max_depth) +
                " iterations.";
        World::note(a, [&] {
          return "the recursion reached recursive_cte_max_depth with rows still added: " + error;
        });
        break;
      }
      World::note(a, [&] {
        return "the recursion reached recursive_cte_max_depth " +
               std::to_string(tc.recursive_cte_max_depth) +
               " (recursive_cte_throw_limit_exception false: the outer statement reads what was "
               "inserted)";
      });
    }
  }
}

// E5: the outer statement; its QueryState is the statement's (the run's) result.
void run_outer_statement(Actor& a, World& w, int t, const std::string& session,
                         TaskRunLocals& l) {
  TaskRunScheduler& sched = w.scheduler;
  TaskRun& tr = sched.task(t);
  std::string& error = l.error;
  bool& ok = l.ok;
  const std::vector<int>& tables = l.tables;
  Op e5("E5", {sched.read_runctx(t), w.ttm.read_row(session), w.ttm.read_tables(session)});
  for (int table : tables)
    add(e5, w.cat.read_table(table));
  a.step(e5);
  tr.outer_ran = true;
  const TtmEntry* e = w.ttm.get(session);
  // The kill cancels runCtx's executor, the outer statement's, whose coordinator exists only
  // while this insert runs: E5 is one step, so a kill comes before it (lost: nothing was there to
  // cancel) or after it (too late). The outer statement runs whether or not the run was killed.
  for (int table : tables)
    if (e == nullptr || e->tables.count(table) == 0 || !w.cat.contains(table)) {
      ok = false;
      error = "Unknown table '" + w.cat.info(table).name + "'";
      break;
    }
  if (ok && tr.killed)
    w.properties.found(a, inv::kKilledRunCommits,
                       "E5 at step " + std::to_string(w.now_step()) + ": task run " +
                           w.task_cfg(t).name + " was killed (its caller told FAILED) and its "
                           "outer statement still ran and committed: the kill reached no "
                           "executor of the recursive CTE",
                       w.task_cfg(t).name);
  World::note(a, [&] {
    return ok ? "INSERT OVERWRITE target SELECT ... FROM " + w.cat.info(tables.front()).name +
                    ": done"
              : "outer statement failed: " + error;
  });
}

// finalizeRecursiveCTE (E6a..E6c per staging table): skipped when
// recursive_cte_finalize_temporal_table is false.
void finalize_recursive_ctes(Actor& a, World& w, int t, const std::string& session,
                             TaskRunLocals& l) {
  const TaskRunConfig& tc = w.task_cfg(t);
  TaskRunScheduler& sched = w.scheduler;
  const std::vector<int>& tables = l.tables;
  if (!tc.finalize_temporal_table) l.finalize_skipped = true;
  for (l.k = 0; tc.finalize_temporal_table && l.k < tables.size(); ++l.k) {
    const int table = tables[l.k];
    const std::string& name = w.cat.info(table).name;
    // DROP TEMPORARY TABLE IF EXISTS ... FORCE: MetadataMgr.dropTemporaryTable in three steps.
    // E6a resolves the name in the session's entry (TemporaryTableMgr.getTable). finalized is
    // observed through progress(t) (the coverage goals of C3 and C4).
    a.step("E6a",
           {w.ttm.read_row(session), w.ttm.read_tables(session), sched.update_progress(t)});
    w.owners.at(session).finalized = true;
    const TtmEntry* resolved = w.ttm.get(session);
    if (resolved == nullptr || resolved->tables.count(table) == 0) {
      a.cover(goal::kFinalizeNoop);
      World::note(a, [&] {
        return "drop temporary table[db" + std::to_string(kDbId) + "." + name +
               "] which doesn't exist in session[" + session + "] (IF EXISTS: nothing to do)";
      });
      continue;
    }
    World::note(a, [&] {
      return "DROP TEMPORARY TABLE IF EXISTS " + name +
             " FORCE: the session's entry has table id " + std::to_string(table);
    });
    // E6b: the catalog drop (Database.dropTemporaryTable with IF EXISTS and FORCE): a table
    // already gone from CAT is skipped without an error.
    Op e6b("E6b", {w.cat.update_table(table)});
    w.journal.add_append(e6b, session);
    a.step(e6b);
    const bool dropped = w.cat.contains(table);
    if (dropped) {
      w.cat.drop(table);
      w.journal.append(JournalKind::kDropTable, table, session);
      if (++w.cat.info(table).drop_infos > 1)
        a.fail("two DropInfo journaled for " + w.table_text(table));
    } else {
      a.cover(goal::kFinalizeNoop);
    }
    World::note(a, [&] {
      return dropped ? "drop temporary table " + name + " (db id " + std::to_string(kDbId) +
                           ", table id " + std::to_string(table) + ") of session " + session +
                           ": DropInfo journaled"
                     : "table " + name + " is already dropped from CAT (IF EXISTS): nothing";
    });
    // E6c: TemporaryTableMgr.dropTemporaryTable: the session's entry, if it still has one,
    // forgets the table.
    a.step("E6c", {w.ttm.read_row(session), w.ttm.update_tables(session)});
    TtmEntry* e = w.ttm.get(session);
    if (e != nullptr) w.ttm.tables_to_change(w.ttm.index_of(*e), session).erase(table);
    World::note(a, [&] {
      return e != nullptr ? drop_table_line(session, name)
                          : "the session " + session +
                                " has no entry any more (the cleaner removed it): nothing";
    });
  }
}

// E7: the final state; the future completes unless the kill completed it already.
void finish_task_run(Actor& a, World& w, int t, const TaskRunLocals& l) {
  const TaskRunConfig& tc = w.task_cfg(t);
  TaskRun& tr = w.scheduler.task(t);
  const bool ok = l.ok;
  const std::string& error = l.error;
  a.step("E7", {w.scheduler.update_future(t)});
  if (l.finalize_skipped) a.cover(goal::kFinalizeSkipped);
  tr.outcome = ok ? "" : error;
  if (!tr.session.empty()) w.owners.at(tr.session).live = false;
  tr.finished = true;
  if (tr.future == Future::kPending) {
    tr.future = ok ? Future::kSucceeded : Future::kFailed;
    World::note(a, [&] {
      return "task run " + tc.name + (ok ? std::string(" SUCCESS") : " FAILED: " + error);
    });
  } else {
    World::note(a, [&] {
      return "task run " + tc.name + " was killed: it stays FAILED (" +
             (ok ? std::string("a later attempt succeeded") : error) + ")";
    });
  }
}

}  // namespace

void task_run(Actor& a, World& w, int t) {
  const TaskRunConfig& tc = w.task_cfg(t);
  TaskRunLocals l;
  a.declare_locals(l);
  // Timed: the executor's thread starts (from S2a), then each statement takes the FE's time; the
  // inserts' loads are the sinks' (their start work).
  w.lasts(a, Work::kThreadStart);
  w.lasts_by_default(a, Work::kStatement);
  for (l.attempt = 1; l.attempt <= 1 + tc.retries; ++l.attempt) {
    const std::string session = begin_attempt(a, w, t, l);
    prepare_recursive_ctes(a, w, t, session, l);
    if (l.ok) run_outer_statement(a, w, t, session, l);
    finalize_recursive_ctes(a, w, t, session, l);
    // The hypothetical retry loop (retries) goes on after a failed attempt, with a new
    // ConnectContext.
    if (l.ok) break;
  }
  finish_task_run(a, w, t, l);
}

void sync_submit(Actor& a, World& w, int t) {
  a.declare_no_locals();
  w.lasts_by_default(a, Work::kStatement);
  TaskRunScheduler& sched = w.scheduler;
  a.step("Y1", {sched.update_pend()});
  sched.pending().push_back(t);
  World::note(
      a, [&] { return "EXECUTE TASK " + w.task_cfg(t).name + " (sync): submitted into PEND"; });
  a.step("Y2", {sched.update_sync()});
  sched.sync().insert(t);
  World::note(a, [&] { return "SYNC.put(" + w.task_cfg(t).name + ")"; });
  a.wait_until("Y3", {sched.wait_future(t)},
               [&sched, t] { return sched.task(t).future != Future::kPending; });
  World::note(a, [&] { return "the future of " + w.task_cfg(t).name + " is done"; });
  a.step("Y4", {sched.update_sync()});
  sched.sync().erase(t);
  World::note(a, [&] { return "SYNC.remove(" + w.task_cfg(t).name + ")"; });
}

}  // namespace interleave::model
