// The configuration of the StarRocks temporary-table world: the cluster, the actors, and the
// policies (the knobs users vary to test fixes). Every default is the StarRocks 4.1.1 behaviour
// described in ../shared/domain/starrocks-temp-tables.md; the presets name the versions and
// variants people talk about.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace interleave::model {

// ---------------------------------------------------------------- policies (the knobs)

/// Where C3 (the task-run snapshot) sits relative to C1 (startTime := now).
enum class TaskRunSnapshot : std::uint8_t { kAfterStartTime, kBeforeStartTime };
/// What a pass does when an FE's listSessions RPC fails.
enum class FailedListSessions : std::uint8_t { kAbortPass, kIgnoreFrontend };
/// The TaskRunScheduler dispatcher's order: S2a start, S2b journal, S3 RUN.put (StarRocks), or
/// S3 first (the candidate fix of hazard 3).
enum class DispatchOrder : std::uint8_t { kStartThenRegister, kRegisterThenStart };
/// TemporaryTableMgr.addTemporaryTable: E2a computeIfAbsent, E2b unlocked get, E2c addTable as
/// three steps (StarRocks), or one atomic step.
enum class AddTemporaryTable : std::uint8_t { kCheckThenAct, kAtomic };
/// Whose clock E2a records as a session's createTime: the leader's (StarRocks: the cleaner
/// compares it with its own clock), or the clock of the FE the session lives on (hazard 8: a
/// comparison across FEs).
enum class CreateTimeClock : std::uint8_t { kLeader, kSessionFrontend };

/// The liveness sources of a cleaner pass (the union is the "alive" set).
struct Liveness {
  bool client_sessions = true;     ///< C2: ids(CS_f) ∩ keys(TTM_f) of every FE
  bool async_task_runs = false;    ///< C3: runCtx sessions of the TaskRuns in RUN
  bool sync_task_runs = false;     ///< C3: runCtx sessions of the TaskRuns in SYNC
  bool pending_task_runs = false;  ///< C3: runCtx sessions of the TaskRuns in PEND
  friend bool operator==(const Liveness&, const Liveness&) = default;
};

/// Every knob, with its StarRocks 4.1.1 value as default.
struct Policy {
  Liveness liveness;
  TaskRunSnapshot task_run_snapshot = TaskRunSnapshot::kAfterStartTime;
  bool create_time_guard = true;  ///< clean s only if createTime(s) < startTime (PR 55353)
  FailedListSessions failed_list_sessions = FailedListSessions::kAbortPass;
  DispatchOrder dispatch_order = DispatchOrder::kStartThenRegister;
  AddTemporaryTable add_temporary_table = AddTemporaryTable::kCheckThenAct;
  CreateTimeClock create_time_clock = CreateTimeClock::kLeader;
  friend bool operator==(const Policy&, const Policy&) = default;
};

/// A named policy: a version or a variant.
struct Preset {
  std::string name;
  std::string description;
  Policy policy;
};

/// Every preset, in a fixed order; the first is the default ("starrocks-4.1.1").
std::vector<Preset> presets();
/// The preset named `name`, if any.
std::optional<Preset> find_preset(std::string_view name);

// ---------------------------------------------------------------- cluster and actors

/// Rows a CN tablet sink receives: decides whether the schema is built at N2 (first chunk) or only
/// at N3 (finish).
enum class TabletRows : std::uint8_t { kExplore, kSome, kNone };

struct ClusterConfig {
  int frontends = 1;      ///< 1..3; FE 0 ("fe1") is the leader, the others are followers
  int compute_nodes = 1;  ///< 1..2 ("cn1", "cn2")
  /// FEs whose listSessions RPC may fail (explored: it answers or it fails), by index.
  std::vector<int> unreachable_frontends;
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
  int iterations = 0;  ///< E4 iteration inserts; at most recursive_cte_max_depth - 1
  int recursive_cte_max_depth = 5;
  int retries = 0;    ///< further attempts after a failed one (each from E1, new session id)
  bool kill = false;  ///< a KILL / timeout (K) may hit the run while it is in RUN
  TabletRows tablet_rows = TabletRows::kExplore;
};

struct ClientConfig {
  std::string name = "c1";
  int frontend = 0;     ///< index of the FE the session is connected to
  int temp_tables = 1;  ///< CREATE TEMPORARY TABLE statements (U3)
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
  std::string preset = "starrocks-4.1.1";  ///< informational: the preset the policy started from
};

// ---------------------------------------------------------------- names

/// Property names the model reports (besides the engine's "deadlock" and "actor_failure").
namespace inv {
inline constexpr std::string_view kLiveOwnerTableDropped = "live_owner_table_dropped";
inline constexpr std::string_view kSinkTableNotFound = "sink_table_not_found";
inline constexpr std::string_view kManagerNullPointer = "manager_null_pointer";
inline constexpr std::string_view kUntrackedTempTable = "untracked_temp_table";
inline constexpr std::string_view kTempTableLeak = "temp_table_leak";
}  // namespace inv

/// Coverage goals (Execution::cover): the situations a "holds" verdict must have explored.
namespace goal {
/// A pass's C4 snapshot held the session of a TaskRun attempt between E2 and E6, old enough to be
/// cleaned (createTime < startTime): the dangerous overlap.
inline constexpr std::string_view kTaskSessionCandidate = "task_session_candidate";
/// ... and the pass found it alive and kept its table.
inline constexpr std::string_view kTaskSessionSpared = "task_session_spared";
/// A C3 read found the runCtx session of a TaskRun attempt between E2 and E6.
inline constexpr std::string_view kTaskRunSeenByC3 = "task_run_seen_by_c3";
/// A pass's C4 snapshot held a live client session (between U2 and U4a) old enough to be cleaned.
inline constexpr std::string_view kClientSessionCandidate = "client_session_candidate";
/// ... and the pass found it alive and kept its tables.
inline constexpr std::string_view kClientSessionSpared = "client_session_spared";
/// A session missing from the alive set was kept only by the createTime guard.
inline constexpr std::string_view kSparedByCreateTimeGuard = "spared_by_create_time_guard";
/// A pass dropped a table whose E2a came after the pass's C1 (the guard did not protect it).
inline constexpr std::string_view kDroppedTableCreatedAfterStart =
    "dropped_table_created_after_start";
/// A listSessions RPC failed.
inline constexpr std::string_view kListSessionsFailed = "list_sessions_failed";
/// The cleaner dropped the staging table of a killed run before its E6.
inline constexpr std::string_view kKilledRunTableDropped = "killed_run_table_dropped";
/// E6 (DROP TEMPORARY TABLE IF EXISTS) found the staging table already dropped: a no-op.
inline constexpr std::string_view kFinalizeNoop = "finalize_noop";
/// A follower answered listSessions before replaying the CreateTableInfo of one of its sessions.
inline constexpr std::string_view kFollowerOmittedSession = "follower_omitted_session";
/// The sweep pass ran to its end after every owner had ended.
inline constexpr std::string_view kSweepPassCompleted = "sweep_pass_completed";
}  // namespace goal

/// Every property name the model can report, including the engine's.
std::vector<std::string> invariant_names();
/// Every coverage goal name.
std::vector<std::string> coverage_goal_names();

/// "fe1".."fe3", "cn1".."cn2".
std::string frontend_name(int index);
std::string compute_node_name(int index);

}  // namespace interleave::model
