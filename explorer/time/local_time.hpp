// The local calendar date and time of day of a point of virtual time, for printing it as a log
// line does (fe.log's and glog's layouts differ only in how they print these parts).
#pragma once

#include "explorer/time/timing.hpp"

#include <chrono>
#include <cstdint>

namespace interleave {

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

}  // namespace interleave
