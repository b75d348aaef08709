// Ghost bookkeeping for the properties: who owns each session (a TaskRun attempt or a client
// session) and whether that owner is live. Not StarRocks state: the properties' observations of
// it are declared as reads of the owner's objects (World::observe_owner), so that no reduction
// hides them. Promises: an owner is live from its E1 (a TaskRun attempt, unless killed) or U2 (a
// client) until its E7, the next attempt's E1, K, or U4a.
#pragma once

#include "explorer/core/fingerprint.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace interleave::model {

struct Owner {
  enum class Kind : std::uint8_t { kTaskRun, kClient };
  Kind kind = Kind::kTaskRun;
  int index = 0;    // task run or client index in the config
  int attempt = 0;  // task runs: 1, 2, ...
  bool live = false;
  bool staged = false;     // task run: its E2 created the staging table
  bool finalized = false;  // task run: its finalize began (E6a)

  void fingerprint(StateHasher& h) const {
    h << kind << index << attempt << live << staged << finalized;
  }
};

class Owners {
 public:
  void add(const std::string& session, const Owner& o) { owners_.emplace(session, o); }
  Owner& at(const std::string& session) { return owners_.at(session); }
  const Owner& at(const std::string& session) const { return owners_.at(session); }
  bool live(const std::string& session) const { return owners_.at(session).live; }

  /// The state fingerprint's part: every owner, by session.
  void fingerprint(StateHasher& h) const { h << owners_; }

 private:
  std::map<std::string, Owner> owners_;
};

}  // namespace interleave::model
