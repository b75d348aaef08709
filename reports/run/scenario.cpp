#include "reports/run/scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>

namespace interleave::run {

using nlohmann::json;

namespace {

// Envelope keys, in documentation order. "$schema" lets editors find scenario.schema.json.
const std::vector<std::string> kEnvelopeKeys = {"$schema", "name",   "description", "model",
                                                "exploration", "expect", "constraints",
                                                "incidents"};
const std::vector<std::string> kVerdicts = {"holds", "violation", "incomplete"};

std::string quoted_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items)
    s += (s.empty() ? "'" : ", '") + i + "'";
  return s.empty() ? "none" : s;
}

bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  auto ok = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  };
  if (!ok(name[0]) || name[0] == '.' || name[0] == '_' || name[0] == '-') return false;
  return std::all_of(name.begin(), name.end(), ok);
}

// A list of distinct names, each one of `known` (did-you-mean on a typo); sorted.
std::vector<std::string> name_list(const JsonReader& r, const std::vector<std::string>& known,
                                   const std::string& what) {
  std::vector<std::string> out;
  for (const JsonReader& item : r.items()) {
    const std::string name = item.as_string();
    if (std::find(known.begin(), known.end(), name) == known.end())
      item.fail("unknown " + what + " '" + name + "'" + did_you_mean(name, known) +
                "; this scenario's model can report: " + quoted_list(known));
    if (std::find(out.begin(), out.end(), name) != out.end())
      item.fail("'" + name + "' is listed twice");
    out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Expectation expectation_from_json(const JsonReader& r, const ExplorationSettings& exploration,
                                  const ModelInstance& instance) {
  r.expect_keys({"verdict", "invariants", "reached"});
  Expectation e;
  const JsonReader verdict = r.at("verdict");
  e.verdict = *verdict_from_string(verdict.as_enum(kVerdicts));
  if (auto inv = r.find("invariants"))
    e.invariants = name_list(*inv, instance.invariants, "invariant");
  if (auto reached = r.find("reached"))
    e.reached = name_list(*reached, instance.coverage_goals, "coverage goal");
  if (e.verdict == Verdict::kViolation && e.invariants.empty()) {
    if (!r.has("invariants"))
      throw InputError(r.file(), r.child_path("invariants"),
                       "missing: an expected violation must name the invariants it violates");
    r.at("invariants").fail("must name at least one invariant when the verdict is 'violation'");
  }
  if (e.verdict != Verdict::kViolation && !e.invariants.empty())
    r.at("invariants")
        .fail("must be empty when the expected verdict is '" + std::string(to_string(e.verdict)) +
              "' (only a violation violates invariants)");
  // What the gate would always reject is rejected here (reports/run/expectation.cpp).
  if (e.verdict != Verdict::kViolation && e.reached.empty()) {
    const std::string why =
        e.verdict == Verdict::kHolds
            ? "a 'holds' expectation must name the coverage goals that show the dangerous "
              "situation was explored (the gate rejects a 'holds' without them: the pass could be "
              "vacuous)"
            : "an 'incomplete' expectation must name the coverage goals the partial search "
              "reaches (the gate rejects one without them: it would pass whatever was searched)";
    if (!r.has("reached")) throw InputError(r.file(), r.child_path("reached"), "missing: " + why);
    r.at("reached").fail("must name at least one coverage goal: " + why);
  }
  if (e.invariants.size() > 1 && !exploration.all_violations)
    r.at("invariants")
        .fail("names " + std::to_string(e.invariants.size()) +
              " invariants but the search stops at the first violation; set "
              "/exploration/all_violations to true");
  return e;
}

// "incidents": [{"name", "logs": [...], "clock_skew_ms", "complete": [...], "focus": {...},
// "expect": "explained" | "impossible"}]. Paths are relative to the scenario's directory; the
// files are read when the incident is planned (plan_incident), before any search: a scenario
// embedded in a trace is read without them.
std::vector<IncidentSpec> incidents_from_json(const JsonReader& root, const std::string& file) {
  std::vector<IncidentSpec> out;
  const std::filesystem::path dir = std::filesystem::path(file).parent_path();
  for (const JsonReader& item : root.items_or_empty("incidents")) {
    item.expect_keys({"name", "logs", "clock_skew_ms", "complete", "focus", "expect"});
    IncidentSpec spec;
    spec.path = item.path();
    const JsonReader name = item.at("name");
    spec.name = name.as_string();
    if (!valid_name(spec.name))
      name.fail("'" + spec.name + "' is not a valid incident name: 1 to 128 letters, digits, '.', "
                "'_' or '-', starting with a letter or a digit");
    for (const IncidentSpec& other : out)
      if (other.name == spec.name) name.fail("a second incident named '" + spec.name + "'");
    const std::vector<JsonReader> logs = item.at("logs").items();
    if (logs.empty()) item.at("logs").fail("an incident needs at least one log file");
    for (const JsonReader& log : logs) {
      const std::string text = log.as_string();
      if (text.empty()) log.fail("an empty path");
      spec.logs.push_back((dir / text).string());
    }
    spec.options.clock_skew_micros = static_cast<std::int64_t>(
        item.number_or("clock_skew_ms", 1000, 0, 86'400'000) * 1000);
    for (const JsonReader& logger : item.items_or_empty("complete"))
      spec.options.complete.push_back(logger.as_string());
    if (auto focus = item.find("focus")) {
      if (!focus->json().is_object()) focus->fail("expected an object of NAME: VALUE");
      for (const auto& [key, value] : focus->json().items()) {
        const JsonReader v = focus->at(key);
        spec.options.focus.emplace_back(key, v.as_string());
      }
    }
    spec.expect_explained = item.at("expect").as_enum({"explained", "impossible"}) == "explained";
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

Scenario parse_scenario(const json& document, const std::string& file,
                        const ModelRegistry& models) {
  const JsonReader root(document, file);
  if (!document.is_object())
    root.fail("expected a scenario (a JSON object), got " + json_type_name(document));

  // The model first: it decides which other top-level keys exist.
  std::vector<std::string> model_names;
  for (const auto& d : models.all())
    model_names.push_back(d->name());
  if (!root.has("model")) {
    if (root.has("format") && root.has("schedule"))
      root.fail(
          "this is a counterexample trace, not a scenario (use 'interleave replay' or "
          "'interleave show')");
    throw InputError(file, "/model",
                     "missing (required): which model the scenario is for; known models: " +
                         quoted_list(model_names));
  }
  const JsonReader model = root.at("model");
  const std::string model_name = model.as_string();
  const ModelDriver* driver = models.find(model_name);
  if (driver == nullptr)
    model.fail("unknown model '" + model_name + "'" + did_you_mean(model_name, model_names) +
               "; known models: " + quoted_list(model_names));

  std::vector<std::string> keys = kEnvelopeKeys;
  for (const auto& section : driver->sections())
    keys.push_back(section);
  root.expect_keys(keys);

  Scenario s;
  s.file = file;
  s.document = document;
  s.model = model_name;
  if (auto schema = root.find("$schema")) schema->as_string();
  const JsonReader name = root.at("name");
  s.name = name.as_string();
  if (!valid_name(s.name))
    name.fail("'" + s.name +
              "' is not a valid scenario name: 1 to 128 letters, digits, '.', '_' or '-', "
              "starting with a letter or a digit (it names the counterexample files)");
  s.description = root.string_or("description", "");
  if (auto exploration = root.find("exploration"))
    s.exploration = exploration_from_json(*exploration);

  // The model's sections are read once; the program, the decomposition and the constraints'
  // vocabulary come from that reading.
  const std::shared_ptr<const ModelConfig> config = driver->parse(document, file);
  if (config == nullptr) root.fail("internal: model '" + model_name + "' read no config");
  s.instance = instantiate(*config);
  if (!s.instance.program) root.fail("internal: model '" + model_name + "' built no program");
  s.decompose = [driver, config] { return decompose(*driver, *config); };

  // Ordering constraints: checked before any work, then stated to every execution by the program
  // itself (so that exploration, replay and minimisation all run under them).
  if (auto constraints = root.find("constraints")) {
    std::vector<OrderConstraint> order =
        order_constraints_from_json(*constraints, config->constraint_vocabulary());
    if (!order.empty()) {
      s.instance.program = [inner = std::move(s.instance.program),
                            order = std::move(order)](Execution& e) {
        inner(e);
        e.order(order);
      };
      s.decompose = [] {
        DecompositionOffer none;
        none.refusal =
            "a scenario with ordering constraints is not decomposed (a constraint may order the "
            "steps of actors of different owners)";
        none.refusal_path = "/constraints";
        return none;
      };
    }
  }

  if (auto expect = root.find("expect"))
    s.expect = expectation_from_json(*expect, s.exploration, s.instance);
  s.incidents = incidents_from_json(root, file);
  return s;
}

Scenario load_scenario(const std::string& path, const ModelRegistry& models,
                       const std::vector<ScenarioOverride>& overrides) {
  if (overrides.empty()) return parse_scenario(read_json_file(path), path, models);
  json document = read_json_file(path);
  // A --preset goes to the knob section of the scenario's model.
  std::optional<ModelCatalog> catalog;
  if (document.is_object() && document.contains("model") && document["model"].is_string())
    if (const ModelDriver* d = models.find(document["model"].get<std::string>()))
      catalog = d->catalog();
  const std::vector<ScenarioOverride> aimed =
      aim_presets(overrides, catalog ? &*catalog : nullptr, path);
  document = apply_scenario_overrides(std::move(document), aimed, path);
  try {
    Scenario s = parse_scenario(document, path, models);
    for (const ScenarioOverride& o : aimed)
      s.overrides.push_back(o.text);
    return s;
  } catch (const InputError& e) {
    // Name the option that set the key the error is about (the last one to set it).
    for (auto o = aimed.rbegin(); o != aimed.rend(); ++o) {
      const std::string pointer = json_pointer(*o);
      if (e.path() == pointer || e.path().starts_with(pointer + "/"))
        throw InputError(e.file(), e.path(), e.message() + " (set by " + o->text + ")");
    }
    throw;
  }
}

std::vector<std::string> collect_scenario_files(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    const fs::file_status status = fs::status(p, ec);
    if (!fs::exists(status)) throw InputError(p, "/", "no such file or directory");
    if (!fs::is_directory(status)) {
      files.push_back(p);
      continue;
    }
    std::vector<std::string> found;
    for (fs::recursive_directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& f = it->path();
      const std::string fname = f.filename().string();
      if (it->is_regular_file() && f.extension() == ".json" && !fname.ends_with(".schema.json") &&
          !fname.starts_with("."))
        found.push_back(f.string());
    }
    if (ec) throw InputError(p, "/", "cannot list the directory: " + ec.message());
    if (found.empty()) throw InputError(p, "/", "no scenario files (*.json) in this directory");
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  // A file named twice (e.g. a directory and a file in it) is read once, where first named.
  std::vector<std::string> unique;
  std::set<fs::path> seen;
  for (const auto& f : files) {
    std::error_code ec;
    fs::path key = fs::weakly_canonical(f, ec);
    if (ec) key = fs::path(f).lexically_normal();
    if (seen.insert(key).second) unique.push_back(f);
  }
  return unique;
}

void check_unique_names(const std::vector<Scenario>& scenarios) {
  for (std::size_t i = 0; i < scenarios.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (scenarios[i].name == scenarios[j].name)
        throw InputError(scenarios[i].file, "/name",
                         "the scenario name '" + scenarios[i].name + "' is also used by " +
                             scenarios[j].file +
                             " (names must be unique: counterexample files are named after them)");
}

std::vector<Scenario> load_scenarios(const std::vector<std::string>& paths,
                                     const ModelRegistry& models,
                                     const std::vector<ScenarioOverride>& overrides) {
  std::vector<Scenario> scenarios;
  for (const auto& file : collect_scenario_files(paths))
    scenarios.push_back(load_scenario(file, models, overrides));
  check_unique_names(scenarios);
  return scenarios;
}

}  // namespace interleave::run
