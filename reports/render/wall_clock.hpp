// The wall-clock time of a point of a timed trace (its origin's WallClock plus the step's time),
// printed as the modelled program's logs print it: the text and log renderers show a step's time
// so when the trace has an origin.
#pragma once

#include "explorer/core/duration.hpp"

#include <chrono>
#include <cstdint>
#include <string>

namespace interleave::reports {

/// The local calendar date and time of day of a point of virtual time (fe.log's and glog's
/// layouts differ only in how they print these parts).
struct LocalTime {
  int year = 1970;
  unsigned month = 1;
  unsigned day = 1;
  std::int64_t micros_of_day = 0;  ///< microseconds since local midnight
};

/// origin + t in the origin's local time (its UTC offset applied).
inline LocalTime local_time(const WallClock& origin, Micros t) {
  using namespace std::chrono;
  const std::int64_t local_us =
      origin.epoch_us + t + std::int64_t{origin.utc_offset_minutes} * 60'000'000;
  const sys_time<microseconds> tp{microseconds{local_us}};
  const sys_days day = floor<days>(tp);
  const year_month_day ymd{day};
  return {static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
          static_cast<unsigned>(ymd.day()), (tp - day).count()};
}

/// The local time of `origin` + t, as StarRocks' fe.log prints it (`yyyy-MM-dd HH:mm:ss.SSSXXX`):
/// "2026-05-07 05:10:14.003+08:00" ("Z" for offset 0). Milliseconds truncated.
std::string format_wall_clock(const WallClock& origin, Micros t);

}  // namespace interleave::reports
