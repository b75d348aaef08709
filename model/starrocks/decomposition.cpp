#include "model/starrocks/decomposition.hpp"

#include "model/starrocks/program.hpp"

#include <map>
#include <memory>
#include <nlohmann/json.hpp>

namespace interleave::model {

namespace {

const char* rows_text(TabletRows r) {
  switch (r) {
    case TabletRows::kSome:
      return "some";
    case TabletRows::kNone:
      return "none";
    case TabletRows::kExplore:
      break;
  }
  return "explore";
}

// What the slices share: the cluster, the cleaner and the policy.
nlohmann::json world_kind(const WorldConfig& c) {
  nlohmann::json offsets = nlohmann::json::object();
  for (const auto& [fe, off] : c.cluster.clock_offsets)
    offsets[frontend_name(fe)] = off;
  nlohmann::json kind = {{"frontends", c.cluster.frontends},
                         {"compute_nodes", c.cluster.compute_nodes},
                         {"unreachable_frontends", c.cluster.unreachable_frontends},
                         {"clock_offsets", offsets},
                         {"passes", c.actors.cleaner.passes},
                         {"sweep", c.actors.cleaner.sweep},
                         {"policy", policy_to_json(c.policy)}};
  // Only when some FE is down, so that the kinds of every other world stay as they were.
  if (!c.cluster.down_frontends.empty()) kind["down_frontends"] = c.cluster.down_frontends;
  if (c.cluster.creator_cn >= 0) kind["creator_cn"] = compute_node_name(c.cluster.creator_cn);
  return kind;
}

// A kill in a slice's kind: false and true as before the graceful kill existed.
nlohmann::json kill_kind(KillMode k) {
  if (k == KillMode::kGraceful) return "graceful";
  return k == KillMode::kForce;
}

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The token an actor or object name is about: "t2" in "TaskRun:t2", "t2#1" in
// "TabletSink:t2#1/E3/cn1" and in "TTM_L[t2#1].tables", "c1" in "CS_fe2[c1]".
std::string subject(std::string_view name) {
  if (const std::size_t colon = name.find(':'); colon != std::string_view::npos) {
    std::string_view rest = name.substr(colon + 1);
    return std::string(rest.substr(0, rest.find_first_of("@/")));
  }
  for (const auto& [open, close] : {std::pair{'[', ']'}, std::pair{'(', ')'}}) {
    const std::size_t a = name.find(open);
    if (a == std::string_view::npos) continue;
    const std::size_t b = name.find(close, a + 1);
    if (b != std::string_view::npos) return std::string(name.substr(a + 1, b - a - 1));
  }
  return {};
}

// The scenario document of the slice of `owner`: `scenario` with /actors/task_runs and
// /actors/clients narrowed to the owner, its name written out (a default name is the position's).
nlohmann::json slice_document(const nlohmann::json& scenario, const WorldConfig& config,
                              const std::string& owner) {
  nlohmann::json doc = scenario;
  if (!doc.contains("actors") || !doc["actors"].is_object()) return doc;
  nlohmann::json& actors = doc["actors"];
  auto narrow = [&](const char* key, auto name_of) {
    if (!actors.contains(key) || !actors[key].is_array()) return;
    nlohmann::json kept = nlohmann::json::array();
    for (std::size_t i = 0; i < actors[key].size(); ++i)
      if (name_of(i) == owner) {
        kept.push_back(actors[key][i]);
        kept.back()["name"] = owner;
      }
    if (kept.empty())
      actors.erase(key);
    else
      actors[key] = std::move(kept);
  };
  narrow("task_runs", [&](std::size_t i) { return config.actors.task_runs.at(i).name; });
  narrow("clients", [&](std::size_t i) { return config.actors.clients.at(i).name; });
  return doc;
}

}  // namespace

DecompositionOffer decompose_by_owners(const WorldConfig& config,
                                       const nlohmann::json& scenario) {
  DecompositionOffer offer;
  if (config.policy.create_time_clock == CreateTimeClock::kSessionFrontend) {
    offer.refusal =
        "cannot decompose by owners under create_time_clock = session_frontend: every E2a and "
        "replay advances the clock of its FE, so another owner's steps change the createTime "
        "an owner's session gets and the cleaner's guard decision on it, which is more than a "
        "delay (docs/model.md#owner-decomposition)";
    offer.refusal_path = "/policy/create_time_clock";
    return offer;
  }
  OwnerDecomposition d;
  d.argument = "docs/model.md#owner-decomposition";
  d.owners_plural = "TaskRuns and clients";
  // Every name a session, table or owner-object is about -> its owner.
  auto owner_of = std::make_shared<std::map<std::string, std::string, std::less<>>>();
  const nlohmann::json shared = world_kind(config);
  for (const TaskRunConfig& t : config.actors.task_runs) {
    (*owner_of)[t.name] = t.name;
    for (int k = 1; k <= 1 + t.retries; ++k)
      for (int g = 1; g <= t.staging_tables; ++g)  // Catalog::table_key of each staging table
        (*owner_of)[task_run_session(t.name, k) + (g == 1 ? "" : "/" + std::to_string(g))] =
            t.name;
    WorldConfig slice = config;
    slice.actors.task_runs = {t};
    slice.actors.clients.clear();
    nlohmann::json kind = shared;
    kind["owner"] = {{"task_run",
                      {{"sync", t.sync},
                       {"iterations", t.iterations},
                       {"recursive_cte_max_depth", t.recursive_cte_max_depth},
                       {"retries", t.retries},
                       {"kill", kill_kind(t.kill)},
                       {"tablet_rows", rows_text(t.tablet_rows)}}}};
    // The recursive-CTE knobs, only when not at their defaults: the kinds of
    // the worlds that do not use them stay as they were.
    if (!t.finalize_temporal_table)
      kind["owner"]["task_run"]["finalize_temporal_table"] = false;
    if (t.staging_tables != 1) kind["owner"]["task_run"]["staging_tables"] = t.staging_tables;
    if (!t.throw_limit_exception) kind["owner"]["task_run"]["throw_limit_exception"] = false;
    std::string text = std::string(t.sync ? "sync" : "async") + " TaskRun, " +
                       plural(t.iterations, "iteration", "iterations");
    if (t.retries > 0) text += ", " + plural(t.retries, "retry", "retries");
    if (t.kill == KillMode::kForce) text += ", kill";
    if (t.kill == KillMode::kGraceful) text += ", graceful kill";
    d.slices.push_back({t.name, kind.dump(), text, make_program(slice), nullptr});
  }
  for (const ClientConfig& c : config.actors.clients) {
    (*owner_of)[c.name] = c.name;
    for (int k = 1; k <= c.temp_tables; ++k)
      (*owner_of)[client_table_name(c.name, k)] = c.name;
    WorldConfig slice = config;
    slice.actors.task_runs.clear();
    slice.actors.clients = {c};
    nlohmann::json kind = shared;
    const char* existing = c.existing == ClientStart::kAlive  ? "alive"
                           : c.existing == ClientStart::kGone ? "gone"
                                                              : "no";
    const char* end = c.end == ClientEnd::kAbnormal ? "abnormal"
                      : c.end == ClientEnd::kNever  ? "never"
                                                    : "clean";
    nlohmann::json client = {{"frontend", frontend_name(c.frontend)},
                             {"temp_tables", c.temp_tables}};
    // Only when not the default, so that the kinds of earlier scenarios read as before.
    if (c.existing != ClientStart::kInScenario) client["existing"] = existing;
    if (c.end != ClientEnd::kClean) client["end"] = end;
    kind["owner"] = {{"client", client}};
    std::string text = "client on " + frontend_name(c.frontend) + " (" +
                       (c.frontend == 0 ? "leader" : "follower") + "), " +
                       plural(c.temp_tables, "temp table", "temp tables");
    if (c.existing == ClientStart::kAlive) text += ", connected before the first pass";
    if (c.existing == ClientStart::kGone) text += ", gone before the first pass";
    if (c.existing != ClientStart::kGone && c.end != ClientEnd::kClean)
      text += std::string(", ") + (c.end == ClientEnd::kNever ? "never ends" : "abnormal end");
    d.slices.push_back({c.name, kind.dump(), text, make_program(slice), nullptr});
  }
  if (d.slices.empty())
    d.slices.push_back({"", shared.dump(), "no owner", make_program(config), scenario});
  else if (scenario.is_object())
    for (OwnerSlice& s : d.slices)
      s.document = slice_document(scenario, config, s.owner);
  auto lookup = [owner_of](std::string_view name) -> std::string {
    const auto it = owner_of->find(subject(name));
    return it == owner_of->end() ? std::string() : it->second;
  };
  d.actor_owner = lookup;
  d.object_owner = lookup;
  offer.decomposition = std::move(d);
  return offer;
}

}  // namespace interleave::model
