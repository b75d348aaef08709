// A CN tablet sink of one insert (be: the lake tablets channel and its delta writer): it opens the
// tablet (no I/O, so no step of its own: noted with the first step), N2 the first chunk builds
// the schema, N3 finish builds it if still not built (a tablet that got no rows fetches it only
// here), N4 report to the coordinator. Whether the tablet gets rows is the tablet_rows setting,
// or with `explore` a choice of the insert that spawned the sink (World::tablets_get_rows). A schema lookup is the CN's cache
// (SCH_cn[k]) or an RPC to the leader, which reads CAT: TABLE_NOT_EXIST ("table not found, may be
// dropped") fails the load without retry, as storage/lake/table_schema_service.cpp does.
// Promises: a failed N2 skips N3; sink_table_not_found is found at N2/N3 when the table's owner is
// live, observed through its objects.
// Locals (state fingerprints): rows, built, ok. The run, table and CN are the actor name's (the
// plan names a sink by run, attempt, insert and CN); the txn id is history (descriptions only).
#include "model/starrocks/actors.hpp"
#include "model/starrocks/log_patterns.hpp"

namespace interleave::model {

namespace {

// The schema lookup of a sink (N2 first chunk, N3 finish), always the sink's first step: it notes
// the opening of the tablet first. False when the table is gone.
bool schema_lookup(Actor& a, World& w, int t, int table, int cn, long long txn, Label label,
                   bool rows, const std::string& sink_name) {
  const TableInfo& info = w.cat.info(table);
  Op op(label, {w.sch.update_entry(cn, info.key), w.cat.read_table(table)});
  w.observe_owner(op, info.session);
  a.step(op);
  World::note(a, [&] {
    return "open tablet " + std::to_string(table + 5 + cn) + " (no I/O); the tablet gets " +
           (rows ? "rows" : "no rows");
  });
  if (w.sch.cached(cn, table)) {
    World::note(a, [&] { return "schema " + std::to_string(table + 1) + " from the CN cache"; });
    return true;
  }
  if (w.cat.contains(table)) {
    w.sch.cache(cn, table);
    World::note(a, [&] {
      return "schema " + std::to_string(table + 1) + " fetched from the leader, cached";
    });
    return true;
  }
  const std::string msg = "table not found, may be dropped, db id: " + std::to_string(kDbId) +
                          ", table id: " + std::to_string(table);
  TaskRun& tr = w.scheduler.task(t);
  if (tr.failure.empty()) tr.failure = compute_node_name(cn) + ": " + msg;
  World::note(a, [&] {
    const std::string node = compute_node_name(cn) + ": ";
    const std::string tablet = std::to_string(table + 5 + cn);
    return node +
           log_line(logs::kSchemaNotFound, {{"db", std::to_string(kDbId)},
                                            {"table", std::to_string(table)},
                                            {"schema", std::to_string(table + 1)},
                                            {"tablet", tablet},
                                            {"txn", std::to_string(txn)}}) +
           "; " + node +
           log_line(label == Label("N3") ? logs::kFailToFinishWrite : logs::kFailToWrite,
                    {{"tablet", tablet}, {"txn", std::to_string(txn)}}) +
           "; " + node + log_line(logs::kFailToFinishTablet, {{"tablet", tablet}});
  });
  if (w.owners.live(info.session))
    w.properties.found(a, inv::kSinkTableNotFound,
                       sink_name + " " + std::string(label) + " at step " +
                           std::to_string(w.now_step()) + ": the schema lookup of " +
                           w.table_text(table) +
                           " answered TABLE_NOT_EXIST (table not found, may be dropped) while its "
                           "owner is live",
                       sink_name + " " + std::string(label) + ": " + w.table_text(table));
  return false;
}

}  // namespace

void tablet_sink(Actor& a, World& w, int t, int table, int cn, long long txn,
                 const std::string& name, const Duration& load) {
  struct Locals {
    bool rows = false;
    bool built = false;
    bool ok = true;
    void fingerprint(StateHasher& h) const { h << rows << built << ok; }
  } l;
  a.declare_locals(l);
  // Opening the tablet touches nothing shared: it is no step of its own (the lookup notes it).
  l.rows = w.tablets_get_rows(t);
  const bool rows = l.rows;
  // Timed: the load lasts `load` up to the finish (N3); with rows the first chunk (N2) comes
  // first, a sink's moment after its open.
  w.lasts_by_default(a, Work::kSinkFinish);
  w.lasts(a, rows ? work_fact(Work::kSinkFinish).duration : load);
  bool& built = l.built;
  bool& ok = l.ok;
  if (rows) {
    ok = schema_lookup(a, w, t, table, cn, txn, "N2", rows, name);
    built = ok;
    w.lasts(a, load);
  }
  if (ok) {
    if (built) {
      a.step("N3", {});
      World::note(a, [&] { return "finish: schema already built, segment written"; });
    } else {
      ok = schema_lookup(a, w, t, table, cn, txn, "N3", rows, name);
    }
  }
  a.step("N4", {w.scheduler.update_coord(t)});
  ++w.scheduler.task(t).reports;
  World::note(a,
              [&] { return std::string("report to the coordinator: ") + (ok ? "OK" : "FAILED"); });
}

}  // namespace interleave::model
