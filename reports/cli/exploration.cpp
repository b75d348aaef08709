#include "reports/cli/exploration.hpp"

#include "reports/cli/errors.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <variant>

namespace interleave::cli {

using nlohmann::json;

namespace {

constexpr std::uint64_t kNoMax = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxSteps = 100'000'000;
// Deeper than this, the prefixes outnumber any use of them (each is one execution to enumerate).
constexpr std::uint64_t kMaxSplitDepth = 1000;
constexpr double kMaxSeconds = 1e7;  // about 4 months

using Field = std::variant<std::string ExplorationSettings::*, std::uint64_t ExplorationSettings::*,
                           double ExplorationSettings::*, bool ExplorationSettings::*>;

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

struct Entry {
  ExplorationKey key;
  Field field;  // where ExplorationSettings keeps it; unused (null string member) for parameters
  bool parameter = false;
};

std::vector<Entry> make_table() {
  const ExplorationSettings defaults;
  std::vector<Entry> t;
  auto add = [&t](ExplorationKey k, Field f) { t.push_back(Entry{std::move(k), f, false}); };
  ExplorationKey k;

  k = {};
  k.key = "strategy";
  k.type = ExplorationKey::Type::kStrategy;
  k.default_value = defaults.strategy;
  k.help = "the exploration strategy, one of those `interleave list` shows: `portfolio` (the "
           "default) runs the bug finders beside DPOR, a strategy named runs alone";
  k.flag = "--strategy";
  k.value_name = "NAME";
  add(k, &ExplorationSettings::strategy);

  k = {};
  k.key = "seed";
  k.type = ExplorationKey::Type::kUnsigned;
  k.min = 0;
  k.max = kNoMax;
  k.default_value = defaults.seed;
  k.help =
      "the seed of the search (each execution's seed is derived from it and recorded in its "
      "counterexample's schedule)";
  k.strategies = list_where(is_seeded);
  k.flag = "--seed";
  k.value_name = "N";
  add(k, &ExplorationSettings::seed);

  k = {};
  k.key = "max_executions";
  k.type = ExplorationKey::Type::kUnsigned;
  k.min = 0;
  k.max = kNoMax;
  k.default_value = defaults.max_executions;
  k.help =
      "stop after this many executions (0: unlimited); reaching it makes the verdict "
      "incomplete. For " +
      join_and(list_where(is_sampling)) +
      ", also the number of executions (0: " + std::to_string(StrategySpec{}.executions) + ")";
  k.flag = "--max-executions";
  k.value_name = "N";
  add(k, &ExplorationSettings::max_executions);

  k = {};
  k.key = "max_steps";
  k.type = ExplorationKey::Type::kUnsigned;
  k.min = 1;
  k.max = kMaxSteps;
  k.default_value = defaults.max_steps;
  k.help = "steps per execution; a longer execution is cut and the verdict is incomplete";
  k.flag = "--max-steps";
  k.value_name = "N";
  add(k, &ExplorationSettings::max_steps);

  k = {};
  k.key = "time_budget_seconds";
  k.type = ExplorationKey::Type::kNumber;
  k.min_number = 0;
  k.max_number = kMaxSeconds;
  k.default_value = defaults.time_budget_seconds;
  k.help =
      "stop after this much wall time (0: unlimited); running out makes the verdict "
      "incomplete";
  k.flag = "--time-budget";
  k.value_name = "SECONDS";
  add(k, &ExplorationSettings::time_budget_seconds);

  k = {};
  k.key = "all_violations";
  k.type = ExplorationKey::Type::kBoolean;
  k.default_value = defaults.all_violations;
  k.help =
      "keep exploring after a violation and keep one counterexample per violated property; "
      "otherwise the search stops at the first violation";
  k.flag = "--all-violations";
  k.switch_value = true;
  k.switch_help = "keep exploring after a violation: one counterexample per violated property";
  add(k, &ExplorationSettings::all_violations);

  k = {};
  k.key = "minimize";
  k.type = ExplorationKey::Type::kBoolean;
  k.default_value = defaults.minimize;
  k.help =
      "minimise each counterexample before it is reported and written: the same property "
      "violated with the fewest preemptions, then the fewest steps";
  k.flag = "--no-minimize";
  k.switch_value = false;
  k.switch_help = "report each counterexample as found instead of minimising it";
  add(k, &ExplorationSettings::minimize);

  k = {};
  k.key = "decompose";
  k.type = ExplorationKey::Type::kBoolean;
  k.default_value = defaults.decompose;
  k.help =
      "decompose by owners: explore one slice per owner kind (the program with that owner "
      "alone) and report one verdict for the scenario, with counterexamples lifted to it (the "
      "model's argument: docs/model.md#owner-decomposition)";
  k.flag = "--decompose";
  k.switch_value = true;
  k.switch_help = "explore one slice per owner kind and combine their verdicts";
  add(k, &ExplorationSettings::decompose);

  k = {};
  k.key = "split_depth";
  k.type = ExplorationKey::Type::kUnsigned;
  k.min = 0;
  k.max = kMaxSplitDepth;
  k.default_value = defaults.split_depth;
  k.help =
      "split the search at this depth (steps) into prefixes searched independently, by --jobs "
      "threads or --shard processes (0: one search; with --jobs or --shard, the smallest depth "
      "with 8 prefixes); the result depends on the depth, never on the number of threads or "
      "shards";
  for (const StrategyDescriptor& d : strategy_registry())
    if (d.split) k.strategies.emplace_back(d.name);
  k.flag = "--split-depth";
  k.value_name = "D";
  add(k, &ExplorationSettings::split_depth);

  k = {};
  k.key = "split_after";
  k.type = ExplorationKey::Type::kUnsigned;
  k.min = 0;
  k.max = kNoMax;
  k.default_value = defaults.split_after;
  k.help =
      "in a split search, a prefix's search shares part of its subtree with idle threads every "
      "this many executions of its own (0: never): the alternatives DPOR scheduled at its "
      "shallowest open node at once, the others once the searches below that node are over; "
      "the output is the same for every number of threads "
      "(docs/strategies.md#the-split-search)";
  for (const StrategyDescriptor& d : strategy_registry())
    if (d.split) k.strategies.emplace_back(d.name);
  k.flag = "--split-after";
  k.value_name = "N";
  add(k, &ExplorationSettings::split_after);

  k = {};
  k.key = "portfolio_executions";
  k.type = ExplorationKey::Type::kUnsigned;
  k.min = 1;
  k.max = 100'000'000;
  k.default_value = defaults.portfolio_executions;
  k.help =
      "the executions each bug finder of the portfolio runs at most; once they are over DPOR "
      "goes on alone (docs/strategies.md#the-portfolio-the-default)";
  k.strategies = {std::string(kPortfolioName)};
  k.flag = "--portfolio-executions";
  k.value_name = "N";
  add(k, &ExplorationSettings::portfolio_executions);

  // The strategies' own parameters, from the registry.
  for (const StrategyDescriptor& d : strategy_registry()) {
    for (const StrategyParameter& p : d.parameters) {
      ExplorationKey pk;
      pk.key = std::string(p.key);
      pk.type = ExplorationKey::Type::kUnsigned;
      pk.min = p.min;
      pk.max = p.max;
      pk.default_value = p.default_value;
      pk.help = std::string(p.help);
      for (const StrategyDescriptor& user : strategy_registry())
        for (const StrategyParameter& q : user.parameters)
          if (q.key == p.key) pk.strategies.emplace_back(user.name);
      pk.flag = "--" + pk.key;
      std::replace(pk.flag.begin(), pk.flag.end(), '_', '-');
      pk.value_name = std::string(p.value_name);
      t.push_back(Entry{std::move(pk), &ExplorationSettings::strategy, true});
    }
  }
  return t;
}

const std::vector<Entry>& table() {
  static const std::vector<Entry> t = make_table();
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

// "1 to 1000", "0 to 10000000"; "" for an unbounded unsigned.
std::string range_text(const ExplorationKey& k) {
  if (k.type == ExplorationKey::Type::kUnsigned && k.max != kNoMax)
    return std::to_string(k.min) + " to " + std::to_string(k.max);
  if (k.type == ExplorationKey::Type::kNumber)
    return number_text(k.min_number) + " to " + number_text(k.max_number);
  return "";
}

// The description with the strategy names in backticks, for Markdown.
std::string markdown_description(const ExplorationKey& k) {
  if (k.strategies.empty()) return k.help;
  std::vector<std::string> quoted;
  for (const auto& s : k.strategies)
    quoted.push_back("`" + s + "`");
  return join(quoted, ", ") + ": " + k.help;
}

// The option's help: the description as a sentence, and the range.
std::string option_help(const ExplorationKey& k) {
  std::string h = k.description();
  if (k.strategies.empty()) h = capitalised(h);
  const std::string range = range_text(k);
  return range.empty() ? h : h + " (range: " + range + ")";
}

template <class T>
void assign(ExplorationSettings& s, T ExplorationSettings::*member, const json& v) {
  s.*member = v.get<T>();
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
  static const std::vector<ExplorationKey> keys = [] {
    std::vector<ExplorationKey> v;
    for (const Entry& e : table())
      v.push_back(e.key);
    return v;
  }();
  return keys;
}

json to_json(const ExplorationSettings& s) {
  json j = json::object();
  for (const Entry& e : table()) {
    if (e.parameter) {
      j[e.key.key] = s.parameter(e.key.key);
      continue;
    }
    std::visit([&](auto member) { j[e.key.key] = s.*member; }, e.field);
  }
  return j;
}

ExplorationSettings exploration_from_json(const JsonReader& r,
                                          const ExplorationSettings& defaults) {
  std::vector<std::string> known;
  for (const Entry& e : table())
    known.push_back(e.key.key);
  r.expect_keys(known);
  ExplorationSettings s = defaults;
  for (const Entry& e : table()) {
    const ExplorationKey& k = e.key;
    if (e.parameter) {
      std::uint64_t& v = s.parameters[k.key];
      v = r.uint_or(k.key, v, k.min, k.max);
      continue;
    }
    switch (k.type) {
      case ExplorationKey::Type::kStrategy: {
        std::string& v = s.*std::get<std::string ExplorationSettings::*>(e.field);
        v = r.enum_or(k.key, v, exploration_strategy_names());
        break;
      }
      case ExplorationKey::Type::kUnsigned: {
        std::uint64_t& v = s.*std::get<std::uint64_t ExplorationSettings::*>(e.field);
        v = r.uint_or(k.key, v, k.min, k.max);
        break;
      }
      case ExplorationKey::Type::kNumber: {
        double& v = s.*std::get<double ExplorationSettings::*>(e.field);
        v = r.number_or(k.key, v, k.min_number, k.max_number);
        break;
      }
      case ExplorationKey::Type::kBoolean: {
        bool& v = s.*std::get<bool ExplorationSettings::*>(e.field);
        v = r.bool_or(k.key, v);
        break;
      }
    }
  }
  return s;
}

ExplorationSettings apply_overrides(ExplorationSettings s, const ExplorationOverrides& o) {
  for (const Entry& e : table()) {
    const auto it = o.values.find(e.key.key);
    if (it == o.values.end()) continue;
    const json& v = it->second;
    if (e.parameter) {
      s.parameters[e.key.key] = v.get<std::uint64_t>();
      continue;
    }
    std::visit([&](auto member) { assign(s, member, v); }, e.field);
  }
  return s;
}

void add_exploration_options(CLI::App& c, ExplorationOverrides& o) {
  const std::string names = join(exploration_strategy_names(), ", ");
  for (const Entry& e : table()) {
    const ExplorationKey& k = e.key;
    const std::string key = k.key;
    const std::string range = range_text(k);
    const std::string help = option_help(k);
    switch (k.type) {
      case ExplorationKey::Type::kStrategy:
        c.add_option_function<std::string>(
             k.flag, [&o, key](const std::string& v) { o.values[key] = v; },
             "Exploration strategy (default: the scenario's, else " +
                 std::string(kPortfolioName) + "); one of: " + names)
            ->type_name(k.value_name)
            ->check(CLI::Validator(
                [names](std::string& v) -> std::string {
                  const auto known = exploration_strategy_names();
                  if (std::find(known.begin(), known.end(), v) != known.end()) return "";
                  return "unknown strategy '" + v + "'" + did_you_mean(v, known) +
                         "; known: " + names;
                },
                "", "strategy"));
        break;
      case ExplorationKey::Type::kUnsigned: {
        CLI::Option* opt =
            c.add_option_function<std::uint64_t>(
                 k.flag, [&o, key](const std::uint64_t& v) { o.values[key] = v; }, help)
                ->type_name(k.value_name)
                ->check(CLI::NonNegativeNumber.description(""));
        if (!range.empty()) opt->check(CLI::Range(k.min, k.max).description(""));
        break;
      }
      case ExplorationKey::Type::kNumber:
        c.add_option_function<double>(
             k.flag, [&o, key](const double& v) { o.values[key] = v; }, help)
            ->type_name(k.value_name)
            ->check(CLI::Range(k.min_number, k.max_number).description(""));
        break;
      case ExplorationKey::Type::kBoolean: {
        const bool value = k.switch_value;
        c.add_flag_callback(
            k.flag, [&o, key, value] { o.values[key] = value; }, capitalised(k.switch_help));
        break;
      }
    }
  }
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
      case ExplorationKey::Type::kStrategy:
        p["type"] = "string";
        p["enum"] = exploration_strategy_names();
        break;
      case ExplorationKey::Type::kUnsigned:
        p["type"] = "integer";
        p["minimum"] = k.min;
        p["maximum"] = k.max;
        break;
      case ExplorationKey::Type::kNumber:
        p["type"] = "number";
        p["minimum"] = k.min_number;
        p["maximum"] = k.max_number;
        break;
      case ExplorationKey::Type::kBoolean:
        p["type"] = "boolean";
        break;
    }
    p["default"] = k.default_value;
    properties[k.key] = p;
  }
  nlohmann::ordered_json s;
  s["description"] =
      "How to explore. Every key is optional; command-line options override them. Derived from "
      "the table of reports/cli/exploration.cpp (the exploration's keys, then the parameters of "
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
      case ExplorationKey::Type::kStrategy:
        type = "string, one of the strategies";
        break;
      case ExplorationKey::Type::kUnsigned:
        type = k.max == kNoMax ? "integer ≥ " + std::to_string(k.min) : "integer, " + range_text(k);
        break;
      case ExplorationKey::Type::kNumber:
        type = "number, " + range_text(k);
        break;
      case ExplorationKey::Type::kBoolean:
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
    if (k.type == ExplorationKey::Type::kBoolean) {
      out += "| `" + k.flag + "` | " + default_text + " | " + k.switch_help + " (sets `" + k.key +
             "` to `" + (k.switch_value ? "true" : "false") + "`) |\n";
      continue;
    }
    const std::string range = range_text(k);
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

}  // namespace interleave::cli
