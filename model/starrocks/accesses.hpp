// Building the accesses of a step: every access added to an Op goes through add(), which checks
// the engine's bound (Op::kMaxAccesses, the accesses an Op holds inline) instead of writing past
// it. A step that may need more (C4, a row per session) builds a list instead, announced with
// Actor::step(Label, std::span<const Access>).
#pragma once

#include "explorer/core/types.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace interleave::model {

/// An FE's clock value (logical ticks).
using Tick = std::int64_t;

/// Appends `acc` to `op`; throws std::logic_error (an actor failure: a bug of the model) when
/// `op` already holds Op::kMaxAccesses accesses.
inline void add(Op& op, Access acc) {
  if (op.count == Op::kMaxAccesses) throw std::logic_error("too many accesses in one step");
  op.accesses[op.count++] = acc;
}

/// Appends `acc` to the accesses of a wide step.
inline void add(std::vector<Access>& list, Access acc) {
  list.push_back(acc);
}

}  // namespace interleave::model
