// The clock of timed executions (explorer/core/time_hook.hpp): it keeps the durations an
// execution's actors give (TimingRecord), builds the constraint graph of the steps that decide
// its outcome when it ends (TimingGraph), says whether times fit, and, for a traced execution,
// the earliest of them (explorer/time/timing.hpp says what they mean). One per ExecutionBuffers:
// its owner installs it (ExecutionBuffers::clock) and reads the last execution's record and
// graph here after it ran.
#pragma once

#include "explorer/core/time_hook.hpp"
#include "explorer/time/timing.hpp"

#include <vector>

namespace interleave {

class VirtualTime final : public TimeHook {
 public:
  void start(bool tracing, DurationSampler* sampler) override;
  void lasts(ActorId actor, std::int32_t step, const Duration& d) override;
  void ended_step(ActorId actor, std::size_t step, const Duration* default_work) override;
  bool settle(std::span<const Event> trace, std::span<const std::int32_t> spawned_at,
              std::span<const char> decisive) override;
  std::span<const Micros> times() const override { return times_; }

  /// The durations the last timed execution's actors gave (timed false before any).
  const TimingRecord& record() const { return record_; }
  /// The constraint graph of the last timed execution's decisive steps (after settle()).
  TimingGraph& graph() { return graph_; }

 private:
  TimingRecord record_;
  TimingGraph graph_;
  std::vector<Micros> times_;
  bool tracing_ = false;
  DurationSampler* sampler_ = nullptr;
};

}  // namespace interleave
