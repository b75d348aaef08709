#include "explorer/search/runner.hpp"

namespace interleave {

Runner::Runner(const Program& program, RunLimits limits)
    : program_(program),
      limits_(limits),
      pool_(limits.stack_size),
      started_(std::chrono::steady_clock::now()) {
  buffers_.clock = &clock_;
}

void Runner::restart() {
  executions_ = 0;
  started_ = std::chrono::steady_clock::now();
}

double Runner::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

LoopEnd Runner::loop(Strategy& strategy, ExecutionOptions options,
                     std::span<LoopObserver* const> observers, std::uint64_t at_most) {
  options.max_steps = limits_.max_steps;
  if (options.strategy == nullptr) options.strategy = &strategy;
  for (std::uint64_t ran = 0; ran < at_most; ++ran) {
    if (limits_.stop != nullptr && limits_.stop->load(std::memory_order_relaxed))
      return LoopEnd::kInterrupted;
    if (limits_.max_executions != 0 && executions_ >= limits_.max_executions)
      return LoopEnd::kExecutionBudget;
    if (limits_.time_budget_seconds > 0 && elapsed() >= limits_.time_budget_seconds)
      return LoopEnd::kTimeBudget;
    for (LoopObserver* o : observers)
      if (!o->next()) return LoopEnd::kExhausted;
    if (!strategy.begin_execution()) return LoopEnd::kExhausted;
    {
      Execution ex(pool_, buffers_, options);
      for (LoopObserver* o : observers)
        o->before(ex);
      program_(ex);
      const Outcome outcome = ex.run(strategy);
      for (LoopObserver* o : observers)
        o->ended(ex, outcome);
    }
    ++executions_;
    bool go_on = true;
    for (LoopObserver* o : observers)
      go_on = o->go_on() && go_on;
    if (!go_on) return LoopEnd::kObserver;
    if (limits_.progress_interval != 0 && executions_ % limits_.progress_interval == 0)
      for (LoopObserver* o : observers)
        o->progress(executions_);
  }
  return LoopEnd::kSlice;
}

}  // namespace interleave
