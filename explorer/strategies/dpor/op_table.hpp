// Interned operations: wakeup trees outlive the execution that recorded their steps, so each step
// names its operation by an index into this table (a program has few distinct operations).
#pragma once

#include "explorer/strategies/dpor/indices.hpp"
#include "explorer/core/types.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace interleave::detail::dpor {

/// The same operation: the same label and the same accesses in the same order.
inline bool same_op(const Op& a, const Op& b) {
  if (a.count != b.count) return false;
  // Labels are usually the same literal: compare the views before the characters.
  if ((a.label.data() != b.label.data() || a.label.size() != b.label.size()) && a.label != b.label)
    return false;
  const Access* x = a.begin();
  const Access* y = b.begin();
  if (x == y) return true;  // the same stored list of a wide operation
  for (std::size_t i = 0; i < a.count; ++i)
    if (!(x[i] == y[i])) return false;
  return true;
}

/// invariant: ids_[op] == i iff same_op(ops_[i], op); ids are never reused or invalidated.
class OpTable {
 public:
  /// The index of `op`, added if it is new.
  std::uint32_t intern(const Op& op) {
    const auto [it, added] = ids_.try_emplace(op, static_cast<std::uint32_t>(ops_.size()));
    if (added) ops_.push_back(op);
    return it->second;
  }
  const Op& operator[](std::uint32_t id) const { return ops_[id]; }

 private:
  struct Hash {
    std::size_t operator()(const Op& op) const {
      std::size_t h = std::hash<std::string_view>()(op.label);
      for (const Access& a : op)
        h = h * 1000003u ^
            (static_cast<std::size_t>(a.object) << 4 | static_cast<std::size_t>(a.kind));
      return h;
    }
  };
  struct Equal {
    bool operator()(const Op& a, const Op& b) const { return same_op(a, b); }
  };
  std::vector<Op> ops_;
  std::unordered_map<Op, std::uint32_t, Hash, Equal> ids_;
};

}  // namespace interleave::detail::dpor
