#include "explorer/search/portfolio.hpp"

#include "explorer/search/audit.hpp"
#include "explorer/search/minimize.hpp"
#include "explorer/search/workers.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

namespace interleave {

namespace {

PortfolioMember member(std::string label, std::string strategy, std::uint64_t executions,
                       std::uint64_t quantum,
                       std::map<std::string, std::uint64_t, std::less<>> parameters = {}) {
  PortfolioMember m;
  m.label = std::move(label);
  m.spec.name = std::move(strategy);
  m.spec.parameters = std::move(parameters);
  m.executions = executions;
  m.quantum = quantum;
  return m;
}

std::vector<PortfolioMember> make_default_portfolio() {
  constexpr std::uint64_t cap = kPortfolioBugFinderExecutions;
  constexpr std::uint64_t q = kPortfolioBugFinderQuantum;
  return {
      member("dpor", "dpor", 0, kPortfolioQuantum),
      member("preemption-bound 0..2", "preemption-bound", cap, q, {{"max_preemptions", 2}}),
      member("pct depth 2", "pct", cap, q, {{"pct_depth", 2}}),
      member("pct depth 3", "pct", cap, q, {{"pct_depth", 3}}),
      member("pct depth 5", "pct", cap, q, {{"pct_depth", 5}}),
      member("random", "random", cap, q),
  };
}

// One member's search: its own explorer (stacks, buffers), strategy and exploration.
struct Run {
  std::unique_ptr<Explorer> explorer;
  std::unique_ptr<Strategy> strategy;
  std::unique_ptr<Exploration> exploration;
  std::size_t taken = 0;  // counterexamples of exploration already looked at
};

}  // namespace

const std::vector<PortfolioMember>& default_portfolio() {
  static const std::vector<PortfolioMember> table = make_default_portfolio();
  return table;
}

PortfolioResult explore_portfolio(const Program& program, const ExploreOptions& options,
                                  const PortfolioOptions& portfolio) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

  if (portfolio.members.empty()) throw std::invalid_argument("portfolio: no members");
  if (portfolio.jobs == 0) throw std::invalid_argument("portfolio: jobs must be at least 1");
  if (portfolio.quantum == 0) throw std::invalid_argument("portfolio: quantum must be at least 1");
  {
    const StrategyDescriptor* first = find_strategy(portfolio.members.front().spec.name);
    if (first == nullptr || first->reach != StrategyReach::kExhaustive)
      throw std::invalid_argument("portfolio: the first member (" +
                                  portfolio.members.front().label +
                                  ") must be an exhaustive strategy");
  }

  const std::size_t n = portfolio.members.size();
  std::vector<Run> runs(n);
  for (std::size_t i = 0; i < n; ++i) {
    const PortfolioMember& m = portfolio.members[i];
    StrategySpec spec = m.spec;
    spec.seed = portfolio.seed;
    std::uint64_t cap = m.executions;
    if (options.max_executions != 0)
      cap = cap == 0 ? options.max_executions : std::min(cap, options.max_executions);
    if (cap != 0) spec.executions = cap;
    ExploreOptions o = options;
    o.max_executions = cap;
    o.minimize = false;  // the portfolio minimises the counterexamples it reports
    o.on_counterexample = nullptr;
    o.on_progress = nullptr;
    runs[i].strategy = make_strategy(spec);  // throws std::invalid_argument
    runs[i].explorer = std::make_unique<Explorer>(program, std::move(o));
    runs[i].exploration = std::make_unique<Exploration>(*runs[i].explorer, *runs[i].strategy);
  }

  PortfolioResult out;
  ExplorationResult& result = out.result;
  result.strategy = "portfolio";
  std::set<std::string> reported;
  bool stopped_at_first = false;

  auto totals = [&] {
    Stats s;
    for (const Run& r : runs)
      s += r.exploration->progress().stats;
    s.elapsed_seconds = elapsed();
    return s;
  };
  auto report = [&](Counterexample c, std::size_t who, const Stats& stats_so_far) {
    reported.insert(c.invariant);
    if (options.minimize) {
      MinimizeOptions mo;
      mo.max_executions = options.minimize_budget;
      mo.max_steps = options.max_steps;
      mo.stack_size = options.stack_size;
      const Schedule shorter = minimize(program, c.schedule, c.invariant, mo).schedule;
      c = runs[who].explorer->make_counterexample(shorter, c.invariant);
    }
    result.counterexamples.push_back(std::move(c));
    out.counterexample_member.push_back(who);
    out.counterexample_round.push_back(out.rounds);
    if (portfolio.on_counterexample)
      portfolio.on_counterexample(result.counterexamples.back(), stats_so_far,
                                  portfolio.members[who].label);
    else if (options.on_counterexample)
      options.on_counterexample(result.counterexamples.back(), stats_so_far);
  };

  // One round: each active member runs its quantum, on the portfolio's threads; the error of the
  // first member (in rank order) that threw is rethrown.
  auto run_round = [&](const std::vector<std::size_t>& active) {
    for_each_task(portfolio.jobs, active.size(), [&](std::size_t k) {
      const std::size_t i = active[k];
      const std::uint64_t q = portfolio.members[i].quantum;
      runs[i].exploration->run(q != 0 ? q : portfolio.quantum);
    });
  };

  std::uint64_t last_progress = 0;
  bool hand_over = false;
  bool interrupted = false;
  for (;;) {
    std::vector<std::size_t> active;
    for (std::size_t i = 0; i < n; ++i)
      if (!runs[i].exploration->over()) active.push_back(i);
    if (active.empty() || active.front() != 0) break;  // the exhaustive member is over
    if (active.size() == 1 && portfolio.hand_over) {
      hand_over = true;
      break;
    }
    if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
      interrupted = true;
      break;
    }
    run_round(active);
    ++out.rounds;
    // What the round found, member by member in rank order.
    const Stats so_far = totals();
    for (std::size_t i : active) {
      Run& r = runs[i];
      const auto& found = r.exploration->progress().counterexamples;
      // A member stopped at its first violation found that execution's properties: all of them
      // are reported.
      for (; r.taken < found.size(); ++r.taken) {
        if (reported.contains(found[r.taken].invariant)) continue;
        report(found[r.taken], i, so_far);
        if (options.stop_on_first_violation) stopped_at_first = true;
      }
      if (stopped_at_first) break;
    }
    if (stopped_at_first) break;
    if (options.on_progress) {
      const std::uint64_t interval = std::max<std::uint64_t>(1, options.progress_interval);
      if (so_far.executions / interval != last_progress / interval) options.on_progress(so_far);
      last_progress = so_far.executions;
    }
  }

  // The members' results (the exhaustive member's verdict decides unless it was handed over).
  std::vector<ExplorationResult> finished;
  for (Run& r : runs)
    finished.push_back(r.exploration->finish());
  for (std::size_t i = 0; i < n; ++i) {
    PortfolioResult::Member m;
    m.label = portfolio.members[i].label;
    m.stats = finished[i].stats;
    m.over = runs[i].exploration->over();
    if (m.over) m.detail = finished[i].detail;
    out.members.push_back(std::move(m));
    result.stats += finished[i].stats;
    for (const auto& [goal, count] : finished[i].covered)
      result.covered[goal] += count;
    merge_timing(result, finished[i]);
  }
  ExplorationResult exhaustive = std::move(finished[0]);

  if (hand_over) {
    out.handed_over = true;
    const std::string handed_over_label = portfolio.members.front().label + ", handed over";
    const Stats base = result.stats;
    ExploreOptions o = options;
    std::vector<Counterexample> fresh;  // properties the bug finders had not reported
    o.on_counterexample = [&](const Counterexample& c, const Stats& s) {
      if (reported.contains(c.invariant)) return;
      reported.insert(c.invariant);
      fresh.push_back(c);
      Stats t = base;
      t += s;
      t.elapsed_seconds = elapsed();
      if (portfolio.on_counterexample)
        portfolio.on_counterexample(c, t, handed_over_label);
      else if (options.on_counterexample)
        options.on_counterexample(c, t);
    };
    if (options.on_progress)
      o.on_progress = [&](const Stats& s) {
        Stats t = base;
        t += s;
        t.elapsed_seconds = elapsed();
        options.on_progress(t);
      };
    exhaustive = portfolio.hand_over(o);
    result.stats += exhaustive.stats;
    for (const auto& [goal, count] : exhaustive.covered)
      result.covered[goal] += count;
    merge_timing(result, exhaustive);
    for (Counterexample& c : fresh) {
      result.counterexamples.push_back(std::move(c));
      out.counterexample_member.push_back(n);
      out.counterexample_round.push_back(out.rounds);
    }
    stopped_at_first = exhaustive.stopped_at_first_violation;
  }
  result.stats.elapsed_seconds = elapsed();

  // The exhaustive member explored every trace and found no violation, yet a bug finder found
  // one: the program's declared accesses call two steps independent that are not. (The audit of
  // the counterexample, run by the member that found it, found no such pair within its reach.)
  if (exhaustive.verdict == Verdict::kHolds && !result.counterexamples.empty()) {
    const Counterexample& c = result.counterexamples.front();
    const std::size_t who = out.counterexample_member.front();
    const std::string finder =
        who < n ? portfolio.members[who].label : portfolio.members.front().label;
    std::string audit;
    if (options.audit_counterexamples) {
      const CommutationAudit a =
          audit_commutation(*runs.front().explorer, c.schedule, options.audit);
      if (a.finding)
        audit = " The audit of its counterexample: " + a.finding->message() + ".";
      else if (!a.not_audited.empty())
        audit = " Its counterexample could not be audited (" + a.not_audited + ").";
      else
        audit = " The audit of its counterexample found no such pair within " +
                std::to_string(options.audit.max_distance) + " steps of each step.";
    }
    throw ProgramError(
        "the declared accesses are wrong: " + portfolio.members.front().label +
        " explored every trace and found no violation, yet " + finder + " found " + c.invariant +
        ": two steps declared independent do not commute, so the search skipped behaviours." +
        audit +
        " Declare the state with Checked (explorer/core/checked.hpp) and run with the checked mode "
        "(check --check-accesses), or compare with --strategy dfs on a small scenario");
  }

  result.interrupted = interrupted || exhaustive.interrupted;
  result.stopped_at_first_violation = stopped_at_first;
  std::string cut;
  if (stopped_at_first)
    cut = "stopped at the first violation";
  else if (result.interrupted)
    cut = "interrupted";
  else if (exhaustive.verdict == Verdict::kIncomplete)
    cut = exhaustive.detail;
  // A search that "holds" says what its exhaustive member covered; the bug finders' step-bound
  // cuts count too (the stats are the sum).
  const Coverage coverage{exhaustive.verdict != Verdict::kIncomplete, exhaustive.detail};
  settle_verdict(result, cut, coverage, options.max_steps);
  return out;
}

}  // namespace interleave
