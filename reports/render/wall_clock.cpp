#include "reports/render/wall_clock.hpp"

#include <cstdio>

namespace interleave::reports {

std::string format_wall_clock(const WallClock& origin, Micros t) {
  const LocalTime lt = local_time(origin, t);
  const std::int64_t ms = lt.micros_of_day / 1000;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02lld:%02lld:%02lld.%03lld", lt.year, lt.month,
                lt.day, static_cast<long long>(ms / 3'600'000),
                static_cast<long long>(ms / 60'000 % 60), static_cast<long long>(ms / 1000 % 60),
                static_cast<long long>(ms % 1000));
  std::string out = buf;
  if (origin.utc_offset_minutes == 0) return out + "Z";
  const int off =
      origin.utc_offset_minutes < 0 ? -origin.utc_offset_minutes : origin.utc_offset_minutes;
  std::snprintf(buf, sizeof buf, "%c%02d:%02d", origin.utc_offset_minutes < 0 ? '-' : '+', off / 60,
                off % 60);
  return out + buf;
}

}  // namespace interleave::reports
