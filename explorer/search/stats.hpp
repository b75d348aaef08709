// Counters of an exploration. Mergeable: the stats of several searches (e.g. parallel workers over
// disjoint parts of the space) add up with +=. One table of the counters (stats_fields()) drives
// +=, the JSON written and the JSON read (traces, the --json summaries that `merge` adds up).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace interleave {

class JsonReader;

struct Stats {
  std::uint64_t executions = 0;    ///< executions run, whatever their outcome
  std::uint64_t completed = 0;     ///< every actor finished and every check held
  std::uint64_t blocked = 0;       ///< abandoned by the strategy (e.g. sleep-set blocked)
  std::uint64_t deadlocked = 0;    ///< nothing could run while some actor was unfinished
  std::uint64_t cut_by_bound = 0;  ///< stopped by the step bound (the search is then incomplete)
  /// could not satisfy the scenario's ordering constraints (explorer/core/constraints.hpp): neither a
  /// violation nor a deadlock; shown only when some were
  std::uint64_t infeasible = 0;
  std::uint64_t failed = 0;        ///< ended by a violation or an actor failure
  /// of a timed program (explorer/time/timing.hpp), fit no times: not behaviours of it, counted here
  /// only (whatever they ended in, a step bound cut aside) and never reported; shown only when
  /// some were
  std::uint64_t timing_infeasible = 0;
  std::uint64_t steps = 0;         ///< steps executed, over all executions
  std::uint64_t max_depth = 0;     ///< most steps in one execution
  /// Executions that violated each property (invariant name, "deadlock", "actor_failure").
  /// An ordered map, so that output does not depend on hash order.
  std::map<std::string, std::uint64_t> violations;
  double elapsed_seconds = 0;  ///< wall time: only ever reported as a statistic
  /// The executions each worker thread of a split search ran (explorer/search/split.hpp), in thread
  /// order; the shards' workers one after the other once `merge` has added them up. Like wall
  /// time, they depend on timing (who took which job): only ever reported as a statistic.
  std::vector<std::uint64_t> worker_executions;
  /// Executions the commutation audit ran again with steps moved (explorer/search/audit.hpp): the
  /// checked mode's sample and the counterexamples. Stated in the verdict's detail in the
  /// checked mode; not written to JSON (so not added up by `merge`).
  std::uint64_t audited = 0;

  Stats& operator+=(const Stats& o);
};

/// One counter of Stats: its JSON key, where Stats keeps it, how the counts of two searches
/// combine, and whether JSON shows it when it is 0.
struct StatsField {
  std::string_view key{};
  std::uint64_t Stats::*member = nullptr;
  enum class Combine : std::uint8_t { kSum, kMax } combine = Combine::kSum;
  bool only_when_nonzero = false;  ///< written only when > 0, read as 0 when absent
};
/// The counters: executions, completed, blocked, deadlocked, cut_by_bound, infeasible, failed,
/// steps, max_depth. Besides them JSON has "violations" (property -> executions), and with timing
/// only the statistics that depend on it: "elapsed_seconds" and, when there were workers,
/// "worker_executions" (each worker's executions: += appends them).
const std::vector<StatsField>& stats_fields();
/// Every key of a stats object: the counters', then "violations", "elapsed_seconds" and
/// "worker_executions".
std::vector<std::string> stats_keys();

/// with_timing = false leaves out wall time and the workers' executions (for byte-identical output
/// across runs and numbers of threads).
nlohmann::json to_json(const Stats& s, bool with_timing);
/// Reads what to_json wrote (with or without timing). Throws InputError naming the file and JSON
/// path of `r` for an unknown key, a missing counter, a wrong type or a violation count of 0.
Stats stats_from_json(const JsonReader& r);

}  // namespace interleave
