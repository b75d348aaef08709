// The seam between the scheduler loop and virtual time: what the loop tells the clock of a timed
// execution (its start, the durations its actors give, the end of each step, the steps that
// decide its outcome) and what the clock answers (whether times fit, the earliest of them).
//
// The loop calls it only once the program is timed, at the first duration an actor gives
// (Actor::lasts, Actor::lasts_by_default): an untimed execution never reaches it and pays one
// test of a flag per step. The clock is installed by whoever owns the ExecutionBuffers
// (ExecutionBuffers::clock); the time part implements it (explorer/time/virtual_time.hpp). A
// timed program run without one is a ProgramError.
#pragma once

#include "explorer/core/duration.hpp"
#include "explorer/core/strategy.hpp"
#include "explorer/core/types.hpp"

#include <cstdint>
#include <span>

namespace interleave {

class TimeHook {
 public:
  /// The execution turned timed: forget the previous execution's durations. `tracing`: the
  /// earliest times are wanted (times()); `sampler`, when set, is told every duration applied
  /// (ExecutionOptions::sampler).
  virtual void start(bool tracing, DurationSampler* sampler) = 0;
  /// `actor` gave `d` for its work after step `step`, its current one (-1: before its first
  /// step). Calls in one step add up.
  virtual void lasts(ActorId actor, std::int32_t step, const Duration& d) = 0;
  /// Step `step` of `actor` ended. `default_work`: the actor's default (lasts_by_default), if
  /// it gave one; the step lasts it when it gave no duration of its own.
  virtual void ended_step(ActorId actor, std::size_t step, const Duration* default_work) = 0;
  /// The execution ended after `trace`: `spawned_at[a]`, the step that spawned actor a (-1 at
  /// set-up); `decisive`, the steps that decide its outcome (all when empty; see
  /// explorer/time/timing.hpp). Returns whether times exist that fit every duration.
  virtual bool settle(std::span<const Event> trace, std::span<const std::int32_t> spawned_at,
                      std::span<const char> decisive) = 0;
  /// After settle() of a traced, feasible execution: the earliest feasible time of each step (-1
  /// for a step outside the decisive ones); empty otherwise.
  virtual std::span<const Micros> times() const = 0;

 protected:
  ~TimeHook() = default;
};

}  // namespace interleave
