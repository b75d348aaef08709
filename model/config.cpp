#include "model/config.hpp"

namespace interleave::model {

namespace {

Policy pr79339() {
  Policy p;
  p.liveness.async_task_runs = true;
  p.liveness.sync_task_runs = true;
  return p;
}

std::vector<Preset> make_presets() {
  std::vector<Preset> v;
  v.push_back({"starrocks-4.1.1",
               "StarRocks 4.1.1: liveness = client sessions only (C2); the bug of issue 79294",
               Policy{}});
  v.push_back({"pr-79339",
               "the proposed fix (PR 79339): client sessions + TaskRuns in RUN + TaskRuns in SYNC, "
               "C3 after C1, dispatcher unchanged (start, journal, then RUN.put)",
               pr79339()});
  {
    Policy p;
    p.liveness.async_task_runs = true;
    v.push_back({"pr-79339-run-only",
                 "partial fix: client sessions + TaskRuns in RUN (no SYNC) (hazard 2)", p});
  }
  {
    Policy p = pr79339();
    p.dispatch_order = DispatchOrder::kRegisterThenStart;
    v.push_back({"pr-79339-register-then-start",
                 "pr-79339 with the dispatcher putting a run into RUN before starting it "
                 "(S3 before S2a): closes hazard 3",
                 p});
  }
  {
    Policy p = pr79339();
    p.task_run_snapshot = TaskRunSnapshot::kBeforeStartTime;
    v.push_back({"pr-79339-snapshot-before-start",
                 "pr-79339 with the task-run snapshot C3 taken before C1 (hazard 4)", p});
  }
  {
    Policy p = pr79339();
    p.liveness.pending_task_runs = true;
    v.push_back({"pending-task-runs",
                 "alternative fix: pr-79339 plus the runCtx sessions of the TaskRuns in PEND", p});
  }
  {
    Policy p;
    p.create_time_guard = false;
    v.push_back({"no-create-time-guard",
                 "starrocks-4.1.1 without the createTime guard of PR 55353 (hazard 5)", p});
  }
  {
    Policy p;
    p.failed_list_sessions = FailedListSessions::kIgnoreFrontend;
    v.push_back({"ignore-failed-frontend",
                 "starrocks-4.1.1, but a failed listSessions RPC skips that FE instead of aborting "
                 "the pass (hazard 6)",
                 p});
  }
  {
    Policy p;
    p.create_time_clock = CreateTimeClock::kSessionFrontend;
    v.push_back({"cross-frontend-create-time",
                 "starrocks-4.1.1, but a session's createTime comes from the clock of the FE it "
                 "lives on and is compared with the leader's startTime (hazard 8)",
                 p});
  }
  {
    Policy p;
    p.add_temporary_table = AddTemporaryTable::kAtomic;
    v.push_back({"atomic-add-temporary-table",
                 "starrocks-4.1.1 with E2a..E2c (addTemporaryTable) as one atomic step "
                 "(hazard 10)",
                 p});
  }
  return v;
}

}  // namespace

std::vector<Preset> presets() {
  return make_presets();
}

std::optional<Preset> find_preset(std::string_view name) {
  for (Preset& p : make_presets())
    if (p.name == name) return std::move(p);
  return std::nullopt;
}

std::vector<std::string> invariant_names() {
  return {std::string(inv::kLiveOwnerTableDropped),
          std::string(inv::kSinkTableNotFound),
          std::string(inv::kManagerNullPointer),
          std::string(inv::kUntrackedTempTable),
          std::string(inv::kTempTableLeak),
          "deadlock",
          "actor_failure"};
}

std::vector<std::string> coverage_goal_names() {
  return {std::string(goal::kTaskSessionCandidate),
          std::string(goal::kTaskSessionSpared),
          std::string(goal::kTaskRunSeenByC3),
          std::string(goal::kClientSessionCandidate),
          std::string(goal::kClientSessionSpared),
          std::string(goal::kSparedByCreateTimeGuard),
          std::string(goal::kDroppedTableCreatedAfterStart),
          std::string(goal::kListSessionsFailed),
          std::string(goal::kKilledRunTableDropped),
          std::string(goal::kFinalizeNoop),
          std::string(goal::kFollowerOmittedSession),
          std::string(goal::kSweepPassCompleted)};
}

std::string frontend_name(int index) {
  return "fe" + std::to_string(index + 1);
}

std::string compute_node_name(int index) {
  return "cn" + std::to_string(index + 1);
}

}  // namespace interleave::model
