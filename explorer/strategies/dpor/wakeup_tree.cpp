#include "explorer/strategies/dpor/wakeup_tree.hpp"

namespace interleave::detail::dpor {

void WakeupTrees::free_nonempty_subtree(std::uint32_t w) {
  std::vector<std::uint32_t>& stack = stack_;  // empty between calls; reused
  stack.push_back(nodes_[w].child);
  free_.push_back(w);
  while (!stack.empty()) {
    const std::uint32_t x = stack.back();
    stack.pop_back();
    if (x == kNil) continue;
    stack.push_back(nodes_[x].child);
    stack.push_back(nodes_[x].sibling);
    free_.push_back(x);
  }
}

}  // namespace interleave::detail::dpor
