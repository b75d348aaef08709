#include "explorer/search/simulate.hpp"

#include "explorer/core/fiber.hpp"
#include "explorer/time/discrete_event.hpp"
#include "explorer/time/virtual_time.hpp"

#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>
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

}  // namespace

SimulationResult simulate(const Program& program, const SimulateOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> ended{0};
  std::atomic<bool> stopped{false};
  std::mutex mutex;
  SimulationResult total;
  std::exception_ptr failure;

  auto worker = [&] {
    SimulationResult mine;
    try {
      StackPool pool(options.stack_size);
      ExecutionBuffers buffers;
      VirtualTime clock;
      buffers.clock = &clock;
      DiscreteEventStrategy strategy(options.seed);
      for (;;) {
        const std::uint64_t begin = next.fetch_add(kBlock);
        if (begin >= options.runs) break;
        const std::uint64_t end = std::min(options.runs, begin + kBlock);
        for (std::uint64_t i = begin; i < end; ++i) {
          if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
            stopped = true;
            break;
          }
          strategy.set_run(i);
          strategy.begin_execution();
          Execution ex(pool, buffers,
                       ExecutionOptions{options.max_steps, false, &strategy, &strategy});
          program(ex);
          const Outcome outcome = ex.run(strategy);
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
          const std::uint64_t done = ended.fetch_add(1) + 1;
          if (options.on_progress && done % options.progress_interval == 0) {
            std::lock_guard lock(mutex);
            options.on_progress(done);
          }
        }
        if (stopped) break;
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stopped = true;
    }
    std::lock_guard lock(mutex);
    add(total, mine);
  };

  const unsigned jobs = std::max(1u, options.jobs);
  if (jobs == 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < jobs; ++j)
      threads.emplace_back(worker);
    for (std::thread& t : threads)
      t.join();
  }
  if (failure) std::rethrow_exception(failure);
  total.interrupted = total.runs < options.runs;
  total.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return total;
}

}  // namespace interleave
