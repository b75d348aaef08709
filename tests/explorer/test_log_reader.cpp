// The incident-log reader (explorer/evidence/log_reader.hpp): each layout's fields, continuation and
// ignored lines, times across layouts, and every kind of bad input with its file and line.
#include "explorer/evidence/log_reader.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace interleave;
using interleave::test::error_of;

TEST_CASE("log: fe.log's pattern layout, every field", "[log]") {
  const LogFile log = parse_log(
      "2025-05-16 05:10:02.103+08:00 INFO (TemporaryTableCleaner|61) "
      "[TemporaryTableCleaner.runAfterCatalogReady():71] cannot find alive session "
      "4a5e1b2c-0000-0000-0000-000000000001, should clean all temporary tables on it\n",
      "fe.log");
  REQUIRE(log.records.size() == 1);
  CHECK(log.ignored.empty());
  const LogRecord& r = log.records[0];
  CHECK(r.layout == LogLayout::fe_pattern);
  CHECK(r.line == 1);
  CHECK(r.level == "INFO");
  CHECK(r.thread == "TemporaryTableCleaner");
  CHECK(r.thread_id == "61");
  CHECK(r.logger == "TemporaryTableCleaner");
  CHECK(r.method == "runAfterCatalogReady");
  CHECK(r.source_file == "TemporaryTableCleaner.java");
  CHECK(r.source_line == 71);
  CHECK(r.message ==
        "cannot find alive session 4a5e1b2c-0000-0000-0000-000000000001, should clean all "
        "temporary tables on it");
  CHECK(r.time.year == 2025);
  CHECK(r.time.month == 5);
  CHECK(r.time.day == 16);
  CHECK(r.time.utc_offset_minutes == 8 * 60);
  CHECK(r.time.fraction_digits == 3);
  CHECK(r.time.str() == "2025-05-16 05:10:02.103+08:00");
}

TEST_CASE("log: a thread name with '|' and parentheses, an inner class, an unknown line",
          "[log]") {
  const LogFile log = parse_log(
      "2025-05-16 05:10:02.103Z WARN (pool-3 (x)|y|4431) [TaskRunExecutor$1.lambda$run$0():?] "
      "boom\n",
      "fe.log");
  REQUIRE(log.records.size() == 1);
  const LogRecord& r = log.records[0];
  CHECK(r.thread == "pool-3 (x)|y");
  CHECK(r.thread_id == "4431");
  CHECK(r.logger == "TaskRunExecutor$1");
  CHECK(r.method == "lambda$run$0");
  CHECK_FALSE(r.source_line.has_value());
  CHECK(r.message == "boom");
}

TEST_CASE("log: a stack trace belongs to the line before, lines before any record are ignored",
          "[log]") {
  const LogFile log = parse_log(
      "some banner\n"
      "2025-05-16 05:10:32.500+08:00 WARN (thrift-server-pool-7|301) "
      "[StmtExecutor.execute():712] execute Exception, sql: INSERT OVERWRITE ...\n"
      "com.starrocks.common.DdlException: Error occurred during executing recursive CTE start "
      "statement:\n"
      "\tat com.starrocks.qe.RecursiveCTEExecutor.run(RecursiveCTEExecutor.java:120)\n"
      "\n"
      "\tat com.starrocks.qe.StmtExecutor.execute(StmtExecutor.java:700)\n"
      "2025-05-16 05:10:32.501+08:00 INFO (a|1) [X.y():1] next\n",
      "fe.log");
  REQUIRE(log.records.size() == 2);
  CHECK(log.lines == 7);
  REQUIRE(log.ignored.size() == 1);
  CHECK(log.ignored[0].line == 1);
  CHECK(log.ignored[0].why == "before the first record");
  const LogRecord& r = log.records[0];
  CHECK(r.line == 2);
  CHECK(r.last_line == 6);
  REQUIRE(r.continuation.size() == 3);
  CHECK(r.continuation[1] ==
        "\tat com.starrocks.qe.RecursiveCTEExecutor.run(RecursiveCTEExecutor.java:120)");
  CHECK(r.full_message().starts_with(
      "execute Exception, sql: INSERT OVERWRITE ... com.starrocks.common.DdlException: Error"));
  CHECK(log.records[1].line == 7);
}

TEST_CASE("log: fe.log's JSON layout", "[log]") {
  const LogFile log = parse_log(
      R"({"@timestamp":"2025-05-15 21:10:02.103Z","level":"INFO","thread.name":"TemporaryTableCleaner",)"
      R"("thread.id":61,"line":71,"file":"TemporaryTableCleaner.java","method":"runAfterCatalogReady",)"
      R"("message":"remove all temporary tables in session[s1]\nsecond line","exception":null})"
      "\n",
      "fe.json.log");
  REQUIRE(log.records.size() == 1);
  const LogRecord& r = log.records[0];
  CHECK(r.layout == LogLayout::fe_json);
  CHECK(r.level == "INFO");
  CHECK(r.thread == "TemporaryTableCleaner");
  CHECK(r.thread_id == "61");
  CHECK(r.logger == "TemporaryTableCleaner");
  CHECK(r.source_file == "TemporaryTableCleaner.java");
  CHECK(r.source_line == 71);
  CHECK(r.method == "runAfterCatalogReady");
  CHECK(r.message == "remove all temporary tables in session[s1]");
  CHECK(r.continuation == std::vector<std::string>{"second line"});
  CHECK(r.time.utc_offset_minutes == 0);
}

TEST_CASE("log: glog, with and without the year", "[log]") {
  const LogFile log = parse_log(
      "Log file created at: 2025/05/16 05:00:00\n"
      "I20250516 05:10:14.120345 140021 lake_service.cpp:120] Add shard id: 52305 file path: "
      ".../db16061/52300/52302\n"
      "W0516 05:10:32.004001  9931 table_schema_service.cpp:331] failed to get schema\n"
      "E0516 05:10:32.004100 9931 async_delta_writer.cpp:244] Fail to finish write\n",
      "cn.INFO");
  REQUIRE(log.records.size() == 3);
  REQUIRE(log.ignored.size() == 1);
  const LogRecord& a = log.records[0];
  CHECK(a.layout == LogLayout::glog);
  CHECK(a.level == "INFO");
  CHECK(a.time.year == 2025);
  CHECK(a.time.month == 5);
  CHECK(a.time.day == 16);
  CHECK_FALSE(a.time.utc_offset_minutes.has_value());
  CHECK(a.time.fraction_digits == 6);
  CHECK(a.thread_id == "140021");
  CHECK(a.source_file == "lake_service.cpp");
  CHECK(a.source_line == 120);
  CHECK(a.message == "Add shard id: 52305 file path: .../db16061/52300/52302");
  CHECK(a.time.str() == "20250516 05:10:14.120345");
  const LogRecord& b = log.records[1];
  CHECK(b.level == "WARN");
  CHECK_FALSE(b.time.year.has_value());
  CHECK(b.thread_id == "9931");
  CHECK(b.time.str() == "0516 05:10:32.004001");
  CHECK(log.records[2].level == "ERROR");
  // The year of one is lent to the other: 17.88 s apart.
  CHECK(micros_between(a.time, b.time) == 17'883'656);
}

TEST_CASE("log: the bug report's bare excerpt", "[log]") {
  const LogFile log = parse_log(
      "05:10:14  Add shard id: 52305\n"
      "           file path: .../db16061/52300/52302\n"
      "\n"
      "05:10:32  table_schema_service.cpp:331 failed to get schema\n"
      "           db_id: 16061, table_id: 52300, schema_id: 52301,\n"
      "           tablet_id: 52305, txn_id: 12920\n"
      "           error: Table not exist: table not found, may be dropped\n"
      "\n"
      "05:10:32  async_delta_writer.cpp:244 Fail to finish write\n"
      "05:10:32  lake_tablets_channel.cpp:613 Fail to finish tablet 52305\n"
      "9:05:01 a one-digit hour\n",
      "incident.txt");
  REQUIRE(log.records.size() == 5);
  CHECK(log.ignored.empty());
  CHECK(log.records[0].layout == LogLayout::bare);
  CHECK(log.records[0].level.empty());
  CHECK(log.records[0].full_message() == "Add shard id: 52305 file path: .../db16061/52300/52302");
  const LogRecord& s = log.records[1];
  CHECK(s.line == 4);
  CHECK(s.last_line == 7);
  CHECK(s.source_file == "table_schema_service.cpp");
  CHECK(s.source_line == 331);
  CHECK(s.message == "failed to get schema");
  CHECK(s.full_message() ==
        "failed to get schema db_id: 16061, table_id: 52300, schema_id: 52301, tablet_id: 52305, "
        "txn_id: 12920 error: Table not exist: table not found, may be dropped");
  CHECK(log.records[3].source_line == 613);
  CHECK(log.records[4].time.micros_of_day == (9 * 3600 + 5 * 60 + 1) * 1'000'000LL);
  CHECK(micros_between(log.records[0].time, s.time) == 18'000'000);
}

TEST_CASE("log: times compare across layouts on what both print", "[log]") {
  const LogFile fe = parse_log(
      "2025-05-16 05:10:02.103+08:00 INFO (a|1) [A.b():1] x\n"
      "2025-05-15 21:10:02.103Z INFO (a|1) [A.b():1] y\n",
      "fe.log");
  REQUIRE(fe.records.size() == 2);
  CHECK(fe.records[0].time.utc_micros() == fe.records[1].time.utc_micros());
  CHECK(micros_between(fe.records[0].time, fe.records[1].time) == 0);
  CHECK(*fe.records[1].time.utc_micros() == 1747343402103000LL);
  const LogFile cn = parse_log("05:10:14 later\n", "cn.txt");
  // A time of day alone: only the times of day compare (05:10:02.103 to 05:10:14).
  CHECK(micros_between(fe.records[0].time, cn.records[0].time) == 11'897'000);
}

TEST_CASE("log: a timestamped line in no layout is ignored, not an error", "[log]") {
  const LogFile log = parse_log(
      "2025-05-16 05:10:02.103+08:00 NOTICE (a|1) [A.b():1] x\n"
      "2025-05-16 05:10:02.103+08:00 INFO x\n"
      "I0516 05:10:14.120345 140021 no location here\n",
      "fe.log");
  CHECK(log.records.empty());
  REQUIRE(log.ignored.size() == 3);
  for (const IgnoredLogLine& l : log.ignored)
    CHECK(l.why == "a timestamped line in no known layout");
}

TEST_CASE("log: bad input names the file and the line", "[log]") {
  CHECK(error_of([] { parse_log("2025-13-16 05:10:02.103+08:00 INFO (a|1) [A.b():1] x\n", "fe.log"); }) ==
        "fe.log: line 1: the date 2025-13-16 names no day");
  CHECK(error_of([] { parse_log("ok\n2025-02-29 05:10:02.103Z INFO (a|1) [A.b():1] x\n", "fe.log"); }) ==
        "fe.log: line 2: the date 2025-02-29 names no day");
  CHECK(error_of([] { parse_log("2024-02-29 05:10:02.103Z INFO (a|1) [A.b():1] x\n", "fe.log"); }) ==
        "no error");
  CHECK(error_of([] { parse_log("I0516 25:10:14.120345 1 a.cpp:1] x\n", "cn.INFO"); }) ==
        "cn.INFO: line 1: the time 25:10:14.120345 names no time of day");
  CHECK(error_of([] { parse_log("05:61:00 x\n", "bare.txt"); }) ==
        "bare.txt: line 1: the time 05:61:00 names no time of day");
  CHECK(error_of([] { parse_log("2025-05-16 05:10:02.103+25:00 INFO (a|1) [A.b():1] x\n", "fe.log"); }) ==
        "fe.log: line 1: the UTC offset +25:00 names no zone");
  CHECK(error_of([] { parse_log(std::string("a\nb\0c\n", 6), "bin.log"); }) ==
        "bin.log: line 2: a NUL byte: this is a binary file, not a log");
  CHECK(error_of([] { parse_log("a\n\xff\xfe\n", "bin.log"); }) ==
        "bin.log: line 2: bytes that are not UTF-8 text (a binary file?)");
  CHECK(error_of([] { parse_log("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n", "utf8.log"); }) ==
        "no error");
  CHECK(error_of([] { parse_log("\xed\xa0\x80\n", "surrogate.log"); }) ==
        "surrogate.log: line 1: bytes that are not UTF-8 text (a binary file?)");
  CHECK(error_of([] { parse_log("\xc3", "cut.log"); }) ==
        "cut.log: line 1: bytes that are not UTF-8 text (a binary file?)");
  CHECK(error_of([] { parse_log(R"({"@timestamp":"2025-05-16 05:10:02.103Z", "level":)", "fe.json"); }) ==
        "fe.json: line 1: a line of the JSON layout that is not one JSON object");
  CHECK(error_of([] { parse_log(R"({"@timestamp":"2025-05-16T05:10:02Z","level":"INFO","message":"x"})", "fe.json"); }) ==
        "fe.json: line 1: the JSON layout's \"@timestamp\" '2025-05-16T05:10:02Z' is not "
        "yyyy-MM-dd HH:mm:ss.SSSXXX");
  CHECK(error_of([] { parse_log(R"({"@timestamp":"2025-05-16 05:10:02.103Z","level":"INFO"})", "fe.json"); }) ==
        "fe.json: line 1: the JSON layout's \"message\" is missing");
  CHECK(error_of([] { parse_log(R"({"@timestamp":"2025-05-16 05:10:02.103Z","level":"LOUD","message":"x"})", "fe.json"); }) ==
        "fe.json: line 1: the JSON layout's \"level\" 'LOUD' is no log4j level");
  CHECK(error_of([] { parse_log(R"({"@timestamp":"2025-05-16 05:10:02.103Z","level":"INFO","message":[1]})", "fe.json"); }) ==
        "fe.json: line 1: the JSON layout's \"message\" is array, expected a string");
}

TEST_CASE("log: the limits", "[log]") {
  LogLimits limits;
  limits.max_lines = 3;
  CHECK(error_of([&] { parse_log("a\nb\nc\n", "f.log", limits); }) == "no error");
  CHECK(error_of([&] { parse_log("a\nb\nc\nd\n", "f.log", limits); }) ==
        "f.log: line 4: the log has more than 3 lines, the limit");
  limits = {};
  limits.max_line_bytes = 4;
  CHECK(error_of([&] { parse_log("abcd\nabcde\n", "f.log", limits); }) ==
        "f.log: line 2: a line of 5 bytes, over the limit of 4");
  limits = {};
  limits.max_bytes = 8;
  CHECK(error_of([&] { parse_log("123456789", "f.log", limits); }) ==
        "f.log: line 1: the log has 9 bytes, over the limit of 8");
  CHECK(error_of([] { read_log_file("/nonexistent/fe.log"); }) ==
        "/nonexistent/fe.log: /: cannot read the log: No such file or directory");
  CHECK(error_of([] { read_log_file("/tmp"); }) == "/tmp: /: is a directory, not a log file");
}

TEST_CASE("log: a time that goes back within one file by more than the skew", "[log]") {
  const LogFile log = parse_log(
      "05:10:14 a\n"
      "05:10:13.9 b\n"
      "05:10:12 c\n",
      "cn.txt");
  CHECK(error_of([&] { check_log_order(log, 2'000'000); }) == "no error");
  CHECK(error_of([&] { check_log_order(log, 500'000); }) ==
        "cn.txt: line 3: the time 05:10:12 goes back from 05:10:13.9 (line 2) by 1900 ms, more "
        "than the clock skew of 500 ms within one file");
}

TEST_CASE("log: the sample logs of tests/explorer/logs, one per layout", "[log]") {
  const std::string dir = std::string(INTERLEAVE_SOURCE_DIR) + "/tests/explorer/logs/";
  const LogFile fe = read_log_file(dir + "fe.log");
  REQUIRE(fe.records.size() == 4);
  CHECK(fe.ignored.size() == 1);  // the comment line before the first record
  CHECK(fe.records[3].level == "WARN");
  CHECK(fe.records[3].continuation.size() == 5);
  CHECK(fe.records[3].full_message().find("table not found, may be dropped, db id: 16061") !=
        std::string::npos);
  const LogFile json = read_log_file(dir + "fe.json.log");
  REQUIRE(json.records.size() == 3);
  // The same instants in both FE layouts (+08:00 and Z).
  for (std::size_t i = 0; i < 2; ++i)
    CHECK(micros_between(fe.records[i].time, json.records[i].time) == 0);
  CHECK(json.records[2].continuation.size() == 2);
  const LogFile cn = read_log_file(dir + "cn.INFO");
  REQUIRE(cn.records.size() == 4);
  CHECK(cn.ignored.size() == 3);  // glog's three header lines
  const LogFile bare = read_log_file(dir + "incident.txt");
  REQUIRE(bare.records.size() == 4);
  // The CN's lines, in glog and as the bug report quotes them, agree to the second.
  for (std::size_t i = 0; i < 4; ++i) {
    const std::int64_t d = micros_between(cn.records[i].time, bare.records[i].time);
    CHECK(d <= 0);
    CHECK(d > -1'000'000);
    CHECK(cn.records[i].source_file == (i == 0 ? "lake_service.cpp" : bare.records[i].source_file));
  }
  for (const LogFile* log : {&fe, &json, &cn, &bare})
    CHECK_NOTHROW(check_log_order(*log, 0));
}
