// Coverage goals: a "holds" verdict is only meaningful if the dangerous situation was explored.
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/strategies/factory.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

TEST_CASE("coverage goals count the executions that reached them", "[coverage]") {
  // A and B each write once; "B saw A's write" is reached only when A goes first: 1 of 2.
  auto prog = [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("A", [&x](Actor& a) { x.write(a, "A.set", 1); });
    ex.spawn("B", [&x](Actor& a) {
      if (x.read(a, "B.get") == 1) {
        a.cover("B saw A's write");
        a.cover("B saw A's write");  // once per execution
      }
      a.cover("B ran");
    });
  };
  auto r = test::explore_dfs(prog);
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.covered == std::map<std::string, std::uint64_t>{{"B ran", 2}, {"B saw A's write", 1}});
}

TEST_CASE("strategies are built by name, unknown names are refused", "[factory]") {
  CHECK(make_strategy({"dfs", 0, 1})->name() == "dfs");
  CHECK(make_strategy({"random", 3, 10})->name() == "random");
  CHECK_THROWS_WITH(make_strategy({"nope", 0, 1}),
                    Catch::StartsWith("unknown strategy 'nope' (known: dfs, random"));
  CHECK_THROWS_WITH(make_strategy({"random", 0, 0}), "random: executions must be at least 1");
}
