// `interleave matrix SCENARIO... --vary PATH=A,B ... [--presets all|NAME,...] [--base PRESET]`:
// every scenario under every combination of policies, as one table (text, Markdown, JSON).
//
// The rows: each preset of --presets (each model's catalog "presets"; "all" is every one of
// them), or the --base preset alone, or the scenarios' own policies when neither is given; times
// every combination of the --vary values (the first --vary varies slowest). A row edits each
// scenario as `check --preset P --set PATH=V ...` would (reports/run/scenario_overrides.hpp), and
// every edited scenario is validated before anything runs.
//
// A row's policy is its preset's (from the catalog) with the varied keys set; the base is the
// --base preset (default: the model's default preset when --presets is given), else the first
// value of each --vary. A row's change is the keys whose values differ from the base. The row
// marked "*" makes every scenario hold (a complete search: "incomplete" does not count), and the
// smallest change is the holding row with the fewest changed keys (the first such row on a tie).
//
// Exit codes: 0 some row makes every scenario hold, 1 none does, 2 bad input.
#include "reports/cli/commands.hpp"
#include "reports/run/errors.hpp"
#include "reports/run/scenario_overrides.hpp"
#include "reports/render/text_util.hpp"

#include <algorithm>
#include <map>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

std::vector<std::string> split_vary_values(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '\\' && i + 1 < text.size()) {
        cur += c;
        cur += text[++i];
        continue;
      }
      if (c == '"') quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  return out;
}

namespace {

using nlohmann::json;

/// "a,b,[1,2]" -> "a", "b", "[1,2]": commas inside brackets, braces or quotes do not split.

struct Vary {
  std::string path;
  std::vector<std::string> values;
};

struct Row {
  std::string preset;                                     // "" : the scenario's own policy
  std::vector<std::pair<std::string, std::string>> sets;  // path, value text
  std::string label;
  json policy = json::object();  // keys -> values: the preset's policy with the varied keys set
  std::vector<std::pair<std::string, json>> changes;  // from the base, in key order
  std::vector<std::optional<ExplorationResult>> results;
  bool all_hold = false;
};

/// The key a varied path has in a policy: a knob of the model's knob section by its name
/// ("policy.liveness" -> "liveness"); others by their path.
std::string policy_key(const std::string& path, const std::string& section) {
  const std::string prefix = section + ".";
  return !section.empty() && path.starts_with(prefix) ? path.substr(prefix.size()) : path;
}

json preset_policy(const std::vector<Preset>& presets, const std::string& name) {
  for (const Preset& p : presets)
    if (p.name == name) return p.knobs;
  return json::object();
}

std::string value_text(const json& v) {
  return v.is_string() ? v.get<std::string>()
                       : v.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string cell_text(const ExplorationResult& r) {
  std::string out(to_string(r.verdict));
  if (r.verdict == Verdict::kViolation) {
    std::vector<std::string> names;
    for (const auto& c : r.counterexamples)
      names.push_back(c.invariant);
    std::sort(names.begin(), names.end());
    std::string list;
    for (const auto& n : names)
      list += (list.empty() ? "" : ", ") + n;
    out += ": " + list;
    if (!r.exhaustive) out += " (search cut: maybe more)";
  }
  return out;
}

std::string changes_text(const Row& row) {
  std::string out;
  for (const auto& [k, v] : row.changes)
    out += (out.empty() ? "" : ", ") + k + "=" + value_text(v);
  return out.empty() ? "no change" : out;
}

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t w = reports::text::display_width(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

}  // namespace

CLI::App* add_matrix(CLI::App& app, MatrixArgs& a) {
  CLI::App* c = app.add_subcommand(
      "matrix",
      "Run scenarios under every combination of policies and print one table of verdicts");
  c->add_option("scenarios", a.scenarios, "Scenario files, or directories searched for *.json")
      ->required()
      ->type_name("SCENARIO");
  c->add_option("--vary", a.vary,
                "A scenario key and the values to try, e.g. exploration.max_preemptions=1,2 or "
                "policy.KNOB=A,B (repeatable: every combination)")
      ->type_name("PATH=A,B");
  c->add_option("--presets", a.presets,
                "Rows for these presets of the model's catalog: 'all', or names separated by "
                "commas")
      ->type_name("all|NAME,...");
  c->add_option("--base", a.base,
                "The preset changes are measured from (default: the model's default preset with "
                "--presets; else the first value of each --vary)")
      ->type_name("PRESET");
  c->add_option("--format", a.format, "Output format: text, markdown, json (default: text)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  add_exploration_options(*c, a.overrides);
  c->footer(
      "Rows are the policies (each preset of --presets, or --base, times every combination of\n"
      "the --vary values), columns the scenarios, cells the verdict with the violated\n"
      "properties. '*' marks a row under which every scenario holds; the last line names the\n"
      "smallest change from the base that makes every scenario hold. Nothing is written.\n\n"
      "Exit codes: 0 some row makes every scenario hold, 1 none does, 2 bad input or usage.\n\n"
      "Examples:\n"
      "  interleave matrix scenario.json --vary exploration.max_preemptions=1,2\n"
      "  interleave matrix scenario.json --vary exploration.strategy=dfs,dpor --format markdown");
  return c;
}

namespace {

// The catalog of the scenarios' model(s): the knob section, the presets and the default preset.
struct MatrixCatalog {
  std::string knob_section;
  std::vector<Preset> presets;
  std::string default_preset;
  std::vector<std::string> preset_names;
};

MatrixCatalog catalog_of(const std::vector<std::string>& files, const ModelRegistry& registry) {
  MatrixCatalog c;
  std::vector<std::string> models;
  for (const std::string& f : files) {
    const json doc = read_json_file(f);
    if (doc.is_object() && doc.contains("model") && doc["model"].is_string())
      models.push_back(doc["model"].get<std::string>());
  }
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  for (const std::string& m : models)
    if (const ModelDriver* d = registry.find(m)) {
      const ModelCatalog catalog = d->catalog();
      if (c.knob_section.empty()) c.knob_section = catalog.knob_section;
      if (c.default_preset.empty()) c.default_preset = catalog.default_preset;
      for (const Preset& p : catalog.presets)
        if (std::find(c.preset_names.begin(), c.preset_names.end(), p.name) ==
            c.preset_names.end()) {
          c.preset_names.push_back(p.name);
          c.presets.push_back(p);
        }
    }
  return c;
}

void check_preset(const MatrixCatalog& c, const std::string& name, const std::string& option) {
  const std::vector<std::string>& preset_names = c.preset_names;
  if (std::find(preset_names.begin(), preset_names.end(), name) == preset_names.end()) {
    std::string known;
    for (const auto& n : preset_names)
      known += (known.empty() ? "'" : ", '") + n + "'";
    throw UsageError(
        option + ": unknown preset '" + name + "'" + did_you_mean(name, preset_names) +
        (known.empty() ? "; the scenarios' model has no presets" : "; known presets: " + known));
  }
}

// The presets of the rows ("" : the scenarios' own policies) and the base preset.
struct RowPresets {
  std::vector<std::string> row_presets;
  std::string base;
};

RowPresets row_presets_of(const MatrixArgs& args, const MatrixCatalog& catalog) {
  RowPresets r;
  std::vector<std::string>& row_presets = r.row_presets;
  if (args.presets == "all") {
    row_presets = catalog.preset_names;
    if (row_presets.empty()) throw UsageError("--presets all: the scenarios' model has no presets");
  } else if (!args.presets.empty()) {
    for (const std::string& n : split_vary_values(args.presets)) {
      check_preset(catalog, n, "--presets");
      row_presets.push_back(n);
    }
  }
  std::string& base = r.base;
  base = args.base;
  if (!base.empty()) check_preset(catalog, base, "--base");
  if (base.empty() && !row_presets.empty()) base = catalog.default_preset;
  if (row_presets.empty()) row_presets.push_back(base);  // "" : the scenarios' own policies
  return r;
}

std::vector<Vary> varies_of(const std::vector<std::string>& vary) {
  std::vector<Vary> varies;
  for (const std::string& v : vary) {
    const std::size_t eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
      throw UsageError("--vary '" + v +
                       "': expected PATH=A,B,..., e.g. "
                       "exploration.max_preemptions=1,2");
    varies.push_back({v.substr(0, eq), split_vary_values(v.substr(eq + 1))});
  }
  return varies;
}

// The rows, the first --vary slowest.
std::vector<Row> rows_of(const std::vector<std::string>& row_presets,
                         const std::vector<Vary>& varies, const MatrixCatalog& catalog) {
  const std::vector<Preset>& presets = catalog.presets;
  std::vector<Row> rows;
  for (const std::string& preset : row_presets) {
    std::vector<std::size_t> pick(varies.size(), 0);
    while (true) {
      Row row;
      row.preset = preset;
      row.policy = preset.empty() ? json::object() : preset_policy(presets, preset);
      row.label = preset;
      for (std::size_t k = 0; k < varies.size(); ++k) {
        const std::string& value = varies[k].values[pick[k]];
        row.sets.emplace_back(varies[k].path, value);
        row.label += (row.label.empty() ? "" : " ") + varies[k].path + "=" + value;
        json parsed = json::parse(value, nullptr, false);
        if (parsed.is_discarded()) parsed = value;
        row.policy[policy_key(varies[k].path, catalog.knob_section)] = parsed;
      }
      if (row.label.empty()) row.label = "(the scenario's policy)";
      rows.push_back(std::move(row));
      std::size_t k = varies.size();
      while (k > 0 && ++pick[k - 1] == varies[k - 1].values.size())
        pick[--k] = 0;
      if (k == 0) break;
    }
  }
  return rows;
}

// The base policy and each row's change from it.
void mark_changes(std::vector<Row>& rows, const std::string& base,
                  const std::vector<Vary>& varies, const MatrixCatalog& catalog) {
  json base_policy = base.empty() ? json::object() : preset_policy(catalog.presets, base);
  if (base.empty())
    for (const Vary& v : varies) {
      json parsed = json::parse(v.values.front(), nullptr, false);
      base_policy[policy_key(v.path, catalog.knob_section)] =
          parsed.is_discarded() ? json(v.values.front()) : parsed;
    }
  for (Row& row : rows) {
    std::map<std::string, json> keys;
    for (const auto& [k, v] : row.policy.items())
      keys[k] = v;
    for (const auto& [k, v] : keys)
      if (!base_policy.contains(k) || base_policy[k] != v) row.changes.emplace_back(k, v);
  }
}

// Every scenario of every row, validated before anything runs.
std::vector<std::vector<Scenario>> load_rows(const std::vector<Row>& rows,
                                             const std::vector<std::string>& files,
                                             const ModelRegistry& models,
                                             const ExplorationOverrides& overrides) {
  std::vector<std::vector<Scenario>> loaded;
  for (const Row& row : rows) {
    std::vector<std::string> sets;
    for (const auto& [path, value] : row.sets)
      sets.push_back(path + "=" + value);
    std::vector<Scenario> scenarios;
    for (const std::string& f : files)
      scenarios.push_back(load_scenario(f, models, parse_scenario_overrides(row.preset, sets)));
    check_unique_names(scenarios);
    for (const Scenario& s : scenarios) {
      make_strategy_for(apply_overrides(s.exploration, overrides));
      check_decomposable(s, apply_overrides(s.exploration, overrides));
    }
    loaded.push_back(std::move(scenarios));
  }
  return loaded;
}

void run_rows(std::vector<Row>& rows, const std::vector<std::vector<Scenario>>& loaded,
              const ExplorationOverrides& overrides) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r].all_hold = true;
    for (const Scenario& s : loaded[r]) {
      // By owners when decomposed, as check does (no trace is written).
      ExplorationResult result = explore_result(s, apply_overrides(s.exploration, overrides));
      rows[r].all_hold = rows[r].all_hold && result.verdict == Verdict::kHolds;
      rows[r].results.push_back(std::move(result));
    }
  }
}

std::string conclusion_of(const Row* smallest, const std::string& base) {
  const std::string base_name = base.empty() ? "the first value of each --vary" : base;
  if (smallest == nullptr) return "no policy tried makes every scenario hold";
  if (smallest->changes.empty())
    return "every scenario holds under " + base_name + " (no change needed)";
  return "the smallest change from " + base_name +
         " that makes every scenario hold: " + changes_text(*smallest) + " (" + smallest->label +
         ")";
}

// The table in each format.
struct MatrixTable {
  const std::vector<Row>& rows;
  const std::vector<std::string>& names;  // the scenarios, in column order
  const std::string& base;
  const Row* smallest;
  const std::string& conclusion;
};

std::string matrix_json(const MatrixTable& t) {
  json j_rows = json::array();
  for (const Row& row : t.rows) {
    json cells = json::array();
    for (const auto& r : row.results) {
      std::vector<std::string> violated;
      for (const auto& c : r->counterexamples)
        violated.push_back(c.invariant);
      std::sort(violated.begin(), violated.end());
      json cell = {{"verdict", to_string(r->verdict)}, {"violated", violated}};
      // A violation whose search a budget, the step bound or an interruption cut: the list may
      // be partial.
      if (r->verdict == Verdict::kViolation && !r->exhaustive) cell["cut"] = true;
      cells.push_back(std::move(cell));
    }
    json changes = json::object();
    for (const auto& [k, v] : row.changes)
      changes[k] = v;
    json sets = json::array();
    for (const auto& [path, value] : row.sets)
      sets.push_back(path + "=" + value);
    j_rows.push_back({{"policy", row.label},
                      {"preset", row.preset},
                      {"set", sets},
                      {"changes", changes},
                      {"all_hold", row.all_hold},
                      {"cells", cells}});
  }
  json out{{"scenarios", t.names},
           {"base", t.base},
           {"rows", j_rows},
           {"smallest_change", t.smallest ? json(t.smallest->label) : json(nullptr)},
           {"conclusion", t.conclusion}};
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string matrix_markdown(const MatrixTable& t) {
  std::string out =
      "| | policy | change from " + (t.base.empty() ? "the first values" : t.base) + " |";
  std::string rule = "|---|---|---|";
  for (const auto& n : t.names) {
    out += " " + n + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const Row& row : t.rows) {
    out += std::string("| ") + (row.all_hold ? "**✓**" : "") + " | `" + row.label + "` | " +
           changes_text(row) + " |";
    for (const auto& r : row.results)
      out += " " + cell_text(*r) + " |";
    out += "\n";
  }
  out += "\n" + t.conclusion + ".\n";
  return out;
}

std::string matrix_text(const MatrixTable& t) {
  // Cells name the violated properties by number, listed under the table (a terminal is narrow).
  std::vector<std::string> properties;
  for (const Row& row : t.rows)
    for (const auto& r : row.results)
      for (const auto& c : r->counterexamples)
        if (std::find(properties.begin(), properties.end(), c.invariant) == properties.end())
          properties.push_back(c.invariant);
  std::sort(properties.begin(), properties.end());
  const auto short_cell = [&](const ExplorationResult& r) {
    std::string out(to_string(r.verdict));
    if (r.verdict != Verdict::kViolation) return out;
    std::vector<std::size_t> ids;
    for (const auto& c : r.counterexamples)
      ids.push_back(static_cast<std::size_t>(
          std::find(properties.begin(), properties.end(), c.invariant) - properties.begin() + 1));
    std::sort(ids.begin(), ids.end());
    std::string list;
    for (std::size_t id : ids)
      list += (list.empty() ? "" : ",") + std::to_string(id);
    return out + " " + list + (r.exhaustive ? "" : " (cut)");
  };
  std::vector<std::vector<std::string>> table;
  table.push_back({"", "policy", "change"});
  for (const auto& n : t.names)
    table.back().push_back(n);
  for (const Row& row : t.rows) {
    std::vector<std::string> line{row.all_hold ? "*" : "", row.label, changes_text(row)};
    for (const auto& r : row.results)
      line.push_back(short_cell(*r));
    table.push_back(std::move(line));
  }
  std::vector<std::size_t> width(table.front().size(), 0);
  for (const auto& line : table)
    for (std::size_t k = 0; k < line.size(); ++k)
      width[k] = std::max(width[k], reports::text::display_width(line[k]));
  std::string out;
  for (const auto& line : table) {
    std::string l;
    for (std::size_t k = 0; k < line.size(); ++k)
      l += (k == 0 ? "" : "  ") + pad(line[k], width[k]);
    while (!l.empty() && l.back() == ' ')
      l.pop_back();
    out += l + "\n";
  }
  out += "* every scenario holds";
  for (std::size_t k = 0; k < properties.size(); ++k)
    out += (k == 0 ? "; violated: " : ", ") + std::to_string(k + 1) + " " + properties[k];
  out += "\n" + t.conclusion + "\n";
  return out;
}

}  // namespace

int run_matrix(const MatrixArgs& args, const Context& ctx) {
  const std::vector<std::string> files = collect_scenario_files(args.scenarios);
  const MatrixCatalog catalog = catalog_of(files, ctx.models);
  const auto [row_presets, base] = row_presets_of(args, catalog);
  const std::vector<Vary> varies = varies_of(args.vary);
  if (varies.empty() && row_presets.size() == 1 && row_presets.front().empty())
    throw UsageError("nothing to vary: give --vary PATH=A,B, --presets or --base");
  std::vector<Row> rows = rows_of(row_presets, varies, catalog);
  mark_changes(rows, base, varies, catalog);
  const std::vector<std::vector<Scenario>> loaded =
      load_rows(rows, files, ctx.models, args.overrides);  // before anything runs
  run_rows(rows, loaded, args.overrides);

  const Row* smallest = nullptr;
  for (const Row& row : rows)
    if (row.all_hold && (smallest == nullptr || row.changes.size() < smallest->changes.size()))
      smallest = &row;
  const std::string conclusion = conclusion_of(smallest, base);
  std::vector<std::string> names;
  for (const Scenario& s : loaded.front())
    names.push_back(s.name);
  const MatrixTable table{rows, names, base, smallest, conclusion};
  if (args.format == "json")
    ctx.out << matrix_json(table);
  else if (args.format == "markdown")
    ctx.out << matrix_markdown(table);
  else
    ctx.out << matrix_text(table);
  ctx.out << std::flush;
  return smallest != nullptr ? static_cast<int>(ExitCode::kHolds)
                             : static_cast<int>(ExitCode::kViolation);
}

}  // namespace interleave::cli
