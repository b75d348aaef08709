// The leader's temporary-table operations, run as steps of the actor that asks for them (fe-core
// server/MetadataMgr and server/TemporaryTableMgr):
// - CREATE TEMPORARY TABLE: the catalog step (E2 for a TaskRun's staging table, U3 for a client's
//   table; on a follower the statement is forwarded to the leader), then
//   TemporaryTableMgr.addTemporaryTable: E2a computeIfAbsent(s, createTime) under the manager's
//   lock, E2b an unlocked get(s), E2c addTable: a check-then-act (hazard 10), or one step.
// - cleanTemporaryTables(s): D1 copy TTM_L[s].tables, per table D2 drop it from CAT (DropInfo
//   journaled) and D3 remove it from the entry, then D4 remove s from TTM_L (memory only). With
//   catalog_drop = may_fail (hypothetical) the drop of a table still in CAT may throw: the loop
//   logs it, skips that table's D3 (inside the same try) and goes on; D4 still removes s.
// Promises: at most one DropInfo per table (else an actor failure); manager_null_pointer is
// checked at E2b, untracked_temp_table at E2c and D4, live_owner_table_dropped found at the
// cleaner's D2.
#include "model/starrocks/actors.hpp"
#include "model/starrocks/log_patterns.hpp"

#include <optional>
#include <set>
#include <vector>

namespace interleave::model {

std::string add_table_line(const std::string& session, const std::string& name, int table) {
  return log_line(logs::kAddTemporaryTable, {{"session", session_uuid(session)},
                                             {"db", std::to_string(kDbId)},
                                             {"table_name", name},
                                             {"table", std::to_string(table)}});
}

std::string drop_table_line(const std::string& session, const std::string& name) {
  return log_line(logs::kDropTemporaryTable, {{"session", session_uuid(session)},
                                              {"db", std::to_string(kDbId)},
                                              {"table_name", name}});
}

int create_table(Actor& a, World& w, Label label, const std::string& session,
                 const std::string& name, int session_fe, int group) {
  const std::string key = Catalog::table_key(session, name, group);
  Op op(label, {w.cat.update_table(key)});
  // The create-tablet task of the CN that runs it (creator_cn) caches the schema there.
  const int creator = w.cfg.cluster.creator_cn;
  if (creator >= 0) add(op, w.sch.update_entry(creator, key));
  w.journal.add_append(op, session);
  // A staging table: its owner's progress (staged) is observed through progress(t).
  if (name.empty()) add(op, w.scheduler.update_progress(w.owners.at(session).index));
  a.step(op);
  const TableInfo& info = w.cat.add(session, name, group);
  const int id = info.id;
  w.journal.append(JournalKind::kCreateTable, id, session);
  if (creator >= 0) w.sch.cache(creator, id);
  World::note(a, [&] {
    std::string s;
    if (session_fe != 0)
      s +=
          "CREATE TEMPORARY TABLE forwarded from " + frontend_name(session_fe) + " to the leader; ";
    for (int c = 0; c < w.cfg.cluster.compute_nodes; ++c)
      s += compute_node_name(c) + ": " +
           log_line(logs::kAddShard, {{"tablet", std::to_string(id + 5 + c)},
                                      {"path", ".../db" + std::to_string(kDbId) + "/" +
                                                   std::to_string(id) + "/" +
                                                   std::to_string(id + 2)}}) +
           "; ";
    if (creator >= 0)
      s += compute_node_name(creator) + ": create tablet " + std::to_string(id + 5 + creator) +
           " with create_schema_file: schema " + std::to_string(id + 1) + " cached; ";
    return s + "create temporary table " + info.name + " (db id " + std::to_string(kDbId) +
           ", table id " + std::to_string(id) + ") of session " + session +
           ": CAT.add, CreateTableInfo journaled";
  });
  return id;
}

void add_temporary_table(Actor& a, World& w, const std::string& session, int table, int session_fe,
                         AddTableLocals& l) {
  const Policy& pol = w.cfg.policy;
  const int clock_fe = pol.create_time_clock == CreateTimeClock::kSessionFrontend ? session_fe : 0;
  TableInfo& info = w.cat.info(table);
  // computeIfAbsent may add the session's key (declared whether or not it does). Its true time
  // (created_step) is compared with C1's by a coverage goal: with another FE's clock it also
  // reads the leader's, so that C1 and it stay ordered.
  // With the leader's clock, only C1 advances it (logical time: the passes started) and E2a reads
  // it: createTime < startTime iff the E2a came before the pass's C1, as with a real clock, and
  // the E2a's of different sessions commute. A follower's clock (session_frontend) is compared
  // across FEs with its offset, so there E2a ticks it as the FE's clock would advance.
  const bool ticks = pol.create_time_clock == CreateTimeClock::kSessionFrontend;
  auto e2a = [&](Label label) {
    Op op(label, {w.ttm.update_row(session),
                  ticks ? w.clocks.update_clock(clock_fe) : w.clocks.read_clock(clock_fe)});
    if (clock_fe != 0) add(op, w.clocks.read_clock(0));
    return op;
  };
  auto compute_if_absent = [&] {
    std::optional<std::size_t> e = w.ttm.find(session);
    if (!e) {
      e = w.ttm.create(session, ticks ? w.clocks.tick(clock_fe) : w.clocks.now(0), w.now_step());
      World::note(a, [&] {
        return "TemporaryTableMgr: new session " + session +
               ", createTime = " + std::to_string(w.ttm.entry(*e).create_time) + " (" +
               frontend_name(clock_fe) + " clock), session id " + session_uuid(session);
      });
    }
    info.e2a_step = w.ttm.entry(*e).created_step;
    info.own_e2a_step = w.now_step();
    return *e;
  };
  if (pol.add_temporary_table == AddTemporaryTable::kAtomic) {
    Op op = e2a("E2a-E2c");
    add(op, w.ttm.update_tables(session));
    a.step(op);
    w.ttm.tables_to_change(compute_if_absent(), session).insert(table);
    World::note(a, [&] { return add_table_line(session, info.name, table); });
    return;
  }
  a.step(e2a("E2a"));
  compute_if_absent();
  a.step("E2b", {w.ttm.read_row(session)});
  TtmEntry* got = w.ttm.get(session);
  World::note(a, [&] {
    return "TemporaryTableMgr.get(" + session + ") (unlocked): " +
           (got == nullptr ? std::string("null") : std::string("the session's entry"));
  });
  // A step-local property: found() ends the execution here.
  if (got == nullptr)
    w.properties.found(a, inv::kManagerNullPointer,
                       "E2b at step " + std::to_string(w.now_step()) + ": TemporaryTableMgr.get(" +
                           session +
                           ") returned null (D4 removed the session after E2a): "
                           "NullPointerException while adding " +
                           w.table_text(table) + ", which is already in CAT");
  l.held = w.ttm.index_of(*got);
  // The held entry is the session's (attached or removed by D4 since): TTM_L[s] covers both.
  a.step("E2c", {w.ttm.read_row(session), w.ttm.update_tables(session), w.cat.read_table(table)});
  const std::size_t held = *l.held;
  l.held.reset();
  const TtmEntry& e = w.ttm.entry(held);
  w.ttm.tables_to_change(held, session).insert(table);
  World::note(a, [&] {
    return add_table_line(session, info.name, table) +
           (e.attached ? "" : "; (the entry is no longer in the manager)");
  });
  if (!e.attached && w.cat.contains(table))
    w.properties.found(a, inv::kUntrackedTempTable,
                       "E2c at step " + std::to_string(w.now_step()) + " added " +
                           w.table_text(table) +
                           " to the TemporaryTableMgr entry that D4 had removed: the table is in "
                           "CAT and no manager tracks it");
}

void clean_temporary_tables(Actor& a, World& w, const std::string& session, bool by_cleaner,
                            std::size_t pass_start, int pass, CleanLocals& l) {
  l = CleanLocals{};
  std::vector<int>& tables = l.tables;
  // The tables whose catalog drop threw (left in CAT and in the entry).
  std::set<int>& failed = l.failed;
  a.step("D1", {w.ttm.read_row(session), w.ttm.read_tables(session)});
  if (TtmEntry* e = w.ttm.get(session)) tables.assign(e->tables.begin(), e->tables.end());
  World::note(a, [&] {
    std::string s = by_cleaner ? log_line(logs::kCleanDeadSession,
                                          {{"session", session_uuid(session)}}) +
                                     "; the session's tables: ["
                               : "CLEAN TEMPORARY TABLE ON SESSION " + session + ": [";
    for (std::size_t i = 0; i < tables.size(); ++i)
      s += (i ? ", " : "") + w.cat.info(tables[i]).name;
    return s + "]";
  });
  for (; l.next < tables.size(); ++l.next) {
    const int id = tables[l.next];
    Op d2("D2", {w.cat.update_table(id)});
    w.journal.add_append(d2, session);
    w.observe_owner(d2, session);
    a.step(d2);
    w.lasts(a, Work::kCatalogWrite);
    TableInfo& info = w.cat.info(id);
    // Database.dropTemporaryTable with IF EXISTS returns before anything can throw when the table
    // is gone; on a present table the hypothetical variant explores a DdlException.
    if (w.cfg.policy.catalog_drop == CatalogDrop::kMayFail && w.cat.contains(id) &&
        a.choose(2) == 1) {
      failed.insert(id);
      a.cover(goal::kCatalogDropFailed);
      World::note(a, [&] {
        return "Failed to drop temporary table db" + std::to_string(kDbId) + "." + info.name +
               " in session " + session +
               " (the DdlException is caught and logged; the table stays in CAT and in the "
               "session's entry)";
      });
      continue;
    }
    if (!w.cat.contains(id)) {
      World::note(
          a, [&] { return "table " + info.name + " is already dropped (IF EXISTS): nothing"; });
    } else {
      w.cat.drop(id);
      w.journal.append(JournalKind::kDropTable, id, session);
      if (++info.drop_infos > 1) a.fail("two DropInfo journaled for " + w.table_text(id));
      World::note(a, [&] {
        return "drop temporary table " + info.name + " (db id " + std::to_string(kDbId) +
               ", table id " + std::to_string(id) + ") of session " + session +
               ": DropInfo journaled";
      });
      if (by_cleaner) {
        const Owner& o = w.owners.at(session);
        if (o.live)
          w.properties.found(a, inv::kLiveOwnerTableDropped,
                             "the TemporaryTableCleaner (pass " + std::to_string(pass) +
                                 ", D2 at step " + std::to_string(w.now_step()) + ") dropped " +
                                 w.table_text(id) + " while its owner is live",
                             "pass " + std::to_string(pass) + ": " + w.table_text(id));
        if (o.kind == Owner::Kind::kTaskRun && w.scheduler.task(o.index).killed && !o.finalized)
          a.cover(goal::kKilledRunTableDropped);
        if (info.e2a_step > pass_start) a.cover(goal::kDroppedTableCreatedAfterStart);
        // TemporaryTableMgr keeps the createTime of the session's first table: a later table of
        // the session, created after this pass's C1, is not protected by the guard.
        if (info.e2a_step <= pass_start && info.own_e2a_step > pass_start)
          a.cover(goal::kLaterTableUnguarded);
      }
    }
    a.step("D3", {w.ttm.read_row(session), w.ttm.update_tables(session)});
    TtmEntry* entry = w.ttm.get(session);
    if (entry != nullptr) w.ttm.tables_to_change(w.ttm.index_of(*entry), session).erase(id);
    // TemporaryTableMgr.dropTemporaryTable logs only when the session has an entry.
    World::note(a, [&] {
      return entry != nullptr ? drop_table_line(session, info.name)
                              : "the session " + session + " has no entry any more: nothing";
    });
  }
  // Removes the key; its check reads CAT for every table the entry may hold (the session's).
  Op d4("D4", {w.ttm.update_row(session), w.ttm.read_tables(session)});
  for (const std::string& key : w.cat.keys_of(session))
    add(d4, w.cat.read_table(key));
  a.step(d4);
  w.lasts(a, Work::kCatalogWrite);
  // The cleaner's own job (testNormal's assertion): a session the pass found dead has no table
  // left in CAT once its D4 ran. Checked after D4's own checks, so that a table D4 leaves
  // untracked is reported as such first.
  auto check_cleaned = [&] {
    if (!by_cleaner) return;
    std::vector<int> left;
    for (const std::string& key : w.cat.keys_of(session))
      if (const std::optional<int> id = w.cat.present_id(key)) left.push_back(*id);
    if (left.empty()) {
      if (!tables.empty()) a.cover(goal::kDeadSessionCleaned);
      return;
    }
    std::string which;
    for (int id : left)
      which += (which.empty() ? "" : "; ") + w.table_text(id) +
               (failed.count(id) != 0 ? ", whose catalog drop failed at D2"
                                      : ", created after D1's copy");
    w.properties.found(a, inv::kDeadSessionTableLeft,
                       "the TemporaryTableCleaner (pass " + std::to_string(pass) +
                           ") found session " + session +
                           " dead and old enough and cleaned it, but after its D4 (step " +
                           std::to_string(w.now_step()) + ") CAT still holds " + which,
                       "pass " + std::to_string(pass) + ": session " + session + ": " + which);
  };
  if (const std::optional<std::size_t> removed = w.ttm.remove(session)) {
    World::note(a, [&] {
      return log_line(logs::kRemoveTemporaryTables, {{"session", session_uuid(session)}});
    });
    for (int id : w.ttm.entry(*removed).tables)
      if (w.cat.contains(id))
        w.properties.found(
            a, inv::kUntrackedTempTable,
            "D4 at step " + std::to_string(w.now_step()) + " removed session " + session +
                " from TemporaryTableMgr while its entry still held " + w.table_text(id) +
                (failed.count(id) != 0 ? ", whose catalog drop failed at D2 (caught and logged)"
                                       : ", added after D1's copy") +
                ": the table stays in CAT and no manager tracks it");
    check_cleaned();
    return;
  }
  World::note(a, [&] {
    return log_line(logs::kRemoveTemporaryTables, {{"session", session_uuid(session)}}) +
           "; (none left)";
  });
  check_cleaned();
}

}  // namespace interleave::model
