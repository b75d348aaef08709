// Benchmark of the portfolio (explorer/search/portfolio.hpp; prints figures, not a timed test): the time
// to the first counterexample, the portfolio against DPOR alone, in one run, for every shipped
// scenario that expects a violation and for a what-if (two async TaskRuns, a
// follower client, two cleaner passes under pr-79339-register-then-start, where DPOR alone runs
// millions of executions before its first counterexample). Both stop at the first violation and
// minimise it, as `interleave check` does; DPOR alone is cut at a time budget (a row says "not
// found" then, with the executions it ran). The portfolio must find a violation wherever DPOR
// does: the benchmark says so, or fails.
//
// Usage: bench_portfolio [jobs=2] [dpor_budget_seconds=60] [scenarios_dir=scenarios]
#include "explorer/search/explorer.hpp"
#include "explorer/search/portfolio.hpp"
#include "explorer/strategies/dpor.hpp"
#include "model/register.hpp"
#include "reports/run/scenario.hpp"
#include "tests/bench/bench_util.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace interleave;
using interleave::bench::Clock;
using interleave::bench::seconds_since;

namespace {

struct Timing {
  double seconds = 0;  // to the first counterexample (minimised), or to the end
  std::uint64_t executions = 0;
  std::string found;  // the property, "" if none
  std::string by;     // the portfolio member
};

Timing first_by_dpor(const Program& program, double budget) {
  ExploreOptions o;
  o.time_budget_seconds = budget;
  const auto start = Clock::now();
  Explorer ex(program, o);
  DporStrategy dpor;
  const ExplorationResult r = ex.explore(dpor);
  Timing t;
  t.seconds = seconds_since(start);
  t.executions = r.stats.executions;
  if (!r.counterexamples.empty()) t.found = r.counterexamples.front().invariant;
  return t;
}

Timing first_by_portfolio(const Program& program, unsigned jobs) {
  ExploreOptions o;
  PortfolioOptions p;
  p.jobs = jobs;
  const auto start = Clock::now();
  const PortfolioResult r = explore_portfolio(program, o, p);
  Timing t;
  t.seconds = seconds_since(start);
  t.executions = r.result.stats.executions;
  if (!r.result.counterexamples.empty()) {
    t.found = r.result.counterexamples.front().invariant;
    t.by = r.members[r.counterexample_member.front()].label;
  }
  return t;
}

nlohmann::json what_if() {
  return nlohmann::json::parse(R"({
    "name": "what-if-two-async-runs-follower-client",
    "model": "starrocks-temp-tables",
    "cluster": {"frontends": 2},
    "actors": {
      "cleaner": {"passes": 2},
      "task_runs": [{"name": "t1"}, {"name": "t2"}],
      "clients": [{"name": "c1", "frontend": "fe2"}]
    },
    "policy": {"preset": "pr-79339-register-then-start"}
  })");
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned jobs = argc > 1 ? static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10)) : 2;
  const double budget = argc > 2 ? std::strtod(argv[2], nullptr) : 60;
  const std::string dir = argc > 3 ? argv[3] : "scenarios";

  ModelRegistry models;
  register_models(models);
  std::vector<run::Scenario> scenarios;
  for (const std::string& file : run::collect_scenario_files({dir})) {
    run::Scenario s = run::load_scenario(file, models);
    if (s.expect && s.expect->verdict == Verdict::kViolation && !s.exploration.decompose)
      scenarios.push_back(std::move(s));
  }
  scenarios.push_back(run::parse_scenario(what_if(), "(what-if)", models));

  std::printf(
      "time to the first counterexample: the portfolio on %u threads against DPOR alone "
      "(cut at %.0f s)\n\n",
      jobs, budget);
  std::printf("%-44s %12s %12s %10s  %s\n", "scenario", "dpor", "portfolio", "ratio", "found by");
  bool ok = true;
  double worst = 0;
  for (const run::Scenario& s : scenarios) {
    const Timing d = first_by_dpor(s.instance.program, budget);
    const Timing p = first_by_portfolio(s.instance.program, jobs);
    char dpor_text[64];
    if (d.found.empty())
      std::snprintf(dpor_text, sizeof dpor_text, ">%.1f s", d.seconds);
    else
      std::snprintf(dpor_text, sizeof dpor_text, "%.3f s", d.seconds);
    std::printf("%-44s %12s %10.3f s %9.1fx  %s (%llu executions; dpor %llu)\n", s.name.c_str(),
                dpor_text, p.seconds, d.seconds / p.seconds, p.by.c_str(),
                static_cast<unsigned long long>(p.executions),
                static_cast<unsigned long long>(d.executions));
    if (!d.found.empty() && p.found.empty()) {
      std::printf("  FAILED: DPOR found %s, the portfolio nothing\n", d.found.c_str());
      ok = false;
    }
    if (p.found.empty()) {
      std::printf("  FAILED: the portfolio found no violation\n");
      ok = false;
    }
    worst = std::max(worst, p.seconds);
  }
  std::printf("\nslowest portfolio: %.3f s\n", worst);
  return ok ? 0 : 1;
}
