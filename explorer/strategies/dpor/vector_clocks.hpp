// The vector clocks of the events of the current path: row e holds, per actor, how many of its
// events happen before event e or are e (program order, spawn and join edges, and the declared
// dependencies). Event e happens before a clock c iff c[actor(e)] >= index(e).
//
// Rows are kMaxActors entries in one array, kept when the path gets shorter and overwritten by the
// next events (no allocation once the deepest execution has been seen). Only the first `width`
// entries of a row are meaningful (actors beyond it have no event: ids follow spawn order), and
// entries beyond the widest row written are zero everywhere.
#pragma once

#include "explorer/strategies/dpor/indices.hpp"
#include "explorer/core/types.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace interleave::detail::dpor {

class VectorClocks {
 public:
  const Clock* row(std::int32_t event) const {
    return clocks_.data() + static_cast<std::size_t>(event) * kMaxActors;
  }
  Clock* row(std::int32_t event) {
    return clocks_.data() + static_cast<std::size_t>(event) * kMaxActors;
  }

  /// Row `event` made ready for a new event with `width` actors, starting from the clock of
  /// `from` (-1: zero). Entries up to the widest row written are rewritten; those beyond were
  /// never written, and rows start zero.
  Clock* start_row(std::uint32_t event, std::int32_t from, std::size_t width) {
    if (clocks_.size() < static_cast<std::size_t>(event + 1) * kMaxActors)
      clocks_.resize(static_cast<std::size_t>(event + 1) * kMaxActors);
    Clock* c = row(static_cast<std::int32_t>(event));
    if (from >= 0)
      std::copy_n(row(from), width, c);
    else
      std::fill_n(c, width, Clock{0});
    if (high_ > width) std::fill(c + width, c + high_, Clock{0});
    high_ = std::max(high_, width);
    return c;
  }

  /// into[a] = max(into[a], from[a]) for the first `width` actors.
  static void join(Clock* into, const Clock* from, std::size_t width) {
    for (std::size_t a = 0; a < width; ++a)
      into[a] = std::max(into[a], from[a]);
  }

 private:
  std::vector<Clock> clocks_;  // kMaxActors entries per event
  std::size_t high_ = 0;       // the widest row written: entries beyond are zero
};

}  // namespace interleave::detail::dpor
