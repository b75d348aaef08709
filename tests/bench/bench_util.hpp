// Measurement helpers shared by the benchmarks (tests/bench/*.cpp): wall time, peak memory and the
// bare Boost.Context round trip every per-step cost is expressed in.
#pragma once

#include <sys/resource.h>
#include <boost/context/fiber.hpp>

#include <chrono>
#include <cstdint>
#include <cstdlib>

namespace interleave::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

/// Peak resident set size of the process so far.
inline long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/// The bare fiber round trip: resume a fiber that yields straight back, in nanoseconds (the mean
/// over n round trips, after a warm-up).
inline double bare_round_trip_ns(std::uint64_t n) {
  namespace ctx = boost::context;
  std::uint64_t counter = 0;
  ctx::fiber f{[&counter](ctx::fiber&& back) {
    for (;;) {
      ++counter;
      back = std::move(back).resume();
    }
    return std::move(back);
  }};
  f = std::move(f).resume();  // warm up
  const auto t = Clock::now();
  for (std::uint64_t i = 0; i < n; ++i)
    f = std::move(f).resume();
  const double s = seconds_since(t);
  if (counter != n + 1) std::abort();
  return s * 1e9 / static_cast<double>(n);
}

}  // namespace interleave::bench
