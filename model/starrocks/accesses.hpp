// Building the accesses of a step: every access added to an Op goes through add(), which checks
// the engine's bound (Op::kMaxAccesses) instead of writing past it.
#pragma once

#include "explorer/types.hpp"

#include <cstdint>
#include <stdexcept>

namespace interleave::model {

/// An FE's clock value (logical ticks).
using Tick = std::int64_t;

/// Appends `acc` to `op`; throws std::logic_error (an actor failure: a bug of the model) when
/// `op` already holds Op::kMaxAccesses accesses.
inline void add(Op& op, Access acc) {
  if (op.count == Op::kMaxAccesses) throw std::logic_error("too many accesses in one step");
  op.accesses[op.count++] = acc;
}

}  // namespace interleave::model
