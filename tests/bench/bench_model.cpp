// Benchmark of the StarRocks temporary-table model (prints figures; not a timed test).
//
// For each configuration: the time and executions to the first counterexample, and the
// exhaustive exploration (past every violation) with its execution count, verdict and time.
// - seed: 1 FE, 1 CN, one async recursive-CTE TaskRun (anchor only, its tablet's rows explored),
//   one client session on the leader, one cleaner pass, starrocks-4.1.1.
// - large: 3 FEs, 1 CN, 3 TaskRuns of which 1 sync, 2 iterations each (rows explored: 2^9 choice
//   combinations), 2 clients of which 1 on a follower (so a replayer reads J), 2 cleaner passes,
//   pr-79339.
//
// DPOR on the model's fine-grained objects (docs/model.md, "Declared objects"): the seed runs
// exhaustively in 2 256 executions (2 216 while the rows choice was a step; 0.03 s on the 2-core
// CI machine; 7 441 before sessions were
// made to commute, 4.5 million and unfinished in 60 s with one coarse CAT and TTM_L). The large
// configuration does not finish in 60 s (1.9 million executions), and its parts alone show why
// (bench_model_grid, docs/model.md "What stays large"): its two clients and two passes without a
// TaskRun are 686 043 traces (6.2 s; 133 798 -> 8 028 for two clients and one pass once the
// journal was declared per follower), with one TaskRun (rows fixed) added 3.5 million executions in
// 60 s and not finished; its three TaskRuns and two passes without clients exceed
// 1.9 million executions in 60 s, half of them sleep-set blocked (not because of the waits: DPOR
// allowed its optimal weak initials despite them saves 2 %); tablet_rows explore at most doubles
// a run (one run, two passes: 570 traces with rows fixed, 1 068 explored, 3 092 while the rows
// choice was a step); C4 is a wide step of 10 reads (docs/model.md, "Two artefacts removed").
//
// Without arguments it also prints the large configuration's first counterexample under pct and
// random (seed 1): DPOR's depth-first order does not reach the hazard-3 window within the minute,
// a sampler does in under a second.
//
// It then prints the large configuration decomposed by owners (docs/model.md, "Owner
// decomposition"): its slices, the executions and time of each (exhaustive DPOR, past every
// violation), the total, next to the full DPOR's executions in the same time budget above.
//
// Usage: bench_model [strategy=dpor] [time_budget_seconds=60]
//        bench_model decomposed CONFIG [passes] [preset]
//   strategy: a name make_strategy knows (explorer/strategies/factory.hpp), e.g. dfs, dpor.
//   CONFIG: large, or huge (10 TaskRuns of which 3 sync, 2 iterations each, 10 clients of which
//   4 on followers, 3 FEs); passes: the cleaner's (default: large 2, huge 3); preset: default
//   pr-79339. Only the slices are explored (a full DPOR search of the huge world would never
//   end; scenarios/huge-register-then-start-decomposed.json is the same world as a scenario).
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/factory.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/decomposition.hpp"
#include "model/starrocks/program.hpp"
#include "tests/bench/starrocks_worlds.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

using namespace interleave;
using namespace interleave::model;
using interleave::bench::large_world;

namespace {

WorldConfig seed_world() {
  WorldConfig w;
  TaskRunConfig t;
  t.name = "t1";
  w.actors.task_runs.push_back(t);
  ClientConfig c;
  c.name = "c1";
  w.actors.clients.push_back(c);
  return w;
}

// 10 TaskRuns (3 sync), 10 clients (4 on followers: 2 on fe2, 2 on fe3), 3 FEs.
WorldConfig huge_world() {
  WorldConfig w = large_world();
  w.actors.cleaner.passes = 3;
  w.actors.task_runs.clear();
  w.actors.clients.clear();
  for (int i = 0; i < 10; ++i) {
    TaskRunConfig t;
    t.name = "t" + std::to_string(i + 1);
    t.sync = i >= 7;
    t.iterations = 1;  // and one that adds no rows
    w.actors.task_runs.push_back(t);
    ClientConfig c;
    c.name = "c" + std::to_string(i + 1);
    c.frontend = i < 6 ? 0 : i < 8 ? 1 : 2;
    w.actors.clients.push_back(c);
  }
  return w;
}

// Explores one slice per owner kind, exhaustively, and prints each and the total.
void run_decomposed(const char* title, const WorldConfig& w) {
  const DecompositionOffer offer = decompose_by_owners(w);
  if (!offer.decomposition) {
    std::printf("%s: not decomposable: %s\n", title, offer.refusal.c_str());
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, std::string> seen;
  std::uint64_t total = 0;
  bool violation = false, holds = true;
  for (const OwnerSlice& slice : offer.decomposition->slices) {
    if (auto it = seen.find(slice.kind); it != seen.end()) {
      std::printf("%s slice %-4s = slice %s up to names\n", title, slice.owner.c_str(),
                  it->second.c_str());
      continue;
    }
    seen.emplace(slice.kind, slice.owner);
    ExploreOptions o;
    o.stop_on_first_violation = false;
    o.minimize = false;
    Explorer ex(slice.program, o);
    auto s = make_strategy(StrategySpec{});
    const ExplorationResult r = ex.explore(*s);
    total += r.stats.executions;
    violation = violation || r.verdict == Verdict::kViolation;
    holds = holds && r.verdict == Verdict::kHolds;
    std::string props;
    for (const auto& [name, n] : r.stats.violations)
      if (n > 0) props += (props.empty() ? "" : ",") + name;
    std::string goals;
    for (const auto& [goal, n] : r.covered)
      if (n > 0) goals += (goals.empty() ? "" : ",") + goal;
    std::printf("%s slice %-4s (%s): %s executions=%llu time=%.3fs violated=[%s] reached=[%s]\n",
                title, slice.owner.c_str(), slice.kind_text.c_str(),
                std::string(to_string(r.verdict)).c_str(),
                static_cast<unsigned long long>(r.stats.executions), r.stats.elapsed_seconds,
                props.c_str(), goals.c_str());
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s decomposed: %zu owners, %zu slices explored, %s, executions=%llu time=%.3fs\n",
              title, offer.decomposition->slices.size(), seen.size(),
              violation ? "violation"
              : holds   ? "holds"
                        : "incomplete",
              static_cast<unsigned long long>(total), secs);
}

void run_once(const char* title, const WorldConfig& w, const std::string& strategy, double budget,
              bool first) {
  ExploreOptions o;
  o.stop_on_first_violation = first;
  o.time_budget_seconds = budget;
  Explorer ex(make_program(w), o);
  // Sampling strategies (random, pct) get up to 100 000 executions from seed 1.
  auto s = make_strategy(StrategySpec{strategy, 1, 100'000});
  const ExplorationResult r = ex.explore(*s);
  std::printf("%-5s %-11s %-9s %-10s executions=%llu steps=%llu time=%.3fs (%s)\n", title,
              first ? "first-cex" : "exhaustive", strategy.c_str(),
              std::string(to_string(r.verdict)).c_str(),
              static_cast<unsigned long long>(r.stats.executions),
              static_cast<unsigned long long>(r.stats.steps), r.stats.elapsed_seconds,
              r.detail.c_str());
}

void run(const char* title, const WorldConfig& w, const std::string& strategy, double budget) {
  for (bool first : {true, false})
    run_once(title, w, strategy, budget, first);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 && std::string(argv[1]) == "decomposed") {
    const std::string config = argv[2];
    WorldConfig w = config == "huge" ? huge_world() : large_world();
    if (argc > 3) w.actors.cleaner.passes = std::atoi(argv[3]);
    if (argc > 4) {
      w.policy = find_preset(argv[4]).value().policy;
      w.preset = argv[4];
    }
    run_decomposed(config.c_str(), w);
    return 0;
  }
  const std::string strategy = argc > 1 ? argv[1] : "dpor";
  const double budget = argc > 2 ? std::atof(argv[2]) : 60.0;
  run("seed", seed_world(), strategy, budget);
  run("large", large_world(), strategy, budget);
  // Where exhaustive search does not fit, the sampling strategies still find the first
  // counterexample of the large configuration (time includes its minimisation).
  if (argc <= 1)
    for (const char* sampler : {"pct", "random"})
      run_once("large", large_world(), sampler, budget, true);
  run_decomposed("large", large_world());
  return 0;
}
