// `interleave list`: the models (with their presets, knobs, invariants and coverage goals, as
// each ModelDriver's catalog describes them, and the lines their steps log, their
// log_patterns()), the strategies (from the strategy registry,
// explorer/strategies/factory.hpp; with --json, each one's summary and parameters too) and the
// output formats (reports/render/formats.hpp).
#include "explorer/evidence/log_pattern.hpp"
#include "explorer/model_api/model_driver.hpp"
#include "explorer/strategies/factory.hpp"
#include "reports/cli/commands.hpp"
#include "reports/render/formats.hpp"

#include <algorithm>
#include <array>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

bool scalar(const nlohmann::json& j) {
  return !j.is_object() && !j.is_array();
}

std::string scalar_text(const nlohmann::json& j) {
  return j.is_string() ? j.get<std::string>() : j.dump();
}

// A catalog as indented "key: value" lines; arrays of scalars on one line; in an object, "name"
// comes first (so that a list of named things reads "- name: x").
void render(const nlohmann::json& j, const std::string& indent, std::string& out) {
  if (j.is_object()) {
    std::vector<std::string> keys;
    if (j.contains("name")) keys.push_back("name");
    for (const auto& [key, _] : j.items())
      if (key != "name") keys.push_back(key);
    for (const auto& key : keys) {
      const nlohmann::json& value = j.at(key);
      if (scalar(value)) {
        out += indent + key + ": " + scalar_text(value) + "\n";
      } else if (value.is_array() && std::all_of(value.begin(), value.end(), scalar)) {
        std::string line;
        for (const auto& v : value)
          line += (line.empty() ? "" : ", ") + scalar_text(v);
        out += indent + key + ": " + (line.empty() ? "(none)" : line) + "\n";
      } else {
        out += indent + key + ":\n";
        render(value, indent + "  ", out);
      }
    }
  } else if (j.is_array()) {
    for (const auto& v : j) {
      if (scalar(v)) {
        out += indent + "- " + scalar_text(v) + "\n";
      } else {
        std::string inner;
        render(v, indent + "  ", inner);
        if (inner.size() >= indent.size() + 2) inner.replace(indent.size(), 2, "- ");
        out += inner;
      }
    }
  } else {
    out += indent + scalar_text(j) + "\n";
  }
}

// A model's catalog as `list` prints it: the knobs (of their section), the presets, the
// properties (the engine's built-in ones after the model's), the goals, then what else the model
// shows, rendered as it is.
std::string catalog_text(const ModelCatalog& c) {
  std::string out;
  if (!c.knobs.empty()) {
    out += "    knobs (the section " + c.knob_section + "):\n";
    for (const Knob& k : c.knobs) {
      out += "      - " + k.name + " (" + k.type + ", default " + scalar_text(k.default_value);
      if (k.type == "integer") out += ", " + std::to_string(k.min) + ".." + std::to_string(k.max);
      if (k.values.is_array() && !k.values.empty()) {
        std::string values;
        for (const auto& v : k.values)
          values += (values.empty() ? "" : ", ") + scalar_text(v);
        out += ", one of " + values;
      }
      out += ")" + (k.description.empty() ? std::string() : ": " + k.description) + "\n";
    }
  }
  if (!c.presets.empty()) {
    out += "    presets (the default: " + c.default_preset + "):\n";
    for (const Preset& p : c.presets)
      out += "      - " + p.name + (p.hypothetical ? " (hypothetical)" : "") +
             (p.description.empty() ? std::string() : ": " + p.description) + "\n";
  }
  std::vector<Property> properties = c.properties;
  for (const Property& b : builtin_properties())
    if (std::none_of(properties.begin(), properties.end(),
                     [&](const Property& p) { return p.name == b.name; }))
      properties.push_back(b);
  const auto facts = [&out](const char* title, const std::vector<Property>& list) {
    if (list.empty()) return;
    out += std::string("    ") + title + ":\n";
    for (const Property& f : list)
      out += "      - " + f.name +
             (f.description.empty() ? std::string() : ": " + f.description) + "\n";
  };
  facts("properties", properties);
  facts("coverage goals", c.goals);
  if (c.extra.is_object())
    for (const auto& [key, value] : c.extra.items())
      if (key != "model" && key != "sections") {
        out += "    " + key + ":\n";
        render(value, "      ", out);
      }
  return out;
}

// The output formats (reports/render/formats.hpp): what each shows, which command writes it, its file
// extension.
nlohmann::json formats_json() {
  nlohmann::json formats = nlohmann::json::array();
  auto add = [&formats](const auto& f) {
    formats.push_back({{"name", f.name},
                       {"command", f.command},
                       {"extension", f.extension},
                       {"description", f.description}});
  };
  for (const auto& f : reports::trace_formats())
    add(f);
  for (const auto& f : reports::gate_formats())
    add(f);
  return formats;
}

// One line per format, in columns: name, the command that writes it, extension, description.
std::string formats_text() {
  const nlohmann::json formats = formats_json();
  std::array<std::size_t, 3> width{};
  const std::array<const char*, 3> columns{"name", "command", "extension"};
  for (const auto& f : formats)
    for (std::size_t i = 0; i < columns.size(); ++i)
      width[i] = std::max(width[i], f[columns[i]].get<std::string>().size());
  std::string out = "formats:\n";
  for (const auto& f : formats) {
    std::string line = "  ";
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::string cell = f[columns[i]].get<std::string>();
      line += cell + std::string(width[i] - cell.size() + 2, ' ');
    }
    out += line + f["description"].get<std::string>() + "\n";
  }
  return out;
}

}  // namespace

CLI::App* add_list(CLI::App& app, ListArgs& a) {
  CLI::App* c = app.add_subcommand(
      "list",
      "List the models (presets, knobs, invariants, coverage goals) and the strategies; "
      "--formats: the output formats");
  c->add_flag("--json", a.json, "Print the same as JSON (the output formats included)");
  c->add_flag("--formats", a.formats,
              "Print the output formats only: show --format and the gate's reports");
  c->footer(
      "Examples:\n"
      "  interleave list\n"
      "  interleave list --formats\n"
      "  interleave list --json");
  return c;
}

namespace {

// The strategy registry as `list --json` shows it.
nlohmann::json strategy_catalog() {
  nlohmann::json all = nlohmann::json::array();
  for (const StrategyDescriptor& d : strategy_registry()) {
    nlohmann::json params = nlohmann::json::array();
    for (const StrategyParameter& p : d.parameters)
      params.push_back({{"key", p.key},
                        {"minimum", p.min},
                        {"maximum", p.max},
                        {"default", p.default_value},
                        {"help", p.help}});
    const char* reach = d.reach == StrategyReach::kExhaustive ? "exhaustive"
                        : d.reach == StrategyReach::kBounded  ? "bounded"
                                                              : "sampling";
    all.push_back({{"name", d.name},
                   {"summary", d.summary},
                   {"reach", reach},
                   {"seeded", d.seeded},
                   {"sampling", d.sampling},
                   {"stateful", d.stateful},
                   {"parameters", params}});
  }
  return all;
}

// The portfolio's members as `list --json` shows them (explorer/search/portfolio.hpp).
nlohmann::json portfolio_catalog() {
  nlohmann::json members = nlohmann::json::array();
  for (const PortfolioMember& m : default_portfolio())
    members.push_back({{"label", m.label},
                       {"strategy", m.spec.name},
                       {"parameters", m.spec.parameters},
                       {"executions", m.executions},
                       {"quantum", m.quantum}});
  return {{"name", kPortfolioName}, {"members", members}};
}

// The lines a model logs (ModelDriver::log_patterns), as `list` shows them: an empty array for a
// model that declares none.
nlohmann::json log_patterns_json(const ModelDriver& d) {
  nlohmann::json out = nlohmann::json::array();
  for (const LogPattern& p : d.log_patterns().patterns())
    out.push_back({{"id", p.id},
                   {"level", p.level},
                   {"logger", p.logger},
                   {"method", p.method},
                   {"line", p.line},
                   {"text", p.text},
                   {"source", p.source}});
  return out;
}

}  // namespace

int run_list(const ListArgs& args, const Context& ctx) {
  const std::vector<std::string> strategies = exploration_strategy_names();
  if (args.json) {
    nlohmann::json models = nlohmann::json::array();
    for (const auto& d : ctx.models.all())
      models.push_back({{"name", d->name()},
                        {"description", d->description()},
                        {"sections", d->sections()},
                        {"catalog", to_json(d->catalog())},
                        {"log_patterns", log_patterns_json(*d)}});
    ctx.out << nlohmann::json{{"models", models},
                              {"strategies", strategies},
                              {"default_strategy", kPortfolioName},
                              {"strategy_catalog", strategy_catalog()},
                              {"portfolio", portfolio_catalog()},
                              {"formats", formats_json()}}
                   .dump(2)
            << "\n";
    return 0;
  }
  if (args.formats) {
    ctx.out << formats_text() << std::flush;
    return 0;
  }
  std::string out = "models:\n";
  if (ctx.models.all().empty()) out += "  (none registered)\n";
  for (const auto& d : ctx.models.all()) {
    out += "  " + d->name() + ": " + d->description() + "\n";
    std::string sections;
    for (const auto& s : d->sections())
      sections += (sections.empty() ? "" : ", ") + s;
    out += "    scenario sections: " + sections + "\n";
    out += catalog_text(d->catalog());
    const auto& patterns = d->log_patterns().patterns();
    if (!patterns.empty()) {
      out += "    log patterns (the lines its steps log):\n";
      for (const LogPattern& p : patterns)
        out += "      - " + p.id + ": " + p.level + " " + p.logger + ": " + p.text + " (" +
               p.source + ")\n";
    }
  }
  out += "strategies:\n";
  for (const auto& s : strategies) {
    const StrategyDescriptor* d = find_strategy(s);
    out += "  " + s + (s == kPortfolioName ? " (default)" : "") +
           (d != nullptr && d->stateful
                ? " (stateful: keeps the states it explored; the model must declare its state)"
                : "") +
           "\n";
  }
  std::string members;
  for (const PortfolioMember& m : default_portfolio())
    members += (members.empty() ? "" : ", ") + m.label;
  out += "  (portfolio: " + members + ")\n";
  ctx.out << out << std::flush;
  return 0;
}

}  // namespace interleave::cli
