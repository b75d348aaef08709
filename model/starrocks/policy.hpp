// The policies of the StarRocks temporary-table world: the knobs users vary to test fixes, and the
// presets that name versions and variants. Each knob is written once, in the table knobs()
// (policy.cpp): its key, values, default, description and source. The "policy" section's parser,
// the trace's and the catalog's policy JSON, `interleave list`, and the checks of the docs table
// (docs/model.md) and of the JSON Schema (starrocks-temp-tables.schema.json) all derive from it.
// Every default is the StarRocks 4.1.1 behaviour, cited in docs/model.md ("Sources").
#pragma once

#include "explorer/core/json_reader.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace interleave::model {

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
/// The catalog drop of MetadataMgr.cleanTemporaryTables (D2): it succeeds (StarRocks: with IF
/// EXISTS and FORCE it has no DdlException to throw), or it may throw one, which the loop catches
/// and logs before it still removes the session (D4).
enum class CatalogDrop : std::uint8_t { kSucceeds, kMayFail };
/// How RecursiveCTEExecutor.prepareRecursiveCTE treats a failed statement, by the version of the
/// executor: rows_first (as merged with recursive CTEs and shipped in 4.1.1: a failed start
/// statement throws; an iteration tests the affected rows, stale after a failure, before its
/// error; the depth limit throws), error_first (a later version: the error tested first, its
/// message names the iteration) or warn_and_continue (an early draft: a failure is logged and
/// prepare returns, the outer statement still runs).
enum class RecursiveCteErrors : std::uint8_t { kRowsFirst, kErrorFirst, kWarnAndContinue };

/// When the dispatcher's checkRunningTaskRun (S1) removes a run from RUN after a graceful kill
/// (which completes the run's future at once): as soon as the future is done (4.1.1), or only
/// once the executor has set a final state (a later version that skips a done future whose
/// state is still RUNNING).
enum class GracefulKillReap : std::uint8_t { kFutureDone, kFinalState };

/// The liveness sources of a cleaner pass (the union is the "alive" set).
struct Liveness {
  bool client_sessions = true;     ///< C2: ids(CS_f) ∩ keys(TTM_f) of every FE
  bool async_task_runs = false;    ///< C3: runCtx sessions of the TaskRuns in RUN
  bool sync_task_runs = false;     ///< C3: runCtx sessions of the TaskRuns in SYNC
  bool pending_task_runs = false;  ///< C3: runCtx sessions of the TaskRuns in PEND
  friend bool operator==(const Liveness&, const Liveness&) = default;
};

/// Every knob, with its StarRocks 4.1.1 value as default (the knobs() table says what each is).
struct Policy {
  Liveness liveness;
  TaskRunSnapshot task_run_snapshot = TaskRunSnapshot::kAfterStartTime;
  bool create_time_guard = true;
  FailedListSessions failed_list_sessions = FailedListSessions::kAbortPass;
  DispatchOrder dispatch_order = DispatchOrder::kStartThenRegister;
  AddTemporaryTable add_temporary_table = AddTemporaryTable::kCheckThenAct;
  CreateTimeClock create_time_clock = CreateTimeClock::kLeader;
  CatalogDrop catalog_drop = CatalogDrop::kSucceeds;
  RecursiveCteErrors recursive_cte_errors = RecursiveCteErrors::kRowsFirst;
  GracefulKillReap graceful_kill_reap = GracefulKillReap::kFutureDone;
  friend bool operator==(const Policy&, const Policy&) = default;

  /// Whether a pass takes C3 at all (some task-run liveness source is on).
  bool has_task_liveness() const {
    return liveness.async_task_runs || liveness.sync_task_runs || liveness.pending_task_runs;
  }
};

// ---------------------------------------------------------------- the knob table

/// The JSON shape of a knob's value.
enum class KnobType : std::uint8_t {
  kEnum,     ///< a string, one of `values`
  kBoolean,  ///< true or false
  kSet,      ///< an array of distinct strings, each one of `values`
};

/// What a knob's values follow.
struct KnobSource {
  /// The StarRocks file (path in the StarRocks repository) the default follows.
  std::string_view file;
  /// The StarRocks commit (40 hex digits) at which `file` was read and shows the values that are
  /// not hypothetical; empty only if every value is hypothetical.
  std::string_view commit;
  /// The values (of the items, for kSet) that no StarRocks code has: variants that exist only to
  /// test a hypothesis. The default is never one of them.
  nlohmann::json hypothetical;
  /// Which value follows what (a line of `file`, another commit, a PR, a hazard).
  std::string_view note;
};

/// One knob of the scenario's "policy" section.
struct Knob {
  std::string_view key;
  KnobType type;
  nlohmann::json values;  ///< the values (of the items, for kSet), in the table's order
  std::string_view description;
  KnobSource source;
  /// The knob's value in `p`, as written in a scenario.
  std::function<nlohmann::json(const Policy& p)> get;
  /// Sets the knob in `p` from `value` (the reader at /policy/<key>); throws InputError naming
  /// the JSON path. May check `p`'s knobs earlier in the table.
  std::function<void(const JsonReader& value, Policy& p)> read;
};

/// Every knob of the "policy" section, in the order the parser reads them and `list` shows them.
const std::vector<Knob>& knobs();

/// "string", "boolean" or "array of strings" (as `interleave list` shows the type).
std::string_view type_name(KnobType type);

// ---------------------------------------------------------------- the preset table

/// A StarRocks file at a commit (40 hex digits).
struct SourceRef {
  std::string_view file;
  std::string_view commit;
};

/// A named policy: a version or a variant.
struct Preset {
  std::string name;
  std::string description;
  Policy policy;
  /// True if no StarRocks version behaves so (some knob differs from every source read); then
  /// `follows` names the sources it takes parts from, if any.
  bool hypothetical = false;
  /// The StarRocks files, at the commits read, whose behaviour the preset follows.
  std::vector<SourceRef> follows;
};

/// Every preset, in a fixed order; the first is the default ("starrocks-4.1.1").
const std::vector<Preset>& presets();
/// The preset named `name`, if any.
std::optional<Preset> find_preset(std::string_view name);
/// The name of the default preset (the first).
inline constexpr std::string_view kDefaultPreset = "starrocks-4.1.1";

// ---------------------------------------------------------------- derived from the tables

/// Reads the scenario's "policy" section (`r` is its reader): the preset first, then each knob
/// of the table that is given. Sets `preset_name`. Throws InputError naming the JSON path.
Policy parse_policy(const JsonReader& r, std::string& preset_name);

/// The knobs of a policy as they are written in a scenario's "policy" section.
nlohmann::json policy_to_json(const Policy& p);

}  // namespace interleave::model
