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
      {kCleanerJava, "",
       "client_sessions is StarRocks 4.1.1 (C2: listSessions of every FE); "
       "async_task_runs and sync_task_runs are the proposed fix, PR 79339; "
       "pending_task_runs is hypothetical (an alternative fix)"},
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
      {kCleanerJava, "",
       "C3 exists only with PR 79339, which does not settle where it sits (the reference, step "
       "C3): after_start_time is the model's reading, before_start_time is hazard 4"}));
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
                   {kCleanerJava, "",
                    "true is the guard of PR 55353, in 4.1.1; false is hypothetical "
                    "(hazard 5)"}));
  v.push_back(enum_knob<FailedListSessions>(
      "failed_list_sessions", &Policy::failed_list_sessions,
      {{"abort_pass", FailedListSessions::kAbortPass},
       {"ignore_frontend", FailedListSessions::kIgnoreFrontend}},
      "what a pass does when an FE's listSessions RPC fails",
      {kCleanerJava, "",
       "abort_pass: any failed RPC aborts the pass (4.1.1); ignore_frontend is hypothetical "
       "(hazard 6)"}));
  v.push_back(enum_knob<DispatchOrder>(
      "dispatch_order", &Policy::dispatch_order,
      {{"start_then_register", DispatchOrder::kStartThenRegister},
       {"register_then_start", DispatchOrder::kRegisterThenStart}},
      "the dispatcher's order: start the executor, journal, then RUN.put (StarRocks), or "
      "RUN.put first",
      {kSchedulerJava, "",
       "start_then_register: S2a start, S2b journal, S3 RUN.put (4.1.1); register_then_start is "
       "hypothetical (a candidate fix of hazard 3)"}));
  v.push_back(enum_knob<AddTemporaryTable>(
      "add_temporary_table", &Policy::add_temporary_table,
      {{"check_then_act", AddTemporaryTable::kCheckThenAct},
       {"atomic", AddTemporaryTable::kAtomic}},
      "addTemporaryTable as E2a computeIfAbsent / E2b unlocked get / E2c addTable, or one "
      "atomic step",
      {kManagerJava, "",
       "check_then_act: addTemporaryTable (4.1.1); atomic is hypothetical (hazard 10)"}));
  v.push_back(enum_knob<CreateTimeClock>(
      "create_time_clock", &Policy::create_time_clock,
      {{"leader", CreateTimeClock::kLeader},
       {"session_frontend", CreateTimeClock::kSessionFrontend}},
      "the clock E2a records as createTime: the leader's, or that of the FE the session "
      "lives on (compared across FEs)",
      {kManagerJava, "",
       "leader: the leader records createTime and its cleaner compares it with its own clock "
       "(4.1.1); session_frontend is hypothetical (hazard 8: clocks compared across FEs, e.g. "
       "after a leader change)"}));
  return v;
}

// The presets, each as the knobs it changes from StarRocks 4.1.1 (Policy{}).
constexpr Liveness kPr79339Liveness{.client_sessions = true,
                                    .async_task_runs = true,
                                    .sync_task_runs = true,
                                    .pending_task_runs = false};

std::vector<Preset> make_presets() {
  return {
      {std::string(kDefaultPreset),
       "StarRocks 4.1.1: liveness = client sessions only (C2); the bug of issue 79294", Policy{}},
      {"pr-79339",
       "the proposed fix (PR 79339): client sessions + TaskRuns in RUN + TaskRuns in SYNC, "
       "C3 after C1, dispatcher unchanged (start, journal, then RUN.put)",
       Policy{.liveness = kPr79339Liveness}},
      {"pr-79339-run-only", "partial fix: client sessions + TaskRuns in RUN (no SYNC) (hazard 2)",
       Policy{.liveness = {.client_sessions = true,
                           .async_task_runs = true,
                           .sync_task_runs = false,
                           .pending_task_runs = false}}},
      {"pr-79339-register-then-start",
       "pr-79339 with the dispatcher putting a run into RUN before starting it "
       "(S3 before S2a): closes hazard 3",
       Policy{.liveness = kPr79339Liveness, .dispatch_order = DispatchOrder::kRegisterThenStart}},
      {"pr-79339-snapshot-before-start",
       "pr-79339 with the task-run snapshot C3 taken before C1 (hazard 4)",
       Policy{.liveness = kPr79339Liveness,
              .task_run_snapshot = TaskRunSnapshot::kBeforeStartTime}},
      {"pending-task-runs",
       "alternative fix: pr-79339 plus the runCtx sessions of the TaskRuns in PEND",
       Policy{.liveness = {.client_sessions = true,
                           .async_task_runs = true,
                           .sync_task_runs = true,
                           .pending_task_runs = true}}},
      {"no-create-time-guard",
       "starrocks-4.1.1 without the createTime guard of PR 55353 (hazard 5)",
       Policy{.liveness = Liveness{}, .create_time_guard = false}},
      {"ignore-failed-frontend",
       "starrocks-4.1.1, but a failed listSessions RPC skips that FE instead of aborting "
       "the pass (hazard 6)",
       Policy{.liveness = Liveness{}, .failed_list_sessions = FailedListSessions::kIgnoreFrontend}},
      {"cross-frontend-create-time",
       "starrocks-4.1.1, but a session's createTime comes from the clock of the FE it "
       "lives on and is compared with the leader's startTime (hazard 8)",
       Policy{.liveness = Liveness{}, .create_time_clock = CreateTimeClock::kSessionFrontend}},
      {"atomic-add-temporary-table",
       "starrocks-4.1.1 with E2a..E2c (addTemporaryTable) as one atomic step "
       "(hazard 10)",
       Policy{.liveness = Liveness{}, .add_temporary_table = AddTemporaryTable::kAtomic}},
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

json knob_catalog() {
  const Policy defaults;
  json v = json::array();
  for (const Knob& k : knobs()) {
    json source = {{"file", k.source.file}, {"note", k.source.note}};
    if (!k.source.commit.empty()) source["commit"] = k.source.commit;
    v.push_back({{"name", k.key},
                 {"type", type_name(k.type)},
                 {"values", k.values},
                 {"default", k.get(defaults)},
                 {"description", k.description},
                 {"source", source}});
  }
  return v;
}

}  // namespace interleave::model
