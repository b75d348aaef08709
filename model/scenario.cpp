#include "model/scenario.hpp"

#include "explorer/json_reader.hpp"
#include "model/world.hpp"

#include <algorithm>
#include <set>

namespace interleave::model {

namespace {

const std::vector<std::string> kLivenessSources = {"client_sessions", "async_task_runs",
                                                   "sync_task_runs", "pending_task_runs"};

std::vector<std::string> frontend_names(int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i)
    v.push_back(frontend_name(i));
  return v;
}

int frontend_index(const std::string& name) {
  return std::stoi(name.substr(2)) - 1;
}

// A frontend reference: one of the cluster's FEs, with a precise message otherwise.
int read_frontend(const JsonReader& r, int frontends) {
  const std::string name = r.as_string();
  const std::vector<std::string> known = frontend_names(frontends);
  if (std::find(known.begin(), known.end(), name) == known.end()) {
    std::string list;
    for (const auto& k : known)
      list += (list.empty() ? "" : ", ") + k;
    r.fail("no frontend '" + name + "' in this cluster" + did_you_mean(name, known) +
           ": /cluster/frontends is " + std::to_string(frontends) + " (" + list + ")");
  }
  return frontend_index(name);
}

std::string read_name(const JsonReader& r) {
  const std::string s = r.as_string();
  if (s.empty() || s.size() > 16 || !std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
      }))
    r.fail("a name is 1 to 16 letters, digits, '_' or '-', got '" + s + "'");
  return s;
}

ClusterConfig parse_cluster(const JsonReader& r) {
  r.expect_keys({"frontends", "compute_nodes", "unreachable_frontends", "clock_offsets"});
  ClusterConfig c;
  c.frontends = static_cast<int>(r.int_or("frontends", 1, 1, 3));
  c.compute_nodes = static_cast<int>(r.int_or("compute_nodes", 1, 1, 2));
  for (const JsonReader& item : r.items_or_empty("unreachable_frontends")) {
    const int f = read_frontend(item, c.frontends);
    if (std::find(c.unreachable_frontends.begin(), c.unreachable_frontends.end(), f) !=
        c.unreachable_frontends.end())
      item.fail("'" + frontend_name(f) + "' is listed twice");
    c.unreachable_frontends.push_back(f);
  }
  if (auto offsets = r.find("clock_offsets")) {
    offsets->expect_keys(frontend_names(c.frontends));
    for (const auto& [key, _] : offsets->json().items())
      c.clock_offsets[frontend_index(key)] = offsets->at(key).as_int(-1'000'000, 1'000'000);
  }
  return c;
}

TaskRunConfig parse_task_run(const JsonReader& r, std::size_t index) {
  r.expect_keys(
      {"name", "sync", "iterations", "recursive_cte_max_depth", "retries", "kill", "tablet_rows"});
  TaskRunConfig t;
  t.name = r.has("name") ? read_name(r.at("name")) : "t" + std::to_string(index + 1);
  t.sync = r.bool_or("sync", false);
  t.recursive_cte_max_depth = static_cast<int>(r.int_or("recursive_cte_max_depth", 5, 1, 25));
  t.iterations = static_cast<int>(r.int_or("iterations", 0, 0, 24));
  if (t.iterations > t.recursive_cte_max_depth - 1)
    r.at("iterations")
        .fail(std::to_string(t.iterations) +
              " iteration inserts exceed the depth limit: recursive_cte_max_depth " +
              std::to_string(t.recursive_cte_max_depth) + " allows at most " +
              std::to_string(t.recursive_cte_max_depth - 1));
  t.retries = static_cast<int>(r.int_or("retries", 0, 0, 2));
  t.kill = r.bool_or("kill", false);
  const std::string rows = r.enum_or("tablet_rows", "explore", {"explore", "some", "none"});
  t.tablet_rows = rows == "some"   ? TabletRows::kSome
                  : rows == "none" ? TabletRows::kNone
                                   : TabletRows::kExplore;
  return t;
}

ClientConfig parse_client(const JsonReader& r, std::size_t index, int frontends) {
  r.expect_keys({"name", "frontend", "temp_tables"});
  ClientConfig c;
  c.name = r.has("name") ? read_name(r.at("name")) : "c" + std::to_string(index + 1);
  c.frontend = r.has("frontend") ? read_frontend(r.at("frontend"), frontends) : 0;
  c.temp_tables = static_cast<int>(r.int_or("temp_tables", 1, 1, 3));
  return c;
}

ActorsConfig parse_actors(const JsonReader& r, int frontends) {
  r.expect_keys({"cleaner", "task_runs", "clients"});
  ActorsConfig a;
  if (auto c = r.find("cleaner")) {
    c->expect_keys({"passes", "sweep"});
    a.cleaner.passes = static_cast<int>(c->int_or("passes", 1, 0, 3));
    a.cleaner.sweep = c->bool_or("sweep", false);
  }
  std::set<std::string> names;
  auto unique = [&names](const JsonReader& item, const std::string& name) {
    if (!names.insert(name).second)
      item.fail("the name '" + name +
                "' is used twice (task runs and clients share one name space: session ids)");
  };
  if (auto tr = r.find("task_runs")) {
    const auto items = tr->items();
    if (items.size() > 3) tr->fail("at most 3 task runs, got " + std::to_string(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i) {
      a.task_runs.push_back(parse_task_run(items[i], i));
      unique(items[i].has("name") ? items[i].at("name") : items[i], a.task_runs.back().name);
    }
  }
  if (auto cl = r.find("clients")) {
    const auto items = cl->items();
    if (items.size() > 2) cl->fail("at most 2 clients, got " + std::to_string(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i) {
      a.clients.push_back(parse_client(items[i], i, frontends));
      unique(items[i].has("name") ? items[i].at("name") : items[i], a.clients.back().name);
    }
  }
  return a;
}

template <class E>
E read_enum(const JsonReader& r, std::string_view key, E fallback,
            const std::vector<std::pair<std::string, E>>& values) {
  auto v = r.find(key);
  if (!v) return fallback;
  std::vector<std::string> names;
  for (const auto& [n, _] : values)
    names.push_back(n);
  const std::string s = v->as_enum(names);
  for (const auto& [n, e] : values)
    if (n == s) return e;
  return fallback;
}

const std::vector<std::pair<std::string, TaskRunSnapshot>> kSnapshotValues = {
    {"after_start_time", TaskRunSnapshot::kAfterStartTime},
    {"before_start_time", TaskRunSnapshot::kBeforeStartTime}};
const std::vector<std::pair<std::string, FailedListSessions>> kFailedValues = {
    {"abort_pass", FailedListSessions::kAbortPass},
    {"ignore_frontend", FailedListSessions::kIgnoreFrontend}};
const std::vector<std::pair<std::string, DispatchOrder>> kDispatchValues = {
    {"start_then_register", DispatchOrder::kStartThenRegister},
    {"register_then_start", DispatchOrder::kRegisterThenStart}};
const std::vector<std::pair<std::string, AddTemporaryTable>> kAddValues = {
    {"check_then_act", AddTemporaryTable::kCheckThenAct}, {"atomic", AddTemporaryTable::kAtomic}};
const std::vector<std::pair<std::string, CreateTimeClock>> kClockValues = {
    {"leader", CreateTimeClock::kLeader}, {"session_frontend", CreateTimeClock::kSessionFrontend}};

template <class E>
std::string enum_name(E e, const std::vector<std::pair<std::string, E>>& values) {
  for (const auto& [n, v] : values)
    if (v == e) return n;
  return "?";
}

std::vector<std::string> preset_names() {
  std::vector<std::string> v;
  for (const Preset& p : presets())
    v.push_back(p.name);
  return v;
}

Policy parse_policy(const JsonReader& r, std::string& preset_name) {
  r.expect_keys({"preset", "liveness", "task_run_snapshot", "create_time_guard",
                 "failed_list_sessions", "dispatch_order", "add_temporary_table",
                 "create_time_clock"});
  preset_name = r.enum_or("preset", "starrocks-4.1.1", preset_names());
  Policy p = find_preset(preset_name)->policy;
  if (auto l = r.find("liveness")) {
    Liveness lv{false, false, false, false};
    std::set<std::string> seen;
    for (const JsonReader& item : l->items()) {
      const std::string s = item.as_enum(kLivenessSources);
      if (!seen.insert(s).second) item.fail("'" + s + "' is listed twice");
      if (s == "client_sessions") lv.client_sessions = true;
      if (s == "async_task_runs") lv.async_task_runs = true;
      if (s == "sync_task_runs") lv.sync_task_runs = true;
      if (s == "pending_task_runs") lv.pending_task_runs = true;
    }
    p.liveness = lv;
  }
  p.task_run_snapshot = read_enum(r, "task_run_snapshot", p.task_run_snapshot, kSnapshotValues);
  if (r.has("task_run_snapshot") && !p.liveness.async_task_runs && !p.liveness.sync_task_runs &&
      !p.liveness.pending_task_runs)
    r.at("task_run_snapshot")
        .fail(
            "has no effect: the liveness sources include no task runs (C3 is not taken); add "
            "'async_task_runs', 'sync_task_runs' or 'pending_task_runs' to /policy/liveness");
  p.create_time_guard = r.bool_or("create_time_guard", p.create_time_guard);
  p.failed_list_sessions =
      read_enum(r, "failed_list_sessions", p.failed_list_sessions, kFailedValues);
  p.dispatch_order = read_enum(r, "dispatch_order", p.dispatch_order, kDispatchValues);
  p.add_temporary_table = read_enum(r, "add_temporary_table", p.add_temporary_table, kAddValues);
  p.create_time_clock = read_enum(r, "create_time_clock", p.create_time_clock, kClockValues);
  return p;
}

}  // namespace

WorldConfig parse_world(const nlohmann::json& scenario, const std::string& file) {
  const JsonReader root(scenario, file);
  if (!scenario.is_object()) root.fail("expected an object, got " + json_type_name(scenario));
  WorldConfig w;
  if (auto c = root.find("cluster")) w.cluster = parse_cluster(*c);
  if (auto a = root.find("actors")) w.actors = parse_actors(*a, w.cluster.frontends);
  if (auto p = root.find("policy")) w.policy = parse_policy(*p, w.preset);
  const std::size_t bound = actor_bound(w);
  if (bound > 64)
    root.at("actors").fail("this world needs up to " + std::to_string(bound) +
                           " actors (sinks: per attempt, per insert, per CN); the engine runs at "
                           "most 64: fewer retries, iterations or compute nodes");
  return w;
}

nlohmann::json policy_to_json(const Policy& p) {
  nlohmann::json live = nlohmann::json::array();
  if (p.liveness.client_sessions) live.push_back("client_sessions");
  if (p.liveness.async_task_runs) live.push_back("async_task_runs");
  if (p.liveness.sync_task_runs) live.push_back("sync_task_runs");
  if (p.liveness.pending_task_runs) live.push_back("pending_task_runs");
  return {{"liveness", live},
          {"task_run_snapshot", enum_name(p.task_run_snapshot, kSnapshotValues)},
          {"create_time_guard", p.create_time_guard},
          {"failed_list_sessions", enum_name(p.failed_list_sessions, kFailedValues)},
          {"dispatch_order", enum_name(p.dispatch_order, kDispatchValues)},
          {"add_temporary_table", enum_name(p.add_temporary_table, kAddValues)},
          {"create_time_clock", enum_name(p.create_time_clock, kClockValues)}};
}

nlohmann::json model_catalog() {
  const nlohmann::json defaults = policy_to_json(Policy{});
  nlohmann::json presets_j = nlohmann::json::array();
  for (const Preset& p : presets())
    presets_j.push_back(
        {{"name", p.name}, {"description", p.description}, {"policy", policy_to_json(p.policy)}});
  auto knob = [&defaults](const char* name, const char* type, nlohmann::json values,
                          const char* description) {
    return nlohmann::json{{"name", name},
                          {"type", type},
                          {"values", std::move(values)},
                          {"default", defaults.at(name)},
                          {"description", description}};
  };
  nlohmann::json knobs = nlohmann::json::array(
      {knob("liveness", "array of strings", kLivenessSources,
            "the liveness sources of a cleaner pass: client sessions (C2), the runCtx sessions of "
            "the TaskRuns in RUN, in SYNC, in PEND (C3)"),
       knob("task_run_snapshot", "string", {"after_start_time", "before_start_time"},
            "where the task-run snapshot C3 sits relative to C1"),
       knob("create_time_guard", "boolean", {true, false},
            "clean a session only if its createTime < the pass's startTime (PR 55353)"),
       knob("failed_list_sessions", "string", {"abort_pass", "ignore_frontend"},
            "what a pass does when an FE's listSessions RPC fails"),
       knob("dispatch_order", "string", {"start_then_register", "register_then_start"},
            "the dispatcher's order: start the executor, journal, then RUN.put (StarRocks), or "
            "RUN.put first"),
       knob("add_temporary_table", "string", {"check_then_act", "atomic"},
            "addTemporaryTable as E2a computeIfAbsent / E2b unlocked get / E2c addTable, or one "
            "atomic step"),
       knob("create_time_clock", "string", {"leader", "session_frontend"},
            "the clock E2a records as createTime: the leader's, or that of the FE the session "
            "lives on (compared across FEs)")});
  const std::vector<std::pair<std::string_view, const char*>> invariants = {
      {inv::kLiveOwnerTableDropped,
       "the cleaner removed a temp table from CAT while its owner is live (a TaskRun attempt "
       "between E1 and E7 not killed; a client session between U2 and U4a)"},
      {inv::kSinkTableNotFound,
       "a CN sink's schema lookup (N2/N3) answered TABLE_NOT_EXIST for a table whose owner is "
       "live"},
      {inv::kManagerNullPointer,
       "the unlocked get of E2b found no entry (the NullPointerException of the check-then-act)"},
      {inv::kUntrackedTempTable,
       "a temp table is in CAT but tracked by no TTM_L entry after its creation finished"},
      {inv::kTempTableLeak,
       "at the end, after every owner ended and a full sweep pass ran after that, a temp table "
       "remains in CAT"},
      {"deadlock", "no actor can run while some actor is unfinished (engine)"},
      {"actor_failure", "an internal check of the model failed (engine)"}};
  nlohmann::json inv_j = nlohmann::json::array();
  for (const auto& [n, d] : invariants)
    inv_j.push_back({{"name", n}, {"description", d}});
  const std::vector<std::pair<std::string_view, const char*>> goals = {
      {goal::kTaskSessionCandidate,
       "a pass's C4 snapshot held the session of a TaskRun attempt between E2 and E6, old enough "
       "to be cleaned"},
      {goal::kTaskSessionSpared, "... and the pass found it alive"},
      {goal::kTaskRunSeenByC3, "a C3 read found the runCtx session of a run between E2 and E6"},
      {goal::kClientSessionCandidate,
       "a pass's C4 snapshot held a live client session old enough to be cleaned"},
      {goal::kClientSessionSpared, "... and the pass found it alive"},
      {goal::kSparedByCreateTimeGuard, "a session not alive was kept only by the createTime guard"},
      {goal::kDroppedTableCreatedAfterStart,
       "a pass dropped a table whose session entry was created after the pass's C1"},
      {goal::kListSessionsFailed, "a listSessions RPC failed"},
      {goal::kKilledRunTableDropped,
       "the cleaner dropped the staging table of a killed run before its E6"},
      {goal::kFinalizeNoop, "E6 found the staging table already dropped"},
      {goal::kFollowerOmittedSession,
       "a follower answered listSessions before replaying a CreateTableInfo of its session"},
      {goal::kSweepPassCompleted, "the sweep pass ran after every owner had ended"}};
  nlohmann::json goals_j = nlohmann::json::array();
  for (const auto& [n, d] : goals)
    goals_j.push_back({{"name", n}, {"description", d}});
  return {{"model", "starrocks-temp-tables"},
          {"sections", {"cluster", "actors", "policy"}},
          {"default_preset", "starrocks-4.1.1"},
          {"presets", presets_j},
          {"knobs", knobs},
          {"invariants", inv_j},
          {"coverage_goals", goals_j}};
}

}  // namespace interleave::model
