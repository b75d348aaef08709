// A simulation: how often a timed program's properties fail when its durations are drawn from
// their laws (explorer/time/timing.hpp: Law) and its actors run in time order
// (explorer/time/discrete_event.hpp). Each run is one execution; run i draws from
// Rng::derive(seed, i) alone, so the counts of runs [0, runs) are the same on any number of
// threads. A simulation estimates a probability; it never says a property holds (the exhaustive
// timed search says whether a failure is possible at all).
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/search/runner.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace interleave {

/// The simulation's limits (explorer/search/runner.hpp; the stop request and a time budget end it
/// early, counting the runs that ended, as interrupted; max_executions is not consulted: `runs`
/// says how many) and what it adds.
struct SimulateOptions : RunLimits {
  std::uint64_t runs = 10'000;
  std::uint64_t seed = 0;
  unsigned jobs = 1;  ///< threads
  /// The checked mode (explorer/core/checked.hpp): a step's use of state it did not declare is
  /// a ProgramError.
  bool check_accesses = false;
  /// Called (from any one thread at a time) about every `progress_interval` runs, with the runs
  /// ended so far on every thread.
  std::function<void(std::uint64_t ended)> on_progress;
};

/// A proportion k / n with a 95 % interval.
struct Proportion {
  double estimate = 0;
  double low = 0;
  double high = 0;
};
/// The Wilson score interval of k successes in n trials at 95 % (z = 1.959964); n = 0 gives
/// [0, 1].
Proportion wilson(std::uint64_t k, std::uint64_t n);

struct SimulationResult {
  std::uint64_t runs = 0;  ///< runs that ended (all asked for unless interrupted)
  bool interrupted = false;
  bool timed = false;  ///< some actor gave a duration
  /// Per property: the runs that violated it. A run stops at a violation found at a step (that
  /// property counts); at its end it counts every property its final checks find.
  std::map<std::string, std::uint64_t> violations;
  std::uint64_t violating = 0;  ///< runs that violated some property
  std::uint64_t completed = 0;
  std::uint64_t deadlocked = 0;
  std::uint64_t cut_by_bound = 0;  ///< runs the step bound cut
  /// Runs whose drawn times the timed constraints refuse: a flaw of the sampler, always 0.
  std::uint64_t timing_infeasible = 0;
  double elapsed_seconds = 0;  ///< wall time (stats only)
};

/// Runs `options.runs` sampled executions of `program`.
SimulationResult simulate(const Program& program, const SimulateOptions& options);

}  // namespace interleave
