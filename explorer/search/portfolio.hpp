// A portfolio: the bug finders (preemption bounding, PCT at a few depths, random walks) run side by
// side with an exhaustive DPOR search, so a shallow bug is found in seconds while DPOR goes on
// towards a proof. It works with any program.
//
// Determinism. The members run in rounds: in each round every member that is not over runs its
// own fixed number of executions (PortfolioMember::quantum), the members of a round spread over
// the threads; after a round the calling thread looks at what the round found, member by member in
// the table's order (the rank). So a property's counterexample is the one found in the earliest
// round by the member ranked first that found it in that round, whatever the thread timing, and
// every count is the same with 1 thread or 16. A member that finds a violation stops at it (when
// the first one stops the search); the others finish their round, so that what they ran does not
// depend on timing either.
//
// Verdicts stay honest: a violation as soon as any member finds one (the search stops after that
// round unless every violation is wanted); "holds" only from the exhaustive member (members[0])
// searched to its end; otherwise incomplete, naming why (interrupted, a budget). The bug finders
// run a capped number of executions each; once they are over, the exhaustive member goes on alone,
// or is handed over (PortfolioOptions::hand_over: e.g. to a split search on every thread).
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/strategies/factory.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace interleave {

/// How scenarios, the command line and reports name the portfolio.
inline constexpr std::string_view kPortfolioName = "portfolio";

/// A member of a portfolio: a strategy of the registry with its parameters, and how many
/// executions it may run (its own cap).
struct PortfolioMember {
  std::string label;  ///< how reports name it, e.g. "pct depth 2"
  /// The strategy and its parameters; a seeded one takes the portfolio's seed, a sampling one
  /// runs `executions` executions.
  StrategySpec spec;
  /// 0: no cap (the exhaustive member); otherwise the member stops after this many executions
  /// (ExploreOptions::max_executions also caps every member).
  std::uint64_t executions = 0;
  /// Executions per round (0: PortfolioOptions::quantum): the member's share of a round.
  std::uint64_t quantum = 0;
};

/// The default portfolio, in rank order (docs/strategies.md shows it as a table derived from this
/// one, held against it by tests/strategies/test_portfolio.cpp):
///   dpor                    the exhaustive member: only it can make the verdict "holds"
///   preemption-bound 0..2   every execution with at most 0, then 1, then 2 preemptions
///   pct depth 2, 3, 5       PCT samples for bugs of depth 2, 3 and 5
///   random                  random walks
/// each bug finder capped at kPortfolioBugFinderExecutions executions. Per round DPOR runs
/// kPortfolioQuantum executions and each bug finder kPortfolioBugFinderQuantum: the five bug
/// finders together about as many as DPOR, so that on two threads DPOR goes at most a quarter
/// slower than alone, and on one thread at most 2.25 times.
const std::vector<PortfolioMember>& default_portfolio();
inline constexpr std::uint64_t kPortfolioBugFinderExecutions = 20'000;
inline constexpr std::uint64_t kPortfolioQuantum = 256;
inline constexpr std::uint64_t kPortfolioBugFinderQuantum = 64;

struct PortfolioOptions {
  /// In rank order; members[0] must be an exhaustive strategy (StrategyReach::kExhaustive).
  std::vector<PortfolioMember> members = default_portfolio();
  std::uint64_t seed = 0;  ///< the seed of the seeded members
  unsigned jobs = 1;       ///< threads a round's members spread over (at least 1)
  /// Executions per round of a member whose quantum is 0 (at least 1).
  std::uint64_t quantum = kPortfolioQuantum;
  /// When the bug finders are over and the exhaustive member is not, it is stopped and this
  /// searches the program alone from the start instead (e.g. explore_split on every thread),
  /// under the options it is given (the portfolio's, with on_counterexample and on_progress
  /// wrapped). Its executions count in the stats besides the stopped member's. Null: the member
  /// goes on alone.
  std::function<ExplorationResult(const ExploreOptions&)> hand_over;
  /// Called instead of ExploreOptions::on_counterexample, with the label of the member that found
  /// it ("<exhaustive member's label>, handed over" for the hand-over search). Null: that one.
  std::function<void(const Counterexample&, const Stats&, const std::string& found_by)>
      on_counterexample;
};

struct PortfolioResult {
  /// strategy "portfolio"; the counterexamples in the order they were reported.
  ExplorationResult result;
  struct Member {
    std::string label;
    Stats stats;
    std::string detail;  ///< how its search ended ("" while it was still running)
    bool over = false;   ///< it ran to its end (or its cap, or its first violation)
  };
  std::vector<Member> members;
  /// counterexample_member[i]: the member that found result.counterexamples[i] (its index in
  /// members; members.size() for the hand-over search).
  std::vector<std::size_t> counterexample_member;
  std::vector<std::uint64_t> counterexample_round;  ///< the round it was found in (1-based)
  std::uint64_t rounds = 0;
  bool handed_over = false;  ///< the exhaustive search was handed over (PortfolioOptions)
};

/// Explores `program` with the portfolio under `options` (bounds, budgets, callbacks: called from
/// the calling thread only). Throws std::invalid_argument for an empty portfolio, a first member
/// that is not exhaustive, an unknown strategy or parameter, no jobs or a quantum of 0.
PortfolioResult explore_portfolio(const Program& program, const ExploreOptions& options,
                                  const PortfolioOptions& portfolio);

}  // namespace interleave
