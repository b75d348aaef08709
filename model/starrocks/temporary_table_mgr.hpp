// TTM_L and TTM_f: StarRocks' TemporaryTableMgr (fe-core server/TemporaryTableMgr), session id ->
// {createTime, tables}, on the leader (TTM_L) and replayed on each follower (TTM_f, its copy built
// from the journal). TTM_L is declared per session: TTM_L[s] (whether s has an entry, and its
// createTime) and TTM_L[s].tables (the tables of s's entries), so that the operations of
// different sessions commute as a concurrent map's do; C4's snapshot reads every row (a wide step
// when there are many). A follower's TTM_f is one object (only its keys are observed).
// Promises: an entry removed by D4 while a caller still holds it (E2b..E2c) stays readable by
// index, detached; a row changes only at a step declaring update_row(), the tables only at one
// declaring update_tables().
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/accesses.hpp"
#include "model/starrocks/fe_clocks.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace interleave::model {

/// An entry of TTM_L. One removed by D4 while someone still holds it is `attached == false`.
struct TtmEntry {
  Tick create_time = 0;
  std::size_t created_step = 0;  // true time of its creation (the execution's step index)
  std::set<int> tables;
  bool attached = true;

  /// The state fingerprint's part. created_step is history: only its order against a running
  /// cleaner pass's C1 matters, which the cleaner's locals write (World::write_created_after).
  void fingerprint(StateHasher& h) const { h << create_time << tables << attached; }
};

class TemporaryTableMgr {
 public:
  // ---- declared objects (registered in the order the world's set-up calls these) ----
  void declare_session(Execution& ex, const std::string& s) {
    ex_ = &ex;
    row_id_.emplace(s, ex.object("TTM_L[" + s + "]"));
  }
  void declare_session_tables(Execution& ex, const std::string& s) {
    tables_id_.emplace(s, ex.object("TTM_L[" + s + "].tables"));
  }
  /// FE `fe`'s manager (FEs in order): the leader's is TTM_L above, a follower's is TTM_f.
  void declare_frontend(Execution& ex, int fe) {
    follower_id_.push_back(fe == 0 ? kNoObject : ex.object("TTM_" + frontend_name(fe)));
    followers_.emplace_back();
  }

  // ---- accesses ----
  Access read_row(const std::string& s) const { return read(row_id_.at(s)); }
  Access update_row(const std::string& s) const { return read_modify_write(row_id_.at(s)); }
  Access read_tables(const std::string& s) const { return read(tables_id_.at(s)); }
  Access update_tables(const std::string& s) const { return read_modify_write(tables_id_.at(s)); }
  /// C4's snapshot of the keys and their createTimes: a read of every session's row.
  void add_snapshot_reads(std::vector<Access>& op) const {
    for (const auto& [session, row] : row_id_)
      add(op, read(row));
  }
  Access read_replayed(int fe) const { return read(follower(fe)); }
  Access update_replayed(int fe) const { return read_modify_write(follower(fe)); }

  // ---- the leader's entries ----
  /// The index of s's attached entry, if any.
  std::optional<std::size_t> find(const std::string& s) const {
    check(row_id_, s, /*write=*/false);
    auto it = index_.find(s);
    if (it == index_.end()) return std::nullopt;
    return it->second;
  }
  bool contains(const std::string& s) const {
    check(row_id_, s, /*write=*/false);
    return index_.count(s) != 0;
  }
  /// s's attached entry, or nullptr.
  TtmEntry* get(const std::string& s) {
    check(row_id_, s, /*write=*/false);
    auto it = index_.find(s);
    return it == index_.end() ? nullptr : &entries_[it->second];
  }
  /// An entry by index (attached or not).
  TtmEntry& entry(std::size_t index) { return entries_[index]; }
  /// The tables of entry `index`, session s's (attached or not), to change: in a step declaring
  /// update_tables(s).
  std::set<int>& tables_to_change(std::size_t index, const std::string& s) {
    check(tables_id_, s, /*write=*/true);
    return entries_[index].tables;
  }
  /// Every entry ever made, by index (removed ones detached).
  const std::vector<TtmEntry>& entries() const { return entries_; }
  std::size_t index_of(const TtmEntry& e) const {
    return static_cast<std::size_t>(&e - entries_.data());
  }
  /// computeIfAbsent's insertion (s has no entry): the new entry's index.
  std::size_t create(const std::string& s, Tick create_time, std::size_t step) {
    check(row_id_, s, /*write=*/true);
    TtmEntry e;
    e.create_time = create_time;
    e.created_step = step;
    entries_.push_back(std::move(e));
    index_.emplace(s, entries_.size() - 1);
    return entries_.size() - 1;
  }
  /// removeTemporaryTables(s): the removed entry's index (now detached), if s had one.
  std::optional<std::size_t> remove(const std::string& s) {
    check(row_id_, s, /*write=*/true);
    auto it = index_.find(s);
    if (it == index_.end()) return std::nullopt;
    const std::size_t e = it->second;
    entries_[e].attached = false;
    index_.erase(it);
    return e;
  }
  /// The sessions and their createTimes, in session order (C4).
  std::vector<std::pair<std::string, Tick>> snapshot() const {
    if (ex_ != nullptr && ex_->checks_accesses())
      for (const auto& [session, row] : row_id_)
        ex_->check_access(row, /*write=*/false);
    std::vector<std::pair<std::string, Tick>> v;
    for (const auto& [s, e] : index_)
      v.emplace_back(s, entries_[e].create_time);
    return v;
  }

  // ---- a follower's replayed copy ----
  bool replayed_contains(int fe, const std::string& s) const {
    ex_->check_access(follower(fe), /*write=*/false);
    return followers_[static_cast<std::size_t>(fe)].count(s) != 0;
  }
  /// Replays a CreateTableInfo of session s's `table` on follower `fe`: a new entry's createTime
  /// is that FE's clock, advanced.
  void replay_create(int fe, const std::string& s, int table, FeClocks& clocks) {
    ex_->check_access(follower(fe), /*write=*/true);
    auto [it, fresh] = followers_[static_cast<std::size_t>(fe)].try_emplace(s);
    if (fresh) it->second.create_time = clocks.tick(fe);
    it->second.tables.insert(table);
  }
  /// Replays a DropInfo: the table leaves the entry (the entry stays).
  void replay_drop(int fe, const std::string& s, int table) {
    ex_->check_access(follower(fe), /*write=*/true);
    auto& f = followers_[static_cast<std::size_t>(fe)];
    auto it = f.find(s);
    if (it != f.end()) it->second.tables.erase(table);
  }

  /// The state fingerprint's part: TTM_L's index and every entry by index (an actor between E2b
  /// and E2c holds an index: detached entries stay), and each follower's replayed copy.
  void fingerprint(StateHasher& h) const {
    h << index_ << entries_ << followers_.size();
    for (const auto& f : followers_) {
      h << f.size();
      for (const auto& [s, e] : f)
        h << s << e.create_time << e.tables;
    }
  }

  /// The state dump's "TTM_L" and "TTM_<follower>" entries.
  void dump(nlohmann::json& j) const {
    nlohmann::json ttm = nlohmann::json::object();
    for (const auto& [s, e] : index_)
      ttm[s] = {{"createTime", entries_[e].create_time},
                {"tables", std::vector<int>(entries_[e].tables.begin(), entries_[e].tables.end())}};
    j["TTM_L"] = ttm;
    for (std::size_t f = 1; f < followers_.size(); ++f) {
      nlohmann::json tf = nlohmann::json::object();
      for (const auto& [s, e] : followers_[f])
        tf[s] = {{"createTime", e.create_time},
                 {"tables", std::vector<int>(e.tables.begin(), e.tables.end())}};
      j["TTM_" + frontend_name(static_cast<int>(f))] = tf;
    }
  }

 private:
  struct FollowerEntry {
    Tick create_time = 0;
    std::set<int> tables;
  };
  ObjectId follower(int fe) const { return follower_id_[static_cast<std::size_t>(fe)]; }
  // The checked mode's test of session s's object in `ids` (Execution::check_access): the flag
  // first, so that the look-up costs nothing when the mode is off.
  void check(const std::map<std::string, ObjectId>& ids, const std::string& s, bool write) const {
    if (ex_ == nullptr || !ex_->checks_accesses()) [[likely]]
      return;
    if (auto it = ids.find(s); it != ids.end()) ex_->check_access(it->second, write);
  }

  Execution* ex_ = nullptr;                    // the checked mode's checks
  std::map<std::string, ObjectId> row_id_;     // TTM_L[s]: the entry of session s (or none)
  std::map<std::string, ObjectId> tables_id_;  // TTM_L[s].tables: the tables of s's entries
  std::vector<ObjectId> follower_id_;          // TTM_f per FE (kNoObject for the leader)
  std::map<std::string, std::size_t> index_;   // TTM_L: session -> its attached entry
  std::vector<TtmEntry> entries_;              // every entry ever made (removed ones detached)
  std::vector<std::map<std::string, FollowerEntry>> followers_;  // TTM_f (index 0 unused)
};

}  // namespace interleave::model
