// The portfolio (explorer/search/portfolio.hpp) against its members run alone: on random programs it
// violates the properties DPOR alone violates and holds where DPOR alone holds, its DPOR member
// runs the same complete executions as DPOR alone, its result is byte-identical with 1, 2 or 4
// threads, and the counterexample it reports is the one the round-and-rank rule names, computed
// here from each member run alone.
#include "explorer/search/portfolio.hpp"
#include "explorer/search/split.hpp"
#include "reports/trace/trace.hpp"  // to_json(ExplorationResult)
#include "tests/strategies/oracle.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <set>

using namespace interleave;
using namespace interleave::test;

namespace {

// The random program, with a sink per thread (the members run on several threads).
Program threaded(const RandomProgram& rp) {
  return [&rp](Execution& ex) {
    thread_local Sink s;
    rp.program (&s)(ex);
  };
}

ExploreOptions options(bool all_violations) {
  ExploreOptions o;
  o.max_steps = 200;
  o.stop_on_first_violation = !all_violations;
  return o;
}

std::set<std::string> properties(const ExplorationResult& r) {
  std::set<std::string> p;
  for (const Counterexample& c : r.counterexamples)
    p.insert(c.invariant);
  return p;
}

// A small portfolio: the literature's members with small caps, so that the rounds interleave
// them on programs of a few hundred executions.
PortfolioOptions small_portfolio(std::uint64_t cap, std::uint64_t quantum) {
  PortfolioOptions p;
  p.members = default_portfolio();
  for (PortfolioMember& m : p.members) {
    // DPOR's share of a round is `quantum`, each bug finder's half of it, as in the default.
    m.quantum = m.executions == 0 ? quantum : std::max<std::uint64_t>(1, quantum / 2);
    if (m.executions != 0) m.executions = cap;
  }
  p.seed = 7;
  return p;
}

ExplorationResult dpor_alone(const Program& program, const ExploreOptions& o) {
  Explorer ex(program, o);
  DporStrategy dpor;
  return ex.explore(dpor);
}

}  // namespace

TEST_CASE("portfolio: the verdict and the violated properties of DPOR alone", "[portfolio]") {
  std::uint64_t violating = 0, holding = 0;
  for (auto shape : {RandomProgram::Shape::kSmall, RandomProgram::Shape::kWaits,
                     RandomProgram::Shape::kInvariants}) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      RandomProgram rp(seed, shape);
      const Program program = threaded(rp);
      INFO("seed " << seed << ": " << rp.describe());
      const ExplorationResult alone = dpor_alone(program, options(true));
      const PortfolioResult p = explore_portfolio(program, options(true), small_portfolio(50, 8));
      CHECK(p.result.verdict == alone.verdict);
      CHECK(properties(p.result) == properties(alone));
      // Its DPOR member ran to the end: the same complete executions as DPOR alone.
      REQUIRE(p.members.size() == default_portfolio().size());
      CHECK(p.members[0].stats.completed == alone.stats.completed);
      CHECK(p.members[0].stats.executions == alone.stats.executions);
      // The stats are the members' sum.
      std::uint64_t executions = 0;
      for (const auto& m : p.members)
        executions += m.stats.executions;
      CHECK(p.result.stats.executions == executions);
      CHECK(p.result.strategy == "portfolio");
      if (alone.verdict == Verdict::kHolds) {
        ++holding;
        CHECK(p.result.detail == alone.detail);
      } else {
        ++violating;
      }
    }
  }
  CHECK(violating >= 20);
  CHECK(holding >= 20);
}

TEST_CASE("portfolio: byte-identical with 1, 2 and 4 threads", "[portfolio]") {
  std::uint64_t compared = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    RandomProgram rp(seed, RandomProgram::Shape::kWaits);
    const Program program = threaded(rp);
    for (bool all : {false, true}) {
      PortfolioOptions p = small_portfolio(30, 4);
      p.jobs = 1;
      const PortfolioResult a = explore_portfolio(program, options(all), p);
      if (a.result.counterexamples.empty()) continue;
      ++compared;
      for (unsigned jobs : {2u, 4u}) {
        p.jobs = jobs;
        const PortfolioResult b = explore_portfolio(program, options(all), p);
        INFO("seed " << seed << ", all violations " << all << ", " << jobs << " threads");
        CHECK(to_json(b.result, false).dump() == to_json(a.result, false).dump());
        CHECK(b.counterexample_member == a.counterexample_member);
        CHECK(b.counterexample_round == a.counterexample_round);
        CHECK(b.rounds == a.rounds);
      }
    }
  }
  CHECK(compared >= 20);
}

TEST_CASE("portfolio: the counterexample is the earliest round's, the first member's in rank",
          "[portfolio]") {
  // Each member alone: the execution (1-based) of its first violation, 0 if none within its cap.
  // The portfolio reports the member with the smallest ceil(e / q) (q: its executions per round),
  // the first in rank among equals, and stops after that round.
  std::uint64_t checked = 0;
  std::set<std::size_t> winners;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    RandomProgram rp(seed, RandomProgram::Shape::kWaits);
    const Program program = threaded(rp);
    for (std::uint64_t quantum : {1u, 3u, 4u}) {
      const PortfolioOptions p = small_portfolio(40, quantum);
      std::uint64_t best_round = 0;
      std::size_t best = 0;
      for (std::size_t i = 0; i < p.members.size(); ++i) {
        StrategySpec spec = p.members[i].spec;
        spec.seed = p.seed;
        if (p.members[i].executions != 0) spec.executions = p.members[i].executions;
        auto strategy = make_strategy(spec);
        ExploreOptions o = options(false);
        o.minimize = false;
        o.max_executions = p.members[i].executions;
        Explorer ex(program, o);
        const ExplorationResult r = ex.explore(*strategy);
        if (r.counterexamples.empty()) continue;
        const std::uint64_t q = p.members[i].quantum;
        const std::uint64_t round = (r.stats.executions + q - 1) / q;
        if (best_round == 0 || round < best_round) {
          best_round = round;
          best = i;
        }
      }
      const PortfolioResult got = explore_portfolio(program, options(false), p);
      INFO("seed " << seed << ", quantum " << quantum << ": " << rp.describe());
      if (best_round == 0) {
        CHECK(got.result.counterexamples.empty());
        continue;
      }
      ++checked;
      winners.insert(best);
      REQUIRE(got.result.counterexamples.size() == 1);
      CHECK(got.counterexample_member.front() == best);
      CHECK(got.counterexample_round.front() == best_round);
      CHECK(got.rounds == best_round);
      CHECK(got.result.stopped_at_first_violation);
    }
  }
  CHECK(checked >= 40);
  CHECK(winners.size() >= 2);  // not always DPOR: the rule is exercised
}

TEST_CASE("portfolio: handed over to a split search, the verdict of the split", "[portfolio]") {
  std::uint64_t handed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    RandomProgram rp(seed, RandomProgram::Shape::kSmall);
    const Program program = threaded(rp);
    const ExplorationResult alone = dpor_alone(program, options(true));
    PortfolioOptions p = small_portfolio(2, 1);
    p.jobs = 2;
    std::uint64_t split_executions = 0, split_completed = 0;
    p.hand_over = [&](const ExploreOptions& o) {
      SplitOptions split;
      split.depth = 2;
      split.jobs = 2;
      SplitResult r = explore_split(program, o, {}, split);
      split_executions = r.result.stats.executions;
      split_completed = r.result.stats.completed;
      return std::move(r.result);
    };
    const PortfolioResult got = explore_portfolio(program, options(true), p);
    INFO("seed " << seed << ": " << rp.describe());
    CHECK(got.result.verdict == alone.verdict);
    CHECK(properties(got.result) == properties(alone));
    if (!got.handed_over) continue;
    ++handed;
    CHECK(split_completed == alone.stats.completed);  // each trace once, as DPOR alone
    std::uint64_t members = 0;
    for (const auto& m : got.members)
      members += m.stats.executions;
    CHECK(got.result.stats.executions == members + split_executions);
  }
  CHECK(handed >= 10);
}

TEST_CASE("portfolio: an interruption, a budget and impossible portfolios", "[portfolio]") {
  RandomProgram rp(3, RandomProgram::Shape::kSmall);
  const Program program = threaded(rp);
  std::atomic<bool> stop{true};
  ExploreOptions o = options(true);
  o.stop = &stop;
  const PortfolioResult interrupted = explore_portfolio(program, o, small_portfolio(10, 2));
  CHECK(interrupted.result.verdict == Verdict::kIncomplete);
  CHECK(interrupted.result.interrupted);
  CHECK(interrupted.result.detail == "interrupted");

  // A budget smaller than DPOR's search, on a program that holds: incomplete, naming it.
  std::uint64_t budgeted = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    RandomProgram big(seed, RandomProgram::Shape::kPlain);
    const Program plain = threaded(big);
    const ExplorationResult alone = dpor_alone(plain, options(true));
    if (alone.verdict != Verdict::kHolds || alone.stats.executions <= 3) continue;
    ++budgeted;
    ExploreOptions budget = options(true);
    budget.max_executions = 3;
    const PortfolioResult cut = explore_portfolio(plain, budget, small_portfolio(10, 2));
    for (const auto& m : cut.members)
      CHECK(m.stats.executions <= 3);
    CHECK(cut.result.verdict == Verdict::kIncomplete);
    CHECK(cut.result.detail == "the execution budget (3 executions) ran out");
  }
  CHECK(budgeted >= 5);

  PortfolioOptions bad = small_portfolio(10, 2);
  std::swap(bad.members[0], bad.members[2]);  // pct first: it cannot prove anything
  CHECK_THROWS_WITH(explore_portfolio(program, options(true), bad),
                    "portfolio: the first member (pct depth 2) must be an exhaustive strategy");
  bad = small_portfolio(10, 2);
  bad.jobs = 0;
  CHECK_THROWS_WITH(explore_portfolio(program, options(true), bad),
                    "portfolio: jobs must be at least 1");
  bad = small_portfolio(10, 2);
  bad.quantum = 0;
  CHECK_THROWS_WITH(explore_portfolio(program, options(true), bad),
                    "portfolio: quantum must be at least 1");
  bad = {};
  bad.members.clear();
  CHECK_THROWS_WITH(explore_portfolio(program, options(true), bad), "portfolio: no members");
}

TEST_CASE("portfolio: an exploration in slices explores what one run to the end does",
          "[portfolio]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RandomProgram rp(seed, RandomProgram::Shape::kWaits);
    const Program program = threaded(rp);
    const ExplorationResult whole = dpor_alone(program, options(true));
    Explorer ex(program, options(true));
    DporStrategy dpor;
    Exploration sliced(ex, dpor);
    std::uint64_t slices = 0;
    while (sliced.run(1 + seed % 3))
      ++slices;
    const ExplorationResult r = sliced.finish();
    INFO("seed " << seed);
    CHECK(to_json(r, false).dump() == to_json(whole, false).dump());
    CHECK(slices + 1 >= whole.stats.executions / (1 + seed % 3));
  }
}
