#include "reports/run/exploration.hpp"

#include "reports/run/errors.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <variant>

namespace interleave::run {

using nlohmann::json;

namespace {

constexpr std::uint64_t kNoMax = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxSteps = 100'000'000;
// Deeper than this, the prefixes outnumber any use of them (each is one execution to enumerate).
constexpr std::uint64_t kMaxSplitDepth = 1000;
constexpr double kMaxSeconds = 1e7;  // about 4 months

std::vector<std::string> list_where(bool (*has)(const StrategyDescriptor&)) {
  std::vector<std::string> v;
  for (const StrategyDescriptor& d : strategy_registry())
    if (has(d)) v.emplace_back(d.name);
  return v;
}
// "a", "a and b", "a, b and c".
std::string join_and(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i)
    s += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return s;
}
bool is_seeded(const StrategyDescriptor& d) {
  return d.seeded;
}
bool is_sampling(const StrategyDescriptor& d) {
  return d.sampling;
}
bool is_split(const StrategyDescriptor& d) {
  return static_cast<bool>(d.split);
}

using Type = ExplorationKey::Type;
using S = ExplorationSettings;

// The table: one row per key, naming where ExplorationSettings keeps its value. No row writes a
// default: each is ExplorationSettings{}'s (filled in below); the rows of the strategies'
// parameters come from the registry.
std::vector<ExplorationKey> make_table() {
  std::vector<ExplorationKey> t = {
      {.key = "strategy",
       .type = Type::kStrategy,
       .field = &S::strategy,
       .help = "the exploration strategy, one of those `interleave list` shows: `portfolio` (the "
               "default) runs the bug finders beside DPOR, a strategy named runs alone",
       .flag = "--strategy",
       .value_name = "NAME"},
      {.key = "seed",
       .type = Type::kUnsigned,
       .field = &S::seed,
       .min = 0,
       .max = kNoMax,
       .help = "the seed of the search (each execution's seed is derived from it and recorded in "
               "its counterexample's schedule)",
       .strategies = list_where(is_seeded),
       .flag = "--seed",
       .value_name = "N"},
      {.key = "max_executions",
       .type = Type::kUnsigned,
       .field = &S::max_executions,
       .min = 0,
       .max = kNoMax,
       .help = "stop after this many executions (0: unlimited); reaching it makes the verdict "
               "incomplete. For " +
               join_and(list_where(is_sampling)) + ", also the number of executions (0: " +
               std::to_string(StrategySpec{}.executions) + ")",
       .flag = "--max-executions",
       .value_name = "N"},
      {.key = "max_steps",
       .type = Type::kUnsigned,
       .field = &S::max_steps,
       .min = 1,
       .max = kMaxSteps,
       .help = "steps per execution; a longer execution is cut and the verdict is incomplete",
       .flag = "--max-steps",
       .value_name = "N"},
      {.key = "time_budget_seconds",
       .type = Type::kNumber,
       .field = &S::time_budget_seconds,
       .min_number = 0,
       .max_number = kMaxSeconds,
       .help = "stop after this much wall time (0: unlimited); running out makes the verdict "
               "incomplete",
       .flag = "--time-budget",
       .value_name = "SECONDS"},
      {.key = "all_violations",
       .type = Type::kBoolean,
       .field = &S::all_violations,
       .help = "keep exploring after a violation and keep one counterexample per violated "
               "property; otherwise the search stops at the first violation",
       .flag = "--all-violations",
       .switch_value = true,
       .switch_help =
           "keep exploring after a violation: one counterexample per violated property"},
      {.key = "minimize",
       .type = Type::kBoolean,
       .field = &S::minimize,
       .help = "minimise each counterexample before it is reported and written: the same "
               "property violated with the fewest preemptions, then the fewest steps",
       .flag = "--no-minimize",
       .switch_value = false,
       .switch_help = "report each counterexample as found instead of minimising it"},
      {.key = "decompose",
       .type = Type::kBoolean,
       .field = &S::decompose,
       .help = "decompose by owners: explore one slice per owner kind (the program with that "
               "owner alone) and report one verdict for the scenario, with counterexamples "
               "lifted to it (the model's argument: docs/model.md#owner-decomposition)",
       .flag = "--decompose",
       .switch_value = true,
       .switch_help = "explore one slice per owner kind and combine their verdicts"},
      {.key = "split_depth",
       .type = Type::kUnsigned,
       .field = &S::split_depth,
       .min = 0,
       .max = kMaxSplitDepth,
       .help = "split the search at this depth (steps) into prefixes searched independently, by "
               "--jobs threads or --shard processes (0: one search; with --jobs or --shard, the "
               "smallest depth with 8 prefixes); the result depends on the depth, never on the "
               "number of threads or shards",
       .strategies = list_where(is_split),
       .flag = "--split-depth",
       .value_name = "D"},
      {.key = "split_after",
       .type = Type::kUnsigned,
       .field = &S::split_after,
       .min = 0,
       .max = kNoMax,
       .help = "in a split search, a prefix's search shares part of its subtree with idle threads "
               "every this many executions of its own (0: never): the alternatives DPOR scheduled "
               "at its shallowest open node at once, the others once the searches below that node "
               "are over; the output is the same for every number of threads "
               "(docs/strategies.md#the-split-search)",
       .strategies = list_where(is_split),
       .flag = "--split-after",
       .value_name = "N"},
      {.key = "portfolio_executions",
       .type = Type::kUnsigned,
       .field = &S::portfolio_executions,
       .min = 1,
       .max = 100'000'000,
       .help = "the executions each bug finder of the portfolio runs at most; once they are over "
               "DPOR goes on alone (docs/strategies.md#the-portfolio-the-default)",
       .strategies = {std::string(kPortfolioName)},
       .flag = "--portfolio-executions",
       .value_name = "N"},
  };
  // The strategies' own parameters, from the registry (ExplorationSettings::parameters).
  for (const StrategyParameter& p : strategy_parameters()) {
    std::vector<std::string> users;
    for (const StrategyDescriptor& user : strategy_registry())
      for (const StrategyParameter& q : user.parameters)
        if (q.key == p.key) users.emplace_back(user.name);
    std::string flag = "--" + std::string(p.key);
    std::replace(flag.begin(), flag.end(), '_', '-');
    t.push_back({.key = std::string(p.key),
                 .type = Type::kUnsigned,
                 .min = p.min,
                 .max = p.max,
                 .help = std::string(p.help),
                 .strategies = std::move(users),
                 .flag = std::move(flag),
                 .value_name = std::string(p.value_name)});
  }
  const ExplorationSettings defaults;
  for (ExplorationKey& k : t)
    k.default_value = k.value_in(defaults);
  return t;
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string s;
  for (const auto& i : items)
    s += (s.empty() ? "" : sep) + i;
  return s;
}

std::string capitalised(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

// A number as people write it: 10000000, 0.5.
std::string number_text(double d) {
  const auto i = static_cast<long long>(d);
  return static_cast<double>(i) == d ? std::to_string(i) : json(d).dump();
}

// The description with the strategy names in backticks, for Markdown.
std::string markdown_description(const ExplorationKey& k) {
  if (k.strategies.empty()) return k.help;
  std::vector<std::string> quoted;
  for (const auto& s : k.strategies)
    quoted.push_back("`" + s + "`");
  return join(quoted, ", ") + ": " + k.help;
}

std::string value_text(const json& v) {
  if (v.is_number_float()) return number_text(v.get<double>());
  return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace

std::string ExplorationKey::description() const {
  if (strategies.empty()) return help;
  return join(strategies, ", ") + ": " + help;
}

std::string ExplorationKey::range_text() const {
  if (type == Type::kUnsigned && max != kNoMax)
    return std::to_string(min) + " to " + std::to_string(max);
  if (type == Type::kNumber) return number_text(min_number) + " to " + number_text(max_number);
  return "";
}

std::string ExplorationKey::option_help() const {
  if (type == Type::kBoolean) return capitalised(switch_help);
  std::string h = description();
  if (strategies.empty()) h = capitalised(h);
  const std::string range = range_text();
  return range.empty() ? h : h + " (range: " + range + ")";
}

json ExplorationKey::value_in(const ExplorationSettings& s) const {
  if (std::holds_alternative<std::monostate>(field)) return s.parameter(key);
  return std::visit(
      [&s](auto member) -> json {
        if constexpr (std::is_same_v<decltype(member), std::monostate>)
          return nullptr;
        else
          return s.*member;
      },
      field);
}

void ExplorationKey::assign(ExplorationSettings& s, const json& v) const {
  std::visit(
      [&](auto member) {
        if constexpr (std::is_same_v<decltype(member), std::monostate>)
          s.parameters[key] = v.get<std::uint64_t>();
        else
          s.*member = v.get<std::remove_reference_t<decltype(s.*member)>>();
      },
      field);
}

std::uint64_t ExplorationSettings::parameter(std::string_view key) const {
  const auto it = parameters.find(key);
  if (it == parameters.end())
    throw std::out_of_range("no strategy parameter '" + std::string(key) + "'");
  return it->second;
}

std::map<std::string, std::uint64_t, std::less<>> ExplorationSettings::default_parameters() {
  std::map<std::string, std::uint64_t, std::less<>> m;
  for (const StrategyParameter& p : strategy_parameters())
    m.emplace(std::string(p.key), p.default_value);
  return m;
}

const std::vector<ExplorationKey>& exploration_keys() {
  static const std::vector<ExplorationKey> keys = make_table();
  return keys;
}

json to_json(const ExplorationSettings& s) {
  json j = json::object();
  for (const ExplorationKey& k : exploration_keys())
    j[k.key] = k.value_in(s);
  return j;
}

ExplorationSettings exploration_from_json(const JsonReader& r,
                                          const ExplorationSettings& defaults) {
  std::vector<std::string> known;
  for (const ExplorationKey& k : exploration_keys())
    known.push_back(k.key);
  r.expect_keys(known);
  ExplorationSettings s = defaults;
  for (const ExplorationKey& k : exploration_keys()) {
    const json current = k.value_in(s);
    switch (k.type) {
      case Type::kStrategy:
        k.assign(s, r.enum_or(k.key, current.get<std::string>(), exploration_strategy_names()));
        break;
      case Type::kUnsigned:
        k.assign(s, r.uint_or(k.key, current.get<std::uint64_t>(), k.min, k.max));
        break;
      case Type::kNumber:
        k.assign(s, r.number_or(k.key, current.get<double>(), k.min_number, k.max_number));
        break;
      case Type::kBoolean:
        k.assign(s, r.bool_or(k.key, current.get<bool>()));
        break;
    }
  }
  return s;
}

ExplorationSettings apply_overrides(ExplorationSettings s, const ExplorationOverrides& o) {
  for (const ExplorationKey& k : exploration_keys()) {
    const auto it = o.values.find(k.key);
    if (it != o.values.end()) k.assign(s, it->second);
  }
  return s;
}

std::vector<std::string> exploration_strategy_names() {
  std::vector<std::string> names{std::string(kPortfolioName)};
  for (const auto& n : strategy_names())
    names.push_back(n);
  return names;
}

bool is_portfolio(const ExplorationSettings& settings) {
  return settings.strategy == kPortfolioName;
}

ExplorationSettings single_strategy(const ExplorationSettings& settings) {
  if (!is_portfolio(settings)) return settings;
  ExplorationSettings s = settings;
  s.strategy = default_portfolio().front().spec.name;
  return s;
}

std::unique_ptr<Strategy> make_strategy_for(const ExplorationSettings& settings) {
  if (is_portfolio(settings)) {
    try {  // the members' own parameters (a broken table is an internal error, not bad input)
      for (const PortfolioMember& m : default_portfolio())
        make_strategy(m.spec);
    } catch (const std::invalid_argument& e) {
      throw std::logic_error(std::string("the default portfolio: ") + e.what());
    }
    return make_strategy_for(single_strategy(settings));
  }
  StrategySpec spec;
  spec.name = settings.strategy;
  spec.seed = settings.seed;
  if (settings.max_executions != 0) spec.executions = settings.max_executions;
  for (const auto& [key, value] : settings.parameters)
    spec.parameters[key] = value;
  try {
    return make_strategy(spec);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("strategy: ") + e.what());
  }
}

std::optional<DporStrategy::Options> split_options_for(const ExplorationSettings& settings) {
  const StrategyDescriptor* d = find_strategy(single_strategy(settings).strategy);
  if (d == nullptr || !d->split) return std::nullopt;
  return d->split();
}

ExploreOptions explore_options_for(const ExplorationSettings& settings) {
  ExploreOptions o;
  o.max_steps = static_cast<std::size_t>(settings.max_steps);
  o.max_executions = settings.max_executions;
  o.time_budget_seconds = settings.time_budget_seconds;
  o.stop_on_first_violation = !settings.all_violations;
  o.minimize = settings.minimize;
  return o;
}

// ---------------------------------------------------------------- derived documents

nlohmann::ordered_json exploration_schema() {
  nlohmann::ordered_json properties = nlohmann::ordered_json::object();
  for (const ExplorationKey& k : exploration_keys()) {
    nlohmann::ordered_json p;
    p["description"] =
        (k.strategies.empty() ? capitalised(k.description()) : k.description()) + ".";
    switch (k.type) {
      case Type::kStrategy:
        p["type"] = "string";
        p["enum"] = exploration_strategy_names();
        break;
      case Type::kUnsigned:
        p["type"] = "integer";
        p["minimum"] = k.min;
        p["maximum"] = k.max;
        break;
      case Type::kNumber:
        p["type"] = "number";
        p["minimum"] = k.min_number;
        p["maximum"] = k.max_number;
        break;
      case Type::kBoolean:
        p["type"] = "boolean";
        break;
    }
    p["default"] = k.default_value;
    properties[k.key] = p;
  }
  nlohmann::ordered_json s;
  s["description"] =
      "How to explore. Every key is optional; command-line options override them. Derived from "
      "the table of reports/run/exploration.cpp (the exploration's keys, then the parameters of "
      "the strategy registry): tests/cli/test_exploration.cpp holds this section against it.";
  s["type"] = "object";
  s["additionalProperties"] = false;
  s["properties"] = properties;
  return s;
}

std::string exploration_keys_markdown() {
  std::string out = "| key | type | default | meaning |\n|---|---|---|---|\n";
  for (const ExplorationKey& k : exploration_keys()) {
    std::string type;
    switch (k.type) {
      case Type::kStrategy:
        type = "string, one of the strategies";
        break;
      case Type::kUnsigned:
        type = k.max == kNoMax ? "integer ≥ " + std::to_string(k.min) : "integer, " + k.range_text();
        break;
      case Type::kNumber:
        type = "number, " + k.range_text();
        break;
      case Type::kBoolean:
        type = "boolean";
        break;
    }
    out += "| `" + k.key + "` | " + type + " | `" + value_text(k.default_value) + "` | " +
           markdown_description(k) + " (option `" + k.flag + "`) |\n";
  }
  return out;
}

std::string exploration_options_markdown() {
  std::string out = "| option | default | meaning |\n|---|---|---|\n";
  for (const ExplorationKey& k : exploration_keys()) {
    const std::string default_text =
        "the scenario's `" + k.key + "`, else `" + value_text(k.default_value) + "`";
    if (k.type == Type::kBoolean) {
      out += "| `" + k.flag + "` | " + default_text + " | " + k.switch_help + " (sets `" + k.key +
             "` to `" + (k.switch_value ? "true" : "false") + "`) |\n";
      continue;
    }
    const std::string range = k.range_text();
    out += "| `" + k.flag + " " + k.value_name + "` | " + default_text + " | " +
           markdown_description(k) + (range.empty() ? "" : " (" + range + ")") + " |\n";
  }
  return out;
}

std::string strategies_markdown() {
  std::string out =
      "| name | explores | verdict when nothing fails | stateful | parameters | use it for |\n"
      "|---|---|---|---|---|---|\n"
      "| `portfolio` (default) | the bug finders beside `dpor`, in rounds (see below) | `holds` "
      "(from its `dpor` member) | no | `seed` | every scenario: bugs first, then the proof |\n";
  for (const StrategyDescriptor& d : strategy_registry()) {
    std::string verdict;
    switch (d.reach) {
      case StrategyReach::kExhaustive:
        verdict = "`holds`";
        break;
      case StrategyReach::kBounded:
        verdict = "`incomplete` (`holds` if the bound cut nothing)";
        break;
      case StrategyReach::kSampling:
        verdict = "`incomplete`";
        break;
    }
    std::vector<std::string> params;
    if (d.seeded) params.emplace_back("`seed`");
    if (d.sampling) params.emplace_back("`max_executions`");
    for (const StrategyParameter& p : d.parameters)
      params.push_back("`" + std::string(p.key) + "`");
    out += "| `" + std::string(d.name) + "` | " +
           std::string(d.summary) + " | " + verdict + " | " + (d.stateful ? "yes" : "no") + " | " +
           (params.empty() ? "none" : join(params, ", ")) + " | " + std::string(d.use) + " |\n";
  }
  return out;
}

std::string portfolio_markdown() {
  std::string out =
      "| rank | member | strategy | parameters | executions | per round |\n"
      "|---|---|---|---|---|---|\n";
  std::size_t rank = 0;
  for (const PortfolioMember& m : default_portfolio()) {
    std::vector<std::string> params;
    for (const auto& [key, value] : m.spec.parameters)
      params.push_back("`" + key + "` = " + std::to_string(value));
    out += "| " + std::to_string(++rank) + " | " + m.label + " | `" + m.spec.name + "` | " +
           (params.empty() ? "none" : join(params, ", ")) + " | " +
           (m.executions == 0 ? std::string("until it is over") : std::to_string(m.executions)) +
           " | " + std::to_string(m.quantum) + " |\n";
  }
  return out;
}

}  // namespace interleave::run
