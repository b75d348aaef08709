// The wall-clock time of a timed trace's step, as the text and log renderers print it.
#include "reports/render/wall_clock.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using interleave::reports::format_wall_clock;

TEST_CASE("wall-clock times are printed as fe.log prints them", "[timing]") {
  // 2026-05-07 05:10:14 at UTC+8 is 2026-05-06 21:10:14 UTC: 1778101814 s since the epoch.
  const WallClock origin{1'778'101'814'000'000, 8 * 60};
  CHECK(format_wall_clock(origin, 0) == "2026-05-07 05:10:14.000+08:00");
  CHECK(format_wall_clock(origin, seconds(18) + milliseconds(4) + 999) ==
        "2026-05-07 05:10:32.004+08:00");
  CHECK(format_wall_clock({0, 0}, seconds(86'400) - 1) == "1970-01-01 23:59:59.999Z");
  CHECK(format_wall_clock({0, -90}, 0) == "1969-12-31 22:30:00.000-01:30");
}
