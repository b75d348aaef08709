// StarRocks' TaskRunScheduler (fe-core scheduler/TaskRunScheduler): the pending queue PEND, the
// running map RUN (async and sync runs both pass through it) and the running-sync map SYNC, and
// per TaskRun t the objects the scheduler, the run and the cleaner share: runCtx(t) (its
// ConnectContext: the current attempt's session id, null until E1), future(t) (its state and
// future), progress(t) (ghost: the current attempt staged at E2, finalized at E6a, killed at K,
// observed by the coverage goals of C3 and C4) and coord(t) (the sinks' reports to the
// coordinator). Promises: each value below changes only at a step declaring a write of the object
// holding it. The actors on it, the dispatcher (S1..S3) and the kill (K), are in
// task_run_scheduler.cpp.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/accesses.hpp"
#include "model/starrocks/config.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <set>
#include <string>
#include <vector>

namespace interleave::model {

enum class Future : std::uint8_t { kPending, kSucceeded, kFailed, kKilled };

/// What the scheduler, the run and the cleaner know of one TaskRun (one config entry).
struct TaskRun {
  std::string session;  // runCtx(t): the current attempt's session id, "" while null
  int attempt = 0;      // runCtx(t): the current attempt (1, 2, ...), 0 while null
  bool killed = false;  // K ran (the run is marked killed, the future completed exceptionally)
  // runCtx(t): the attempt whose ConnectContext K killed (its statements fail from then on); the
  // first attempt if K ran while runCtx was still null. A later attempt (a retry) has a new
  // ConnectContext, which the kill did not touch.
  Future future = Future::kPending;
  bool finished = false;        // future(t): E7 set the final state (SUCCESS or FAILED)
  int reports = 0;              // coord(t): N4 reports of the current insert
  std::string failure;          // coord(t): the first sink failure of the current insert
  ActorId executor = kNoActor;  // the actor running it, once the dispatcher started it
  // Ghost (read by no step, only by tests' end-of-execution probes): what the last attempt's
  // recursive CTE did, and the run's result as E7 states it ("" for SUCCESS).
  int iterations_run = 0;    // E4 inserts started, over every staging table
  int iteration_failed = 0;  // the first iteration whose insert failed (0: none)
  bool outer_ran = false;    // E5 ran
  std::string outcome;       // E7: "" (SUCCESS) or the error the run FAILED with

  /// The state fingerprint's part: every field (the ghost ones too: tests probe them at the end,
  /// and the error texts are decided by state, not history). The executor's id is fixed by the
  /// actor's name, which the engine's part of the fingerprint writes.
  void fingerprint(StateHasher& h) const {
    h << session << attempt << killed << future << finished << reports << failure
      << executor << iterations_run << iteration_failed << outer_ran << outcome;
  }
};

/// The three maps a cleaner pass may read in C3.
enum class TaskRunMap : std::uint8_t { kPending, kRunning, kSync };

class TaskRunScheduler {
 public:
  /// Registers PEND, RUN, SYNC, then runCtx(t), progress(t), future(t), coord(t) of every run.
  void declare(Execution& ex, const std::vector<TaskRunConfig>& runs) {
    pend_id_ = ex.object("PEND");
    run_id_ = ex.object("RUN");
    sync_id_ = ex.object("SYNC");
    for (const auto& t : runs) {
      PerRun ids;
      ids.runctx = ex.object("runCtx(" + t.name + ")");
      ids.progress = ex.object("progress(" + t.name + ")");
      ids.future = ex.object("future(" + t.name + ")");
      ids.coord = ex.object("coord(" + t.name + ")");
      ids_.push_back(ids);
      tasks_.emplace_back();
    }
  }

  // ---- accesses ----
  Access update_pend() const { return read_modify_write(pend_id_); }
  Access update_run() const { return read_modify_write(run_id_); }
  Access update_sync() const { return read_modify_write(sync_id_); }
  Access read_map(TaskRunMap m) const {
    return read(m == TaskRunMap::kPending   ? pend_id_
                : m == TaskRunMap::kRunning ? run_id_
                                            : sync_id_);
  }
  Access read_runctx(int t) const { return read(at(t).runctx); }
  Access write_runctx(int t) const { return write(at(t).runctx); }
  Access update_runctx(int t) const { return read_modify_write(at(t).runctx); }
  Access read_progress(int t) const { return read(at(t).progress); }
  Access update_progress(int t) const { return read_modify_write(at(t).progress); }
  Access read_future(int t) const { return read(at(t).future); }
  Access update_future(int t) const { return read_modify_write(at(t).future); }
  Access wait_future(int t) const { return Access{at(t).future, AccessKind::kWait}; }
  Access update_coord(int t) const { return read_modify_write(at(t).coord); }
  Access wait_coord(int t) const { return Access{at(t).coord, AccessKind::kWait}; }
  /// Adds progress(t) of every run (C4's goals observe them).
  void add_every_progress_read(std::vector<Access>& op) const {
    for (const PerRun& r : ids_)
      add(op, read(r.progress));
  }

  // ---- values ----
  TaskRun& task(int t) { return tasks_[static_cast<std::size_t>(t)]; }
  const TaskRun& task(int t) const { return tasks_[static_cast<std::size_t>(t)]; }
  const std::vector<TaskRun>& tasks() const { return tasks_; }
  std::deque<int>& pending() { return pend_; }
  std::set<int>& running() { return run_; }
  std::set<int>& sync() { return sync_; }
  /// The runs in map `m`, in its order.
  std::vector<int> runs_in(TaskRunMap m) const {
    if (m == TaskRunMap::kPending) return {pend_.begin(), pend_.end()};
    if (m == TaskRunMap::kRunning) return {run_.begin(), run_.end()};
    return {sync_.begin(), sync_.end()};
  }

  /// The state fingerprint's part: PEND (in order), RUN, SYNC and every run's values.
  void fingerprint(StateHasher& h) const {
    h << std::vector<int>(pend_.begin(), pend_.end()) << run_ << sync_ << tasks_;
  }

  /// The state dump's "PEND", "RUN" and "SYNC" (run names).
  void dump(nlohmann::json& j, const std::vector<TaskRunConfig>& runs) const {
    auto names = [&runs](const auto& set) {
      std::vector<std::string> v;
      for (int t : set)
        v.push_back(runs[static_cast<std::size_t>(t)].name);
      return v;
    };
    j["PEND"] = names(pend_);
    j["RUN"] = names(run_);
    j["SYNC"] = names(sync_);
  }

 private:
  struct PerRun {
    ObjectId runctx = kNoObject, progress = kNoObject, future = kNoObject, coord = kNoObject;
  };
  const PerRun& at(int t) const { return ids_[static_cast<std::size_t>(t)]; }

  ObjectId pend_id_ = kNoObject, run_id_ = kNoObject, sync_id_ = kNoObject;
  std::vector<PerRun> ids_;
  std::deque<int> pend_;  // PEND: runs submitted, not yet polled
  std::set<int> run_;     // RUN
  std::set<int> sync_;    // SYNC
  std::vector<TaskRun> tasks_;
};

}  // namespace interleave::model
