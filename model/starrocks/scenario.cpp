// The sections "cluster", "actors" and "timing" (the "policy" section is the knob table's,
// policy.cpp; the durations are durations.cpp's), the actor bound of the engine, and the model's
// catalog.
#include "model/starrocks/scenario.hpp"

#include "explorer/core/json_reader.hpp"
#include "model/starrocks/spawn_plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
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
      {"frontends", "compute_nodes", "creator_cn", "unreachable_frontends", "down_frontends",
       "clock_offsets"});
  ClusterConfig c;
  c.frontends = static_cast<int>(r.int_or("frontends", 1, 1, 3));
  c.compute_nodes = static_cast<int>(r.int_or("compute_nodes", 1, 1, 2));
  if (auto cn = r.find("creator_cn")) {
    const std::vector<std::string> names = {compute_node_name(0), compute_node_name(1)};
    const std::string name = cn->as_enum(names);
    c.creator_cn = static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
    if (c.creator_cn >= c.compute_nodes)
      cn->fail("no compute node '" + name + "' in this cluster: /cluster/compute_nodes is " +
               std::to_string(c.compute_nodes));
  }
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

// The longest duration a timing key takes, in seconds (a year).
constexpr double kMaxSeconds = 366.0 * 24 * 3600;

Micros micros_of(double seconds_value) {
  return static_cast<Micros>(std::llround(seconds_value * 1e6));
}

// A duration in seconds: a number (exactly that long), or a law, e.g. {"law": "uniform",
// "min": 5, "max": 25}, {"law": "normal", "mean": 15, "sd": 3}, {"law": "lognormal", "median":
// 15, "sigma": 0.5}, {"law": "exponential", "mean": 15}; "min" and "max" bound every law (the
// exhaustive timed search uses only them: a law without them ranges over [0, forever)).
Duration read_duration_s(const JsonReader& r) {
  if (r.json().is_number()) return Duration::exactly(micros_of(r.as_number(0, kMaxSeconds)));
  if (!r.json().is_object())
    r.fail("expected a number of seconds or a law such as {\"law\": \"uniform\", \"min\": 5, "
           "\"max\": 25}, got " + json_type_name(r.json()));
  const std::string law = r.at("law").as_enum({"uniform", "normal", "lognormal", "exponential"});
  Duration d{0, kForever, Law{}};
  auto bound = [&](const char* key, Micros fallback) {
    return r.has(key) ? micros_of(r.at(key).as_number(0, kMaxSeconds)) : fallback;
  };
  if (law == "uniform") {
    r.expect_keys({"law", "min", "max"});
    d.min = micros_of(r.at("min").as_number(0, kMaxSeconds));
    d.max = micros_of(r.at("max").as_number(0, kMaxSeconds));
    d.law = {Law::Kind::kUniform, static_cast<double>(d.min), static_cast<double>(d.max)};
  } else if (law == "normal") {
    r.expect_keys({"law", "mean", "sd", "min", "max"});
    const double mean = r.at("mean").as_number(0, kMaxSeconds) * 1e6;
    const double sd = r.at("sd").as_number(1e-6, kMaxSeconds) * 1e6;
    d.min = bound("min", 0);
    d.max = bound("max", kForever);
    d.law = {Law::Kind::kNormal, mean, sd};
  } else if (law == "lognormal") {
    r.expect_keys({"law", "median", "sigma", "min", "max"});
    const double median = r.at("median").as_number(1e-6, kMaxSeconds) * 1e6;
    const double sigma = r.at("sigma").as_number(1e-6, 10);
    d.min = bound("min", 0);
    d.max = bound("max", kForever);
    d.law = {Law::Kind::kLognormal, std::log(median), sigma};
  } else {
    r.expect_keys({"law", "mean", "min", "max"});
    const double mean = r.at("mean").as_number(1e-6, kMaxSeconds) * 1e6;
    d.min = bound("min", 0);
    d.max = bound("max", kForever);
    d.law = {Law::Kind::kExponential, mean, 0};
  }
  if (d.max < d.min)
    r.fail("the law's min (" + format_seconds(d.min) + ") is above its max (" +
           format_seconds(d.max) + ")");
  return d;
}

// "2026-05-07 05:10:00.000+08:00" (or "Z"): fe.log's time format, as the origin of a timed
// scenario's traces.
WallClock read_wall_clock(const JsonReader& r) {
  const std::string text = r.as_string();
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0, ms = 0, n = 0;
  const bool ok = std::sscanf(text.c_str(), "%4d-%2d-%2d %2d:%2d:%2d.%3d%n", &y, &mo, &d, &h, &mi,
                              &sec, &ms, &n) == 7;
  int offset = 0;
  bool zone = false;
  if (ok && static_cast<std::size_t>(n) < text.size()) {
    const std::string rest = text.substr(static_cast<std::size_t>(n));
    int oh = 0, om = 0;
    if (rest == "Z") {
      zone = true;
    } else if ((rest[0] == '+' || rest[0] == '-') && rest.size() == 6 &&
               std::sscanf(rest.c_str() + 1, "%2d:%2d", &oh, &om) == 2 && oh <= 14 && om < 60) {
      zone = true;
      offset = (rest[0] == '-' ? -1 : 1) * (oh * 60 + om);
    }
  }
  const std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(static_cast<unsigned>(mo)),
                                        std::chrono::day(static_cast<unsigned>(d))};
  if (!ok || !zone || !ymd.ok() || y < 1970 || y > 9999 || h > 23 || mi > 59 || sec > 59)
    r.fail("expected a time as fe.log prints it, \"yyyy-MM-dd HH:mm:ss.SSS+hh:mm\" (or Z), got '" +
           text + "'");
  const auto days = std::chrono::sys_days(ymd).time_since_epoch().count();
  WallClock w;
  w.utc_offset_minutes = offset;
  w.epoch_us = ((static_cast<std::int64_t>(days) * 24 + h) * 3600 + mi * 60 + sec) * 1'000'000 +
               ms * 1000 - static_cast<std::int64_t>(offset) * 60 * 1'000'000;
  return w;
}

TimingConfig parse_timing(const JsonReader& r) {
  r.expect_keys({"cleaner_interval_s", "cleaner_phase_s", "dispatch_phase_s",
                 "task_runs_per_hour", "wall_clock"});
  TimingConfig t;
  t.on = true;
  if (auto i = r.find("cleaner_interval_s")) t.cleaner_interval = micros_of(i->as_number(1e-3, 86'400));
  if (auto p = r.find("cleaner_phase_s")) {
    if (p->json().is_string()) {
      p->as_enum({"free"});
    } else {
      const double phase = p->as_number(0, 86'400);
      if (micros_of(phase) >= t.cleaner_interval)
        p->fail("the phase (" + format_seconds(micros_of(phase)) +
                ") must be below the cleaner's interval (" + format_seconds(t.cleaner_interval) +
                "): a pass comes once per interval");
      t.cleaner_phase = micros_of(phase);
    }
  }
  if (auto p = r.find("dispatch_phase_s")) {
    const Micros poll = work_fact(Work::kDispatchPoll).duration.min;
    if (p->json().is_string()) {
      p->as_enum({"free"});
      t.dispatch_phase.reset();
    } else {
      const Micros phase = micros_of(p->as_number(0, 86'400));
      if (phase >= poll)
        p->fail("the phase (" + format_seconds(phase) +
                ") must be below the dispatcher's poll period (" + format_seconds(poll) + ")");
      t.dispatch_phase = phase;
    }
  }
  t.task_runs_per_hour = r.number_or("task_runs_per_hour", 0, 0, 1e9);
  if (auto w = r.find("wall_clock")) t.wall_clock = read_wall_clock(*w);
  return t;
}

TaskRunConfig parse_task_run(const JsonReader& r, std::size_t index, bool timed) {
  r.expect_keys({"name", "sync", "iterations", "recursive_cte_max_depth", "retries", "kill",
                 "tablet_rows", "finalize_temporal_table", "staging_tables",
                 "throw_limit_exception", "anchor_insert_s", "iteration_s"});
  TaskRunConfig t;
  t.name = r.has("name") ? read_name(r.at("name")) : "t" + std::to_string(index + 1);
  t.sync = r.bool_or("sync", false);
  t.recursive_cte_max_depth = static_cast<int>(r.int_or("recursive_cte_max_depth", 5, 1, 25));
  t.iterations = static_cast<int>(r.int_or("iterations", 0, 0, 24));
  if (t.iterations > t.recursive_cte_max_depth - 1)
    r.at("iterations")
        .fail(std::to_string(t.iterations) +
              " iterations that add rows exceed the depth limit: recursive_cte_max_depth " +
              std::to_string(t.recursive_cte_max_depth) + " allows at most " +
              std::to_string(t.recursive_cte_max_depth - 1) +
              " (that many reach the limit, which ends the recursion)");
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
  t.throw_limit_exception = r.bool_or("throw_limit_exception", true);
  for (const char* key : {"anchor_insert_s", "iteration_s"})
    if (auto k = r.find(key)) {
      if (!timed)
        k->fail("a duration needs the scenario section \"timing\": without it the scenario is "
                "untimed (add \"timing\": {} for the defaults)");
      (std::string_view(key) == "anchor_insert_s" ? t.anchor_insert : t.iteration) =
          read_duration_s(*k);
    }
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

ActorsConfig parse_actors(const JsonReader& r, const ClusterConfig& cluster, bool timed) {
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
      a.task_runs.push_back(parse_task_run(items[i], i, timed));
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
  if (auto t = root.find("timing")) w.timing = parse_timing(*t);
  if (auto a = root.find("actors")) w.actors = parse_actors(*a, w.cluster, w.timing.on);
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

ModelCatalog model_catalog() {
  ModelCatalog c;
  c.knob_section = "policy";
  const Policy defaults;
  for (const Knob& k : knobs())
    c.knobs.push_back({.name = std::string(k.key),
                       .type = std::string(type_name(k.type)),
                       .values = k.values,
                       .default_value = k.get(defaults),
                       .description = std::string(k.description),
                       .source = {{"file", k.source.file},
                                  {"commit", k.source.commit},
                                  {"hypothetical", k.source.hypothetical},
                                  {"note", k.source.note}}});
  for (const Preset& p : presets()) {
    nlohmann::json follows = nlohmann::json::array();
    for (const SourceRef& r : p.follows)
      follows.push_back({{"file", r.file}, {"commit", r.commit}});
    c.presets.push_back({p.name, p.description, p.hypothetical, std::move(follows),
                         policy_to_json(p.policy)});
  }
  c.default_preset = std::string(kDefaultPreset);
  for (const Fact* f : properties())
    c.properties.push_back(
        {std::string(f->name), std::string(f->description), std::string(f->checked)});
  for (const Fact* f : coverage_goals())
    c.goals.push_back({std::string(f->name), std::string(f->description), std::string(f->checked)});
  nlohmann::json durations = nlohmann::json::array();
  for (const WorkFact& f : work_facts())
    durations.push_back({{"work", f.key},
                         {"what", f.what},
                         {"min_s", format_seconds(f.duration.min)},
                         {"max_s", f.duration.max == kForever ? "forever"
                                                               : format_seconds(f.duration.max)},
                         {"basis", f.basis}});
  const nlohmann::json timing{
      {"keys",
       {"timing.cleaner_interval_s (default 30)", "timing.cleaner_phase_s (a number or 'free', "
        "the default)", "timing.dispatch_phase_s (a number, 0 by default, or 'free')",
        "timing.task_runs_per_hour", "timing.wall_clock",
        "actors.task_runs[].anchor_insert_s", "actors.task_runs[].iteration_s"}},
      {"durations", durations}};
  c.extra = {{"model", "starrocks-temp-tables"},
             {"sections", {"cluster", "actors", "policy", "timing"}},
             {"timing", timing}};
  return c;
}

}  // namespace interleave::model
