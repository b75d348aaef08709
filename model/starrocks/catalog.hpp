// CAT: the leader's catalog of tables (StarRocks: the database's idToTable, under the db lock),
// reduced to the temporary tables the world can create. One object CAT[k] per table key k (the
// session of a staging table, "t1#1"; a client table's name, "tmp_c1_1"), registered before the
// run: creations and drops of different tables commute (docs/model.md, "Declared objects").
// Promises: a table's presence changes only at a step declaring update_table() of its key; every
// table ever created keeps its TableInfo (name, session) for the descriptions.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/accesses.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace interleave::model {

// Identifiers chosen so that a trace reads against the seed's CN log (db 16061, table 52300,
// schema 52301, shard 52305).
inline constexpr long long kDbId = 16061;
inline constexpr int kFirstTableId = 52300;        // staging tables of TaskRuns
inline constexpr int kFirstClientTableId = 62300;  // tables of client sessions
inline constexpr int kTableIdStride = 10;
inline constexpr long long kMillisBase = 1747372214000;  // the staging table's "<cte>_<millis>"

/// A temporary table ever created in this execution (its presence in CAT is Catalog::contains).
struct TableInfo {
  int id = 0;
  std::string name;
  std::string session;
  std::string key;               // its CAT object's key (Catalog::table_key)
  int drop_infos = 0;            // DropInfo entries journaled for it
  std::size_t e2a_step = 0;      // step of the E2a that made its session's entry (true time)
  std::size_t own_e2a_step = 0;  // step of this table's own E2a (later than e2a_step for a
                                 // session's later tables: createTime stays the first's)

  /// The state fingerprint's part (explorer/core/fingerprint.hpp). The E2a steps are history: only
  /// their order against a running cleaner pass's C1 matters (a coverage goal of D2), which the
  /// cleaner's locals write (World::write_created_after).
  void fingerprint(StateHasher& h) const { h << id << name << session << key << drop_infos; }
};

class Catalog {
 public:
  /// The table's key: its session for a staging table (one per attempt; "<session>/<g>" for the
  /// g-th recursive CTE's, g > 1), its name for a client's.
  static std::string table_key(const std::string& session, const std::string& name, int group = 1) {
    if (!name.empty()) return name;
    return group == 1 ? session : session + "/" + std::to_string(group);
  }

  /// Registers CAT[session] (or CAT[session/g]), the g-th staging table of a TaskRun attempt. Its
  /// id follows the staging tables declared before it (table ids: docs/model.md, "Table ids").
  void declare_staging_table(Execution& ex, const std::string& session, int group = 1) {
    declare(ex, session, table_key(session, "", group),
            kFirstTableId + kTableIdStride * staging_tables_++);
  }
  /// Registers CAT[name], a table of client session `session`.
  void declare_client_table(Execution& ex, const std::string& session, const std::string& name) {
    declare(ex, session, name, kFirstClientTableId + kTableIdStride * client_tables_++);
  }

  Access read_table(const std::string& key) const { return read(id_.at(key)); }
  Access update_table(const std::string& key) const { return read_modify_write(id_.at(key)); }
  Access read_table(int table) const { return read_table(tables_.at(table).key); }
  Access update_table(int table) const { return update_table(tables_.at(table).key); }

  /// The keys of the tables session `session` can have, in declaration order.
  const std::vector<std::string>& keys_of(const std::string& session) const {
    return session_keys_.at(session);
  }
  /// Every table key, in key order.
  std::vector<std::string> keys() const {
    std::vector<std::string> v;
    for (const auto& [key, _] : id_)
      v.push_back(key);
    return v;
  }

  /// CAT.add of session `session`'s table `name` ("" for a staging table, named
  /// "hierarchy_<millis>" as a recursive CTE's is): its TableInfo. The id is fixed by the
  /// declaration.
  TableInfo& add(const std::string& session, const std::string& name, int group = 1) {
    const std::string key = table_key(session, name, group);
    if (ex_->checks_accesses()) ex_->check_access(id_.at(key), /*write=*/true);
    const int id = table_id_.at(key);
    TableInfo info;
    info.id = id;
    info.name = name.empty() ? "hierarchy_" + std::to_string(kMillisBase + id) : name;
    info.session = session;
    info.key = key;
    TableInfo& t = tables_.emplace(id, std::move(info)).first->second;
    present_.insert(id);
    return t;
  }
  /// Removes the table from CAT (its TableInfo stays).
  void drop(int table) { present_.erase(table); }
  bool contains(int table) const { return present_.count(table) != 0; }
  /// The id of the table with key `key` if it is in CAT.
  std::optional<int> present_id(const std::string& key) const {
    auto it = table_id_.find(key);
    if (it == table_id_.end() || present_.count(it->second) == 0) return std::nullopt;
    return it->second;
  }
  /// Whether the table was created in this execution (it has a TableInfo).
  bool created(int table) const { return tables_.count(table) != 0; }
  /// The tables in CAT, by id.
  const std::set<int>& present() const { return present_; }
  TableInfo& info(int table) { return tables_.at(table); }
  const TableInfo& info(int table) const { return tables_.at(table); }
  /// Every table ever created, by id.
  const std::map<int, TableInfo>& tables() const { return tables_; }

  /// The state fingerprint's part: which tables are in CAT and every table created (the keys,
  /// ids and declarations are fixed by the config).
  void fingerprint(StateHasher& h) const { h << present_ << tables_; }

 private:
  void declare(Execution& ex, const std::string& session, const std::string& key, int table) {
    ex_ = &ex;
    id_.emplace(key, ex.object("CAT[" + key + "]"));
    table_id_.emplace(key, table);
    session_keys_[session].push_back(key);
  }

  Execution* ex_ = nullptr;              // the checked mode's checks (Execution::check_access)
  std::map<std::string, ObjectId> id_;   // CAT[k]: table k is in CAT
  std::map<std::string, int> table_id_;  // the id of each table, by key (fixed by the config)
  std::map<std::string, std::vector<std::string>> session_keys_;  // keys of a session's tables
  int staging_tables_ = 0;
  int client_tables_ = 0;
  std::set<int> present_;            // CAT: the tables in the leader's catalog, by id
  std::map<int, TableInfo> tables_;  // every table ever created (names, owners)
};

}  // namespace interleave::model
