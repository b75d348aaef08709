// Per shared object (and per ghost object, dependency.hpp), the accesses of the events of the
// current path, in event order: where race detection looks for the latest conflicting steps.
#pragma once

#include "explorer/strategies/dpor/dependency.hpp"
#include "explorer/core/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace interleave::detail::dpor {

/// An access of an event to an object, in the object's history.
struct ObjAccess {
  std::uint32_t event;
  AccessKind kind;
};

/// invariant: every history lists, in increasing event order, exactly the tracked accesses
/// (Dependency::tracked) of the analysed events of the current path to its object.
class AccessHistories {
 public:
  /// The history of `object` (created empty if it has none yet).
  std::vector<ObjAccess>& of(ObjectId object) {
    if (object >= kFirstReservedObject) return ghosts_[ghost_index(object)];
    if (object >= objects_.size()) objects_.resize(static_cast<std::size_t>(object) + 1);
    return objects_[object];
  }
  /// The history of `object`, nullptr if it has none.
  const std::vector<ObjAccess>* find(ObjectId object) const {
    if (object >= kFirstReservedObject) return &ghosts_[ghost_index(object)];
    return object < objects_.size() ? &objects_[object] : nullptr;
  }

 private:
  std::vector<std::vector<ObjAccess>> objects_;         // by object id
  std::array<std::vector<ObjAccess>, kGhosts> ghosts_;  // by ghost_index
};

}  // namespace interleave::detail::dpor
