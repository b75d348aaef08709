// The vocabulary of virtual time an actor and a program speak (Actor::lasts, Execution::window,
// Execution::wall_clock): durations in integer microseconds, how a simulation draws them, the
// wall clock of the origin, a window to measure. What the durations mean, and how an execution is
// found to fit them, is the time part's (explorer/time/timing.hpp, explorer/time/virtual_time.hpp).
#pragma once

#include "explorer/core/constraints.hpp"
#include "explorer/core/types.hpp"

#include <cstdint>
#include <limits>
#include <string>

namespace interleave {

/// Virtual time and durations, in microseconds.
using Micros = std::int64_t;
/// An unbounded maximum.
inline constexpr Micros kForever = std::numeric_limits<Micros>::max();

constexpr Micros milliseconds(Micros ms) {
  return ms * 1000;
}
constexpr Micros seconds(Micros s) {
  return s * 1'000'000;
}

/// How a duration is distributed within its [min, max], for the sampling runs of a simulation
/// (explorer/search/simulate.hpp); the exhaustive timed search uses only [min, max]. Parameters in
/// microseconds (lognormal: of the logarithm of the microseconds).
struct Law {
  enum class Kind : std::uint8_t {
    kNone,         ///< uniform over [min, max] when max is finite, else min
    kFixed,        ///< a
    kUniform,      ///< uniform over [a, b]
    kNormal,       ///< mean a, standard deviation b, truncated to [min, max]
    kLognormal,    ///< exp(N(a, b^2)), truncated to [min, max]
    kExponential,  ///< mean a, truncated to [min, max]
  };
  Kind kind = Kind::kNone;
  double a = 0;
  double b = 0;
  friend bool operator==(const Law&, const Law&) = default;
};

/// A duration known to lie in [min, max] (max may be kForever), with how a simulation draws it.
struct Duration {
  Micros min = 0;
  Micros max = kForever;
  Law law{};

  static constexpr Duration exactly(Micros t) { return {t, t}; }
  static constexpr Duration between(Micros lo, Micros hi) { return {lo, hi}; }
  static constexpr Duration at_least(Micros lo) { return {lo, kForever}; }
  /// A phase free in [0, interval): the first run of a periodic actor that may start at any
  /// moment of its period.
  static constexpr Duration free_phase(Micros interval) { return {0, interval - 1}; }

  /// A duration drawn from `law`, within [min, max].
  static constexpr Duration sampled(Law law, Micros lo, Micros hi) { return {lo, hi, law}; }

  /// Sequential composition of the bounds (saturating at kForever); the law is dropped (a sum is
  /// sampled part by part: DurationSampler).
  constexpr Duration& operator+=(const Duration& o) {
    law = Law{};
    min = o.min > kForever - min ? kForever : min + o.min;
    max = (max == kForever || o.max == kForever || o.max > kForever - max) ? kForever : max + o.max;
    return *this;
  }
  friend bool operator==(const Duration&, const Duration&) = default;
};

/// Draws the durations of a sampling run: Actor::lasts hands it every duration it is given, in
/// the order given (explorer/time/discrete_event.hpp). Set in ExecutionOptions::sampler.
class DurationSampler {
 public:
  /// `actor` gave `d` for the work after its current step (before its first one if it has
  /// taken none).
  virtual void lasts(ActorId actor, const Duration& d) = 0;

 protected:
  ~DurationSampler() = default;
};

/// The wall-clock time of the origin, for printing a timed trace as a log does: microseconds
/// since the Unix epoch (UTC) and the offset of the local time zone.
struct WallClock {
  std::int64_t epoch_us = 0;
  std::int32_t utc_offset_minutes = 0;
  friend bool operator==(const WallClock&, const WallClock&) = default;
};

/// A window to measure in the violating executions of a timed program: the time from the step
/// `from` to the step `to` (explorer/core/constraints.hpp: an actor's name, "" for any actor, a
/// label, an occurrence from 1).
struct TimingWindow {
  std::string name;
  StepSelector from;
  StepSelector to;
};

namespace detail {
/// The work after a step (or before an actor's first step): the sum of what Actor::lasts gave,
/// or [0, forever) when it gave nothing.
struct Work {
  Duration d;
  bool given = false;
  void add(const Duration& x) {
    if (!given) {
      d = Duration{0, 0};
      given = true;
    }
    d += x;
  }
};
}  // namespace detail

}  // namespace interleave
