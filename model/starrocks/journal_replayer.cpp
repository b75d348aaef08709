// A follower's journal replayer (the follower's edit-log replay into its TemporaryTableMgr): R1
// a CreateTableInfo adds the table to TTM_f (a new session's createTime is the follower's clock
// at replay), R2 a DropInfo removes it from its entry (the entry stays). Of J it applies only the
// entries of its own clients' sessions, in journal order (J[f]): TTM_f's other sessions are read
// by no step, and the real replayer's lag is arbitrary, so replaying the others earlier or later
// changes nothing any step reads (docs/model.md, "Journal"). It stops after the last
// CreateTableInfo of its clients' sessions: later entries change nothing the model observes.
// Promises: entries are applied in journal order, each once.
// Locals (state fingerprints): the cursor in J and the creations replayed (`expected` is fixed by
// the config and the FE, which the actor's name gives).
#include "model/starrocks/actors.hpp"

#include <optional>

namespace interleave::model {

namespace {

struct ReplayerLocals {
  std::size_t cursor = 0;  // the next entry of J to look at
  int replayed = 0;        // CreateTableInfo entries replayed
  void fingerprint(StateHasher& h) const { h << cursor << replayed; }
};

}  // namespace

void journal_replayer(Actor& a, World& w, int fe) {
  ReplayerLocals l;
  a.declare_locals(l);
  w.lasts_by_default(a, Work::kReplayLag);
  const std::vector<JournalEntry>& journal = w.journal.entries();
  int expected = 0;
  for (const auto& cc : w.cfg.actors.clients)  // the creations before the scenario are replayed
    if (cc.frontend == fe && cc.existing == ClientStart::kInScenario) expected += cc.temp_tables;
  std::size_t& cursor = l.cursor;
  int& replayed = l.replayed;
  auto apply = [&](const JournalEntry& je) {
    if (je.kind == JournalKind::kCreateTable) {
      w.ttm.replay_create(fe, je.session, je.table, w.clocks);
      ++replayed;
      World::note(a, [&] {
        return "replay CreateTableInfo of " + w.cat.info(je.table).name + " (session " +
               je.session + ") on " + frontend_name(fe);
      });
    } else if (je.kind == JournalKind::kDropTable) {
      w.ttm.replay_drop(fe, je.session, je.table);
      World::note(a, [&] {
        return "replay DropInfo of " + w.cat.info(je.table).name + " on " + frontend_name(fe);
      });
    }
  };
  auto next_own = [&]() -> std::optional<std::size_t> {
    for (std::size_t i = cursor; i < journal.size(); ++i)
      if (journal[i].follower == fe) return i;
    return std::nullopt;
  };
  while (replayed < expected) {
    // J[f] is append-only: an entry already present tells the kind of the next replay step.
    const std::optional<std::size_t> next = next_own();
    if (next && journal[*next].kind == JournalKind::kDropTable) {
      // A DropInfo changes only the tables of a TTM_f entry, which no other actor observes.
      a.step("R2", {w.journal.read_journal(fe)});
      apply(journal[*next]);
      cursor = *next + 1;
      continue;
    }
    // Caught up (or the next is a create): wait for the next CreateTableInfo and replay up to it.
    a.wait_until("R1",
                 {w.journal.read_journal(fe), w.ttm.update_replayed(fe), w.clocks.update_clock(fe)},
                 [&journal, &cursor, fe] {
                   for (std::size_t i = cursor; i < journal.size(); ++i)
                     if (journal[i].follower == fe && journal[i].kind == JournalKind::kCreateTable)
                       return true;
                   return false;
                 });
    for (; cursor < journal.size();) {
      const JournalEntry& je = journal[cursor++];
      if (je.follower != fe) continue;
      apply(je);
      if (je.kind == JournalKind::kCreateTable) break;
    }
  }
}

}  // namespace interleave::model
