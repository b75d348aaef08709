// The strategy factory: names, defaults, parameters.
#include "explorer/strategies/factory.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

TEST_CASE("dpor is the default strategy", "[factory]") {
  CHECK(StrategySpec{}.name == "dpor");
  CHECK(make_strategy(StrategySpec{})->name() == "dpor");
}

TEST_CASE("every strategy is built by its name", "[factory]") {
  CHECK(strategy_names() == std::vector<std::string>{"dfs", "random", "dpor", "dpor-all-writes",
                                                     "preemption-bound", "pct"});
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
  pct.pct_depth = 0;
  CHECK_THROWS_WITH(make_strategy(pct), "pct: depth must be at least 1");
  StrategySpec unknown;
  unknown.name = "optimal";
  CHECK_THROWS_WITH(make_strategy(unknown),
                    "unknown strategy 'optimal' (known: dfs, random, dpor, dpor-all-writes, "
                    "preemption-bound, pct)");
}
