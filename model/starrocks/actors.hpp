// The actors of the StarRocks temporary-table world, one file each, and the leader's
// temporary-table operations several of them run (metadata_mgr.cpp). Each step carries the label
// of docs/model.md ("Actors, steps and objects") and declares its accesses through the components.
// Each actor declares its local state for state fingerprints (Actor::declare_locals): a struct,
// local to its top function, holding every value that outlives a step and that its announced
// operation does not show; the leader's operations keep theirs in a struct of the caller's.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/world.hpp"

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace interleave::model {

// ---- actors ----

/// TemporaryTableCleaner: its passes C1..C4 and D1..D4, then the sweep pass
/// (temporary_table_cleaner.cpp).
void temporary_table_cleaner(Actor& a, World& w);
/// TaskRunScheduler's dispatcher: S2a/S2b/S3 per run, then S1 per run (task_run_scheduler.cpp).
void task_run_scheduler(Actor& a, World& w);
/// A KILL or timeout of run t: K (task_run_scheduler.cpp).
void kill_task_run(Actor& a, World& w, int t);
/// Run t's executor: per attempt E1..E6, then E7 (task_run.cpp).
void task_run(Actor& a, World& w, int t);
/// A sync run's caller: Y1..Y4 (task_run.cpp).
void sync_submit(Actor& a, World& w, int t);
/// A CN tablet sink of run t's insert into `table` on CN `cn`: N2..N4 (tablet_sink.cpp); in a
/// timed world its load lasts `load` up to its finish.
void tablet_sink(Actor& a, World& w, int t, int table, int cn, long long txn,
                 const std::string& name, const Duration& load);
/// Client session c: U1..U4b (client_session.cpp).
void client_session(Actor& a, World& w, int c);
/// Follower `fe`'s journal replayer: R1, R2 (journal_replayer.cpp).
void journal_replayer(Actor& a, World& w, int fe);

// ---- the leader's temporary-table operations (metadata_mgr.cpp) ----

/// What add_temporary_table keeps from one step to the next: the entry E2b got, held until E2c.
struct AddTableLocals {
  std::optional<std::size_t> held;
  void fingerprint(StateHasher& h) const { h << held; }
};

/// What clean_temporary_tables keeps from one step to the next: D1's copy of the session's
/// tables, the tables whose catalog drop failed (D2), and the copy's table at D2/D3.
struct CleanLocals {
  std::vector<int> tables;
  std::set<int> failed;
  std::size_t next = 0;
  void fingerprint(StateHasher& h) const { h << tables << failed << next; }
};

/// The FE lines TemporaryTableMgr logs when it adds `table` (named `name`) to `session`, and when
/// it drops the table named `name` from it (model/starrocks/log_patterns.hpp).
std::string add_table_line(const std::string& session, const std::string& name, int table);
std::string drop_table_line(const std::string& session, const std::string& name);

/// CREATE TEMPORARY TABLE's catalog step (E2 of a staging table, `name` empty; U3 of a client's):
/// the CN shards, CAT.add, CreateTableInfo journaled. Returns the table's id. `group` is the
/// recursive CTE (1, 2, ...) a staging table is for.
int create_table(Actor& a, World& w, Label label, const std::string& session,
                 const std::string& name, int session_fe, int group = 1);
/// TemporaryTableMgr.addTemporaryTable of `table` to `session`: E2a computeIfAbsent, E2b the
/// unlocked get, E2c addTable (or one step E2a-E2c with the atomic policy). `l`: the caller's.
void add_temporary_table(Actor& a, World& w, const std::string& session, int table, int session_fe,
                         AddTableLocals& l);
/// MetadataMgr.cleanTemporaryTables(session): D1..D4, by the cleaner (pass `pass`, started at
/// step `pass_start`) or by CLEAN TEMPORARY TABLE ON SESSION (U4b). `l`: the caller's.
void clean_temporary_tables(Actor& a, World& w, const std::string& session, bool by_cleaner,
                            std::size_t pass_start, int pass, CleanLocals& l);

}  // namespace interleave::model
