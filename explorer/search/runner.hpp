// The one execution loop. Every use of the engine runs its executions through a Runner: the
// exhaustive search (explorer/search/explorer.hpp), explain (explorer/evidence/explain.hpp), the
// simulation, the estimate of a search's size, minimisation and the audit. What differs between
// them is the strategy that picks each execution's steps and the observers that look at each
// execution as it ends (the search's counterexamples and stats, explain's guide that matches log
// records, the simulation's counts); the loop itself, under one RunLimits, polls the stop request,
// keeps the budgets, calls for progress and owns the stacks, the buffers and the clock the
// executions reuse.
//
// One Runner per thread: executions reuse its buffers. Runs one execution at a time (an observer
// may run others with once() between two executions of a loop, e.g. to replay a counterexample).
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fiber.hpp"
#include "explorer/time/virtual_time.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

namespace interleave {

/// What bounds a loop of executions, whatever it is for: each driver's options are a RunLimits
/// plus what that driver adds.
struct RunLimits {
  std::size_t max_steps = kDefaultMaxSteps;  ///< steps per execution; more cuts it (incomplete)
  std::size_t stack_size = 256 * 1024;       ///< bytes per actor stack
  std::uint64_t max_executions = 0;  ///< 0: unlimited; reaching it makes a verdict incomplete
  double time_budget_seconds = 0;    ///< 0: unlimited; running out makes a verdict incomplete
  /// A request to stop from outside (e.g. set by a signal handler: a lock-free atomic is
  /// async-signal-safe), polled before every execution: when it is true the loop stops at that
  /// execution boundary and what it ran is incomplete ("interrupted"). Null: never.
  const std::atomic<bool>* stop = nullptr;
  /// Executions between two calls of LoopObserver::progress (0: never).
  std::uint64_t progress_interval = 1024;
};

/// Looks at the executions of a loop. Each hook is called for each observer in turn, in the order
/// the loop was given them.
class LoopObserver {
 public:
  virtual ~LoopObserver() = default;
  /// Before the strategy begins the next execution (e.g. to give it the run's seed): false ends
  /// the loop (LoopEnd::kExhausted), as the strategy's own begin_execution() can.
  virtual bool next() { return true; }
  /// The execution exists, the program has not set it up yet.
  virtual void before(Execution& ex) { (void)ex; }
  /// The execution ran to `outcome`; it still exists (its buffers hold its steps).
  virtual void ended(Execution& ex, Outcome outcome) = 0;
  /// The execution is gone (the runner may run others now, with once()): false ends the loop
  /// (LoopEnd::kObserver).
  virtual bool go_on() { return true; }
  /// Every RunLimits::progress_interval executions of the loop, with the executions so far.
  virtual void progress(std::uint64_t executions) { (void)executions; }
};

/// Why a loop ended.
enum class LoopEnd : std::uint8_t {
  kSlice,            ///< it ran the executions it was asked for this time; it can go on
  kExhausted,        ///< the strategy (or an observer's next()) has no execution left
  kInterrupted,      ///< RunLimits::stop
  kExecutionBudget,  ///< RunLimits::max_executions
  kTimeBudget,       ///< RunLimits::time_budget_seconds
  kObserver,         ///< an observer's go_on() said no
};

class Runner {
 public:
  Runner(const Program& program, RunLimits limits);
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const RunLimits& limits() const { return limits_; }

  /// Starts counting again: executions() from 0, elapsed() from now (the time budget too).
  void restart();
  /// Executions run by loop() since construction or restart() (once() does not count).
  std::uint64_t executions() const { return executions_; }
  /// Wall seconds since construction or restart() (stats only).
  double elapsed() const;

  /// Runs executions under `strategy` until it is exhausted, a limit or an observer ends the
  /// loop, or `at_most` executions ran in this call (LoopEnd::kSlice). Before each execution, in
  /// this order: the stop request, the execution budget, the time budget, the observers' next(),
  /// the strategy's begin_execution(). `options.max_steps` is the limits'; `options.strategy`
  /// is `strategy` unless the caller put another there (a recorder wrapping it).
  LoopEnd loop(Strategy& strategy, ExecutionOptions options,
               std::span<LoopObserver* const> observers,
               std::uint64_t at_most = std::numeric_limits<std::uint64_t>::max());

  /// Runs one execution under `strategy` (which must have begun it), calls look(ex, outcome)
  /// while it still exists, and returns its outcome.
  template <class Look>
  Outcome once(Strategy& strategy, ExecutionOptions options, Look&& look) {
    options.max_steps = limits_.max_steps;
    if (options.strategy == nullptr) options.strategy = &strategy;
    Execution ex(pool_, buffers_, options);
    program_(ex);
    const Outcome outcome = ex.run(strategy);
    look(ex, outcome);
    return outcome;
  }

  /// The buffers of the execution that ran last (its trace, decisions, notes, states).
  ExecutionBuffers& buffers() { return buffers_; }
  const ExecutionBuffers& buffers() const { return buffers_; }
  /// The clock of the execution that ran last: its durations and timing graph.
  VirtualTime& clock() { return clock_; }
  const VirtualTime& clock() const { return clock_; }
  const Program& program() const { return program_; }

 private:
  const Program& program_;
  RunLimits limits_;
  StackPool pool_;
  VirtualTime clock_;  // installed in buffers_
  ExecutionBuffers buffers_;
  std::uint64_t executions_ = 0;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace interleave
