#include "explorer/strategies/factory.hpp"

#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/pct.hpp"
#include "explorer/strategies/preemption_bound.hpp"
#include "explorer/strategies/random.hpp"
#include "explorer/strategies/stateful.hpp"

#include <stdexcept>

namespace interleave {

namespace {

constexpr std::uint64_t kMaxCount = 100'000'000;  // steps: the largest max_steps

std::vector<StrategyDescriptor> make_registry() {
  std::vector<StrategyDescriptor> r;
  r.push_back({.name = "dfs",
               .summary = "every interleaving and every choice value",
               .use = "small programs, cross-checking",
               .reach = StrategyReach::kExhaustive,
               .make = [](const StrategySpec&) { return std::make_unique<DfsStrategy>(); }});
  r.push_back({.name = "random",
               .summary = "uniformly random executions, one seed per execution",
               .use = "smoke tests",
               .reach = StrategyReach::kSampling,
               .seeded = true,
               .sampling = true,
               .make = [](const StrategySpec& s) {
                 return std::make_unique<RandomStrategy>(s.seed, s.executions);
               }});
  r.push_back({.name = "dpor",
               .summary = "one execution per Mazurkiewicz trace (optimal DPOR)",
               .use = "proving a property, finding every bug",
               .reach = StrategyReach::kExhaustive,
               .split = [] { return DporStrategy::Options{}; },
               .make = [](const StrategySpec&) { return std::make_unique<DporStrategy>(); }});
  r.push_back({.name = "dpor-all-writes",
               .summary = "one execution per trace of a coarser independence: every two "
                          "state-changing steps dependent",
               .use = "invariants whatever they read",
               .reach = StrategyReach::kExhaustive,
               .split =
                   [] {
                     DporStrategy::Options o;
                     o.dependency = DporStrategy::Dependency::kAllWrites;
                     return o;
                   },
               .make = [](const StrategySpec&) {
                 DporStrategy::Options o;
                 o.dependency = DporStrategy::Dependency::kAllWrites;
                 return std::make_unique<DporStrategy>(o);
               }});
  r.push_back({.name = "stateful",
               .summary = "every reachable state once: DFS with sleep sets and state caching",
               .use = "proving a property where many traces reach the same states",
               .reach = StrategyReach::kExhaustive,
               .stateful = true,
               .parameters = {{.key = "state_memory_mb",
                               .noun = "the visited table's memory",
                               .min = 1,
                               .max = 1 << 20,
                               .default_value = 1024,
                               .value_name = "MB",
                               .help = "the most the visited table takes (past it, new states "
                                       "are not stored: the search goes on, slower)"},
                              {.key = "audit_period",
                               .noun = "the audit period",
                               .min = 0,
                               .max = kMaxCount,
                               .default_value = PctStrategy::Options{}.steps,
                               .value_name = "K",
                               .help = "audit 1 state in K: a revisit replays and compares what "
                                       "followed the first visit (0: no audit)"}},
               .make = [](const StrategySpec& s) {
                 StatefulStrategy::Options o;
                 o.max_state_bytes = static_cast<std::size_t>(s.parameter("state_memory_mb"))
                                     << 20;
                 o.audit_period = s.parameter("audit_period");
                 return std::make_unique<StatefulStrategy>(o);
               }});
  r.push_back({.name = "preemption-bound",
               .summary = "every execution with at most k preemptions, k = 0, 1, ... in turn",
               .use = "large programs, shallow bugs first",
               .reach = StrategyReach::kBounded,
               .parameters = {{.key = "max_preemptions",
                               .noun = "the preemption bound",
                               .min = 0,
                               .max = 1000,
                               .default_value = PreemptionBoundStrategy::Options{}.max_preemptions,
                               .value_name = "N",
                               .help = "the largest bound (bounds 0..N are searched in turn, so "
                                       "the first violation found has the fewest preemptions)"}},
               .make = [](const StrategySpec& s) {
                 return std::make_unique<PreemptionBoundStrategy>(PreemptionBoundStrategy::Options{
                     static_cast<std::uint32_t>(s.parameter("max_preemptions")), true});
               }});
  r.push_back({.name = "pct",
               .summary = "random executions with a probabilistic guarantee for bugs of depth d",
               .use = "large programs, deep bugs",
               .reach = StrategyReach::kSampling,
               .seeded = true,
               .sampling = true,
               .parameters = {{.key = "pct_depth",
                               .noun = "depth",
                               .min = 1,
                               .max = 1000,
                               .default_value = PctStrategy::Options{}.depth,
                               .value_name = "D",
                               .help = "the bug depth d (d - 1 priority change points)"},
                              {.key = "pct_steps",
                               .noun = "steps",
                               .min = 0,
                               .max = kMaxCount,
                               .default_value = 0,
                               .value_name = "K",
                               .help = "the number of steps the change points fall in (0: "
                                       "learned from the first executions)"}},
               .make = [](const StrategySpec& s) {
                 return std::make_unique<PctStrategy>(PctStrategy::Options{
                     s.seed, s.executions, static_cast<std::uint32_t>(s.parameter("pct_depth")),
                     static_cast<std::uint32_t>(s.parameter("pct_steps")), 0});
               }});
  return r;
}

const StrategyParameter* find_parameter(std::string_view key) {
  for (const StrategyDescriptor& d : strategy_registry())
    for (const StrategyParameter& p : d.parameters)
      if (p.key == key) return &p;
  return nullptr;
}

}  // namespace

std::string default_strategy_name() {
  return "dpor";
}

const std::vector<StrategyDescriptor>& strategy_registry() {
  static const std::vector<StrategyDescriptor> registry = make_registry();
  return registry;
}

const StrategyDescriptor* find_strategy(std::string_view name) {
  for (const StrategyDescriptor& d : strategy_registry())
    if (d.name == name) return &d;
  return nullptr;
}

std::vector<StrategyParameter> strategy_parameters() {
  std::vector<StrategyParameter> all;
  for (const StrategyDescriptor& d : strategy_registry())
    for (const StrategyParameter& p : d.parameters)
      all.push_back(p);
  return all;
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const StrategyDescriptor& d : strategy_registry())
    names.emplace_back(d.name);
  return names;
}

std::uint64_t StrategySpec::parameter(std::string_view key) const {
  const StrategyParameter* p = find_parameter(key);
  if (p == nullptr)
    throw std::invalid_argument("unknown strategy parameter '" + std::string(key) + "'");
  const auto it = parameters.find(key);
  return it == parameters.end() ? p->default_value : it->second;
}

std::unique_ptr<Strategy> make_strategy(const StrategySpec& spec) {
  const StrategyDescriptor* d = find_strategy(spec.name);
  if (d == nullptr) {
    std::string known;
    for (const auto& n : strategy_names())
      known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown strategy '" + spec.name + "' (known: " + known + ")");
  }
  for (const auto& [key, value] : spec.parameters)
    if (find_parameter(key) == nullptr)
      throw std::invalid_argument("unknown strategy parameter '" + key + "'");
  const std::string who = std::string(d->name) + ": ";
  if (d->sampling && spec.executions == 0)
    throw std::invalid_argument(who + "executions must be at least 1");
  for (const StrategyParameter& p : d->parameters) {
    const std::uint64_t v = spec.parameter(p.key);
    if (v < p.min)
      throw std::invalid_argument(who + std::string(p.noun) + " must be at least " +
                                  std::to_string(p.min));
    if (v > p.max)
      throw std::invalid_argument(who + std::string(p.noun) + " must be at most " +
                                  std::to_string(p.max));
  }
  return d->make(spec);
}

}  // namespace interleave
