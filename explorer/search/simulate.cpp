#include "explorer/search/simulate.hpp"

#include "explorer/search/runner.hpp"
#include "explorer/search/workers.hpp"
#include "explorer/time/discrete_event.hpp"

#include <chrono>
#include <cmath>
#include <mutex>
#include <vector>

namespace interleave {

Proportion wilson(std::uint64_t k, std::uint64_t n) {
  if (n == 0) return {0, 0, 1};
  const double z = 1.959963984540054;
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(k) / nn;
  const double denom = 1 + z * z / nn;
  const double centre = (p + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  Proportion r{p, std::max(0.0, centre - half), std::min(1.0, centre + half)};
  if (k == 0) r.low = 0;
  if (k == n) r.high = 1;
  return r;
}

namespace {

// Runs are handed out in blocks of this many: a thread claims the next block.
constexpr std::uint64_t kBlock = 64;

void add(SimulationResult& into, const SimulationResult& from) {
  into.runs += from.runs;
  into.timed = into.timed || from.timed;
  for (const auto& [p, n] : from.violations)
    into.violations[p] += n;
  into.completed += from.completed;
  into.violating += from.violating;
  into.deadlocked += from.deadlocked;
  into.cut_by_bound += from.cut_by_bound;
  into.timing_infeasible += from.timing_infeasible;
}


// One thread's runs: it claims blocks of run indices, and each run draws from its index alone.
class Runs final : public LoopObserver {
 public:
  struct Shared {
    std::atomic<std::uint64_t> next{0};   // the first index not claimed
    std::atomic<std::uint64_t> ended{0};  // runs ended, on every thread
    std::atomic<bool> failed{false};      // a thread threw: the others stop
    std::mutex progress;
  };
  Runs(const SimulateOptions& options, Shared& shared, DiscreteEventStrategy& strategy)
      : options_(options), shared_(shared), strategy_(strategy) {}

  bool next() override {
    if (shared_.failed.load(std::memory_order_relaxed)) return false;
    if (index_ == end_) {
      index_ = shared_.next.fetch_add(kBlock);
      if (index_ >= options_.runs) return false;
      end_ = std::min(options_.runs, index_ + kBlock);
    }
    strategy_.set_run(index_++);
    return true;
  }

  void ended(Execution& ex, Outcome outcome) override {
    ++mine.runs;
    if (ex.timed()) mine.timed = true;
    if (ex.timed() && !ex.timing_feasible() && outcome != Outcome::kStepBound) {
      ++mine.timing_infeasible;
    } else if (ex.violation()) {
      // Every property that fails counts, not only the first.
      for (const Violation& v : ex.violations())
        ++mine.violations[v.invariant];
      ++mine.violating;
    } else if (outcome == Outcome::kCompleted) {
      ++mine.completed;
    } else if (outcome == Outcome::kDeadlock) {
      ++mine.deadlocked;
    } else if (outcome == Outcome::kStepBound) {
      ++mine.cut_by_bound;
    }
  }

  bool go_on() override {
    const std::uint64_t done = shared_.ended.fetch_add(1) + 1;
    if (options_.on_progress && options_.progress_interval != 0 &&
        done % options_.progress_interval == 0) {
      std::lock_guard lock(shared_.progress);
      options_.on_progress(done);
    }
    return true;
  }

  SimulationResult mine;

 private:
  const SimulateOptions& options_;
  Shared& shared_;
  DiscreteEventStrategy& strategy_;
  std::uint64_t index_ = 0;
  std::uint64_t end_ = 0;
};

}  // namespace

SimulationResult simulate(const Program& program, const SimulateOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  Runs::Shared shared;
  std::vector<SimulationResult> per_thread(std::max(1u, options.jobs));
  // Progress counts the runs of every thread (Runs::go_on), not the runner's own.
  RunLimits limits = options;
  limits.progress_interval = 0;
  limits.max_executions = 0;  // `runs` says how many
  for_each_task(options.jobs, per_thread.size(), [&](std::size_t t) {
    try {
      Runner runner(program, limits);
      DiscreteEventStrategy strategy(options.seed);
      Runs runs(options, shared, strategy);
      LoopObserver* const observers[] = {&runs};
      ExecutionOptions eo;
      eo.sampler = &strategy;
      eo.check_accesses = options.check_accesses;
      runner.loop(strategy, eo, observers);
      per_thread[t] = std::move(runs.mine);
    } catch (...) {
      shared.failed = true;
      throw;
    }
  });
  SimulationResult total;
  for (const SimulationResult& r : per_thread)
    add(total, r);
  total.interrupted = total.runs < options.runs;
  total.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return total;
}

}  // namespace interleave
