// J: StarRocks' edit log (the journal). The leader appends CreateTableInfo (E2, U3), DropInfo
// (D2, E6b) and TaskRunState (S2b, S1) entries; each follower replays it in order. Only a
// follower's replayer reads J, and of what it applies only its own clients' sessions are observed,
// so J is declared per follower, J[f]: the entries of the sessions of f's clients, in journal
// order. The other appends are read by no step and are not declared (docs/model.md, "Journal").
// Promises: every entry records, when appended, the follower whose replayer applies it (0: none);
// an append of a follower client's entry is declared on that follower's J[f].
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/accesses.hpp"
#include "model/starrocks/config.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace interleave::model {

enum class JournalKind : std::uint8_t { kCreateTable, kDropTable, kTaskRunState };

struct JournalEntry {
  JournalKind kind = JournalKind::kCreateTable;
  int table = -1;
  std::string session;
  int follower = 0;  // the follower whose replayer applies it (its session's client's FE), or 0

  void fingerprint(StateHasher& h) const { h << kind << table << session << follower; }
};

class EditLog {
 public:
  /// Registers J[f] for every follower f with clients (in the order of the clients).
  void declare(Execution& ex, const WorldConfig& cfg) {
    id_.assign(static_cast<std::size_t>(cfg.cluster.frontends), kNoObject);
    for (const auto& cc : cfg.actors.clients)
      if (cc.frontend != 0) {
        auto& j = id_[static_cast<std::size_t>(cc.frontend)];
        if (j == kNoObject) j = ex.object("J[" + frontend_name(cc.frontend) + "]");
        follower_of_.emplace(cc.name, cc.frontend);
      }
  }

  /// An append of an entry of `session`: declared only when a follower's replayer applies it
  /// (the session is a client's on that follower).
  void add_append(Op& op, const std::string& session) const {
    auto it = follower_of_.find(session);
    if (it != follower_of_.end())
      add(op, read_modify_write(id_[static_cast<std::size_t>(it->second)]));
  }
  Access read_journal(int fe) const { return read(id_[static_cast<std::size_t>(fe)]); }

  /// Appends an entry, with the follower whose replayer applies it (decided once, here).
  void append(JournalKind kind, int table, const std::string& session) {
    auto it = follower_of_.find(session);
    entries_.push_back({kind, table, session, it == follower_of_.end() ? 0 : it->second});
  }
  /// A TaskRunState entry (skipped by every replayer: not declared).
  void append_task_run_state() { entries_.push_back({JournalKind::kTaskRunState, -1, "", 0}); }
  const std::vector<JournalEntry>& entries() const { return entries_; }

  /// The state fingerprint's part: the entries, in journal order (the replayers' cursors index
  /// them). The appends no replayer reads (TaskRunState, other sessions') are written too: they
  /// move the cursors' positions.
  /// The entries, in journal order (the replayers' cursors index them); nothing when no follower
  /// has clients: then no replayer reads the journal, and its entries are history.
  void fingerprint(StateHasher& h) const {
    if (!follower_of_.empty()) h << entries_;
  }

 private:
  std::vector<ObjectId> id_;                // J[f] per follower with clients, else kNoObject
  std::map<std::string, int> follower_of_;  // a follower client's session -> its FE
  std::vector<JournalEntry> entries_;
};

}  // namespace interleave::model
