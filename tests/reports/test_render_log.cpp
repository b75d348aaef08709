// `show --format log` as a function (reports/render/render_log.hpp): the lines a counterexample's notes
// record, in fe.log's layout for an FE class and glog's for a CN file, with the trace's times on
// its wall-clock origin when it is timed and the placeholder clock (1970, the step's index in
// milliseconds) when not; and every line reads back through the log reader as the record of
// its pattern.
#include "explorer/evidence/log_reader.hpp"
#include "reports/render/render_log.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using interleave::reports::TraceDocument;

namespace {

const LogPatternTable& table() {
  static const LogPatternTable t({
      {"clean", "WARN", "Cleaner", "hypothetical: a test", "cannot find alive session {s:uuid}",
       "run", 83},
      {"fail", "ERROR", "tablets_channel.cpp", "hypothetical: a test",
       "Fail to finish tablet {tablet:int}", "", 613},
  });
  return t;
}

TraceDocument doc(bool timed) {
  TraceDocument d;
  Counterexample& c = d.counterexample;
  const std::string uuid = "8a1f7c52-3b1e-4f0a-9d1c-6e2b7a0c5d31";
  c.steps = {
      {0, "Cleaner", "C1", {}, "pass starts", std::nullopt, std::nullopt},
      {1, "Cleaner", "D1", {}, "cannot find alive session " + uuid + "; its tables: [t]",
       std::nullopt, std::nullopt},
      {2, "Sink", "N3", {}, "cn1: Fail to finish tablet 52305; cn1: Fail to finish tablet 52306",
       std::nullopt, std::nullopt},
  };
  if (timed) {
    c.steps[0].time = 0;
    c.steps[1].time = 1'500;
    c.steps[2].time = 2'000'123;
    // 2025-05-15T21:10:30Z, printed at +08:00.
    c.wall_clock = WallClock{1'747'343'430'000'000, 480};
  }
  return d;
}

}  // namespace

TEST_CASE("render log: a timed trace prints its lines at the origin plus time_us", "[render_log]") {
  CHECK(reports::render_log(doc(true), table()) ==
        "2025-05-16 05:10:30.001+08:00 WARN (Cleaner|1) [Cleaner.run():83] cannot find alive "
        "session 8a1f7c52-3b1e-4f0a-9d1c-6e2b7a0c5d31\n"
        "E20250516 05:10:32.000123 2 tablets_channel.cpp:613] Fail to finish tablet 52305\n"
        "E20250516 05:10:32.000123 2 tablets_channel.cpp:613] Fail to finish tablet 52306\n");
}

TEST_CASE("render log: an untimed trace prints the placeholder clock, the step's index in "
          "milliseconds since 1970-01-01 00:00:00Z",
          "[render_log]") {
  CHECK(reports::render_log(doc(false), table()) ==
        "1970-01-01 00:00:00.001Z WARN (Cleaner|1) [Cleaner.run():83] cannot find alive "
        "session 8a1f7c52-3b1e-4f0a-9d1c-6e2b7a0c5d31\n"
        "E19700101 00:00:00.002000 2 tablets_channel.cpp:613] Fail to finish tablet 52305\n"
        "E19700101 00:00:00.002000 2 tablets_channel.cpp:613] Fail to finish tablet 52306\n");
  TraceDocument none = doc(false);
  none.counterexample.steps.resize(1);
  CHECK(reports::render_log(none, table()).empty());
}

TEST_CASE("render log: every line reads back as a record of its pattern", "[render_log]") {
  for (const bool timed : {true, false}) {
    const LogFile log = parse_log(reports::render_log(doc(timed), table()), "rendered.log");
    CHECK(log.ignored.empty());
    REQUIRE(log.records.size() == 3);
    CHECK(log.records[0].layout == LogLayout::fe_pattern);
    CHECK(log.records[0].level == "WARN");
    CHECK(log.records[0].logger == "Cleaner");
    CHECK(log.records[0].method == "run");
    CHECK(log.records[0].source_line == 83);
    CHECK(log.records[0].thread == "Cleaner");
    for (std::size_t i = 1; i < 3; ++i) {
      CHECK(log.records[i].layout == LogLayout::glog);
      CHECK(log.records[i].level == "ERROR");
      CHECK(log.records[i].source_file == "tablets_channel.cpp");
      CHECK(log.records[i].source_line == 613);
      CHECK(match_whole(table().compiled()[1], log.records[i].message).has_value());
    }
    CHECK(match_whole(table().compiled()[0], log.records[0].message).has_value());
    if (timed) CHECK(micros_between(log.records[0].time, log.records[1].time) == 1'999'123);
  }
}
