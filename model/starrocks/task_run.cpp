// A TaskRun executing a recursive CTE (fe-core scheduler/TaskRun, qe/recursivecte: SUBMIT TASK ...
// INSERT OVERWRITE ... WITH RECURSIVE), and the caller of a sync run.
// - The executor, per attempt: E1 runCtx := a new ConnectContext (a fresh session id, registered in
//   no CS_f); E2 create the staging table, then addTemporaryTable E2a..E2c (metadata_mgr.cpp);
//   E3 the anchor insert and E4 up to recursive_cte_max_depth - 1 iteration inserts, each planned
//   against TTM_L and CAT and sunk by one tablet sink per CN (tablet_sink.cpp); E5 the outer
//   statement; E6 (finally) DROP TEMPORARY TABLE IF EXISTS of the staging table. A failed attempt
//   is retried from E1 with a new session id, a killed one too (the retry loop does not look at
//   the kill mark); then E7 sets the final state and completes the future. A killed attempt stops
//   at its next statement; a retry after the kill has a new runCtx and runs (its owner counts as
//   ended: the run's future was already completed by the kill).
// - The sync caller (EXECUTE TASK ... sync): Y1 submit into PEND, Y2 SYNC.put, Y3 wait on the
//   future, Y4 SYNC.remove.
// Promises: at most one DropInfo per table (E6 drops only what is still in CAT and tracked); the
// owner of an attempt is live from its E1 until E7 or the next attempt's E1, unless killed.
#include "model/starrocks/actors.hpp"

namespace interleave::model {

namespace {

// One INSERT into the staging table (E3 anchor, E4 iteration `level`): plan it, let a tablet sink
// on each CN write and finish, wait for their reports. False (with `error`) if it failed.
bool insert(Actor& a, World& w, int t, int attempt, const std::string& session, int table,
            Label label, int level, std::string& error) {
  TaskRunScheduler& sched = w.scheduler;
  TaskRun& tr = sched.task(t);
  a.step(label, {sched.read_runctx(t), w.ttm.read_row(session), w.ttm.read_tables(session),
                 w.cat.read_table(table)});
  const std::string& name = w.cat.info(table).name;
  if (tr.killed_attempt == attempt) {
    error = "the task run was killed";
    World::note(a, [&] { return "statement cancelled: " + error; });
    return false;
  }
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
    const std::string& sink = w.plan.tablet_sink(t, attempt, level, cn);
    a.spawn(sink, [&w, t, table, cn, txn, &sink](Actor& s) {
      tablet_sink(s, w, t, table, cn, txn, sink);
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

}  // namespace

void task_run(Actor& a, World& w, int t) {
  const TaskRunConfig& tc = w.task_cfg(t);
  TaskRunScheduler& sched = w.scheduler;
  TaskRun& tr = sched.task(t);
  std::string error;
  bool ok = false;
  for (int attempt = 1; attempt <= 1 + tc.retries; ++attempt) {
    a.step("E1", {sched.write_runctx(t)});
    if (!tr.session.empty()) w.owners.at(tr.session).live = false;
    const std::string session = task_run_session(tc.name, attempt);
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

    const int table = create_table(a, w, "E2", session, "", 0);
    w.owners.at(session).staged = true;
    add_temporary_table(a, w, session, table, 0);

    error.clear();
    ok = insert(a, w, t, attempt, session, table, "E3", 0, error);
    if (!ok) error = "Error occurred during executing recursive CTE start statement: " + error;
    for (int i = 1; ok && i <= tc.iterations; ++i) {
      ok = insert(a, w, t, attempt, session, table, "E4", i, error);
      if (!ok)
        error = "Error occurred during executing recursive CTE iteration " + std::to_string(i) +
                ": " + error;
    }
    if (ok) {
      a.step("E5", {sched.read_runctx(t), w.ttm.read_row(session), w.ttm.read_tables(session),
                    w.cat.read_table(table)});
      const TtmEntry* e = w.ttm.get(session);
      if (tr.killed_attempt == attempt) {
        ok = false;
        error = "the task run was killed";
      } else if (e == nullptr || e->tables.count(table) == 0 || !w.cat.contains(table)) {
        ok = false;
        error = "Unknown table '" + w.cat.info(table).name + "'";
      }
      World::note(a, [&] {
        return ok ? "INSERT OVERWRITE target SELECT ... FROM " + w.cat.info(table).name + ": done"
                  : "outer statement failed: " + error;
      });
    }

    // finalized is observed through progress(t) (the coverage goals of C3 and C4).
    Op e6("E6", {w.ttm.read_row(session), w.ttm.update_tables(session), w.cat.update_table(table),
                 sched.update_progress(t)});
    w.journal.add_append(e6, session);
    a.step(e6);
    w.owners.at(session).finalized = true;
    TtmEntry* e = w.ttm.get(session);
    const bool tracked = e != nullptr && e->tables.count(table) != 0;
    if (!tracked || !w.cat.contains(table)) a.cover(goal::kFinalizeNoop);
    const bool dropped = tracked && w.cat.contains(table);
    if (dropped) {
      w.cat.drop(table);
      w.journal.append(JournalKind::kDropTable, table, session);
      if (++w.cat.info(table).drop_infos > 1)
        a.fail("two DropInfo journaled for " + w.table_text(table));
    }
    if (tracked) e->tables.erase(table);
    World::note(a, [&] {
      return "DROP TEMPORARY TABLE IF EXISTS " + w.cat.info(table).name + ": " +
             (!tracked  ? std::string("the session does not track it, nothing to do")
              : dropped ? std::string("dropped, DropInfo journaled")
                        : std::string("already dropped from CAT, removed from the manager"));
    });
    // A killed attempt fails like any other: executeRetryingTaskRun does not look at the kill
    // mark, so the next attempt (if any) runs with a new ConnectContext the kill did not touch.
    if (ok) break;
  }
  a.step("E7", {sched.update_future(t)});
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

void sync_submit(Actor& a, World& w, int t) {
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
