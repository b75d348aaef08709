// One execution's StarRocks world: the components (each owning its shared objects and their
// values), the ghost bookkeeping of owners, the property reporting, and the actors' handles. The
// actors (one file each: temporary_table_cleaner, task_run_scheduler, task_run, tablet_sink,
// client_session, journal_replayer) and the leader's temporary-table operations they share
// (metadata_mgr) work on it.
// invariant: every value below is touched by a step only if that step declares an access to the
// object holding it (the ghost bookkeeping of owners is observed through declared reads).
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/accesses.hpp"
#include "model/starrocks/catalog.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/connect_scheduler.hpp"
#include "model/starrocks/edit_log.hpp"
#include "model/starrocks/fe_clocks.hpp"
#include "model/starrocks/owners.hpp"
#include "model/starrocks/properties.hpp"
#include "model/starrocks/schema_cache.hpp"
#include "model/starrocks/spawn_plan.hpp"
#include "model/starrocks/task_run_scheduler.hpp"
#include "model/starrocks/temporary_table_mgr.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace interleave::model {

inline constexpr long long kFirstTxnId = 12920;  // the seed's txn id

struct World {
  /// Registers the shared objects, in a fixed order (world.cpp).
  World(Execution& ex, const WorldConfig& cfg, const SpawnPlan& plan);
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  /// Spawns the top-level actors of the plan and registers the end-of-execution checks and the
  /// state dump.
  void setup();

  // ---- helpers of the actors ----
  /// The index of the current step (the one being executed).
  std::size_t now_step() const { return ex.step_count() == 0 ? 0 : ex.step_count() - 1; }
  /// A description of the current step, built only when a trace is recorded.
  template <class F>
  static void note(Actor& a, F&& text) {
    if (a.tracing()) a.note(text());
  }
  const TaskRunConfig& task_cfg(int t) const {
    return cfg.actors.task_runs[static_cast<std::size_t>(t)];
  }
  const ClientConfig& client_cfg(int c) const {
    return cfg.actors.clients[static_cast<std::size_t>(c)];
  }
  std::string owner_text(const std::string& session) const;
  /// Timed worlds (the scenario's "timing" section; durations.hpp): the work after the current
  /// step (before the first one, if none was taken) lasts `d`, or `w`'s duration; an actor whose
  /// steps mostly do one kind of work says so once (lasts_by_default). Nothing when untimed.
  void lasts(Actor& a, const Duration& d) const {
    if (cfg.timing.on) a.lasts(d);
  }
  void lasts(Actor& a, Work w) const { lasts(a, work_fact(w).duration); }
  void lasts_by_default(Actor& a, Work w) const {
    if (cfg.timing.on) a.lasts_by_default(work_fact(w).duration);
  }

  /// The state fingerprint's shared part (explorer/core/fingerprint.hpp), registered by setup(): the
  /// components, the ghost bookkeeping and the world's fields that decide what follows. Left
  /// out, as history: next_txn (descriptions only) and sweep_start (a step index, only in
  /// messages); the actor ids (clients, sync_callers, dispatcher) are fixed by the set-up.
  void fingerprint(StateHasher& h) const;
  /// For a cleaner pass whose C1 was step `c1_step`: per table created and per TTM_L entry,
  /// whether its E2a came after that C1 (D2's coverage goals compare those steps). The steps
  /// themselves are history; this order is what the pass's locals write instead.
  void write_created_after(StateHasher& h, std::size_t c1_step) const;
  std::string table_text(int table) const;
  /// The accesses by which a property observes the liveness of `session`'s owner: future(t) and
  /// runCtx(t) of a run, CS_f[c] of a client.
  void observe_owner(Op& op, const std::string& session) const;
  /// Whether the tablets of run t's sinks get rows: the run's tablet_rows, or with `explore` a
  /// choice made in the run's first insert that spawns sinks (`a` is the TaskRun, in that step)
  /// and kept for its other inserts and attempts.
  bool tablets_get_rows(Actor& a, int t) {
    signed char& r = tablet_rows[static_cast<std::size_t>(t)];
    if (r < 0) r = a.choose(2) == 0 ? 1 : 0;
    return r == 1;
  }
  /// The same once decided (by a sink of run t).
  bool tablets_get_rows(int t) const { return tablet_rows[static_cast<std::size_t>(t)] == 1; }

  Execution& ex;
  const WorldConfig& cfg;
  const SpawnPlan& plan;

  // ---- the components ----
  Catalog cat;                 // CAT
  TemporaryTableMgr ttm;       // TTM_L, TTM_f
  ConnectScheduler cs;         // CS_f
  TaskRunScheduler scheduler;  // PEND, RUN, SYNC, runCtx, progress, future, coord
  EditLog journal;             // J[f]
  SchemaCaches sch;            // SCH_cn
  FeClocks clocks;             // clock_fe
  /// The leader's transaction ids (not declared: only descriptions show them, docs/model.md
  /// "Limits").
  long long next_txn = kFirstTxnId;

  // ---- ghost bookkeeping ----
  Owners owners;
  Properties properties;
  std::vector<ActorId> clients, sync_callers;  // the actors the sweep pass joins
  ActorId dispatcher = kNoActor;
  // Per run: whether its sinks' tablets get rows (1, 0), -1 while an `explore` choice is not made.
  std::vector<signed char> tablet_rows;
  bool sweep_completed = false;
  std::size_t sweep_start = 0;
  // The sweep pass aborted at the listSessions RPC to this FE (a down one); -1 otherwise.
  int sweep_aborted_at = -1;
  int passes_completed = 0;  // passes (the sweep too) that got past C2
};

}  // namespace interleave::model
