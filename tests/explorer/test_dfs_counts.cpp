// Exact execution counts under exhaustive DFS (plain interleaving enumeration, no reduction).
//
// k actors with n_1..n_k independent steps have (n_1 + ... + n_k)! / (n_1! ... n_k!)
// interleavings (the multinomial coefficient):
//   one actor, k steps            -> 1
//   two actors, 5 and 5 steps     -> 10! / (5! 5!)      = 252
//   two actors, 3 and 2 steps     -> 5! / (3! 2!)       = 10
//   three actors, 2 steps each    -> 6! / (2! 2! 2!)    = 90
//   2 + 2 steps, one choose(3)    -> 3 * 4! / (2! 2!)   = 3 * 6 = 18
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dfs.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace interleave;

namespace {

// Each actor does `steps` writes to its own object, so no step depends on another actor's.
Program independent(std::vector<int> steps_per_actor) {
  return [steps_per_actor](Execution& ex) {
    for (std::size_t i = 0; i < steps_per_actor.size(); ++i) {
      const ObjectId own = ex.object("x" + std::to_string(i));
      const int n = steps_per_actor[i];
      ex.spawn("A" + std::to_string(i), [own, n](Actor& a) {
        for (int s = 0; s < n; ++s)
          a.step("w", {write(own)});
      });
    }
  };
}

}  // namespace

TEST_CASE("one actor with k steps has exactly one execution", "[dfs][counts]") {
  for (int k : {0, 1, 7}) {
    auto r = test::explore_dfs(independent({k}));
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 1);
    CHECK(r.stats.completed == 1);
    CHECK(r.stats.steps == static_cast<std::uint64_t>(k));
  }
}

TEST_CASE("two actors with a and b steps have C(a+b, a) executions", "[dfs][counts]") {
  CHECK(test::explore_dfs(independent({5, 5})).stats.completed == 252);
  CHECK(test::explore_dfs(independent({3, 2})).stats.completed == 10);
  CHECK(test::explore_dfs(independent({1, 1})).stats.completed == 2);
  CHECK(test::explore_dfs(independent({4, 0})).stats.completed == 1);
}

TEST_CASE("three actors with two steps each have 6!/(2!2!2!) = 90 executions", "[dfs][counts]") {
  auto r = test::explore_dfs(independent({2, 2, 2}));
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.completed == 90);
  CHECK(r.stats.executions == 90);
  CHECK(r.stats.steps == 90 * 6);
}

TEST_CASE("a choose(3) in one actor of a 2+2 program gives 3 * 6 = 18 executions",
          "[dfs][counts]") {
  std::set<std::pair<int, std::string>> seen;  // (choice, order of steps): all distinct
  auto prog = [&seen](Execution& ex) {
    const ObjectId x = ex.object("x"), y = ex.object("y");
    auto& log = ex.make<std::string>();
    auto& chosen = ex.make<int>(-1);
    ex.spawn("A", [&, x](Actor& a) {
      a.step("a1", {write(x)});
      log += 'a';
      chosen = static_cast<int>(a.choose(3));
      a.step("a2", {write(x)});
      log += 'a';
    });
    ex.spawn("B", [&, y](Actor& a) {
      a.step("b1", {write(y)});
      log += 'b';
      a.step("b2", {write(y)});
      log += 'b';
    });
    ex.final_check("record", [&] {
      seen.insert({chosen, log});
      return Check{};
    });
  };
  auto r = test::explore_dfs(prog);
  CHECK(r.stats.completed == 18);
  CHECK(seen.size() == 18);
}
