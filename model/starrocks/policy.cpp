// The knob table and the preset table, and what derives from them: the "policy" parser, the
// policy JSON, the catalog's knobs.
#include "model/starrocks/policy.hpp"

#include <set>
#include <utility>

namespace interleave::model {

namespace {

using nlohmann::json;

constexpr std::string_view kCleanerJava =
    "fe/fe-core/src/main/java/com/starrocks/server/TemporaryTableCleaner.java";
constexpr std::string_view kManagerJava =
    "fe/fe-core/src/main/java/com/starrocks/server/TemporaryTableMgr.java";
constexpr std::string_view kSchedulerJava =
    "fe/fe-core/src/main/java/com/starrocks/scheduler/TaskRunScheduler.java";
constexpr std::string_view kMetadataMgrJava =
    "fe/fe-core/src/main/java/com/starrocks/server/MetadataMgr.java";
constexpr std::string_view kTaskRunManagerJava =
    "fe/fe-core/src/main/java/com/starrocks/scheduler/TaskRunManager.java";
constexpr std::string_view kRecursiveCteJava =
    "fe/fe-core/src/main/java/com/starrocks/qe/recursivecte/RecursiveCTEExecutor.java";

// The commits of StarRocks/starrocks the knobs and presets were read at (docs/model.md, "Sources").
// The cleaner before PR 55353: no createTime guard.
constexpr std::string_view kCleanerPre55353 = "26db0a8c53ded7c90451f94f015bf7ff094390ac";
// The cleaner with the guard of PR 55353, client sessions only (the 4.1.1 behaviour).
constexpr std::string_view kCleanerGuard = "39acbe94b417951e60b55fd9422c5384924d30be";
// The cleaner of the proposed fix, PR 79339 (task-run liveness).
constexpr std::string_view kCleanerPr79339 = "6316ac545f84fc18795cd7482d88c6f7a224a352";
constexpr std::string_view kManagerCommit = "6b3e681e4dc5d2bb8839d71bcf42ff5d919b26b9";
constexpr std::string_view kSchedulerCommit = "30e66086198e0e1b59e0b5e0623d1d19fd8e1231";
// MetadataMgr.cleanTemporaryTables: the catalog drop in a try whose catch only logs.
constexpr std::string_view kMetadataMgrCommit = "0066149594d9b7381620cf70dc3ecd61b6d5824b";
// RecursiveCTEExecutor as PR 65932 merged it (the same file on branch-4.1 at ad839837, the
// executor of 4.1.1): a failed start statement throws, an iteration tests its affected rows first.
constexpr std::string_view kRecursiveCteMerged = "28ca796bcc469a004d81893b713cf4697ab70808";
// branch-4.1 before 4.1.1: checkRunningTaskRun removes a run once its future is done.
constexpr std::string_view kTaskRunManagerBranch41 = "26a4a598e9dc9c616cb6b1810fba2eb946f8818f";

template <class E>
using EnumValues = std::vector<std::pair<std::string, E>>;

/// A knob whose value is one of `values` (a string in JSON).
template <class E>
Knob enum_knob(std::string_view key, E Policy::*member, EnumValues<E> values,
               std::string_view description, KnobSource source) {
  json names = json::array();
  std::vector<std::string> allowed;
  for (const auto& [n, _] : values) {
    names.push_back(n);
    allowed.push_back(n);
  }
  auto get = [member, values](const Policy& p) -> json {
    for (const auto& [n, v] : values)
      if (v == p.*member) return n;
    return "?";
  };
  auto read = [member, values, allowed](const JsonReader& r, Policy& p) {
    const std::string s = r.as_enum(allowed);
    for (const auto& [n, v] : values)
      if (n == s) p.*member = v;
  };
  return Knob{key, KnobType::kEnum, std::move(names), description, source, get, read};
}

Knob boolean_knob(std::string_view key, bool Policy::*member, std::string_view description,
                  KnobSource source) {
  return Knob{key,
              KnobType::kBoolean,
              json::array({true, false}),
              description,
              source,
              [member](const Policy& p) -> json { return p.*member; },
              [member](const JsonReader& r, Policy& p) { p.*member = r.as_bool(); }};
}

/// The liveness sources, in the order they are written (and listed in a policy's JSON).
const std::vector<std::pair<std::string, bool Liveness::*>> kLivenessSources = {
    {"client_sessions", &Liveness::client_sessions},
    {"async_task_runs", &Liveness::async_task_runs},
    {"sync_task_runs", &Liveness::sync_task_runs},
    {"pending_task_runs", &Liveness::pending_task_runs}};

Knob liveness_knob() {
  json names = json::array();
  std::vector<std::string> allowed;
  for (const auto& [n, _] : kLivenessSources) {
    names.push_back(n);
    allowed.push_back(n);
  }
  auto get = [](const Policy& p) -> json {
    json live = json::array();
    for (const auto& [n, m] : kLivenessSources)
      if (p.liveness.*m) live.push_back(n);
    return live;
  };
  // The list replaces the preset's.
  auto read = [allowed](const JsonReader& r, Policy& p) {
    Liveness lv{false, false, false, false};
    std::set<std::string> seen;
    for (const JsonReader& item : r.items()) {
      const std::string s = item.as_enum(allowed);
      if (!seen.insert(s).second) item.fail("'" + s + "' is listed twice");
      for (const auto& [n, m] : kLivenessSources)
        if (n == s) lv.*m = true;
    }
    p.liveness = lv;
  };
  return Knob{
      "liveness",
      KnobType::kSet,
      std::move(names),
      "the liveness sources of a cleaner pass: client sessions (C2), the runCtx sessions of "
      "the TaskRuns in RUN, in SYNC, in PEND (C3)",
      {kCleanerJava, kCleanerPr79339, json::array({"pending_task_runs"}),
       "client_sessions alone is 4.1.1 (C2: getAliveSessions, listSessions of every FE, at "
       "39acbe94); async_task_runs and sync_task_runs are the proposed fix, PR 79339 "
       "(getAliveTaskRunSessions: RUN then SYNC, lines 85-99); pending_task_runs is an "
       "alternative fix"},
      get,
      read};
}

std::vector<Knob> make_knobs() {
  std::vector<Knob> v;
  v.push_back(liveness_knob());
  v.push_back(enum_knob<TaskRunSnapshot>(
      "task_run_snapshot", &Policy::task_run_snapshot,
      {{"after_start_time", TaskRunSnapshot::kAfterStartTime},
       {"before_start_time", TaskRunSnapshot::kBeforeStartTime}},
      "where the task-run snapshot C3 sits relative to C1",
      {kCleanerJava, kCleanerPr79339, json::array({"before_start_time"}),
       "after_start_time: C3 exists only with PR 79339, inside the try after startTime "
       "(runAfterLeaseValid, lines 57-61); before_start_time is hazard 4"}));
  // C3 is taken only with a task-run liveness source (read before this knob).
  v.back().read = [read = v.back().read](const JsonReader& r, Policy& p) {
    read(r, p);
    if (!p.has_task_liveness())
      r.fail(
          "has no effect: the liveness sources include no task runs (C3 is not taken); add "
          "'async_task_runs', 'sync_task_runs' or 'pending_task_runs' to /policy/liveness");
  };
  v.push_back(
      boolean_knob("create_time_guard", &Policy::create_time_guard,
                   "clean a session only if its createTime < the pass's startTime (PR 55353)",
                   {kCleanerJava, kCleanerGuard, json::array(),
                    "true is the guard of PR 55353, in 4.1.1 (runAfterCatalogReady); false is "
                    "the cleaner before PR 55353 (26db0a8c, no createTime) (hazard 5)"}));
  v.push_back(enum_knob<FailedListSessions>(
      "failed_list_sessions", &Policy::failed_list_sessions,
      {{"abort_pass", FailedListSessions::kAbortPass},
       {"ignore_frontend", FailedListSessions::kIgnoreFrontend}},
      "what a pass does when an FE's listSessions RPC fails",
      {kCleanerJava, kCleanerGuard, json::array({"ignore_frontend"}),
       "abort_pass: getAliveSessions rethrows any failed RPC and the pass returns (4.1.1); "
       "ignore_frontend is hazard 6"}));
  v.push_back(enum_knob<DispatchOrder>(
      "dispatch_order", &Policy::dispatch_order,
      {{"start_then_register", DispatchOrder::kStartThenRegister},
       {"register_then_start", DispatchOrder::kRegisterThenStart}},
      "the dispatcher's order: start the executor, journal, then RUN.put (StarRocks), or "
      "RUN.put first",
      {kSchedulerJava, kSchedulerCommit, json::array({"register_then_start"}),
       "start_then_register: scheduledPendingTaskRun runs the dispatch action (S2a start, S2b "
       "journal) before runningTaskRunMap.put (S3) (4.1.1); register_then_start is a candidate "
       "fix of hazard 3"}));
  v.push_back(enum_knob<AddTemporaryTable>(
      "add_temporary_table", &Policy::add_temporary_table,
      {{"check_then_act", AddTemporaryTable::kCheckThenAct},
       {"atomic", AddTemporaryTable::kAtomic}},
      "addTemporaryTable as E2a computeIfAbsent / E2b unlocked get / E2c addTable, or one "
      "atomic step",
      {kManagerJava, kManagerCommit, json::array({"atomic"}),
       "check_then_act: addTemporaryTable, computeIfAbsent under the write lock, then an "
       "unlocked get and addTable (4.1.1); atomic is hazard 10"}));
  v.push_back(enum_knob<CreateTimeClock>(
      "create_time_clock", &Policy::create_time_clock,
      {{"leader", CreateTimeClock::kLeader},
       {"session_frontend", CreateTimeClock::kSessionFrontend}},
      "the clock E2a records as createTime: the leader's, or that of the FE the session "
      "lives on (compared across FEs)",
      {kManagerJava, kManagerCommit, json::array({"session_frontend"}),
       "leader: createTime is System.nanoTime() of the FE whose manager records it, and only the "
       "leader's cleaner compares it, with its own startTime (4.1.1); session_frontend is "
       "hazard 8, which no StarRocks code has: no code compares clocks across FEs"}));
  v.push_back(enum_knob<CatalogDrop>(
      "catalog_drop", &Policy::catalog_drop,
      {{"succeeds", CatalogDrop::kSucceeds}, {"may_fail", CatalogDrop::kMayFail}},
      "whether the catalog drop of cleanTemporaryTables (D2) can fail: it succeeds, or it may "
      "throw (explored), the error is logged and the session is still removed at D4",
      {kMetadataMgrJava, kMetadataMgrCommit, json::array({"may_fail"}),
       "succeeds: cleanTemporaryTables drops each table with IF EXISTS and FORCE, and the only "
       "DdlException of Database.dropTemporaryTable is the missing-table error IF EXISTS skips, "
       "so its catch never runs; may_fail is that catch taken: the table stays in CAT and in the "
       "entry, and removeTemporaryTables still drops the session (a table no manager tracks)"}));
  v.push_back(enum_knob<RecursiveCteErrors>(
      "recursive_cte_errors", &Policy::recursive_cte_errors,
      {{"rows_first", RecursiveCteErrors::kRowsFirst},
       {"error_first", RecursiveCteErrors::kErrorFirst},
       {"warn_and_continue", RecursiveCteErrors::kWarnAndContinue}},
      "how prepareRecursiveCTE treats a failed statement, by executor version: rows_first (4.1.1: "
      "a failed start statement throws, an iteration tests its affected rows before its error, "
      "the depth limit throws), error_first (later: the error first, the message names the "
      "iteration) or warn_and_continue (an early draft: logged, the outer statement still runs)",
      {kRecursiveCteJava, kRecursiveCteMerged, json::array(),
       "rows_first at 28ca796b (PR 65932 as merged; the same blob on branch-4.1 at ad839837, "
       "before 4.1.1): a start statement whose errType is set throws 'Error occurred during "
       "executing recursive CTE start statement: ...'; an iteration breaks on affected rows <= 0, "
       "which a failed insert leaves at the previous insert's count, then throws '... recursive "
       "statement: ...' on an errType; after the loop, rows still added and "
       "recursive_cte_throw_limit_exception throw 'Recursive query aborted after: N iterations.'; "
       "error_first is the version at 1ae8b196 (after PR 77510): the error before the rows, "
       "'... recursive statement at iteration <i>: ...'; warn_and_continue is the draft at "
       "8872747f: a start or iteration error is only logged and prepare returns, the outer "
       "statement is planned and run and its QueryState is the run's result, no depth-limit "
       "check"}));
  v.push_back(enum_knob<GracefulKillReap>(
      "graceful_kill_reap", &Policy::graceful_kill_reap,
      {{"future_done", GracefulKillReap::kFutureDone},
       {"final_state", GracefulKillReap::kFinalState}},
      "when S1 (checkRunningTaskRun) removes a gracefully killed run from RUN: once its future is "
      "done, which the kill does at once (4.1.1), or once the executor set a final state (E7)",
      {kTaskRunManagerJava, kTaskRunManagerBranch41, json::array(),
       "future_done at branch-4.1 26a4a598 (lines 253-274): checkRunningTaskRun removes every run "
       "whose future is done and archives its status, still RUNNING after a kill; final_state is "
       "a later form (PR 74146, merged after 4.1.1, its branch-3.5 backport): a done future whose "
       "state is not final is skipped until a later tick"}));
  return v;
}

// The presets, each as the knobs it changes from StarRocks 4.1.1 (Policy{}).
constexpr Liveness kPr79339Liveness{.client_sessions = true,
                                    .async_task_runs = true,
                                    .sync_task_runs = true,
                                    .pending_task_runs = false};

std::vector<Preset> make_presets() {
  const SourceRef cleaner_guard{kCleanerJava, kCleanerGuard};
  const SourceRef cleaner_fix{kCleanerJava, kCleanerPr79339};
  const SourceRef cleaner_pre55353{kCleanerJava, kCleanerPre55353};
  const SourceRef manager{kManagerJava, kManagerCommit};
  const SourceRef scheduler{kSchedulerJava, kSchedulerCommit};
  return {
      {std::string(kDefaultPreset),
       "StarRocks 4.1.1: liveness = client sessions only (C2); the bug of issue 79294", Policy{},
       false, {cleaner_guard, manager, scheduler}},
      {"pr-79339",
       "the proposed fix (PR 79339): client sessions + TaskRuns in RUN + TaskRuns in SYNC, "
       "C3 after C1, dispatcher unchanged (start, journal, then RUN.put)",
       Policy{.liveness = kPr79339Liveness}, false, {cleaner_fix, manager, scheduler}},
      {"pr-79339-run-only", "partial fix: client sessions + TaskRuns in RUN (no SYNC) (hazard 2)",
       Policy{.liveness = {.client_sessions = true,
                           .async_task_runs = true,
                           .sync_task_runs = false,
                           .pending_task_runs = false}},
       true, {cleaner_fix}},
      {"pr-79339-register-then-start",
       "pr-79339 with the dispatcher putting a run into RUN before starting it "
       "(S3 before S2a): closes hazard 3",
       Policy{.liveness = kPr79339Liveness, .dispatch_order = DispatchOrder::kRegisterThenStart},
       true, {cleaner_fix}},
      {"pr-79339-snapshot-before-start",
       "pr-79339 with the task-run snapshot C3 taken before C1 (hazard 4)",
       Policy{.liveness = kPr79339Liveness,
              .task_run_snapshot = TaskRunSnapshot::kBeforeStartTime},
       true, {}},
      {"pending-task-runs",
       "alternative fix: pr-79339 plus the runCtx sessions of the TaskRuns in PEND",
       Policy{.liveness = {.client_sessions = true,
                           .async_task_runs = true,
                           .sync_task_runs = true,
                           .pending_task_runs = true}},
       true, {}},
      {"no-create-time-guard",
       "starrocks-4.1.1 without the createTime guard of PR 55353 (hazard 5)",
       Policy{.liveness = Liveness{}, .create_time_guard = false}, true, {cleaner_pre55353}},
      {"ignore-failed-frontend",
       "starrocks-4.1.1, but a failed listSessions RPC skips that FE instead of aborting "
       "the pass (hazard 6)",
       Policy{.liveness = Liveness{}, .failed_list_sessions = FailedListSessions::kIgnoreFrontend},
       true, {}},
      {"cross-frontend-create-time",
       "starrocks-4.1.1, but a session's createTime comes from the clock of the FE it "
       "lives on and is compared with the leader's startTime (hazard 8, which no StarRocks code "
       "has)",
       Policy{.liveness = Liveness{}, .create_time_clock = CreateTimeClock::kSessionFrontend},
       true, {}},
      {"atomic-add-temporary-table",
       "starrocks-4.1.1 with E2a..E2c (addTemporaryTable) as one atomic step "
       "(hazard 10)",
       Policy{.liveness = Liveness{}, .add_temporary_table = AddTemporaryTable::kAtomic}, true,
       {}},
  };
}

}  // namespace

const std::vector<Knob>& knobs() {
  static const std::vector<Knob> table = make_knobs();
  return table;
}

std::string_view type_name(KnobType type) {
  switch (type) {
    case KnobType::kEnum:
      return "string";
    case KnobType::kBoolean:
      return "boolean";
    case KnobType::kSet:
      return "array of strings";
  }
  return "?";
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> table = make_presets();
  return table;
}

std::optional<Preset> find_preset(std::string_view name) {
  for (const Preset& p : presets())
    if (p.name == name) return p;
  return std::nullopt;
}

Policy parse_policy(const JsonReader& r, std::string& preset_name) {
  std::vector<std::string> keys = {"preset"};
  for (const Knob& k : knobs())
    keys.emplace_back(k.key);
  r.expect_keys(keys);
  std::vector<std::string> names;
  for (const Preset& p : presets())
    names.push_back(p.name);
  preset_name = r.enum_or("preset", std::string(kDefaultPreset), names);
  Policy p = find_preset(preset_name)->policy;
  for (const Knob& k : knobs())
    if (auto v = r.find(k.key)) k.read(*v, p);
  return p;
}

json policy_to_json(const Policy& p) {
  json j = json::object();
  for (const Knob& k : knobs())
    j[std::string(k.key)] = k.get(p);
  return j;
}

}  // namespace interleave::model
