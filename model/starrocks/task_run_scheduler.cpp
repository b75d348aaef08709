// The actors on the TaskRunScheduler (task_run_scheduler.hpp):
// - the dispatcher (StarRocks' scheduler loop, every 1 s on the leader): per pending run, S2a
//   poll PEND and start the run's executor (it may run at once), S2b journal PENDING -> RUNNING,
//   S3 RUN.put: between S2a and S3 the run executes but is in no running map (hazards 2, 3); with
//   register_then_start, S3 first. Then per run S1: once its future is done, remove it from RUN
//   and journal its final state.
// - the kill (a KILL statement or the scheduler's timeout, TaskRunManager.killRunningTaskRun): K
//   marks the run killed, completes its future exceptionally and kills its runCtx, which cancels
//   no statement of a recursive CTE (task_run.cpp); a forced kill also removes it from RUN at
//   once, a graceful one leaves it there until S1 (at once with graceful_kill_reap future_done,
//   after the final state E7 sets with final_state). The executor goes on running. It lives here,
//   not with the executor, because everything it changes is the scheduler's (RUN, the future, the
//   runCtx it handed out).
// Promises: runs are dispatched and reaped in PEND order; a run's executor is spawned once, with
// the plan's name.
// Locals (state fingerprints): the dispatcher's runs dispatched (the last is the one between its
// S2a and S3) and its positions in the two loops; the kill has none (its run is its name's).
#include "model/starrocks/actors.hpp"

#include <vector>

namespace interleave::model {

namespace {

// What the dispatcher keeps from one step to the next.
struct DispatcherLocals {
  std::size_t i = 0;            // the run being dispatched
  std::vector<int> dispatched;  // in PEND order; the last one's S2b/S3 may be pending
  std::size_t reaped = 0;       // the run whose S1 is pending
  void fingerprint(StateHasher& h) const { h << i << dispatched << reaped; }
};

}  // namespace

void task_run_scheduler(Actor& a, World& w) {
  TaskRunScheduler& sched = w.scheduler;
  const std::size_t n = w.cfg.actors.task_runs.size();
  DispatcherLocals l;
  a.declare_locals(l);
  // Timed: the first poll of PEND at the dispatcher's phase (a wait: in the exhaustive search only
  // its minimum binds), then each step's map updates.
  const TimingConfig& timing = w.cfg.timing;
  w.lasts(a, timing.dispatch_phase
                 ? Duration::exactly(*timing.dispatch_phase)
                 : Duration::free_phase(work_fact(Work::kDispatchPoll).duration.min));
  w.lasts_by_default(a, Work::kDispatch);
  std::vector<int>& dispatched = l.dispatched;
  auto start = [&](int t) {
    sched.task(t).executor = a.spawn(w.plan.task_run(t), [&w, t](Actor& e) { task_run(e, w, t); });
    // Handing the executor to its thread: the dispatcher goes on as soon as it is submitted.
    w.lasts(a, Work::kThreadStart);
    World::note(a, [&] { return "start the executor of task run " + w.task_cfg(t).name; });
  };
  auto journal_running = [&](int t) {
    // A TaskRunState entry: no replayer reads those (it skips them), so J is not declared.
    a.step("S2b", {});
    w.journal.append_task_run_state();
    World::note(a,
                [&] { return "journal task run " + w.task_cfg(t).name + ": PENDING -> RUNNING"; });
  };
  for (l.i = 0; l.i < n; ++l.i) {
    if (w.cfg.policy.dispatch_order == DispatchOrder::kStartThenRegister) {
      a.wait_until("S2a", {sched.update_pend()}, [&sched] { return !sched.pending().empty(); });
      const int t = sched.pending().front();
      sched.pending().pop_front();
      dispatched.push_back(t);
      World::note(a, [&] { return "poll PEND: task run " + w.task_cfg(t).name; });
      start(t);
      journal_running(t);
      a.step("S3", {sched.update_run()});
      sched.running().insert(t);
      World::note(a, [&] { return "RUN.put(" + w.task_cfg(t).name + ")"; });
    } else {
      a.wait_until("S3", {sched.update_pend(), sched.update_run()},
                   [&sched] { return !sched.pending().empty(); });
      const int t = sched.pending().front();
      sched.pending().pop_front();
      dispatched.push_back(t);
      sched.running().insert(t);
      World::note(a, [&] {
        return "poll PEND: task run " + w.task_cfg(t).name + "; RUN.put(" + w.task_cfg(t).name +
               ") before starting it";
      });
      a.step("S2a", {});
      start(t);
      journal_running(t);
    }
  }
  for (l.reaped = 0; l.reaped < dispatched.size(); ++l.reaped) {
    const int t = dispatched[l.reaped];
    // checkRunningTaskRun: the future is done (a graceful kill completes it before the executor
    // sets the state at E7) and, with graceful_kill_reap final_state, for a run still in RUN, its
    // state is final.
    const bool final_state = w.cfg.policy.graceful_kill_reap == GracefulKillReap::kFinalState;
    a.wait_until("S1", {sched.read_future(t), sched.update_run()}, [&sched, t, final_state] {
      const TaskRun& tr = sched.task(t);
      return tr.future != Future::kPending &&
             (!final_state || tr.finished || sched.running().count(t) == 0);
    });
    if (sched.running().erase(t) != 0) {
      w.journal.append_task_run_state();
      World::note(a, [&] {
        return "task run " + w.task_cfg(t).name +
               " is done: removed from RUN, final state journaled";
      });
    } else {
      World::note(a,
                  [&] { return "task run " + w.task_cfg(t).name + " is done (no longer in RUN)"; });
    }
  }
}

void kill_task_run(Actor& a, World& w, int t) {
  a.declare_no_locals();
  w.lasts_by_default(a, Work::kStatement);
  TaskRunScheduler& sched = w.scheduler;
  const bool force = w.task_cfg(t).kill == KillMode::kForce;
  // A graceful kill only reads RUN (to find the run there).
  a.wait_until("K",
               {force ? sched.update_run() : sched.read_map(TaskRunMap::kRunning),
                sched.update_future(t), sched.update_runctx(t), sched.update_progress(t)},
               [&sched, t] {
                 return sched.running().count(t) != 0 || sched.task(t).future != Future::kPending;
               });
  TaskRun& tr = sched.task(t);
  if (tr.future != Future::kPending) {
    World::note(
        a, [&] { return "kill task run " + w.task_cfg(t).name + ": already finished, nothing"; });
    return;
  }
  tr.killed = true;
  tr.future = Future::kKilled;
  if (force) sched.running().erase(t);
  if (!tr.session.empty()) w.owners.at(tr.session).live = false;
  World::note(a, [&] {
    return "kill task run " + w.task_cfg(t).name + (force ? "" : " (not forced)") +
           " (KILL or timeout): FAILED, future completed exceptionally, runCtx " +
           (tr.session.empty() ? std::string("(null)") : tr.session) + " killed, " +
           (force ? std::string("removed from RUN")
                  : w.cfg.policy.graceful_kill_reap == GracefulKillReap::kFinalState
                      ? std::string("left in RUN until its final state")
                      : std::string("left in RUN until the dispatcher's next check")) +
           "; no statement of its recursive CTE is cancelled, its executor goes on";
  });
}

}  // namespace interleave::model
