// The actors of the StarRocks temporary-table world, planned once per configuration: the
// top-level ones the set-up spawns (in that order), the TaskRun executors the dispatcher spawns,
// and the tablet sinks each insert spawns (one per attempt, insert and CN). The set-up, the
// spawning actors and the actor bound of the scenario check all take names and counts from here.
#pragma once

#include "model/starrocks/config.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace interleave::model {

enum class ActorKind : std::uint8_t {
  kClientSession,          ///< "Session:<client>@<fe>", client_session.cpp
  kJournalReplayer,        ///< "Replayer:<fe>", a follower with clients, journal_replayer.cpp
  kSyncSubmit,             ///< "SyncSubmit:<run>", a sync run's caller, task_run.cpp
  kKillTaskRun,            ///< "Kill:<run>", task_run_scheduler.cpp
  kTaskRunScheduler,       ///< "TaskRunScheduler", the dispatcher, task_run_scheduler.cpp
  kTemporaryTableCleaner,  ///< "TemporaryTableCleaner", temporary_table_cleaner.cpp
};

struct PlannedActor {
  ActorKind kind;
  int index;  ///< the client, the FE, the task run; -1 for the scheduler and the cleaner
  std::string name;
};

class SpawnPlan {
 public:
  explicit SpawnPlan(const WorldConfig& cfg);

  /// The actors the set-up spawns, in this order.
  const std::vector<PlannedActor>& top_level() const { return top_level_; }
  /// "TaskRun:<run>": run t's executor, spawned by the dispatcher (task_run.cpp).
  const std::string& task_run(int t) const { return task_runs_[static_cast<std::size_t>(t)]; }
  /// "TabletSink:<session>/<E3 or E4.level>/<cn>": a sink of run t's attempt (1, 2, ...), insert
  /// `level` (0: the anchor E3, i: iteration E4.i of the first staging table; the g-th table's
  /// follow: (g - 1) * (1 + iteration_inserts()) + i) on CN `cn` (tablet_sink.cpp).
  const std::string& tablet_sink(int t, int attempt, int level, int cn) const;

  /// The name of every actor above, top-level ones first (what ordering constraints may name).
  std::vector<std::string> names() const;
  /// Every actor above: the most one execution can create.
  std::size_t actor_bound() const { return top_level_.size() + task_runs_.size() + sinks_; }

 private:
  struct RunSinks {
    int inserts = 1;  // per attempt: staging_tables * (1 + iteration_inserts())
    int compute_nodes = 1;
    std::vector<std::string> names;  // by (attempt - 1, level, cn)
  };
  std::vector<PlannedActor> top_level_;
  std::vector<std::string> task_runs_;
  std::vector<RunSinks> sink_names_;
  std::size_t sinks_ = 0;
};

/// The actors one execution of `config` may create (top-level and spawned), an upper bound.
std::size_t actor_bound(const WorldConfig& config);

}  // namespace interleave::model
