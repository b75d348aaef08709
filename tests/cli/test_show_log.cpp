// `interleave show --format log` on the seed's counterexample: the fe.log and CN lines StarRocks
// would print, read back by the log reader, every line a record that its model pattern matches
// whole, with the pattern's level, logger and line.
#include "explorer/evidence/log_reader.hpp"
#include "model/starrocks/log_patterns.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using namespace interleave::test;

TEST_CASE("show --format log: the seed counterexample's log reads back, every line matching its "
          "pattern",
          "[cli][show][log]") {
  TempDir tmp;
  // Appended, not concatenated: GCC 12 reports a false -Warray-bounds on the chain.
  std::string scenario = INTERLEAVE_SOURCE_DIR;
  scenario += "/scenarios/seed-starrocks-4.1.1.json";
  const CliResult check = run_binary({"check", scenario, "--out", tmp / "out", "--quiet"});
  REQUIRE(check.code == 1);
  const std::string trace = tmp / "out/seed-starrocks-4.1.1.sink-table-not-found.trace.json";
  const CliResult shown = run_binary({"show", trace, "--format", "log"});
  REQUIRE(shown.code == 0);
  CHECK(shown.err.empty());
  const LogFile log = parse_log(shown.out, "seed.log");
  CHECK(log.ignored.empty());
  REQUIRE(log.records.size() == log.lines);
  const auto& patterns = model::starrocks_log_patterns();
  std::vector<std::string> ids;
  for (const LogRecord& r : log.records) {
    INFO(r.text);
    CHECK(r.continuation.empty());
    bool found = false;
    for (std::size_t k = 0; k < patterns.compiled().size() && !found; ++k) {
      const LogPattern& p = patterns.patterns()[k];
      if (!match_whole(patterns.compiled()[k], r.message)) continue;
      found = true;
      ids.push_back(p.id);
      CHECK(r.level == p.level);
      CHECK(r.source_line == p.line);
      if (p.method.empty()) {
        CHECK(r.layout == LogLayout::glog);
        CHECK(r.source_file == p.logger);
      } else {
        CHECK(r.layout == LogLayout::fe_pattern);
        CHECK(r.logger == p.logger);
        CHECK(r.method == p.method);
      }
    }
    CHECK(found);
  }
  // The seed's story, in order: the shard, the table added, the cleaner's drop, the CN failure.
  const auto at = [&ids](std::string_view id) {
    return static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
  };
  CHECK(at(model::logs::kAddShard) < at(model::logs::kAddTemporaryTable));
  CHECK(at(model::logs::kAddTemporaryTable) < at(model::logs::kCleanDeadSession));
  CHECK(at(model::logs::kCleanDeadSession) < at(model::logs::kSchemaNotFound));
  CHECK(at(model::logs::kSchemaNotFound) < at(model::logs::kFailToFinishWrite));
  CHECK(at(model::logs::kFailToFinishWrite) < at(model::logs::kFailToFinishTablet));
  CHECK(at(model::logs::kFailToFinishTablet) < ids.size());
  // Untimed: the placeholder clock, 1970-01-01 plus the step's index in milliseconds; the
  // times never go back.
  CHECK(shown.out.rfind("19700101 00:00:00.", 1) == 1);
  CHECK_NOTHROW(check_log_order(log, 0));
  for (std::size_t i = 1; i < log.records.size(); ++i)
    CHECK(micros_between(log.records[i - 1].time, log.records[i].time) >= 0);
  // Deterministic.
  CHECK(run_binary({"show", trace, "--format", "log"}).out == shown.out);
}

TEST_CASE("list: every model's log patterns, from its table", "[show][log][list]") {
  const CliResult j = run_binary({"list", "--json"});
  REQUIRE(j.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  bool seen = false;
  for (const nlohmann::json& m : doc["models"]) {
    if (m["name"] != "starrocks-temp-tables") continue;
    seen = true;
    const auto& table = model::starrocks_log_patterns().patterns();
    REQUIRE(m["log_patterns"].size() == table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
      CHECK(m["log_patterns"][i]["id"] == table[i].id);
      CHECK(m["log_patterns"][i]["text"] == table[i].text);
      CHECK(m["log_patterns"][i]["source"] == table[i].source);
    }
  }
  CHECK(seen);
  const CliResult t = run_binary({"list"});
  REQUIRE(t.code == 0);
  CHECK_THAT(t.out, Catch::Contains("    log patterns (the lines its steps log):\n      - " +
                                    model::starrocks_log_patterns().patterns().front().id + ": "));
}
