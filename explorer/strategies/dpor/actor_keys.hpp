// Actor identity across executions. Actor ids follow spawn order, which reordering steps can
// change (a reversal may move a spawn); wakeup trees therefore name actors by a key per distinct
// actor name (names are unique within an execution and must denote the same actor in every
// execution). This table maps keys to the ids of the current execution and back, for the actors
// seen alive on the current path.
#pragma once

#include "explorer/strategies/dpor/indices.hpp"
#include "explorer/core/types.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace interleave::detail::dpor {

/// invariant: for every a in known(), id(key(a)) == a; keys of actors not known map to kNoActor.
class ActorKeys {
 public:
  ActorKeys() { key_of_.fill(kNil); }

  /// Actors seen alive on the current path.
  ActorSet known() const { return known_; }
  /// 1 + the highest known id: clock entries of the actors beyond are zero.
  std::size_t width() const {
    return known_.empty() ? 0 : 64u - static_cast<std::size_t>(std::countl_zero(known_.bits()));
  }

  /// Actor `a` of the current execution is named `name`.
  void learn(ActorId a, std::string_view name) {
    known_.insert(a);
    auto it = key_by_name_.find(name);
    if (it == key_by_name_.end()) {
      it = key_by_name_.emplace(std::string(name), static_cast<std::uint32_t>(id_of_key_.size()))
               .first;
      id_of_key_.push_back(kNoActor);
    }
    key_of_[a] = it->second;
    id_of_key_[it->second] = a;
  }
  /// Actor `a` is no longer on the path (the step that spawned it is being re-explored).
  void forget(ActorId a) {
    known_.erase(a);
    id_of_key_[key_of_[a]] = kNoActor;
    key_of_[a] = kNil;
  }

  std::uint32_t key(ActorId a) const { return key_of_[a]; }
  /// The actor with this key in the current execution; kNoActor if not (yet) spawned.
  ActorId id(std::uint32_t key) const { return id_of_key_[key]; }

 private:
  ActorSet known_;
  std::map<std::string, std::uint32_t, std::less<>> key_by_name_;  // actor name -> key
  std::array<std::uint32_t, kMaxActors> key_of_{};                 // ActorId -> key
  std::vector<ActorId> id_of_key_;                                 // key -> ActorId
};

}  // namespace interleave::detail::dpor
