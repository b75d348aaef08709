// The exploration settings derive from one table (reports/run/exploration.hpp: the exploration's
// own keys and the strategy registry's parameters). These tests hold what is shipped and written
// by hand against it: the JSON Schema's exploration section, the tables of docs/strategies.md,
// docs/scenario-format.md and docs/cli.md; and they check that every key works the same way as a
// scenario key, a command-line option, an override and a trace option.
#include "reports/cli/exploration_options.hpp"
#include "reports/run/exploration.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <limits>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

namespace {

const std::string kSource = INTERLEAVE_SOURCE_DIR;

// The text of a documentation file between "<!-- BEGIN name -->\n" and "<!-- END name -->".
std::string generated_section(const std::string& file, const std::string& name) {
  const std::string text = read_file(kSource + "/" + file);
  const std::string begin = "<!-- BEGIN " + name + " -->\n";
  const std::string end = "<!-- END " + name + " -->";
  const auto b = text.find(begin);
  const auto e = text.find(end);
  if (b == std::string::npos || e == std::string::npos || e < b) return "(markers missing)";
  return text.substr(b + begin.size(), e - b - begin.size());
}

// A value of the key's type other than its default, within its range.
json other_value(const run::ExplorationKey& k) {
  switch (k.type) {
    case run::ExplorationKey::Type::kStrategy:
      return "pct";
    case run::ExplorationKey::Type::kUnsigned:
      return k.default_value.get<std::uint64_t>() == k.max ? k.min : k.max;
    case run::ExplorationKey::Type::kNumber:
      return 2.5;
    case run::ExplorationKey::Type::kBoolean:
      return !k.default_value.get<bool>();
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the table: the exploration's keys, then the registry's parameters", "[exploration]") {
  std::vector<std::string> keys;
  for (const auto& k : run::exploration_keys())
    keys.push_back(k.key);
  std::vector<std::string> expected = {
      "strategy",       "seed",    "max_executions", "max_steps", "time_budget_seconds",
      "all_violations", "minimize", "decompose", "split_depth", "split_after",
      "portfolio_executions"};
  for (const StrategyParameter& p : strategy_parameters())
    expected.emplace_back(p.key);
  CHECK(keys == expected);
  CHECK(keys.size() == 16);  // ... state_memory_mb, audit_period, max_preemptions, pct_depth, pct_steps
  // Defaults are ExplorationSettings{}'s, which are the engine's and the registry's.
  CHECK(to_json(run::ExplorationSettings{}) == json{{"strategy", "portfolio"},
                                                    {"seed", 0},
                                                    {"max_executions", 0},
                                                    {"max_steps", 10000},
                                                    {"time_budget_seconds", 0.0},
                                                    {"all_violations", false},
                                                    {"minimize", true},
                                                    {"decompose", false},
                                                    {"split_depth", 0},
                                                    {"split_after", 1000},
                                                    {"portfolio_executions", 20000},
                                                    {"state_memory_mb", 1024},
                                                    {"audit_period", 0},
                                                    {"max_preemptions", 2},
                                                    {"pct_depth", 3},
                                                    {"pct_steps", 0}});
  for (const auto& k : run::exploration_keys()) {
    INFO(k.key);
    CHECK(to_json(run::ExplorationSettings{})[k.key] == k.default_value);
    CHECK(!k.flag.empty());
    CHECK(!k.help.empty());
  }
}

TEST_CASE("the shipped schema's exploration section is the table's", "[exploration][schema]") {
  const json shipped = json::parse(read_file(kSource + "/scenarios/scenario.schema.json"));
  const json derived = json::parse(run::exploration_schema().dump());
  INFO("expected $defs/exploration:\n" << run::exploration_schema().dump(2));
  CHECK(shipped.at("$defs").at("exploration") == derived);
  // Not vacuous: every key is there with its range.
  CHECK(derived.at("properties").at("pct_depth").at("minimum") == 1);
  CHECK(derived.at("properties").at("strategy").at("enum") ==
        json(run::exploration_strategy_names()));
  CHECK(derived.at("properties").at("strategy").at("default") == "portfolio");
  CHECK(derived.at("properties").size() == run::exploration_keys().size());
}

TEST_CASE("the docs tables are the table's", "[exploration][docs]") {
  INFO("expected:\n" << run::strategies_markdown());
  CHECK(generated_section("docs/strategies.md", "strategies") == run::strategies_markdown());
  INFO("expected:\n" << run::portfolio_markdown());
  CHECK(generated_section("docs/strategies.md", "portfolio") == run::portfolio_markdown());
  INFO("expected:\n" << run::exploration_keys_markdown());
  CHECK(generated_section("docs/scenario-format.md", "exploration-keys") ==
        run::exploration_keys_markdown());
  INFO("expected:\n" << run::exploration_options_markdown());
  CHECK(generated_section("docs/cli.md", "exploration-options") ==
        run::exploration_options_markdown());
  // One row per strategy and per key.
  for (const auto& n : strategy_names())
    CHECK_THAT(run::strategies_markdown(), Catch::Contains("| `" + n + "`"));
  for (const auto& k : run::exploration_keys())
    CHECK_THAT(run::exploration_options_markdown(), Catch::Contains("| `" + k.flag));
  for (const auto& m : default_portfolio())
    CHECK_THAT(run::portfolio_markdown(), Catch::Contains("| " + m.label + " |"));
}

TEST_CASE("every key works as scenario key, option, override and trace option", "[exploration]") {
  for (const auto& k : run::exploration_keys()) {
    INFO(k.key);
    const json value = other_value(k);
    // A scenario key.
    const json section = {{k.key, value}};
    const run::ExplorationSettings read =
        run::exploration_from_json(JsonReader(section, "s.json", "/exploration"));
    CHECK(read != run::ExplorationSettings{});
    CHECK(to_json(read)[k.key] == value);
    // A command-line option, applied as an override.
    CLI::App app;
    run::ExplorationOverrides overrides;
    cli::add_exploration_options(app, overrides);
    std::vector<std::string> args;
    if (k.type == run::ExplorationKey::Type::kBoolean) {
      if (value.get<bool>() != k.switch_value) continue;  // a switch sets one value only
      args = {k.flag};
    } else {
      args = {k.flag, value.is_string() ? value.get<std::string>() : value.dump()};
    }
    std::reverse(args.begin(), args.end());  // CLI11 parses a reversed vector
    app.parse(args);
    const run::ExplorationSettings overridden =
        run::apply_overrides(run::ExplorationSettings{}, overrides);
    CHECK(overridden == read);
    // Out of range, as a scenario key and as an option.
    if (k.type == run::ExplorationKey::Type::kUnsigned && k.min > 0) {
      const json low = {{k.key, k.min - 1}};
      CHECK_THROWS_WITH(run::exploration_from_json(JsonReader(low, "s.json", "/exploration")),
                        Catch::Contains("/exploration/" + k.key + ": must be between"));
      CLI::App strict;
      run::ExplorationOverrides o2;
      cli::add_exploration_options(strict, o2);
      std::vector<std::string> bad = {std::to_string(k.min - 1), k.flag};
      CHECK_THROWS_AS(strict.parse(bad), CLI::ValidationError);
    }
  }
}

TEST_CASE("a strategy's parameters reach it from the scenario and the options", "[exploration]") {
  run::ExplorationSettings s;
  s.strategy = "pct";
  s.parameters["pct_depth"] = 0;
  CHECK_THROWS_WITH(run::make_strategy_for(s), "strategy: pct: depth must be at least 1");
  s.parameters["pct_depth"] = 2;
  CHECK(run::make_strategy_for(s)->name() == "pct");
  s.strategy = "preemption-bound";
  s.parameters["max_preemptions"] = 1001;
  CHECK_THROWS_WITH(run::make_strategy_for(s),
                    "strategy: preemption-bound: the preemption bound must be at most 1000");
  // list --json describes the registry.
  const auto r = run_cli({"list", "--json"});
  REQUIRE(r.code == 0);
  const json catalog = json::parse(r.out).at("strategy_catalog");
  REQUIRE(catalog.size() == strategy_registry().size());
  CHECK(catalog[6]["name"] == "pct");
  CHECK(catalog[6]["reach"] == "sampling");
  CHECK(catalog[6]["stateful"] == false);
  CHECK(catalog[4]["name"] == "stateful");
  CHECK(catalog[4]["stateful"] == true);
  CHECK(catalog[6]["parameters"][0] ==
        json{{"key", "pct_depth"},
             {"minimum", 1},
             {"maximum", 1000},
             {"default", 3},
             {"help", "the bug depth d (d - 1 priority change points)"}});
  CHECK(catalog[2]["name"] == "dpor");
  CHECK(catalog[2]["reach"] == "exhaustive");
}
