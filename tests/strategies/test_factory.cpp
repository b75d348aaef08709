// The strategy factory: names, defaults, parameters.
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/factory.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace interleave;

TEST_CASE("dpor is the default strategy", "[factory]") {
  CHECK(StrategySpec{}.name == "dpor");
  CHECK(make_strategy(StrategySpec{})->name() == "dpor");
}

TEST_CASE("every strategy is built by its name", "[factory]") {
  CHECK(strategy_names() == std::vector<std::string>{"dfs", "random", "dpor", "dpor-all-writes",
                                                     "stateful", "preemption-bound", "pct"});
  for (const auto& n : strategy_names()) {
    StrategySpec spec;
    spec.name = n;
    CHECK(make_strategy(spec)->name() == n);
  }
}

TEST_CASE("impossible parameters are refused", "[factory]") {
  StrategySpec pct;
  pct.name = "pct";
  pct.executions = 0;
  CHECK_THROWS_WITH(make_strategy(pct), "pct: executions must be at least 1");
  pct.executions = 10;
  pct.parameters["pct_depth"] = 0;
  CHECK_THROWS_WITH(make_strategy(pct), "pct: depth must be at least 1");
  StrategySpec unknown;
  unknown.name = "optimal";
  CHECK_THROWS_WITH(make_strategy(unknown),
                    "unknown strategy 'optimal' (known: dfs, random, dpor, dpor-all-writes, "
                    "stateful, preemption-bound, pct)");
}

TEST_CASE("the registry declares each parameter once, with its range", "[factory]") {
  std::set<std::string> keys;
  for (const StrategyParameter& p : strategy_parameters()) {
    INFO(p.key);
    CHECK(keys.insert(std::string(p.key)).second);  // one key, one meaning
    CHECK(p.min <= p.default_value);
    CHECK(p.default_value <= p.max);
    CHECK(!p.help.empty());
    CHECK(!p.value_name.empty());
  }
  CHECK(keys == std::set<std::string>{"audit_period", "max_preemptions", "pct_depth", "pct_steps",
                                         "state_memory_mb"});
  for (const StrategyDescriptor& d : strategy_registry()) {
    CHECK(find_strategy(d.name) == &d);
    CHECK(!d.summary.empty());
    // A sampling strategy never proves anything.
    if (d.sampling) CHECK(d.reach == StrategyReach::kSampling);
  }
  CHECK(find_strategy("replay") == nullptr);
  CHECK(default_strategy_name() == "dpor");
}

TEST_CASE("parameters: defaults, ranges and unknown keys", "[factory]") {
  StrategySpec spec;
  CHECK(spec.parameter("max_preemptions") == 2);
  CHECK(spec.parameter("pct_depth") == 3);
  CHECK_THROWS_WITH(spec.parameter("depth"), "unknown strategy parameter 'depth'");
  spec.name = "preemption-bound";
  spec.parameters["max_preemptions"] = 1001;
  CHECK_THROWS_WITH(make_strategy(spec),
                    "preemption-bound: the preemption bound must be at most 1000");
  spec.parameters["max_preemptions"] = 0;
  CHECK(make_strategy(spec)->name() == "preemption-bound");
  spec.parameters["max_preemption"] = 1;
  CHECK_THROWS_WITH(make_strategy(spec), "unknown strategy parameter 'max_preemption'");
  // Another strategy's parameter is ignored (the settings carry all of them).
  StrategySpec dfs{"dfs"};
  dfs.parameters["pct_depth"] = 0;
  CHECK(make_strategy(dfs)->name() == "dfs");
}

TEST_CASE("the example of docs/strategies.md builds and runs", "[factory][docs]") {
  // As in the docs ("Picking one in code"), on a small program: two writers of one object.
  const Program program = [](Execution& ex) {
    const ObjectId x = ex.object("x");
    for (const char* name : {"A", "B"})
      ex.spawn(name, [x](Actor& a) { a.step("w", {write(x)}); });
  };
  StrategySpec spec{"preemption-bound"};
  spec.parameters["max_preemptions"] = 3;
  std::unique_ptr<Strategy> s = make_strategy(spec);  // std::invalid_argument if out of range
  ExplorationResult r = Explorer(program).explore(*s);
  CHECK(r.verdict == Verdict::kHolds);  // the bound cut nothing
  CHECK(r.stats.completed == 2);
  DporStrategy dpor;  // the default: optimal DPOR
  DporStrategy coarse({DporStrategy::Dependency::kAllWrites});
  CHECK(Explorer(program).explore(dpor).stats.completed == 2);
  CHECK(Explorer(program).explore(coarse).stats.completed == 2);
  CHECK(coarse.name() == "dpor-all-writes");
}
