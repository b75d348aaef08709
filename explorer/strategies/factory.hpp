// The strategies that can be named (by the CLI, scenario files, tests and benchmarks): one table of
// descriptors, each declaring a strategy once (its name, what it explores, whether a search that
// ends without a violation proves anything, its parameters with their ranges, defaults and help,
// and how to build it). Everything that lists strategies or their parameters derives from this
// table: strategy_names(), make_strategy(), the command line's flags and the scenario keys under
// "exploration" (reports/run/exploration.hpp), `interleave list`, the JSON Schema of scenarios and
// the tables of docs/strategies.md, docs/scenario-format.md and docs/cli.md (tests hold the last
// two against it).
#pragma once

#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/pct.hpp"
#include "explorer/core/strategy.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace interleave {

/// The strategy of a StrategySpec that names none: dpor, the exhaustive member of the default
/// portfolio (explorer/search/portfolio.hpp), which the command line and scenarios run by default.
std::string default_strategy_name();

/// What a strategy needs to be built: its name, the exploration's seed and execution count (for
/// the strategies that use them), and the values of its parameters.
struct StrategySpec {
  std::string name = default_strategy_name();  ///< one of strategy_names()
  std::uint64_t seed = 0;           ///< seeded strategies (StrategyDescriptor::seeded): the seed
  /// Sampling strategies: how many executions (PCT's own default, the one of every sampler).
  std::uint64_t executions = PctStrategy::Options{}.executions;
  /// Parameters by key (StrategyParameter::key); one not given has its default. Keys of other
  /// strategies' parameters are ignored; a key no strategy declares is refused by make_strategy.
  std::map<std::string, std::uint64_t, std::less<>> parameters{};

  /// The value of parameter `key` (its default if not given). Throws std::invalid_argument for a
  /// key no strategy declares.
  std::uint64_t parameter(std::string_view key) const;
};

/// A parameter of a strategy: an unsigned integer in [min, max].
struct StrategyParameter {
  std::string_view
      key{};  ///< scenario key exploration.<key>, trace option, flag --<key, '_' -> '-'>
  std::string_view noun{};  ///< how messages name it: "<strategy>: <noun> must be at least <min>"
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  std::uint64_t default_value = 0;
  std::string_view value_name{};  ///< the value in --help, e.g. "D" in "--pct-depth D"
  std::string_view help{};        ///< what it means, one phrase (no strategy name, no range)
};

/// What a search that ends without finding a violation may conclude.
enum class StrategyReach : std::uint8_t {
  kExhaustive,  ///< every behaviour (up to equivalence): "holds"
  kBounded,     ///< the behaviours within a bound: "incomplete", or "holds" if it cut nothing
  kSampling,    ///< some sampled behaviours: always "incomplete"
};

struct StrategyDescriptor {
  std::string_view name{};
  std::string_view summary{};  ///< what it explores, one phrase
  std::string_view use{};      ///< what it is for, one phrase
  StrategyReach reach = StrategyReach::kExhaustive;
  bool seeded = false;    ///< it reads StrategySpec::seed (the exploration's seed)
  bool sampling = false;  ///< it runs StrategySpec::executions executions (max_executions)
  /// It keeps the states it explored (explorer/core/fingerprint.hpp) and prunes revisits: the program
  /// must declare its state (Execution::fingerprint, Actor::declare_locals).
  bool stateful = false;
  std::vector<StrategyParameter> parameters{};
  /// The DPOR strategies: the options of the search below each prefix when the search is split
  /// (explorer/search/split.hpp: threads, shards). Null for a strategy that cannot be split.
  std::function<DporStrategy::Options()> split{};
  /// Builds it; the spec's parameters are already checked against their ranges.
  std::function<std::unique_ptr<Strategy>(const StrategySpec&)> make{};
};

/// The table, in the order strategies are listed: dfs, random, dpor, dpor-all-writes, stateful,
/// preemption-bound, pct. (replay is not in it: it needs a schedule, see replay.hpp.)
const std::vector<StrategyDescriptor>& strategy_registry();
/// The descriptor named `name`, nullptr if none.
const StrategyDescriptor* find_strategy(std::string_view name);
/// Every parameter of the table, each once, in table order (keys are unique across strategies:
/// one key, one meaning).
std::vector<StrategyParameter> strategy_parameters();
/// The names of the table, in order:
///   dfs               every interleaving and every choice value (no reduction)
///   random            seeded random walk (never "holds")
///   dpor              optimal DPOR: one execution per Mazurkiewicz trace (the default)
///   dpor-all-writes   DPOR where all state-changing steps are dependent (sound for invariants
///                     whatever they read, less reduction)
///   stateful          DFS with sleep sets and state caching: every reachable state once (the
///                     program declares its state)
///   preemption-bound  every execution with at most max_preemptions preemptions, bound 0 first
///   pct               probabilistic concurrency testing, seeded (never "holds")
std::vector<std::string> strategy_names();
/// Builds the strategy `spec` names. Throws std::invalid_argument for an unknown name, a
/// parameter key no strategy declares, or a value out of its range (naming the strategy).
std::unique_ptr<Strategy> make_strategy(const StrategySpec& spec);

}  // namespace interleave
