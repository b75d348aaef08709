// The index types DPOR's tables share: the "none" index and the vector-clock entry.
#pragma once

#include <cstdint>

namespace interleave::detail::dpor {

/// No entry: the index of a missing event, wakeup-tree node, interned operation or actor key.
inline constexpr std::uint32_t kNil = 0xffffffffu;

/// A vector-clock entry: how many of an actor's events happen before (1-based event indices).
using Clock = std::uint32_t;

}  // namespace interleave::detail::dpor
