// The model's tables (knobs, presets, properties and coverage goals, the spawn plan) and what is
// derived from them elsewhere: the shipped JSON Schema's "policy" section, the tables of
// docs/model.md, the parser and the policy JSON.
#include "explorer/core/input_error.hpp"
#include "model/starrocks/scenario.hpp"
#include "model/starrocks/spawn_plan.hpp"
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

using namespace interleave;
using namespace interleave::model;
using nlohmann::json;

namespace {

std::string read_source(const std::string& path) {
  std::ifstream in(std::string(INTERLEAVE_SOURCE_DIR) + "/" + path);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> keys_of(const json& object) {
  std::vector<std::string> v;
  for (const auto& [k, _] : object.items())
    v.push_back(k);
  return v;
}

// ---- the docs tables, as derived from the C++ tables ----

std::string code(const std::string& s) {
  return "`" + s + "`";
}

std::string value_text(const json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string s;
  for (const auto& p : parts)
    s += (s.empty() ? "" : sep) + p;
  return s;
}

// `file`@`commit` as docs/model.md writes a source: the path under com/starrocks/, the commit
// abbreviated to 8 digits.
std::string source_ref(std::string_view file_view, std::string_view commit) {
  const std::string file(file_view);
  const auto at = file.find("com/starrocks/");
  std::string s =
      code(at == std::string::npos ? file : file.substr(at + sizeof("com/starrocks/") - 1));
  if (!commit.empty()) s += "@" + code(std::string(commit.substr(0, 8)));
  return s;
}

std::string knob_row(const model::Knob& k) {
  std::vector<std::string> values;
  for (const json& v : k.values)
    values.push_back(code(value_text(v)));
  std::string source = source_ref(k.source.file, k.source.commit);
  if (!k.source.note.empty()) source += ": " + std::string(k.source.note);
  if (!k.source.hypothetical.empty()) {
    std::vector<std::string> hyp;
    for (const json& v : k.source.hypothetical)
      hyp.push_back(code(value_text(v)));
    source += "; hypothetical: " + join(hyp, ", ");
  }
  return "| " + code(std::string(k.key)) + " | " + (k.type == KnobType::kSet ? "array of " : "") +
         join(values, ", ") + " | " + code(value_text(k.get(Policy{}))) + " | " +
         std::string(k.description) + " | " + source + " |";
}

std::string preset_row(const model::Preset& p) {
  std::vector<std::string> refs;
  for (const SourceRef& r : p.follows)
    refs.push_back(source_ref(r.file, r.commit));
  std::string source = join(refs, ", ");
  if (p.hypothetical) source = refs.empty() ? "hypothetical" : "hypothetical; parts from " + source;
  return "| " + code(p.name) + " | " + p.description + " | " + source + " |";
}

// The schema's description of a knob: the table's, and the hypothetical values.
std::string schema_description(const model::Knob& k) {
  std::string d(k.description);
  if (k.source.hypothetical.empty()) return d;
  std::vector<std::string> hyp;
  for (const json& v : k.source.hypothetical)
    hyp.push_back(value_text(v));
  return d + "; hypothetical (no StarRocks code has it): " + join(hyp, ", ");
}

std::string fact_row(const Fact& f) {
  return "| " + code(std::string(f.name)) + " | " + std::string(f.description) + " | " +
         std::string(f.checked) + " |";
}

// The rows of the Markdown table whose header line is `header` (after its separator line, up to
// the first line that is not a row).
std::vector<std::string> table_rows(const std::string& doc, const std::string& header) {
  const auto at = doc.find("\n" + header + "\n");
  REQUIRE(at != std::string::npos);
  std::istringstream in(doc.substr(at + header.size() + 2));
  std::string line;
  std::getline(in, line);  // |---|---|
  std::vector<std::string> rows;
  while (std::getline(in, line) && line.rfind("|", 0) == 0)
    rows.push_back(line);
  return rows;
}

}  // namespace

TEST_CASE("tables: the schema's policy section is the knob table", "[tables][schema]") {
  const json schema = json::parse(read_source("model/starrocks/starrocks-temp-tables.schema.json"));
  const json& props = schema.at("$defs").at("policy").at("properties");
  std::set<std::string> expected = {"preset"};
  for (const model::Knob& k : knobs())
    expected.insert(std::string(k.key));
  const std::vector<std::string> listed = keys_of(props);
  CHECK(std::set<std::string>(listed.begin(), listed.end()) == expected);

  std::vector<std::string> names;
  for (const model::Preset& p : presets())
    names.push_back(p.name);
  CHECK(props.at("preset").at("enum") == json(names));
  CHECK(props.at("preset").at("default") == std::string(kDefaultPreset));
  std::vector<std::string> hypothetical;
  for (const model::Preset& p : presets())
    if (p.hypothetical) hypothetical.push_back(p.name);
  CHECK(props.at("preset").at("description") ==
        "a StarRocks version or a variant; hypothetical (no StarRocks version behaves so): " +
            join(hypothetical, ", "));

  for (const model::Knob& k : knobs()) {
    INFO("knob " << k.key);
    REQUIRE(props.contains(std::string(k.key)));
    const json& s = props.at(std::string(k.key));
    json want;
    switch (k.type) {
      case KnobType::kEnum:
        want = {{"type", "string"}, {"enum", k.values}};
        break;
      case KnobType::kBoolean:
        want = {{"type", "boolean"}};
        CHECK(k.values == json::array({true, false}));
        break;
      case KnobType::kSet:
        want = {{"type", "array"},
                {"items", {{"type", "string"}, {"enum", k.values}}},
                {"uniqueItems", true}};
        break;
    }
    want["default"] = k.get(Policy{});
    want["description"] = schema_description(k);
    CHECK(s == want);  // every field, nothing extra
  }
}

TEST_CASE("tables: docs/model.md lists the knobs, presets, properties and goals of the tables",
          "[tables][docs]") {
  const std::string doc = read_source("docs/model.md");
  std::vector<std::string> want;
  for (const model::Knob& k : knobs())
    want.push_back(knob_row(k));
  CHECK(table_rows(doc, "| key | values | default (4.1.1) | meaning | source |") == want);

  want.clear();
  for (const model::Preset& p : presets())
    want.push_back(preset_row(p));
  CHECK(table_rows(doc, "| preset | description | source |") == want);

  want.clear();
  for (const Fact* f : properties())
    want.push_back(fact_row(*f));
  CHECK(table_rows(doc, "| property | meaning | checked |") == want);

  want.clear();
  for (const Fact* f : coverage_goals())
    want.push_back(fact_row(*f));
  CHECK(table_rows(doc, "| coverage goal | meaning | reached |") == want);
}

TEST_CASE("tables: the catalog, the names and the policy JSON derive from the tables", "[tables]") {
  const json cat = to_json(model_catalog());
  REQUIRE(cat.at("knobs").size() == knobs().size());
  for (std::size_t i = 0; i < knobs().size(); ++i) {
    const model::Knob& k = knobs()[i];
    const json& c = cat.at("knobs").at(i);
    CHECK(c.at("name") == k.key);
    CHECK(c.at("values") == k.values);
    CHECK(c.at("default") == k.get(Policy{}));
    CHECK(c.at("source").at("file") == k.source.file);
    CHECK(c.at("source").at("commit") == k.source.commit);
    CHECK(c.at("source").at("hypothetical") == k.source.hypothetical);
    CHECK(!k.source.file.empty());
    CHECK(!k.source.note.empty());
  }
  REQUIRE(cat.at("presets").size() == presets().size());
  for (std::size_t i = 0; i < presets().size(); ++i) {
    const model::Preset& p = presets()[i];
    const json& c = cat.at("presets").at(i);
    CHECK(c.at("name") == p.name);
    CHECK(c.at("hypothetical") == p.hypothetical);
    REQUIRE(c.at("follows").size() == p.follows.size());
    for (std::size_t j = 0; j < p.follows.size(); ++j) {
      CHECK(c.at("follows").at(j).at("file") == p.follows[j].file);
      CHECK(c.at("follows").at(j).at("commit") == p.follows[j].commit);
    }
  }
  std::vector<std::string> keys;
  for (const model::Knob& k : knobs())
    keys.emplace_back(k.key);
  std::vector<std::string> written = keys_of(policy_to_json(Policy{}));
  std::sort(keys.begin(), keys.end());
  CHECK(written == keys);  // nlohmann's objects are sorted

  CHECK(invariant_names().size() == properties().size());
  CHECK(invariant_names().at(5) == "deadlock");
  CHECK(coverage_goal_names().size() == coverage_goals().size());
  CHECK(properties().size() + coverage_goals().size() == kFacts.size());
  for (std::size_t i = 0; i < properties().size(); ++i)
    CHECK(cat.at("invariants").at(i).at("checked") == properties()[i]->checked);
  std::set<std::string> all;
  for (const auto& n : invariant_names())
    CHECK(all.insert(n).second);
  for (const auto& n : coverage_goal_names())
    CHECK(all.insert(n).second);  // no name is both, or twice
}

namespace {

bool is_commit(std::string_view c) {
  return c.size() == 40 &&
         std::all_of(c.begin(), c.end(), [](char x) { return std::isxdigit(x) && !std::isupper(x); });
}

}  // namespace

TEST_CASE(
    "tables: every knob and preset names the StarRocks commit it follows or says it is "
    "hypothetical",
    "[tables][sources]") {
  const Policy defaults;
  for (const model::Knob& k : knobs()) {
    INFO("knob " << k.key);
    REQUIRE(k.source.hypothetical.is_array());
    for (const json& v : k.source.hypothetical) {
      CHECK(std::find(k.values.begin(), k.values.end(), v) != k.values.end());
      // The default is StarRocks 4.1.1, never a hypothesis.
      const json d = k.get(defaults);
      CHECK((d.is_array() ? std::find(d.begin(), d.end(), v) == d.end() : d != v));
    }
    const bool all_hypothetical = k.source.hypothetical.size() == k.values.size();
    if (all_hypothetical)
      CHECK(k.source.commit.empty());
    else
      CHECK(is_commit(k.source.commit));
    CHECK((k.source.file.starts_with("fe/") || k.source.file.starts_with("be/")));
  }
  for (const model::Preset& p : presets()) {
    INFO("preset " << p.name);
    CHECK((p.hypothetical || !p.follows.empty()));
    for (const SourceRef& r : p.follows) {
      CHECK(is_commit(r.commit));
      CHECK(r.file.starts_with("fe/"));
    }
    // A preset that takes a hypothetical value of some knob is hypothetical.
    for (const model::Knob& k : knobs()) {
      const json value = k.get(p.policy);
      for (const json& v : k.source.hypothetical) {
        const bool uses = value.is_array()
                              ? std::find(value.begin(), value.end(), v) != value.end()
                              : value == v;
        if (uses) CHECK(p.hypothetical);
      }
    }
  }
  CHECK_FALSE(find_preset(kDefaultPreset)->hypothetical);
  CHECK_FALSE(find_preset("pr-79339")->hypothetical);
  CHECK(find_preset("cross-frontend-create-time")->hypothetical);
}

TEST_CASE("tables: the parser reads back every value the policy JSON writes", "[tables]") {
  for (const model::Preset& p : presets()) {
    INFO("preset " << p.name);
    json s = {{"policy", policy_to_json(p.policy)}};
    if (!p.policy.has_task_liveness()) s["policy"].erase("task_run_snapshot");
    CHECK(parse_world(s, "s.json").policy == p.policy);
  }
  // Every value of every knob, set alone on top of a preset that takes C3.
  for (const model::Knob& k : knobs()) {
    for (const json& v : k.values) {
      json value = k.type == KnobType::kSet ? json::array({v}) : v;
      const json s = {{"policy", {{"preset", "pr-79339"}, {std::string(k.key), value}}}};
      INFO("knob " << k.key << " = " << value.dump());
      CHECK(policy_to_json(parse_world(s, "s.json").policy).at(std::string(k.key)) == value);
    }
  }
}

TEST_CASE("tables: the spawn plan names every actor and bounds them", "[tables][plan]") {
  WorldConfig w = test::world("pr-79339");
  w.cluster.frontends = 2;
  w.cluster.compute_nodes = 2;
  TaskRunConfig t1 = test::task_run("t1", true);
  t1.retries = 1;
  TaskRunConfig t2 = test::task_run("t2");
  t2.kill = KillMode::kForce;
  w.actors.task_runs = {t1, t2};
  w.actors.clients = {test::client("c1"), test::client("c2", 1)};
  const SpawnPlan plan(w);
  std::vector<std::string> top;
  for (const PlannedActor& a : plan.top_level())
    top.push_back(a.name);
  CHECK(top == std::vector<std::string>{"Session:c1@fe1", "Session:c2@fe2", "Replayer:fe2",
                                        "SyncSubmit:t1", "Kill:t2", "TaskRunScheduler",
                                        "TemporaryTableCleaner"});
  CHECK(plan.task_run(1) == "TaskRun:t2");
  CHECK(plan.tablet_sink(0, 1, 0, 0) == "TabletSink:t1#1/E3/cn1");
  CHECK(plan.tablet_sink(0, 2, 1, 1) == "TabletSink:t1#2/E4.1/cn2");
  CHECK(plan.tablet_sink(1, 1, 0, 1) == "TabletSink:t2#1/E3/cn2");
  // 7 top-level, 2 executors, sinks: t1 and t2 each the anchor and one iteration (which adds no
  // rows): t1 2 attempts x 2 inserts x 2 CNs, t2 1 x 2 x 2.
  CHECK(plan.actor_bound() == 7 + 2 + 8 + 4);
  CHECK(actor_bound(w) == plan.actor_bound());

  // No replayer without a client on the follower, no cleaner without a pass.
  WorldConfig quiet = test::world("starrocks-4.1.1");
  quiet.cluster.frontends = 3;
  quiet.actors.cleaner.passes = 0;
  CHECK(SpawnPlan(quiet).top_level().empty());
  CHECK(actor_bound(quiet) == 0);
}

TEST_CASE("tables: docs/model.md lists the timed model's durations of the table", "[tables][docs]") {
  const std::string doc = read_source("docs/model.md");
  std::vector<std::string> want;
  for (const WorkFact& f : work_facts()) {
    const std::string range = f.duration.min == f.duration.max
                                  ? format_seconds(f.duration.min)
                                  : "[" + format_seconds(f.duration.min) + ", " +
                                        format_seconds(f.duration.max) + "]";
    want.push_back("| " + code(std::string(f.key)) + " | " + std::string(f.what) + " | " + range +
                   " | " + std::string(f.basis) + " |");
  }
  CHECK(table_rows(doc, "| work | what | default | basis |") == want);
  // Each kind of work, in the order of the enum.
  for (std::size_t i = 0; i < work_facts().size(); ++i)
    CHECK(static_cast<std::size_t>(work_facts()[i].work) == i);
}
