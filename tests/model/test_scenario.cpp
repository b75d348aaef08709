// The model's scenario sections ("cluster", "actors", "policy", "timing"), its driver and its
// catalog: every error names the file and the JSON path.
#include "explorer/core/input_error.hpp"
#include "model/register.hpp"
#include "model/starrocks/scenario.hpp"
#include "model/starrocks/spawn_plan.hpp"
#include "reports/render/wall_clock.hpp"
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace interleave;
using namespace interleave::model;
using nlohmann::json;

namespace {

std::string error_of(const json& scenario) {
  try {
    parse_world(scenario, "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("scenario: defaults are starrocks-4.1.1 and a lone cleaner pass", "[scenario]") {
  const WorldConfig w = parse_world(json::object(), "s.json");
  CHECK(w.preset == "starrocks-4.1.1");
  CHECK(w.policy == Policy{});
  CHECK(w.cluster.frontends == 1);
  CHECK(w.cluster.compute_nodes == 1);
  CHECK(w.actors.cleaner.passes == 1);
  CHECK_FALSE(w.actors.cleaner.sweep);
  CHECK(w.actors.task_runs.empty());
  CHECK(w.actors.clients.empty());
}

TEST_CASE("scenario: a full document", "[scenario]") {
  const json s = json::parse(R"({
    "name": "ignored by the model",
    "cluster": {"frontends": 2, "compute_nodes": 2, "unreachable_frontends": ["fe2"],
                "clock_offsets": {"fe2": -1000}},
    "actors": {"cleaner": {"passes": 2, "sweep": true},
               "task_runs": [{"name": "t1", "iterations": 2, "kill": true, "tablet_rows": "none"},
                             {"sync": true, "retries": 1}],
               "clients": [{"name": "c1", "frontend": "fe2", "temp_tables": 2}]},
    "policy": {"preset": "pr-79339", "dispatch_order": "register_then_start",
               "add_temporary_table": "atomic"}})");
  const WorldConfig w = parse_world(s, "s.json");
  CHECK(w.cluster.frontends == 2);
  CHECK(w.cluster.unreachable_frontends == std::vector<int>{1});
  CHECK(w.cluster.clock_offsets.at(1) == -1000);
  CHECK(w.actors.cleaner.passes == 2);
  CHECK(w.actors.cleaner.sweep);
  REQUIRE(w.actors.task_runs.size() == 2);
  CHECK(w.actors.task_runs[0].iterations == 2);
  CHECK(w.actors.task_runs[0].kill == KillMode::kForce);
  CHECK(w.actors.task_runs[0].tablet_rows == TabletRows::kNone);
  CHECK(w.actors.task_runs[1].name == "t2");
  CHECK(w.actors.task_runs[1].sync);
  CHECK(w.actors.task_runs[1].retries == 1);
  CHECK(w.actors.clients.at(0).frontend == 1);
  CHECK(w.preset == "pr-79339");
  Policy expected = find_preset("pr-79339")->policy;
  expected.dispatch_order = DispatchOrder::kRegisterThenStart;
  expected.add_temporary_table = AddTemporaryTable::kAtomic;
  CHECK(w.policy == expected);
}

TEST_CASE("scenario: exact errors with file, JSON path and did-you-mean", "[scenario]") {
  CHECK(error_of({{"cluster", {{"creator_cn", "cn2"}}}}) ==
        "s.json: /cluster/creator_cn: no compute node 'cn2' in this cluster: /cluster/compute_nodes "
        "is 1");
  CHECK(error_of({{"cluster", {{"frontend", 2}}}}) ==
        "s.json: /cluster/frontend: unknown key 'frontend' (did you mean 'frontends'?); known "
        "keys: 'frontends', 'compute_nodes', 'creator_cn', 'unreachable_frontends', "
        "'down_frontends', 'clock_offsets'");
  CHECK(error_of({{"cluster", {{"frontends", "2"}}}}) ==
        "s.json: /cluster/frontends: expected an integer, got a string");
  CHECK(error_of({{"cluster", {{"frontends", 4}}}}) ==
        "s.json: /cluster/frontends: must be between 1 and 3, got 4");
  CHECK(error_of({{"actors", {{"clients", {{{"frontend", "fe3"}}}}}}}) ==
        "s.json: /actors/clients/0/frontend: no frontend 'fe3' in this cluster (did you mean "
        "'fe1'?): /cluster/frontends is 1 (fe1)");
  CHECK(error_of({{"actors", {{"task_runs", {{{"iterations", 5}}}}}}}) ==
        "s.json: /actors/task_runs/0/iterations: 5 iterations that add rows exceed the depth "
        "limit: recursive_cte_max_depth 5 allows at most 4 (that many reach the limit, which ends "
        "the recursion)");
  CHECK(
      error_of({{"actors", {{"task_runs", {{{"name", "x"}}}}, {"clients", {{{"name", "x"}}}}}}}) ==
      "s.json: /actors/clients/0/name: the name 'x' is used twice (task runs and clients "
      "share one name space: session ids)");
  CHECK(error_of({{"policy", {{"preset", "pr-79393"}}}}) ==
        "s.json: /policy/preset: unknown value 'pr-79393' (did you mean 'pr-79339'?); expected "
        "one of 'starrocks-4.1.1', 'pr-79339', 'pr-79339-run-only', "
        "'pr-79339-register-then-start', 'pr-79339-snapshot-before-start', 'pending-task-runs', "
        "'no-create-time-guard', 'ignore-failed-frontend', 'cross-frontend-create-time', "
        "'atomic-add-temporary-table'");
  CHECK(error_of({{"policy", {{"liveness", {"client_sessions", "client_sessions"}}}}}) ==
        "s.json: /policy/liveness/1: 'client_sessions' is listed twice");
  CHECK(error_of({{"policy", {{"task_run_snapshot", "before_start_time"}}}}) ==
        "s.json: /policy/task_run_snapshot: has no effect: the liveness sources include no task "
        "runs (C3 is not taken); add 'async_task_runs', 'sync_task_runs' or 'pending_task_runs' "
        "to /policy/liveness");
  CHECK(error_of({{"cluster", {{"clock_offsets", {{"fe2", 5}}}}}}) ==
        "s.json: /cluster/clock_offsets/fe2: unknown key 'fe2' (did you mean 'fe1'?); known "
        "keys: 'fe1'");
  CHECK(error_of(json::parse(R"({"cluster": {"compute_nodes": 2}, "actors": {"task_runs": [
          {"iterations": 4, "retries": 2}, {"iterations": 4, "retries": 2},
          {"iterations": 4, "retries": 2}]}})")) ==
        "s.json: /actors: this world needs up to 95 actors (sinks: per attempt, per insert, per "
        "CN); the engine runs at most 64: fewer task runs, clients, retries, iterations or "
        "compute nodes");
  // Owners are limited only by the actors their world needs: 10 TaskRuns (3 sync, 2 iteration
  // inserts)
  // and 10 clients (4 on followers) on 3 FEs need 57, and parse; 21 such TaskRuns need more.
  json runs = json::array();
  json clients = json::array();
  for (int i = 1; i <= 10; ++i) {
    runs.push_back({{"name", "t" + std::to_string(i)}, {"iterations", 1}, {"sync", i > 7}});
    clients.push_back({{"name", "c" + std::to_string(i)},
                       {"frontend", i > 8   ? "fe3"
                                    : i > 6 ? "fe2"
                                            : "fe1"}});
  }
  const json huge = {{"cluster", {{"frontends", 3}}},
                     {"actors", {{"task_runs", runs}, {"clients", clients}}}};
  CHECK(actor_bound(parse_world(huge, "s.json")) == 57);
  json more = huge;
  for (int i = 11; i <= 21; ++i)
    more["actors"]["task_runs"].push_back({{"name", "t" + std::to_string(i)}, {"iterations", 1}});
  CHECK(error_of(more) ==
        "s.json: /actors: this world needs up to 101 actors (sinks: per attempt, per insert, per "
        "CN); the engine runs at most 64: fewer task runs, clients, retries, iterations or "
        "compute nodes");
  json too_many = json::array();
  for (int i = 1; i <= 65; ++i)
    too_many.push_back({{"name", "c" + std::to_string(i)}});
  CHECK(error_of({{"actors", {{"clients", too_many}}}}) ==
        "s.json: /actors/clients: at most 64 clients (the engine's actor limit), got 65");
}

TEST_CASE("scenario: the kill and the down FEs, with exact errors", "[scenario]") {
  auto kill_of = [](const json& k) {
    return parse_world({{"actors", {{"task_runs", {{{"kill", k}}}}}}}, "s.json")
        .actors.task_runs.at(0)
        .kill;
  };
  CHECK(kill_of(false) == KillMode::kNone);
  CHECK(kill_of(true) == KillMode::kForce);
  CHECK(kill_of("force") == KillMode::kForce);
  CHECK(kill_of("graceful") == KillMode::kGraceful);
  CHECK(error_of({{"actors", {{"task_runs", {{{"kill", "gracefull"}}}}}}}) ==
        "s.json: /actors/task_runs/0/kill: unknown value 'gracefull' (did you mean "
        "'graceful'?); expected one of 'force', 'graceful'");
  CHECK(error_of({{"actors", {{"task_runs", {{{"kill", 1}}}}}}}) ==
        "s.json: /actors/task_runs/0/kill: expected true, false, 'force' or 'graceful', got an "
        "integer");
  const WorldConfig w =
      parse_world({{"cluster", {{"frontends", 3}, {"down_frontends", {"fe3"}}}}}, "s.json");
  CHECK(w.cluster.down_frontends == std::vector<int>{2});
  CHECK(error_of({{"cluster", {{"frontends", 2}, {"down_frontends", {"fe1"}}}}}) ==
        "s.json: /cluster/down_frontends/0: 'fe1' is the leader, which runs the cleaner: only a "
        "follower can be down");
  CHECK(error_of({{"cluster", {{"frontends", 2}, {"down_frontends", {"fe2", "fe2"}}}}}) ==
        "s.json: /cluster/down_frontends/1: 'fe2' is listed twice");
  CHECK(error_of({{"cluster",
                   {{"frontends", 2},
                    {"unreachable_frontends", {"fe2"}},
                    {"down_frontends", {"fe2"}}}}}) ==
        "s.json: /cluster/down_frontends/0: 'fe2' is also in /cluster/unreachable_frontends: "
        "every RPC to a down FE fails, list it in one of the two");
  CHECK(error_of({{"cluster", {{"frontends", 2}, {"down_frontends", {"fe2"}}}},
                  {"actors", {{"clients", {{{"frontend", "fe2"}}}}}}}) ==
        "s.json: /actors/clients/0/frontend: 'fe2' is down (/cluster/down_frontends): no client "
        "can connect to it");
}

TEST_CASE("driver: registered as starrocks-temp-tables, builds a runnable program", "[driver]") {
  ModelRegistry registry;
  register_models(registry);
  const ModelDriver* d = registry.find("starrocks-temp-tables");
  REQUIRE(d != nullptr);
  CHECK(d->sections() == std::vector<std::string>{"cluster", "actors", "policy", "timing"});
  const json s = {{"actors", {{"clients", {{{"name", "c1"}}}}}}};
  const ModelInstance m = d->parse(s, "s.json")->instantiate();
  CHECK(m.invariants == invariant_names());
  CHECK(m.coverage_goals == coverage_goal_names());
  Explorer ex(m.program);
  DfsStrategy dfs;
  const ExplorationResult r = ex.explore(dfs);
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.executions == 2304);
  CHECK_THROWS_AS(d->parse({{"policy", {{"dispatch_order", 1}}}}, "s.json"), InputError);

  const json cat = to_json(d->catalog());
  CHECK(cat.at("presets").size() == presets().size());
  CHECK(cat.at("presets").at(0).at("name") == "starrocks-4.1.1");
  CHECK(cat.at("knobs").size() == 10);
  CHECK(cat.at("knobs").at(0).at("default") == json::array({"client_sessions"}));
  CHECK(cat.at("invariants").size() == invariant_names().size());
  CHECK(cat.at("coverage_goals").size() == coverage_goal_names().size());
}

TEST_CASE("schema: the JSON Schema fragment lists exactly the keys the parser accepts",
          "[scenario][schema]") {
  std::ifstream in(std::string(INTERLEAVE_SOURCE_DIR) +
                   "/model/starrocks/starrocks-temp-tables.schema.json");
  REQUIRE(in);
  const json schema = json::parse(in);
  const json& defs = schema.at("$defs");
  auto keys = [](const json& props) {
    std::vector<std::string> v;
    for (const auto& [k, _] : props.items())
      v.push_back(k);
    std::sort(v.begin(), v.end());
    return v;
  };
  using V = std::vector<std::string>;
  CHECK(keys(defs.at("cluster").at("properties")) == V{"clock_offsets", "compute_nodes",
                                                       "creator_cn", "down_frontends", "frontends",
                                                       "unreachable_frontends"});
  CHECK(keys(defs.at("policy").at("properties")) ==
        V{"add_temporary_table", "catalog_drop", "create_time_clock", "create_time_guard",
          "dispatch_order", "failed_list_sessions", "graceful_kill_reap", "liveness", "preset",
          "recursive_cte_errors", "task_run_snapshot"});
  CHECK(keys(defs.at("actors")
                 .at("properties")
                 .at("task_runs")
                 .at("items")
                 .at("properties")) == V{"anchor_insert_s", "finalize_temporal_table",
                                         "iteration_s", "iterations", "kill", "name",
                                         "recursive_cte_max_depth", "retries", "staging_tables",
                                         "sync", "tablet_rows", "throw_limit_exception"});
  CHECK(keys(defs.at("timing").at("properties")) ==
        V{"cleaner_interval_s", "cleaner_phase_s", "dispatch_phase_s", "task_runs_per_hour",
          "wall_clock"});
  CHECK(keys(schema.at("properties")) == V{"actors", "cluster", "policy", "timing"});
  std::vector<std::string> names;
  for (const model::Preset& p : presets())
    names.push_back(p.name);
  CHECK(defs.at("policy").at("properties").at("preset").at("enum").get<V>() == names);
}

TEST_CASE("scenario: the recursive-CTE knobs of a task run, with exact errors", "[scenario]") {
  const WorldConfig d = parse_world({{"actors", {{"task_runs", {json::object()}}}}}, "s.json");
  CHECK(d.actors.task_runs.at(0).finalize_temporal_table);
  CHECK(d.actors.task_runs.at(0).staging_tables == 1);
  CHECK(d.actors.task_runs.at(0).throw_limit_exception);
  CHECK(d.actors.task_runs.at(0).iteration_inserts() == 1);  // the one that adds no rows
  CHECK(d.policy.recursive_cte_errors == RecursiveCteErrors::kRowsFirst);
  const WorldConfig w = parse_world(
      {{"actors",
        {{"task_runs",
          {{{"iterations", 2},
            {"finalize_temporal_table", false},
            {"staging_tables", 3},
            {"throw_limit_exception", false}}}}}},
       {"policy", {{"recursive_cte_errors", "warn_and_continue"}}}},
      "s.json");
  CHECK_FALSE(w.actors.task_runs.at(0).finalize_temporal_table);
  CHECK(w.actors.task_runs.at(0).staging_tables == 3);
  CHECK_FALSE(w.actors.task_runs.at(0).throw_limit_exception);
  CHECK(w.actors.task_runs.at(0).iteration_inserts() == 3);
  CHECK_FALSE(w.actors.task_runs.at(0).reaches_depth_limit());
  CHECK(w.policy.recursive_cte_errors == RecursiveCteErrors::kWarnAndContinue);
  const WorldConfig limit = parse_world(
      {{"actors", {{"task_runs", {{{"iterations", 2}, {"recursive_cte_max_depth", 3}}}}}}},
      "s.json");
  CHECK(limit.actors.task_runs.at(0).iteration_inserts() == 2);
  CHECK(limit.actors.task_runs.at(0).reaches_depth_limit());
  CHECK(error_of({{"actors", {{"task_runs", {{{"iterations", 3}, {"recursive_cte_max_depth", 3}}}}}}}) ==
        "s.json: /actors/task_runs/0/iterations: 3 iterations that add rows exceed the depth "
        "limit: recursive_cte_max_depth 3 allows at most 2 (that many reach the limit, which ends "
        "the recursion)");
  CHECK(error_of({{"actors", {{"task_runs", {{{"staging_tables", 4}}}}}}}) ==
        "s.json: /actors/task_runs/0/staging_tables: must be between 1 and 3, got 4");
  CHECK(error_of({{"actors", {{"task_runs", {{{"finalize_temporal_table", "no"}}}}}}}) ==
        "s.json: /actors/task_runs/0/finalize_temporal_table: expected a boolean, got a string");
  CHECK(error_of({{"policy", {{"recursive_cte_errors", "warn"}}}}) ==
        "s.json: /policy/recursive_cte_errors: unknown value 'warn'; expected one of "
        "'rows_first', 'error_first', 'warn_and_continue'");
}

TEST_CASE("scenario: the timing section, its durations and laws, and their errors",
          "[scenario][timing]") {
  CHECK_FALSE(parse_world(json::object(), "s.json").timing.on);
  const json s = json::parse(R"({
    "timing": {"cleaner_interval_s": 20, "cleaner_phase_s": 2.5, "task_runs_per_hour": 12,
               "wall_clock": "2026-05-07 05:10:00.000+08:00"},
    "actors": {"task_runs": [{"name": "t1", "anchor_insert_s": 18,
                              "iteration_s": {"law": "uniform", "min": 1, "max": 3}},
                             {"name": "t2",
                              "anchor_insert_s": {"law": "normal", "mean": 10, "sd": 2,
                                                  "max": 20},
                              "iteration_s": {"law": "lognormal", "median": 4, "sigma": 0.5}},
                             {"name": "t3",
                              "anchor_insert_s": {"law": "exponential", "mean": 5}}]}})");
  const WorldConfig w = parse_world(s, "s.json");
  CHECK(w.timing.on);
  CHECK(w.timing.cleaner_interval == seconds(20));
  CHECK(w.timing.cleaner_phase == std::optional<Micros>(2'500'000));
  CHECK(w.timing.task_runs_per_hour == 12);
  REQUIRE(w.timing.wall_clock);
  CHECK(w.timing.wall_clock->utc_offset_minutes == 480);
  CHECK(reports::format_wall_clock(*w.timing.wall_clock, 0) ==
        "2026-05-07 05:10:00.000+08:00");
  const auto& t = w.actors.task_runs;
  CHECK(t[0].anchor_insert == Duration::exactly(seconds(18)));
  CHECK(t[0].iteration.min == seconds(1));
  CHECK(t[0].iteration.max == seconds(3));
  CHECK(t[0].iteration.law.kind == Law::Kind::kUniform);
  CHECK(t[1].anchor_insert.law.kind == Law::Kind::kNormal);
  CHECK(t[1].anchor_insert.max == seconds(20));
  CHECK(t[1].iteration.law.kind == Law::Kind::kLognormal);
  CHECK(t[1].iteration.max == kForever);
  CHECK(t[2].anchor_insert.law.kind == Law::Kind::kExponential);
  CHECK(t[2].iteration == work_fact(Work::kIteration).duration);  // the default
  // An empty section: timed, with the defaults (30 s, a free phase).
  const WorldConfig d = parse_world(json::parse(R"({"timing": {}})"), "s.json");
  CHECK(d.timing.on);
  CHECK(d.timing.cleaner_interval == seconds(30));
  CHECK_FALSE(d.timing.cleaner_phase);
  CHECK(d.timing.dispatch_phase == std::optional<Micros>(0));
  CHECK_FALSE(parse_world(json::parse(R"({"timing": {"dispatch_phase_s": "free"}})"), "s.json")
                  .timing.dispatch_phase);
  CHECK(parse_world(json::parse(R"({"timing": {"dispatch_phase_s": 0.25}})"), "s.json")
            .timing.dispatch_phase == std::optional<Micros>(250'000));
  CHECK(error_of(json::parse(R"({"timing": {"dispatch_phase_s": 1}})")) ==
        "s.json: /timing/dispatch_phase_s: the phase (1.000s) must be below the dispatcher's poll "
        "period (1.000s)");

  CHECK(error_of(json::parse(R"({"actors": {"task_runs": [{"anchor_insert_s": 5}]}})")) ==
        "s.json: /actors/task_runs/0/anchor_insert_s: a duration needs the scenario section "
        "\"timing\": without it the scenario is untimed (add \"timing\": {} for the defaults)");
  CHECK(error_of(json::parse(R"({"timing": {"cleaner_phase_s": 30}})")) ==
        "s.json: /timing/cleaner_phase_s: the phase (30.000s) must be below the cleaner's "
        "interval (30.000s): a pass comes once per interval");
  CHECK(error_of(json::parse(R"({"timing": {"cleaner_phase_s": "late"}})"))
            .starts_with("s.json: /timing/cleaner_phase_s: "));
  CHECK(error_of(json::parse(R"({"timing": {"interval": 30}})"))
            .starts_with("s.json: /timing/interval: unknown key 'interval'"));
  CHECK(error_of(json::parse(R"({"timing": {"wall_clock": "2026-13-07 05:10:00.000Z"}})"))
            .starts_with("s.json: /timing/wall_clock: expected a time as fe.log prints it"));
  CHECK(error_of(json::parse(R"({"timing": {}, "actors": {"task_runs": [
          {"anchor_insert_s": {"law": "uniform", "min": 5, "max": 1}}]}})")) ==
        "s.json: /actors/task_runs/0/anchor_insert_s: the law's min (5.000s) is above its max "
        "(1.000s)");
  CHECK(error_of(json::parse(R"({"timing": {}, "actors": {"task_runs": [
          {"anchor_insert_s": {"law": "gamma"}}]}})"))
            .starts_with("s.json: /actors/task_runs/0/anchor_insert_s/law: "));
  CHECK(error_of(json::parse(R"({"timing": {}, "actors": {"task_runs": [
          {"anchor_insert_s": -1}]}})"))
            .starts_with("s.json: /actors/task_runs/0/anchor_insert_s: "));
  CHECK(error_of(json::parse(R"({"timing": {}, "actors": {"task_runs": [
          {"anchor_insert_s": {"law": "normal", "mean": 5}}]}})")) ==
        "s.json: /actors/task_runs/0/anchor_insert_s/sd: missing (required)");
}
