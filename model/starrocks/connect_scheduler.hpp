// CS_f: StarRocks' ConnectScheduler (fe-core qe/ConnectScheduler), the connection map of FE f:
// the client sessions registered on it. Declared per client, CS_f[c] (client c is registered in
// the ConnectScheduler of its FE f): only c's U2 and U4a change it, and only clients of f are ever
// in CS_f, so listSessions(f) reads the rows of f's clients. A TaskRun's runCtx is never
// registered here. Promises: a client's registration changes only at a step declaring
// update_registration() of that client.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/accesses.hpp"
#include "model/starrocks/config.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace interleave::model {

class ConnectScheduler {
 public:
  /// Registers CS_<fe>[<client>] for client `c` (clients in order).
  void declare_client(Execution& ex, const ClientConfig& c) {
    id_.push_back(ex.object("CS_" + frontend_name(c.frontend) + "[" + c.name + "]"));
  }
  /// The connection maps of `frontends` FEs (all empty).
  void declare_frontends(int frontends) { sessions_.resize(static_cast<std::size_t>(frontends)); }

  Access read_registration(int client) const { return read(id(client)); }
  Access update_registration(int client) const { return read_modify_write(id(client)); }
  /// Adds every client's registration read (C4's goals observe them).
  void add_every_registration_read(std::vector<Access>& op) const {
    for (ObjectId o : id_)
      add(op, read(o));
  }

  void register_session(int fe, const std::string& s) { map(fe).insert(s); }
  void unregister_session(int fe, const std::string& s) { map(fe).erase(s); }
  /// The sessions registered on FE `fe`, in id order.
  const std::set<std::string>& sessions(int fe) const {
    return sessions_[static_cast<std::size_t>(fe)];
  }

  /// The state fingerprint's part: the sessions registered on each FE.
  void fingerprint(StateHasher& h) const { h << sessions_; }

  /// The state dump's "CS_<fe>" entries.
  void dump(nlohmann::json& j) const {
    for (std::size_t f = 0; f < sessions_.size(); ++f)
      j["CS_" + frontend_name(static_cast<int>(f))] =
          std::vector<std::string>(sessions_[f].begin(), sessions_[f].end());
  }

 private:
  ObjectId id(int client) const { return id_[static_cast<std::size_t>(client)]; }
  std::set<std::string>& map(int fe) { return sessions_[static_cast<std::size_t>(fe)]; }

  std::vector<ObjectId> id_;                     // CS_f[c], by client index
  std::vector<std::set<std::string>> sessions_;  // CS_f, by FE
};

}  // namespace interleave::model
