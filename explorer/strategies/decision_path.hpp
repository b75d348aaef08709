// The path of a stateless systematic search: one node per decision of the current execution (an
// actor picked at a scheduling point, or a choose(n) value), shared by dfs, preemption-bound and
// DPOR (whose actor nodes carry wakeup trees and sleep sets besides).
//
// Each execution after the first replays a prefix of the path, checking that the program offers
// the same decisions again (explorer/strategies/determinism.hpp: a different set of runnable
// actors, a different choice, or a different length is a ProgramError), then extends it with new
// nodes. Between executions, backtrack() advances the deepest node that has an alternative left
// and drops the nodes below it. What an alternative is at an actor node is the strategy's business
// (the next enabled actor, the next one within a preemption bound, the next wakeup-tree branch);
// a choice node's alternatives are always the next values, 0 to n - 1 in order.
#pragma once

#include "explorer/strategies/determinism.hpp"
#include "explorer/core/strategy.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace interleave {

/// The part of a path node every systematic strategy has. A strategy's node type derives from it.
struct DecisionNode {
  Decision::Kind kind = Decision::Kind::kActor;
  std::uint64_t options = 0;  ///< kActor: the enabled set's bits; kChoice: n
  std::uint32_t chosen = 0;   ///< the alternative taken on the current path: an ActorId or a value

  ActorSet enabled() const { return ActorSet(options); }
  ActorId actor() const { return static_cast<ActorId>(chosen); }
};

/// invariant: depth() <= size(); nodes [0, depth()) are the decisions taken so far in the current
/// execution, the ones after are still to be replayed.
template <class Node>
class DecisionPath {
 public:
  /// At a scheduling point: the recorded node of this decision, checked against the program's
  /// enabled set, when replaying; nullptr when the path is to be extended (push()). Either way
  /// the depth moves past it.
  Node* replay(const SchedulingPoint& point) {
    if (depth_ == nodes_.size()) return nullptr;
    Node& n = nodes_[depth_++];
    if (n.kind != Decision::Kind::kActor || n.options != point.enabled.bits())
      throw nondeterminism::actors(point.step);
    return &n;
  }
  /// At a choice: the recorded node, checked against the program's n, when replaying; nullptr
  /// when the path is to be extended.
  Node* replay(const ChoicePoint& point) {
    if (depth_ == nodes_.size()) return nullptr;
    Node& n = nodes_[depth_++];
    if (n.kind != Decision::Kind::kChoice || n.options != point.n)
      throw nondeterminism::choice(point.step);
    return &n;
  }
  /// Appends a new decision to the path (after replay() returned nullptr).
  Node& push(const Node& node) {
    Node& n = nodes_.emplace_back(node);
    ++depth_;
    return n;
  }
  /// A new choice node taking value 0 (fields of Node beyond DecisionNode default).
  Node& push_choice(const ChoicePoint& point) {
    Node n{};
    n.kind = Decision::Kind::kChoice;
    n.options = point.n;
    n.chosen = 0;
    return push(n);
  }
  /// At the end of an execution: it must have taken every recorded decision.
  void finish() const {
    if (depth_ != nodes_.size()) throw nondeterminism::length(depth_, nodes_.size());
  }

  /// Between executions: advances the deepest node with an alternative left and drops the nodes
  /// after it; the next execution replays up to it. At an actor node, `next_actor(node)` is asked
  /// for the next alternative (it may update the node's own fields; kNoActor: none left); a choice
  /// node takes its next value. Returns the index of the advanced node, nullopt when no node has
  /// an alternative left (the path is then empty: the search is over). The first `floor` nodes
  /// are fixed (a search below a given prefix, explorer/search/split.hpp): they are never advanced nor
  /// dropped.
  template <class NextActor>
  std::optional<std::size_t> backtrack(NextActor&& next_actor, std::size_t floor = 0) {
    depth_ = 0;
    while (nodes_.size() > floor) {
      Node& n = nodes_.back();
      if (n.kind == Decision::Kind::kActor) {
        const ActorId next = next_actor(n);
        if (next != kNoActor) {
          n.chosen = next;
          return nodes_.size() - 1;
        }
      } else if (n.chosen + 1 < n.options) {
        ++n.chosen;
        return nodes_.size() - 1;
      }
      nodes_.pop_back();
    }
    return std::nullopt;
  }
  /// Starts the next execution from the root without changing the path.
  void rewind() { depth_ = 0; }
  void clear() {
    nodes_.clear();
    depth_ = 0;
  }

  std::size_t depth() const { return depth_; }
  std::size_t size() const { return nodes_.size(); }
  bool empty() const { return nodes_.empty(); }
  Node& operator[](std::size_t i) { return nodes_[i]; }
  const Node& operator[](std::size_t i) const { return nodes_[i]; }
  Node& back() { return nodes_.back(); }

 private:
  std::vector<Node> nodes_;
  std::size_t depth_ = 0;
};

}  // namespace interleave
