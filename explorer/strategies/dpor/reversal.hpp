// Race reversal: for a race between an earlier event and a later operation, the sequence
// v = notdep(earlier).op that runs the operation first (the steps after the earlier event that do
// not happen after it, then the operation), and its insertion into the wakeup tree of the state
// before the earlier event, unless a sleeping actor or a branch of the tree already covers it
// (its first step is a weak initial of v). This is where optimal DPOR's reduction is decided, and
// the scratch space of that decision (v and what is known about it) is reused from one race to the
// next.
#pragma once

#include "explorer/strategies/dpor/search_state.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace interleave::detail::dpor {

class Reversal {
 public:
  Reversal() {
    first_in_v_.fill(0);
    first_of_id_.fill(kNil);
    last_of_id_.fill(kNil);
  }

  /// Records the reversal of the race between event `earlier` and `op` of `actor`, placed after
  /// the first `end` events (`full`: its clock with every dependency; `prev`: the actor's last
  /// event before it).
  void reverse(SearchState& s, std::uint32_t earlier, ActorId actor, const Op& op,
               const Clock* full, std::uint32_t end, std::int32_t prev);

 private:
  // A step of v.
  struct VStep {
    std::uint32_t event;  // index in events, or kNil for the racing operation
    std::uint32_t actor;  // key
    ActorId id;           // its ActorId in the current execution
    bool choice;
    const Op* op;
    const Clock* clock;              // with every dependency
    std::uint32_t next_same = kNil;  // the next step of v of the same actor
  };

  // Index in v_ of the step by which actor `id` (about to perform `op`) is a weak initial of what
  // is left of v_, v_.size() if it is one without a step in v_, -1 if not. `commuting`: a step
  // not in v counts if it commutes with all of v.
  std::ptrdiff_t weak_initial(const SearchState& s, ActorId id, const Op& op, bool commuting) const;
  // Marks step m of v_ consumed.
  void consume(std::size_t m);
  // The operation `actor` was about to perform at the state before event `at`.
  static const Op* op_at(const SearchState& s, ActorId actor, std::uint32_t at);

  std::vector<VStep> v_;
  std::vector<char> consumed_;  // steps of v_ matched in the tree
  std::size_t consumed_count_ = 0;
  // Per actor with an event in v_ (v_actors_), the index (Clock) of its first one: a step of v_
  // has a step of another actor before it in v_ that happens before it iff its clock reaches that
  // actor's first index (happens-before follows the order of v_).
  std::array<Clock, kMaxActors> first_in_v_{};
  ActorSet v_actors_;
  // Per actor (ActorId of the current execution), its first step of v_ not consumed and its last
  // step (kNil: none; set only for v_actors_ and v_'s last actor), and what v_'s steps access: a
  // quick test that an operation commutes with all of v_ (weak_initial).
  std::array<std::uint32_t, kMaxActors> first_of_id_{};
  std::array<std::uint32_t, kMaxActors> last_of_id_{};
  AccessMasks v_masks_;
};

}  // namespace interleave::detail::dpor
