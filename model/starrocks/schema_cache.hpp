// SCH_cn: a CN's table schema cache (be storage/lake/table_schema_service), one object per CN and
// table key: a sink's schema lookup (N2, N3) reads and fills one table's entry. Promises: an entry
// changes only at a step declaring update_entry() of it; a cached schema stays cached.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/accesses.hpp"
#include "model/starrocks/config.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace interleave::model {

class SchemaCaches {
 public:
  /// Registers SCH_<cn>[k] for every CN and every table key (CNs in order, keys in order).
  void declare(Execution& ex, int compute_nodes, const std::vector<std::string>& keys) {
    id_.resize(static_cast<std::size_t>(compute_nodes));
    for (int c = 0; c < compute_nodes; ++c)
      for (const std::string& key : keys)
        id_[static_cast<std::size_t>(c)].emplace(
            key, ex.object("SCH_" + compute_node_name(c) + "[" + key + "]"));
    cached_.resize(static_cast<std::size_t>(compute_nodes));
  }

  Access update_entry(int cn, const std::string& key) const {
    return read_modify_write(id_[static_cast<std::size_t>(cn)].at(key));
  }
  bool cached(int cn, int table) const {
    return cached_[static_cast<std::size_t>(cn)].count(table) != 0;
  }
  void cache(int cn, int table) { cached_[static_cast<std::size_t>(cn)].insert(table); }

  /// The state fingerprint's part: the cached schemas of each CN.
  void fingerprint(StateHasher& h) const { h << cached_; }

 private:
  std::vector<std::map<std::string, ObjectId>> id_;  // SCH_cn[k], per CN and table key
  std::vector<std::set<int>> cached_;                // table ids whose schema is cached, per CN
};

}  // namespace interleave::model
