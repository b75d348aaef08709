// The one JSON shape of a counterexample and the trace document around it, with strict readers
// that say where a document is wrong (malformed, truncated, wrong version, or inconsistent with
// itself or its scenario).
#include "reports/trace/trace.hpp"

#include "explorer/core/json_reader.hpp"
#include "explorer/core/schedule.hpp"

#include <cstdio>
#include <limits>

namespace interleave {

nlohmann::json to_json(const TraceStep& s) {
  nlohmann::json acc = nlohmann::json::array();
  for (const auto& a : s.accesses)
    acc.push_back({{"object", a.object}, {"access", to_string(a.kind)}});
  nlohmann::json j{{"index", s.index},
                   {"actor", s.actor},
                   {"label", s.label},
                   {"accesses", acc},
                   {"what", s.what}};
  if (s.after) j["after"] = *s.after;
  if (s.time) j["time_us"] = *s.time;
  return j;
}

nlohmann::json windows_to_json(const std::map<std::string, WindowBounds>& windows) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, b] : windows) {
    nlohmann::json w{{"executions", b.executions}, {"missing", b.missing}};
    if (b.executions > 0) {
      w["least_us"] = b.least;
      w["greatest_us"] = b.greatest == kForever ? nlohmann::json(nullptr) : nlohmann::json(b.greatest);
    }
    w["text"] = describe(b);
    j[name] = std::move(w);
  }
  return j;
}

nlohmann::json to_json(const Counterexample& c) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : c.steps)
    steps.push_back(to_json(s));
  nlohmann::json violation{
      {"invariant", c.invariant}, {"message", c.message}, {"step", c.step}, {"actor", c.actor}};
  if (c.found_at) violation["found_at"] = *c.found_at;
  nlohmann::json j{{"violation", violation},
                   {"preemptions", c.preemptions},
                   {"schedule", to_json(c.schedule)},
                   {"steps", steps},
                   {"state", c.state}};
  if (!c.states.empty()) j["states"] = c.states;
  if (c.wall_clock)
    j["wall_clock"] = {{"epoch_us", c.wall_clock->epoch_us},
                       {"utc_offset_minutes", c.wall_clock->utc_offset_minutes}};
  return j;
}

nlohmann::json to_json(const ExplorationResult& r, bool with_timing) {
  nlohmann::json cex = nlohmann::json::array();
  for (const auto& c : r.counterexamples)
    cex.push_back(to_json(c));
  nlohmann::json j{{"verdict", to_string(r.verdict)},
                   {"strategy", r.strategy},
                   {"detail", r.detail},
                   {"counterexamples", cex},
                   {"covered", r.covered},
                   {"stats", to_json(r.stats, with_timing)}};
  // Only for a timed program (an untimed one's document is unchanged).
  if (r.timed) j["timed"] = true;
  if (!r.windows.empty()) j["windows"] = windows_to_json(r.windows);
  return j;
}

}  // namespace interleave

namespace interleave::reports {

using nlohmann::json;

namespace {

constexpr std::string_view kFormat = "interleave-trace";
constexpr std::uint64_t kMaxCount = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxTime = static_cast<std::uint64_t>(kForever - 1);

json stats_to_json(const Stats& s) {
  return to_json(s, /*with_timing=*/true);
}

Schedule schedule_from(const JsonReader& r) {
  try {
    return schedule_from_json(r.json());
  } catch (const ScheduleFormatError& e) {
    // e.what() is "/json/path: what is wrong", relative to the schedule.
    const std::string what = e.what();
    const auto colon = what.find(": ");
    if (colon == std::string::npos || what.empty() || what[0] != '/') r.fail(what);
    const std::string sub = what.substr(0, colon);
    throw InputError(r.file(), r.path() + (sub == "/" ? "" : sub), what.substr(colon + 2));
  }
}

TraceStep step_from_json(const JsonReader& r, std::size_t index) {
  r.expect_keys({"index", "actor", "label", "accesses", "what", "after", "time_us"});
  TraceStep s;
  s.index = r.at("index").as_uint(0, kMaxCount);
  if (s.index != index)
    r.at("index").fail("expected " + std::to_string(index) + " (steps are numbered from 0)");
  s.actor = r.at("actor").as_string();
  if (s.actor.empty()) r.at("actor").fail("empty actor name");
  s.label = r.at("label").as_string();
  for (const JsonReader& a : r.at("accesses").items()) {
    a.expect_keys({"object", "access"});
    TraceAccess access;
    access.object = a.at("object").as_string();
    const JsonReader kind = a.at("access");
    const std::string name = kind.as_string();
    try {
      access.kind = access_kind_from_string(name);
    } catch (const std::invalid_argument&) {
      kind.as_enum({"read", "write", "read-modify-write", "acquire", "release", "acquire-shared",
                    "release-shared", "wait"});
    }
    s.accesses.push_back(std::move(access));
  }
  s.what = r.at("what").as_string();
  if (auto after = r.find("after")) {
    if (index == 0) after->fail("the first step follows no other step");
    s.after = after->as_uint(0, index - 1);
  }
  if (auto time = r.find("time_us")) s.time = static_cast<Micros>(time->as_uint(0, kMaxTime));
  return s;
}

Race race_from_json(const JsonReader& r, const Counterexample& c) {
  r.expect_keys({"first", "second", "objects", "reversed"});
  Race race;
  const std::size_t n = c.steps.size();
  if (n < 2) r.fail("a race needs two steps; the trace has " + std::to_string(n));
  race.first = r.at("first").as_uint(0, n - 2);
  race.second = r.at("second").as_uint(race.first + 1, n - 1);
  if (c.steps[race.first].actor == c.steps[race.second].actor)
    r.at("second").fail("steps " + std::to_string(race.first) + " and " +
                        std::to_string(race.second) + " are both taken by '" +
                        c.steps[race.first].actor + "': a race is between two actors");
  for (const JsonReader& o : r.at("objects").items())
    race.objects.push_back(o.as_string());
  race.reversed = r.at("reversed").as_string();
  return race;
}

}  // namespace

nlohmann::json to_json(const Race& race) {
  return {{"first", race.first},
          {"second", race.second},
          {"objects", race.objects},
          {"reversed", race.reversed}};
}

std::string scenario_hash(const nlohmann::json& scenario) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : scenario.dump()) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return buf;
}

const std::vector<std::string>& counterexample_keys() {
  static const std::vector<std::string> keys{"violation", "preemptions", "schedule", "steps",
                                             "state",     "states",      "wall_clock"};
  return keys;
}

Counterexample counterexample_from_json(const JsonReader& r) {
  Counterexample c;
  const JsonReader violation = r.at("violation");
  violation.expect_keys({"invariant", "message", "step", "actor", "found_at"});
  c.invariant = violation.at("invariant").as_string();
  if (c.invariant.empty()) violation.at("invariant").fail("empty invariant name");
  c.message = violation.at("message").as_string();
  c.step = violation.at("step").as_uint(0, kMaxCount);
  c.actor = violation.at("actor").as_string();
  c.preemptions = r.at("preemptions").as_uint(0, kMaxCount);
  const JsonReader schedule = r.at("schedule");
  c.schedule = schedule_from(schedule);
  const JsonReader steps = r.at("steps");
  const std::vector<JsonReader> items = steps.items();
  for (std::size_t i = 0; i < items.size(); ++i)
    c.steps.push_back(step_from_json(items[i], i));
  c.state = r.at("state").json();

  // Consistency: the readable steps are the steps the schedule runs, in order.
  std::size_t actor_entries = 0;
  for (std::size_t i = 0; i < c.schedule.steps.size(); ++i) {
    const ScheduleEntry& e = c.schedule.steps[i];
    if (e.kind != ScheduleEntry::Kind::kActor) continue;
    if (actor_entries >= c.steps.size())
      throw InputError(r.file(), schedule.path() + "/steps/" + std::to_string(i),
                       "the schedule runs more steps than /steps lists (" +
                           std::to_string(c.steps.size()) + "): the trace is truncated");
    if (c.steps[actor_entries].actor != e.actor)
      throw InputError(r.file(), items[actor_entries].child_path("actor"),
                       "step " + std::to_string(actor_entries) + " is taken by '" +
                           c.steps[actor_entries].actor + "' but the schedule (entry " +
                           std::to_string(i) + ") runs '" + e.actor + "'");
    ++actor_entries;
  }
  if (actor_entries != c.steps.size())
    steps.fail("lists " + std::to_string(c.steps.size()) + " steps but the schedule runs " +
               std::to_string(actor_entries) + ": the trace is truncated or was edited");
  if (c.step > c.steps.size())
    violation.at("step").fail("step " + std::to_string(c.step) + " does not exist (the trace has " +
                              std::to_string(c.steps.size()) + " steps)");
  if (!c.actor.empty()) {
    if (c.step >= c.steps.size())
      violation.at("actor").fail("names actor '" + c.actor +
                                 "' but the violation happened after the last step");
    if (c.steps[c.step].actor != c.actor)
      violation.at("actor").fail("names actor '" + c.actor + "' but step " +
                                 std::to_string(c.step) + " is taken by '" + c.steps[c.step].actor +
                                 "'");
  }
  if (auto states = r.find("states")) {
    for (const JsonReader& item : states->items())
      c.states.push_back(item.json());
    if (c.states.size() != c.steps.size())
      states->fail("lists " + std::to_string(c.states.size()) + " states but the trace has " +
                   std::to_string(c.steps.size()) + " steps (one state after each step)");
  }
  if (auto clock = r.find("wall_clock")) {
    clock->expect_keys({"epoch_us", "utc_offset_minutes"});
    WallClock w;
    w.epoch_us = static_cast<std::int64_t>(clock->at("epoch_us").as_uint(0, kMaxTime));
    w.utc_offset_minutes =
        static_cast<std::int32_t>(clock->at("utc_offset_minutes").as_int(-24 * 60, 24 * 60));
    c.wall_clock = w;
  }
  if (auto found_at = violation.find("found_at")) {
    if (c.steps.empty()) found_at->fail("the trace has no step to name");
    c.found_at = found_at->as_uint(0, c.steps.size() - 1);
  }
  return c;
}

nlohmann::json to_json(const TraceDocument& doc) {
  json j = to_json(doc.counterexample);
  j.update(json{{"format", kFormat},
                {"format_version", TraceDocument::kFormatVersion},
                {"tool_version", doc.tool_version},
                {"scenario_file", doc.scenario_file},
                {"scenario_hash", doc.scenario_hash},
                {"scenario", doc.scenario},
                {"strategy", doc.strategy},
                {"options", doc.options},
                {"stats", stats_to_json(doc.stats)}});
  if (!doc.overrides.empty()) j["overrides"] = doc.overrides;
  if (doc.race) j["race"] = to_json(*doc.race);
  if (!doc.not_involved.empty()) j["not_involved"] = doc.not_involved;
  return j;
}

TraceDocument trace_from_json(const nlohmann::json& j, const std::string& file) {
  const JsonReader root(j, file);
  if (!j.is_object())
    root.fail("expected a trace document (a JSON object), got " + json_type_name(j));
  // Recognise the document before anything else, so that a scenario or a schedule given where a
  // trace is expected gets a message that says so.
  if (!root.has("format")) {
    if (root.has("model") && root.has("name"))
      root.fail(
          "this is a scenario, not a counterexample trace (traces are written by "
          "'interleave check')");
    throw InputError(file, "/format",
                     "missing (required): this is not an interleave counterexample trace");
  }
  const JsonReader format = root.at("format");
  if (format.as_string() != kFormat)
    format.fail("expected \"" + std::string(kFormat) + "\", got \"" + format.as_string() + "\"");
  const JsonReader version = root.at("format_version");
  const auto v = version.as_int(std::numeric_limits<std::int64_t>::min(),
                                std::numeric_limits<std::int64_t>::max());
  if (v != TraceDocument::kFormatVersion)
    version.fail("unsupported trace format version " + std::to_string(v) + " (this build reads " +
                 std::to_string(TraceDocument::kFormatVersion) + ")");
  std::vector<std::string> keys{"format",        "format_version", "tool_version", "scenario_file",
                                "scenario_hash", "scenario",       "strategy",     "options"};
  keys.insert(keys.end(), counterexample_keys().begin(), counterexample_keys().end());
  keys.insert(keys.end(), {"stats", "overrides", "race", "not_involved"});
  root.expect_keys(keys);

  TraceDocument doc;
  doc.tool_version = root.at("tool_version").as_string();
  doc.scenario_file = root.at("scenario_file").as_string();
  const JsonReader scenario = root.at("scenario");
  if (!scenario.json().is_object())
    scenario.fail("expected the scenario (an object), got " + json_type_name(scenario.json()));
  doc.scenario = scenario.json();
  const JsonReader hash = root.at("scenario_hash");
  doc.scenario_hash = hash.as_string();
  const std::string actual_hash = scenario_hash(doc.scenario);
  if (doc.scenario_hash != actual_hash)
    hash.fail("does not match the embedded scenario (recorded " + doc.scenario_hash +
              ", the scenario hashes to " + actual_hash +
              "): the trace was edited or does not belong to this scenario");
  doc.strategy = root.at("strategy").as_string();
  if (doc.strategy.empty()) root.at("strategy").fail("empty strategy name");
  const JsonReader options = root.at("options");
  if (!options.json().is_object())
    options.fail("expected an object, got " + json_type_name(options.json()));
  doc.options = options.json();
  doc.counterexample = counterexample_from_json(root);
  doc.stats = stats_from_json(root.at("stats"));
  if (!doc.stats.violations.contains(doc.counterexample.invariant))
    root.at("stats")
        .at("violations")
        .fail("does not count the violated invariant '" + doc.counterexample.invariant + "'");
  for (const JsonReader& o : root.items_or_empty("overrides"))
    doc.overrides.push_back(o.as_string());
  if (auto race = root.find("race")) doc.race = race_from_json(*race, doc.counterexample);
  const std::size_t steps = doc.counterexample.steps.size();
  for (const JsonReader& i : root.items_or_empty("not_involved")) {
    if (steps == 0) i.fail("the trace has no steps");
    const std::size_t index = i.as_uint(0, steps - 1);
    if (!doc.not_involved.empty() && index <= doc.not_involved.back())
      i.fail("the step indices must be increasing");
    doc.not_involved.push_back(index);
  }
  return doc;
}

JsonLimits trace_json_limits() {
  const JsonLimits scenario;
  JsonLimits trace = scenario;
  trace.max_bytes = 4 * scenario.max_bytes;
  trace.max_depth = scenario.max_depth + 1;
  trace.max_array_elements = 16 * scenario.max_array_elements;
  return trace;
}

TraceDocument read_trace_file(const std::string& path) {
  return trace_from_json(read_json_file(path, trace_json_limits()), path);
}

}  // namespace interleave::reports
