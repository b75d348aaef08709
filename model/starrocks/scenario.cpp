// The sections "cluster" and "actors" (the "policy" section is the knob table's, policy.cpp), the
// actor bound of the engine, and the model's catalog.
#include "model/starrocks/scenario.hpp"

#include "explorer/json_reader.hpp"
#include "model/starrocks/spawn_plan.hpp"

#include <algorithm>
#include <set>

namespace interleave::model {

namespace {

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
  r.expect_keys(
      {"frontends", "compute_nodes", "unreachable_frontends", "down_frontends", "clock_offsets"});
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
  for (const JsonReader& item : r.items_or_empty("down_frontends")) {
    const int f = read_frontend(item, c.frontends);
    if (f == 0)
      item.fail("'fe1' is the leader, which runs the cleaner: only a follower can be down");
    if (std::find(c.down_frontends.begin(), c.down_frontends.end(), f) != c.down_frontends.end())
      item.fail("'" + frontend_name(f) + "' is listed twice");
    if (std::find(c.unreachable_frontends.begin(), c.unreachable_frontends.end(), f) !=
        c.unreachable_frontends.end())
      item.fail("'" + frontend_name(f) +
                "' is also in /cluster/unreachable_frontends: every RPC to a down FE fails, "
                "list it in one of the two");
    c.down_frontends.push_back(f);
  }
  if (auto offsets = r.find("clock_offsets")) {
    offsets->expect_keys(frontend_names(c.frontends));
    for (const auto& [key, _] : offsets->json().items())
      c.clock_offsets[frontend_index(key)] = offsets->at(key).as_int(-1'000'000, 1'000'000);
  }
  return c;
}

TaskRunConfig parse_task_run(const JsonReader& r, std::size_t index) {
  r.expect_keys({"name", "sync", "iterations", "recursive_cte_max_depth", "retries", "kill",
                 "tablet_rows", "finalize_temporal_table", "staging_tables", "empty_iteration"});
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
  if (auto k = r.find("kill")) {
    if (k->json().is_boolean()) {
      t.kill = k->as_bool() ? KillMode::kForce : KillMode::kNone;
    } else if (k->json().is_string()) {
      t.kill =
          k->as_enum({"force", "graceful"}) == "force" ? KillMode::kForce : KillMode::kGraceful;
    } else {
      k->fail("expected true, false, 'force' or 'graceful', got " + json_type_name(k->json()));
    }
  }
  const std::string rows = r.enum_or("tablet_rows", "explore", {"explore", "some", "none"});
  t.tablet_rows = rows == "some"   ? TabletRows::kSome
                  : rows == "none" ? TabletRows::kNone
                                   : TabletRows::kExplore;
  t.finalize_temporal_table = r.bool_or("finalize_temporal_table", true);
  t.staging_tables = static_cast<int>(r.int_or("staging_tables", 1, 1, 3));
  t.empty_iteration = static_cast<int>(r.int_or("empty_iteration", 0, 0, 24));
  if (t.empty_iteration > t.iterations)
    r.at("empty_iteration")
        .fail("iteration " + std::to_string(t.empty_iteration) +
              " cannot add no rows: the run has " + std::to_string(t.iterations) +
              " iteration inserts (/actors/task_runs/" + std::to_string(index) + "/iterations)");
  return t;
}

ClientConfig parse_client(const JsonReader& r, std::size_t index, const ClusterConfig& cluster) {
  r.expect_keys({"name", "frontend", "temp_tables", "existing", "end"});
  ClientConfig c;
  c.name = r.has("name") ? read_name(r.at("name")) : "c" + std::to_string(index + 1);
  c.frontend = r.has("frontend") ? read_frontend(r.at("frontend"), cluster.frontends) : 0;
  if (std::find(cluster.down_frontends.begin(), cluster.down_frontends.end(), c.frontend) !=
      cluster.down_frontends.end())
    r.at("frontend")
        .fail("'" + frontend_name(c.frontend) +
              "' is down (/cluster/down_frontends): no client can connect to it");
  c.temp_tables = static_cast<int>(r.int_or("temp_tables", 1, 1, 3));
  const std::string existing = r.enum_or("existing", "no", {"no", "alive", "gone"});
  c.existing = existing == "alive"  ? ClientStart::kAlive
               : existing == "gone" ? ClientStart::kGone
                                    : ClientStart::kInScenario;
  if (auto e = r.find("end")) {
    if (c.existing == ClientStart::kGone)
      e->fail("a session that is gone before the first pass (existing: 'gone') has already "
              "ended: it takes no 'end'");
    const std::string end = e->as_enum({"clean", "abnormal", "never"});
    c.end = end == "abnormal" ? ClientEnd::kAbnormal
            : end == "never"  ? ClientEnd::kNever
                              : ClientEnd::kClean;
  }
  return c;
}

ActorsConfig parse_actors(const JsonReader& r, const ClusterConfig& cluster) {
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
    if (items.size() > kMaxActors)
      tr->fail("at most " + std::to_string(kMaxActors) +
               " task runs (the engine's actor limit), got " + std::to_string(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i) {
      a.task_runs.push_back(parse_task_run(items[i], i));
      unique(items[i].has("name") ? items[i].at("name") : items[i], a.task_runs.back().name);
    }
  }
  if (auto cl = r.find("clients")) {
    const auto items = cl->items();
    if (items.size() > kMaxActors)
      cl->fail("at most " + std::to_string(kMaxActors) +
               " clients (the engine's actor limit), got " + std::to_string(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i) {
      a.clients.push_back(parse_client(items[i], i, cluster));
      unique(items[i].has("name") ? items[i].at("name") : items[i], a.clients.back().name);
    }
  }
  return a;
}

}  // namespace

WorldConfig parse_world(const nlohmann::json& scenario, const std::string& file) {
  const JsonReader root(scenario, file);
  if (!scenario.is_object()) root.fail("expected an object, got " + json_type_name(scenario));
  WorldConfig w;
  if (auto c = root.find("cluster")) w.cluster = parse_cluster(*c);
  if (auto a = root.find("actors")) w.actors = parse_actors(*a, w.cluster);
  if (auto p = root.find("policy")) w.policy = parse_policy(*p, w.preset);
  const std::size_t bound = actor_bound(w);
  if (bound > kMaxActors)
    root.at("actors").fail("this world needs up to " + std::to_string(bound) +
                           " actors (sinks: per attempt, per insert, per CN); the engine runs at "
                           "most " +
                           std::to_string(kMaxActors) +
                           ": fewer task runs, clients, retries, iterations or compute nodes");
  return w;
}

nlohmann::json model_catalog() {
  nlohmann::json presets_j = nlohmann::json::array();
  for (const Preset& p : presets()) {
    nlohmann::json follows = nlohmann::json::array();
    for (const SourceRef& r : p.follows)
      follows.push_back({{"file", r.file}, {"commit", r.commit}});
    presets_j.push_back({{"name", p.name},
                         {"description", p.description},
                         {"hypothetical", p.hypothetical},
                         {"follows", follows},
                         {"policy", policy_to_json(p.policy)}});
  }
  return {{"model", "starrocks-temp-tables"},
          {"sections", {"cluster", "actors", "policy"}},
          {"default_preset", kDefaultPreset},
          {"presets", presets_j},
          {"knobs", knob_catalog()},
          {"invariants", fact_catalog(properties())},
          {"coverage_goals", fact_catalog(coverage_goals())}};
}

}  // namespace interleave::model
