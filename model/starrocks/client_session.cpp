// A client session on FE f (fe-core qe/ConnectContext and qe/ConnectScheduler): U1 create its
// context (a fresh session id), U2 register in CS_f, U3 its CREATE TEMPORARY TABLE statements (on
// a follower forwarded to the leader, which runs them with the same session id;
// metadata_mgr.cpp), U4a unregister from CS_f, U4b if its FE's TemporaryTableMgr has the session,
// CLEAN TEMPORARY TABLE ON SESSION, which the leader runs as D1..D4.
// A session that existed before the first pass (`existing: alive`) starts at its end; its
// U1..U3 are the world's initial state (world.cpp). With `end: abnormal` the connection drops at
// U4a and no CLEAN TEMPORARY TABLE follows; with `end: never` the session stays connected.
// Promises: the session's owner is live from U2 until U4a.
// Locals (state fingerprints): the table being created (k) and the locals of the leader's
// operations it runs (E2a..E2c, D1..D4).
#include "model/starrocks/actors.hpp"

namespace interleave::model {

namespace {

struct ClientLocals {
  int k = 0;  // U3: the table created
  AddTableLocals add;
  CleanLocals clean;
  void fingerprint(StateHasher& h) const { h << k << add << clean; }
};

// U4a, and with a clean end U4b (ConnectScheduler.unregisterConnection, then
// ConnectContext.cleanTemporaryTable).
void end_session(Actor& a, World& w, int c, ClientLocals& l) {
  const ClientConfig& cc = w.client_cfg(c);
  const int f = cc.frontend;
  const std::string& session = cc.name;
  a.step("U4a", {w.cs.update_registration(c)});
  w.cs.unregister_session(f, session);
  w.owners.at(session).live = false;
  World::note(a, [&] {
    return "ConnectScheduler of " + frontend_name(cc.frontend) + ": unregister " + session;
  });
  if (cc.end == ClientEnd::kAbnormal) {
    World::note(a, [&] {
      return "the connection of " + session +
             " dropped abnormally: no CLEAN TEMPORARY TABLE is issued, its tables are left to "
             "the TemporaryTableCleaner";
    });
    return;
  }
  a.step("U4b", {f == 0 ? w.ttm.read_row(session) : w.ttm.read_replayed(f)});
  const bool known = f == 0 ? w.ttm.contains(session) : w.ttm.replayed_contains(f, session);
  if (!known) {
    World::note(a, [&] {
      return "TemporaryTableMgr of " + frontend_name(cc.frontend) + " has no session " + session +
             ": no CLEAN TEMPORARY TABLE issued";
    });
    return;
  }
  World::note(
      a, [&] { return "CLEAN TEMPORARY TABLE ON SESSION " + session + " sent to the leader"; });
  clean_temporary_tables(a, w, session, false, 0, 0, l.clean);
}

}  // namespace

void client_session(Actor& a, World& w, int c) {
  const ClientConfig& cc = w.client_cfg(c);
  const int f = cc.frontend;
  const std::string session = cc.name;
  ClientLocals l;
  a.declare_locals(l);
  w.lasts_by_default(a, Work::kStatement);
  if (cc.existing == ClientStart::kAlive) {
    end_session(a, w, c, l);
    return;
  }
  a.step("U1", {});
  Owner o;
  o.kind = Owner::Kind::kClient;
  o.index = c;
  w.owners.add(session, o);
  World::note(a, [&] {
    return "new ConnectContext on " + frontend_name(cc.frontend) + ": session " + session;
  });
  a.step("U2", {w.cs.update_registration(c)});
  w.cs.register_session(f, session);
  w.owners.at(session).live = true;
  World::note(a, [&] {
    return "ConnectScheduler of " + frontend_name(cc.frontend) + ": register " + session;
  });
  for (l.k = 1; l.k <= cc.temp_tables; ++l.k) {
    const int table = create_table(a, w, "U3", session, client_table_name(cc.name, l.k), f);
    add_temporary_table(a, w, session, table, f, l.add);
  }
  l.k = 0;
  if (cc.end == ClientEnd::kNever) return;  // it stays connected
  end_session(a, w, c, l);
}

}  // namespace interleave::model
