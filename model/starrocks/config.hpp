// The configuration of the StarRocks temporary-table world: the cluster, the actors, and the
// policy (policy.hpp). The scenario sections "cluster", "actors" and "policy" are read into it by
// scenario.hpp; the properties and coverage goals it can report are in properties.hpp.
#pragma once

#include "explorer/time/timing.hpp"
#include "model/starrocks/durations.hpp"
#include "model/starrocks/policy.hpp"
#include "model/starrocks/properties.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace interleave::model {

/// Rows a CN tablet sink receives: decides whether the schema is built at N2 (first chunk) or only
/// at N3 (finish).
enum class TabletRows : std::uint8_t { kExplore, kSome, kNone };

/// Whether a KILL / timeout (K) may hit a run in RUN, and how: TaskRunManager.killRunningTaskRun
/// with `force` set removes the run from RUN at once (what `kill: true` always meant; every kill of
/// a SUBMIT TASK run in 4.1 is forced); without it the run stays in RUN until the dispatcher's S1
/// (checkRunningTaskRun; policy graceful_kill_reap). Neither cancels a statement of the recursive
/// CTE (docs/model.md, "The kill").
enum class KillMode : std::uint8_t { kNone, kForce, kGraceful };

struct ClusterConfig {
  int frontends = 1;      ///< 1..3; FE 0 ("fe1") is the leader, the others are followers
  int compute_nodes = 1;  ///< 1..2 ("cn1", "cn2")
  /// The CN that ran a new table's create-tablet task (by index; -1: none of the modelled CNs).
  /// With file bundling (the default of tables created on 4.x) the leader sends one such task per
  /// partition and index, with create_schema_file: that CN caches the table's schema at creation
  /// and answers its own lookups from it; every other CN asks the leader (docs/model.md, "The CN's
  /// schema lookup").
  int creator_cn = -1;
  /// FEs whose listSessions RPC may fail (explored: it answers or it fails), by index.
  std::vector<int> unreachable_frontends;
  /// Followers that are down for the whole scenario, by index: getFrontends(null) still lists
  /// them, so every listSessions RPC to them fails, in every pass (the sweep pass too).
  std::vector<int> down_frontends;
  /// Per-FE clock offsets (ticks added to that FE's monotonic clock), by index; absent = 0.
  std::map<int, std::int64_t> clock_offsets;
};

struct CleanerConfig {
  int passes = 1;  ///< ordinary passes (each C1..C4, then D1..D4 per dead session)
  /// A last pass once every owner (TaskRun, client session) has ended: temp_table_leak is checked
  /// after it. Its listSessions RPCs all answer.
  bool sweep = false;
};

struct TaskRunConfig {
  std::string name = "t1";
  bool sync = false;   ///< submitted by a sync caller (Y1..Y4) instead of already pending
  /// The iterations that add rows (levels 1..iterations of the recursion); the recursion ends at
  /// the next one, an insert that adds no rows, or at the depth limit when iterations reaches
  /// recursive_cte_max_depth - 1 (RecursiveCTEExecutor.prepareRecursiveCTEImpl's loop).
  int iterations = 0;
  int recursive_cte_max_depth = 5;
  /// The session variable recursive_cte_throw_limit_exception: a recursion stopped by the depth
  /// limit (its last insert still added rows) throws "Recursive query aborted after: N
  /// iterations." (executors that have the check, recursive_cte_errors).
  bool throw_limit_exception = true;
  /// Further attempts after a failed one (each from E1, new session id). Hypothetical: 4.1.1's
  /// TaskRunExecutor runs one attempt (docs/model.md, "Retries").
  int retries = 0;
  KillMode kill = KillMode::kNone;  ///< a KILL / timeout (K) may hit the run in RUN, and how
  TabletRows tablet_rows = TabletRows::kExplore;
  /// The session variable recursive_cte_finalize_temporal_table: false skips the finalize (E6)
  /// altogether, so the staging tables outlive the run (RecursiveCTEExecutor.finalizeRecursiveCTE).
  bool finalize_temporal_table = true;
  /// Recursive CTEs in the statement: one staging table each (E2..E4 per table, in order), all
  /// in the attempt's one session, whose createTime is fixed at the first table's E2a.
  int staging_tables = 1;
  /// The E4 inserts of one staging table when none fails: the iterations that add rows, then the
  /// one that adds none, unless the depth limit (max_depth - 1 iterations) comes first.
  int iteration_inserts() const {
    return std::min(iterations + 1, std::max(0, recursive_cte_max_depth - 1));
  }
  /// Whether every iteration the depth limit allows adds rows (the loop ends at the limit).
  bool reaches_depth_limit() const { return iterations >= recursive_cte_max_depth - 1; }
  /// Timed scenarios (TimingConfig): how long the anchor insert and each iteration insert load on
  /// a CN (anchor_insert_s, iteration_s: workload parameters).
  Duration anchor_insert = work_fact(Work::kAnchorInsert).duration;
  Duration iteration = work_fact(Work::kIteration).duration;
};

/// The scenario section "timing": present, the world is timed (model/starrocks/durations.hpp).
struct TimingConfig {
  bool on = false;
  /// The cleaner's fixed delay (cleaner_interval_s; Daemon's 30 s default).
  Micros cleaner_interval = work_fact(Work::kCleanerInterval).duration.min;
  /// When the cleaner's first pass starts (cleaner_phase_s); nullopt: free in [0, interval).
  std::optional<Micros> cleaner_phase;
  /// When the dispatcher first polls PEND (dispatch_phase_s): 0 by default (a run is taken at
  /// once); nullopt: free in [0, its poll period).
  std::optional<Micros> dispatch_phase = 0;
  /// Task runs started an hour in the cluster (task_runs_per_hour): a simulation's rate per
  /// hour; 0: not given.
  double task_runs_per_hour = 0;
  /// The wall-clock time of the origin (wall_clock: "yyyy-MM-dd HH:mm:ss.SSS+hh:mm"), for traces
  /// printed as fe.log prints times; nullopt: none.
  std::optional<WallClock> wall_clock;
};

/// When a client session began: in the scenario (its actor runs U1..U3), or before the first
/// pass (its U1..U3 happened before the scenario starts: its tables are in CAT and in the
/// managers, with a createTime older than any pass), either still connected or already gone
/// (unregistered without cleaning: its tables recorded, no owner alive).
enum class ClientStart : std::uint8_t { kInScenario, kAlive, kGone };

/// How a client session ends (docs/model.md, "Sessions before the first pass, and how a session
/// ends"): `clean` unregisters (U4a) and, if its FE's manager has the session, issues CLEAN
/// TEMPORARY TABLE (U4b: ConnectScheduler.unregisterConnection -> ConnectContext
/// .cleanTemporaryTable); `abnormal` unregisters and never issues it (the FE holding the
/// connection stops, or the CLEAN statement fails and is only logged); `never` stays connected.
enum class ClientEnd : std::uint8_t { kClean, kAbnormal, kNever };

struct ClientConfig {
  std::string name = "c1";
  int frontend = 0;     ///< index of the FE the session is connected to
  int temp_tables = 1;  ///< CREATE TEMPORARY TABLE statements (U3)
  ClientStart existing = ClientStart::kInScenario;
  ClientEnd end = ClientEnd::kClean;
  /// Whether the session has an actor: it has steps left to run in the scenario.
  bool has_actor() const {
    return existing == ClientStart::kInScenario ||
           (existing == ClientStart::kAlive && end != ClientEnd::kNever);
  }
};

struct ActorsConfig {
  CleanerConfig cleaner;
  std::vector<TaskRunConfig> task_runs;
  std::vector<ClientConfig> clients;
};

/// The whole world of one scenario.
struct WorldConfig {
  ClusterConfig cluster;
  ActorsConfig actors;
  Policy policy;
  TimingConfig timing;
  std::string preset{kDefaultPreset};  ///< informational: the preset the policy started from
};

/// "fe1".."fe3", "cn1".."cn2".
std::string frontend_name(int index);
std::string compute_node_name(int index);

/// The session id of attempt `attempt` (1, 2, ...) of a TaskRun named `task`: "<task>#<attempt>".
std::string task_run_session(const std::string& task, int attempt);
/// The name of a client's k-th temporary table (k = 1, 2, ...): "tmp_<client>_<k>".
std::string client_table_name(const std::string& client, int k);

}  // namespace interleave::model
