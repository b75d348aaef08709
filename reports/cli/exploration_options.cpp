#include "reports/cli/exploration_options.hpp"

#include "explorer/core/json_reader.hpp"

#include <algorithm>
#include <string>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

void add_exploration_options(CLI::App& c, ExplorationOverrides& o) {
  std::string names;
  for (const std::string& n : exploration_strategy_names())
    names += (names.empty() ? "" : ", ") + n;
  for (const ExplorationKey& k : exploration_keys()) {
    const std::string key = k.key;
    const std::string range = k.range_text();
    const std::string help = k.option_help();
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
            k.flag, [&o, key, value] { o.values[key] = value; }, k.option_help());
        break;
      }
    }
  }
}

}  // namespace interleave::cli
