// Each default of the engine is declared once; where a struct keeps its own copy (an options
// struct of its own layer), these tests hold the copies equal to the one declaration.
#include "explorer/search/estimate.hpp"
#include "explorer/core/execution.hpp"
#include "explorer/search/explorer.hpp"
#include "explorer/search/minimize.hpp"
#include "explorer/search/portfolio.hpp"
#include "explorer/strategies/factory.hpp"
#include "explorer/strategies/pct.hpp"
#include "explorer/strategies/preemption_bound.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

TEST_CASE("every max_steps of the engine defaults to kDefaultMaxSteps", "[defaults]") {
  CHECK(ExecutionOptions{}.max_steps == kDefaultMaxSteps);
  CHECK(ExploreOptions{}.max_steps == kDefaultMaxSteps);
  CHECK(MinimizeOptions{}.max_steps == kDefaultMaxSteps);
  CHECK(EstimateOptions{}.max_steps == kDefaultMaxSteps);
}

TEST_CASE("the registry's defaults are the strategies' own", "[defaults]") {
  const StrategySpec spec;
  CHECK(spec.parameter("max_preemptions") == PreemptionBoundStrategy::Options{}.max_preemptions);
  CHECK(spec.parameter("pct_depth") == PctStrategy::Options{}.depth);
  CHECK(spec.parameter("pct_steps") == PctStrategy::Options{}.steps);
  CHECK(spec.executions == PctStrategy::Options{}.executions);
}

TEST_CASE("the default strategy of a spec is the default portfolio's exhaustive member",
          "[defaults]") {
  // The command line runs the portfolio by default; a spec that names no strategy, and every
  // search that stands for the portfolio alone (a slice, a shard), runs its DPOR member.
  const PortfolioMember& exhaustive = default_portfolio().front();
  CHECK(exhaustive.executions == 0);
  CHECK(exhaustive.spec.name == default_strategy_name());
  CHECK(StrategySpec{}.name == default_strategy_name());
}
