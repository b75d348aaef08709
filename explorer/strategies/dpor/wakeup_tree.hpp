// Wakeup trees (optimal DPOR): at a state of the current path, the sequences of steps still to
// explore from it, as a tree whose branches share common prefixes. The trees of every state live
// in one pool of nodes linked by index (first child, next sibling); a state holds the index of its
// first child (kNil: none). A node names its actor by key (actor_keys.hpp) and its operation by
// interned index (op_table.hpp), so a tree stays meaningful in the executions that follow.
#pragma once

#include "explorer/strategies/dpor/indices.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace interleave::detail::dpor {

/// A step of a wakeup tree (20 bytes).
struct WakeupNode {
  std::uint32_t actor = kNil;  // key
  std::uint32_t op = kNil;     // interned
  bool certain = true;         // known to be runnable when reached (false: a blocking operation)
  std::uint32_t child = kNil;
  std::uint32_t sibling = kNil;
};

/// invariant: every node is either live (in exactly one tree or being built) or in free_.
class WakeupTrees {
 public:
  WakeupNode& operator[](std::uint32_t w) { return nodes_[w]; }
  const WakeupNode& operator[](std::uint32_t w) const { return nodes_[w]; }

  /// A fresh node (default fields), reusing a freed slot if there is one.
  std::uint32_t make() {
    if (!free_.empty()) {
      const std::uint32_t w = free_.back();
      free_.pop_back();
      nodes_[w] = WakeupNode{};
      return w;
    }
    nodes_.emplace_back();
    return static_cast<std::uint32_t>(nodes_.size() - 1);
  }
  /// Frees `w` and every node under it (its children and theirs; not its siblings).
  void free_subtree(std::uint32_t w) {
    if (w != kNil) free_nonempty_subtree(w);
  }
  /// Appends `branch` as the last of the children listed from `first` (a state's first child, or
  /// a node's child field).
  void append(std::uint32_t& first, std::uint32_t branch) {
    if (first == kNil) {
      first = branch;
      return;
    }
    std::uint32_t last = first;
    while (nodes_[last].sibling != kNil)
      last = nodes_[last].sibling;
    nodes_[last].sibling = branch;
  }

  /// Nodes in the trees (not free).
  std::size_t live() const { return nodes_.size() - free_.size(); }

 private:
  void free_nonempty_subtree(std::uint32_t w);

  std::vector<WakeupNode> nodes_;
  std::vector<std::uint32_t> free_;   // free slots of nodes_
  std::vector<std::uint32_t> stack_;  // free_nonempty_subtree(): nodes still to free (reused)
};

}  // namespace interleave::detail::dpor
