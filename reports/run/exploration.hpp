// How to explore: a scenario's "exploration" section, the command-line options that override it,
// and the "options" a counterexample trace records, all derived from one table of keys. The table
// is the exploration's own keys (strategy, seed, budgets, minimisation) followed by the parameters
// of the strategy registry (explorer/strategies/factory.hpp): a parameter declared there becomes a
// scenario key, a flag, an override, a trace option, a property of the JSON Schema and a row of the
// docs tables with no other change. See docs/scenario-format.md and docs/cli.md.
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/core/json_reader.hpp"
#include "explorer/search/portfolio.hpp"
#include "explorer/search/split.hpp"
#include "explorer/strategies/factory.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace interleave::run {

/// How to explore: the scenario's "exploration" section, possibly overridden on the command line.
/// The same keys are recorded as "options" in every counterexample trace.
struct ExplorationSettings {
  /// "portfolio" (the default: the bug finders beside DPOR, explorer/search/portfolio.hpp) or one of
  /// strategy_names(), which then runs alone.
  std::string strategy = std::string(kPortfolioName);
  std::uint64_t seed = 0;                          ///< seed of the seeded strategies (random, pct)
  /// 0: unlimited; reaching it makes the verdict incomplete. Also the number of executions of the
  /// sampling strategies (random, pct; 0 there means StrategySpec's default).
  std::uint64_t max_executions = 0;
  std::uint64_t max_steps = ExploreOptions{}.max_steps;  ///< steps per execution
  double time_budget_seconds = 0;                        ///< 0: unlimited
  bool all_violations = false;  ///< keep exploring: one counterexample per violated invariant
  /// Minimise each counterexample (fewest preemptions, then fewest steps) before reporting it.
  bool minimize = ExploreOptions{}.minimize;
  /// Explore one slice per owner kind instead of the whole program (explorer/search/decomposition.hpp;
  /// the model must declare owners) and combine their verdicts.
  bool decompose = false;
  /// Split a DPOR search at this depth (steps) into prefixes searched independently, by --jobs
  /// threads or --shard processes (explorer/search/split.hpp); 0: one search. The result depends on it,
  /// never on the number of threads or shards.
  std::uint64_t split_depth = 0;
  /// In a split search, a prefix's search shares part of its subtree every this many executions
  /// (SplitOptions::split_after); 0: never.
  std::uint64_t split_after = SplitOptions::kDefaultSplitAfter;
  /// The portfolio: the executions each bug finder runs at most (PortfolioMember::executions).
  std::uint64_t portfolio_executions = kPortfolioBugFinderExecutions;
  /// Every parameter of the strategy registry (strategy_parameters()) by key, at its default
  /// unless set.
  std::map<std::string, std::uint64_t, std::less<>> parameters = default_parameters();

  /// The value of a strategy parameter (std::out_of_range for a key the registry does not have).
  std::uint64_t parameter(std::string_view key) const;
  static std::map<std::string, std::uint64_t, std::less<>> default_parameters();

  friend bool operator==(const ExplorationSettings&, const ExplorationSettings&) = default;
};

/// One key of the "exploration" section: a row of the table (exploration_keys()).
struct ExplorationKey {
  enum class Type : std::uint8_t { kStrategy, kUnsigned, kNumber, kBoolean };
  /// Where ExplorationSettings keeps the key's value; std::monostate for a parameter of the
  /// strategy registry, kept in ExplorationSettings::parameters under its key.
  using Field =
      std::variant<std::monostate, std::string ExplorationSettings::*,
                   std::uint64_t ExplorationSettings::*, double ExplorationSettings::*,
                   bool ExplorationSettings::*>;
  std::string key{};
  Type type = Type::kUnsigned;
  Field field{};
  std::uint64_t min = 0, max = 0;         ///< kUnsigned: the range
  double min_number = 0, max_number = 0;  ///< kNumber: the range
  /// ExplorationSettings{}'s value (filled in from it, never written in a row).
  nlohmann::json default_value{};
  std::string help{};  ///< what it means, one phrase
  /// The strategies that read it; empty for the exploration's own keys. Shown before the help.
  std::vector<std::string> strategies{};
  /// The command-line option that overrides it, e.g. "--max-steps"; for a boolean key it is a
  /// switch that sets `switch_value`, described by `switch_help`.
  std::string flag{};
  std::string value_name{};  ///< the option's value in --help, e.g. "N"
  bool switch_value = false;
  std::string switch_help{};

  /// "<strategies>: <help>" (or just the help): the meaning, as the schema and the docs give it.
  std::string description() const;
  /// "1 to 1000", "0 to 10000000"; "" for an unbounded unsigned key and the others.
  std::string range_text() const;
  /// The option's help in --help: the description as a sentence, and the range (for a boolean
  /// key, the switch's help as a sentence).
  std::string option_help() const;
  /// The value of this key in `settings`, as JSON.
  nlohmann::json value_in(const ExplorationSettings& settings) const;
  /// Sets this key of `settings` to `value` (already checked against the type and range).
  void assign(ExplorationSettings& settings, const nlohmann::json& value) const;
};

/// The table: strategy, seed, max_executions, max_steps, time_budget_seconds, all_violations,
/// minimize, decompose, split_depth, split_after, portfolio_executions, then the strategy
/// registry's parameters in its order (state_memory_mb, audit_period, max_preemptions, pct_depth,
/// pct_steps).
const std::vector<ExplorationKey>& exploration_keys();

nlohmann::json to_json(const ExplorationSettings& s);
/// Reads an "exploration" object (every key optional, defaults from `defaults`). Unknown keys,
/// wrong types, out-of-range values and unknown strategies are InputErrors with the JSON path.
ExplorationSettings exploration_from_json(const JsonReader& r,
                                          const ExplorationSettings& defaults = {});

/// Command-line overrides of a scenario's exploration settings: key -> value, for the keys whose
/// option was given (already checked against the key's type and range). Unset ones keep the
/// scenario's. (The options themselves: reports/cli/exploration_options.hpp.)
struct ExplorationOverrides {
  std::map<std::string, nlohmann::json, std::less<>> values;
};

ExplorationSettings apply_overrides(ExplorationSettings settings, const ExplorationOverrides& o);

/// The names the strategy key takes: "portfolio" (the default), then strategy_names().
std::vector<std::string> exploration_strategy_names();
bool is_portfolio(const ExplorationSettings& settings);
/// The settings of the single strategy that stands for them where one search runs alone (a
/// decomposed search's slices, a matrix cell, an estimate, the split of a search): for the
/// portfolio its exhaustive member (dpor), otherwise the settings themselves.
ExplorationSettings single_strategy(const ExplorationSettings& settings);
/// The strategy the settings name (for the portfolio: its exhaustive member, after every member
/// is checked). Throws UsageError for impossible parameters.
std::unique_ptr<Strategy> make_strategy_for(const ExplorationSettings& settings);
/// The options of the search below each prefix when the settings' strategy is split
/// (split_depth > 0); nullopt for a strategy that cannot be split.
std::optional<DporStrategy::Options> split_options_for(const ExplorationSettings& settings);
/// The engine options (bounds, budgets, stop at first violation) of the settings.
ExploreOptions explore_options_for(const ExplorationSettings& settings);

// ---- derived documents (held against the shipped files by tests/cli/test_exploration.cpp) ----

/// The JSON Schema of the "exploration" object: scenario.schema.json's $defs/exploration.
nlohmann::ordered_json exploration_schema();
/// The Markdown table of the exploration keys in docs/scenario-format.md.
std::string exploration_keys_markdown();
/// The Markdown table of the exploration options of `interleave check` in docs/cli.md.
std::string exploration_options_markdown();
/// The Markdown table of the strategies in docs/strategies.md.
std::string strategies_markdown();
/// The Markdown table of the portfolio's members in docs/strategies.md.
std::string portfolio_markdown();

}  // namespace interleave::run
