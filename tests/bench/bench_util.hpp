// Measurement helpers shared by the benchmarks (tests/bench/*.cpp): wall time, peak memory and the
// bare Boost.Context round trip every per-step cost is expressed in.
#pragma once

#include <sys/resource.h>
#include <time.h>
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
/// This process's CPU time in seconds: on a shared machine, what a run costs without the time
/// other processes hold the cores.
inline double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

inline long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/// The bare fiber round trip: resume a fiber that yields straight back, in nanoseconds, after a
/// warm-up: the fastest of five timings of n/5 round trips each (a noisy neighbour or a frequency
/// change can only make a timing slower; the fastest gives the largest, most conservative ratios).
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
  const std::uint64_t per_timing = n / 5 == 0 ? 1 : n / 5;
  double best = 0;
  for (int timing = 0; timing < 5; ++timing) {
    const auto t = Clock::now();
    for (std::uint64_t i = 0; i < per_timing; ++i)
      f = std::move(f).resume();
    const double ns = seconds_since(t) * 1e9 / static_cast<double>(per_timing);
    if (timing == 0 || ns < best) best = ns;
  }
  if (counter != 5 * per_timing + 1) std::abort();
  return best;
}

}  // namespace interleave::bench
