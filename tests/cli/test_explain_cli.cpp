// `interleave explain` on the seed's incident (scenarios/incidents/): explained under 4.1.1, with
// a trace that replay reproduces; impossible under the register-then-start fix; bad input; and the
// round trip: the log of every counterexample of the seed is explained by a search that finds
// that counterexample's own Mazurkiewicz trace among its explanations.
#include "explorer/evidence/explain.hpp"
#include "model/register.hpp"
#include "reports/render/render_log.hpp"
#include "reports/run/scenario.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace interleave;
using namespace interleave::test;

namespace {

std::string source(const std::string& relative) {
  std::string path = INTERLEAVE_SOURCE_DIR;
  path += "/";
  path += relative;
  return path;
}

const std::string kSeed = source("scenarios/seed-starrocks-4.1.1.json");
const std::string kFe = source("scenarios/incidents/seed-4.1.1.fe.log");
const std::string kCn = source("scenarios/incidents/seed-4.1.1.cn.INFO");

}  // namespace

TEST_CASE("explain: the seed's incident is explained under 4.1.1, and its trace replays",
          "[cli][explain]") {
  TempDir tmp;
  const CliResult r = run_binary({"explain", kSeed, kFe, kCn, "--out", tmp / "out", "--quiet"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("8 related") != std::string::npos);
  CHECK(r.out.find("set aside: seed-4.1.1.fe.log:1 seed-4.1.1.fe.log:3 seed-4.1.1.cn.INFO:4") !=
        std::string::npos);
  CHECK(r.out.find("explained: ") != std::string::npos);
  CHECK(r.out.find("<- seed-4.1.1.fe.log:4") != std::string::npos);
  CHECK(r.out.find("TemporaryTableCleaner's D2 (drop temporary table hierarchy_1747372266300") !=
        std::string::npos);
  CHECK(r.out.find("falls between seed-4.1.1.fe.log:4 and seed-4.1.1.fe.log:5") !=
        std::string::npos);
  CHECK(r.out.find("TaskRun:t1's E3 (anchor INSERT") != std::string::npos);
  const std::string trace = tmp / "out/seed-starrocks-4.1.1.explanation.trace.json";
  REQUIRE(std::filesystem::exists(trace));
  const CliResult replay = run_binary({"replay", trace});
  CHECK(replay.code == 1);
  CHECK(replay.out.find("the violation reproduces") != std::string::npos);

  const CliResult json = run_binary({"explain", kSeed, kFe, kCn, "--out", tmp / "out2", "--json"});
  REQUIRE(json.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  CHECK(doc["explained"] == true);
  CHECK(doc["complete"] == true);
  CHECK(doc["related"].size() == 8);
  CHECK(doc["violates"] == "sink_table_not_found");
  CHECK(doc["explanations"].get<int>() > 1);
}

TEST_CASE("explain: the seed's incident cannot happen under the register-then-start fix",
          "[cli][explain]") {
  TempDir tmp;
  const CliResult presets = run_binary(
      {"explain", kSeed, kFe, kCn, "--out", tmp / "out", "--quiet", "--presets",
       "starrocks-4.1.1,pr-79339-register-then-start"});
  INFO(presets.out << presets.err);
  CHECK(presets.code == 0);
  CHECK(presets.out.find("starrocks-4.1.1               possible: ") != std::string::npos);
  CHECK(presets.out.find("pr-79339-register-then-start  impossible: no execution produces it") !=
        std::string::npos);

  const CliResult fixed = run_binary({"explain", kSeed, kFe, kCn, "--out", tmp / "out", "--quiet",
                                      "--preset", "pr-79339-register-then-start"});
  CHECK(fixed.code == 1);
  CHECK(fixed.out.find("not explained: no execution produces the incident") != std::string::npos);
  CHECK(fixed.out.find("the first line no execution produces after it: seed-4.1.1.cn.INFO:6") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(tmp / "out/seed-starrocks-4.1.1.explanation.trace.json"));
}

TEST_CASE("explain: bad input is refused before any search, naming the file and line",
          "[cli][explain]") {
  TempDir tmp;
  const std::string back = tmp / "back.log";
  write_file(back, "05:10:14 Add shard id: 1 file path: x\n05:10:10 Fail to finish tablet 1\n");
  const CliResult r = run_binary({"explain", kSeed, back, "--out", tmp / "out"});
  CHECK(r.code == 2);
  CHECK(r.err.find("back.log: line 2") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(tmp / "out"));
  // Within the skew, the same file is accepted, and explained (exit 0).
  CHECK(run_binary({"explain", kSeed, back, "--clock-skew", "5000", "--out", tmp / "out",
                    "--quiet"})
            .code == 0);

  // One tablet under two tables: the model's identity rule says a tablet belongs to one table.
  const std::string two = tmp / "two.INFO";
  write_file(two,
             "W20250516 05:10:32.004001 140187 table_schema_service.cpp:331] failed to get schema "
             "db_id: 16061, table_id: 52300, schema_id: 52301, tablet_id: 52305, txn_id: 12920 "
             "error: Table not exist: table not found, may be dropped\n"
             "W20250516 05:10:33.004001 140187 table_schema_service.cpp:331] failed to get schema "
             "db_id: 16061, table_id: 52310, schema_id: 52311, tablet_id: 52305, txn_id: 12921 "
             "error: Table not exist: table not found, may be dropped\n");
  const CliResult conflict = run_binary({"explain", kSeed, two, "--out", tmp / "out"});
  CHECK(conflict.code == 2);
  CHECK(conflict.err.find("two.INFO: line 2: tablet 52305 is under table 52310 here and under "
                          "table 52300 at two.INFO:1") != std::string::npos);

  // Lines that match but relate to no failure: nothing to explain, said so, no search.
  const std::string quiet = tmp / "quiet.INFO";
  write_file(quiet, "I20250516 05:10:14.120345 140021 lake_service.cpp:120] Add shard id: 52305 "
                    "file path: .../db16061/52300/52302\n");
  const CliResult nothing = run_binary({"explain", kSeed, quiet, "--out", tmp / "out"});
  CHECK(nothing.code == 0);
  CHECK(nothing.out.find("nothing to explain: no matched line is related") != std::string::npos);
  CHECK(nothing.out.find("explained:") == std::string::npos);

  const std::string binary = tmp / "binary.log";
  write_file(binary, std::string("05:10:14 a\n\x00\xff\xfe", 14));
  CHECK(run_binary({"explain", kSeed, binary}).code == 2);
  CHECK(run_binary({"explain", kSeed, tmp / "missing.log"}).code == 2);
  CHECK(run_binary({"explain", kSeed, kFe, "--focus", "table"}).code == 2);
  const CliResult focus = run_binary({"explain", kSeed, kFe, "--focus", "table=1"});
  CHECK(focus.code == 2);
  CHECK(focus.err.find("--focus table=1") != std::string::npos);
  CHECK(run_binary({"explain", kSeed, kFe, "--clock-skew", "-1"}).code == 2);
  CHECK(run_binary({"explain", kSeed, kFe, "--preset", "starrocks-4.1.1", "--presets",
                    "starrocks-4.1.1"})
            .code == 2);
  CHECK(run_binary({"explain", kSeed, kFe, "--presets", "no-such-preset"}).code == 2);
}

TEST_CASE("explain: the log of every counterexample of the seed is explained, by its own "
          "Mazurkiewicz trace among others",
          "[cli][explain][roundtrip]") {
  TempDir tmp;
  const CliResult check =
      run_binary({"check", kSeed, "--all-violations", "--out", tmp / "out", "--quiet"});
  REQUIRE(check.code == 1);
  ModelRegistry models;
  register_models(models);
  const run::Scenario scenario = run::load_scenario(kSeed, models);
  const ModelDriver* driver = models.find(scenario.model);
  REQUIRE(driver != nullptr);
  const std::vector<CompiledLogPattern>& patterns = driver->log_patterns().compiled();
  IncidentOptions options;
  options.clock_skew_micros = 0;  // the rendered times are the steps' order
  std::set<std::string> loggers;
  for (const CompiledLogPattern& p : patterns)
    loggers.insert(p.pattern().logger);
  options.complete.assign(loggers.begin(), loggers.end());
  std::size_t traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(tmp / "out")) {
    const reports::TraceDocument doc = reports::read_trace_file(entry.path().string());
    INFO(entry.path().string());
    const std::string log = reports::render_log(doc, driver->log_patterns());
    REQUIRE_FALSE(log.empty());
    std::vector<LogFile> files;
    files.push_back(parse_log(log, "rendered.log"));
    const Incident incident = read_incident(std::move(files), patterns, options);
    REQUIRE(incident.related.size() == incident.lines.size());  // complete: every line related
    ExplainOptions own;
    own.only = doc.counterexample.schedule;
    own.keep_forms = true;
    const ExplainResult mine = explain_incident(scenario.instance.program, incident, patterns, own);
    REQUIRE(mine.forms.size() == 1);
    ExplainOptions search;
    search.keep_forms = true;
    const ExplainResult all =
        explain_incident(scenario.instance.program, incident, patterns, search);
    CHECK(all.complete);
    CHECK(all.explanations >= 1);
    CHECK(all.forms.contains(*mine.forms.begin()));
    ++traces;
  }
  CHECK(traces == 4);
}

TEST_CASE("explain: a scenario's incidents are gate cases: an expectation not met fails the gate, "
          "a missing log is bad input",
          "[cli][explain][gate]") {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "logs");
  std::filesystem::copy_file(kFe, tmp / "logs/fe.log");
  std::filesystem::copy_file(kCn, tmp / "logs/cn.INFO");
  nlohmann::json scenario = nlohmann::json::parse(read_file(kSeed));
  scenario.erase("$schema");
  scenario["incidents"] = nlohmann::json::array(
      {{{"name", "wrong"}, {"logs", {"logs/fe.log", "logs/cn.INFO"}}, {"expect", "impossible"}}});
  write_file(tmp / "seed.json", scenario.dump(2));
  const CliResult gate = run_binary({"gate", tmp / "seed.json", "--out", tmp / "out", "--quiet"});
  INFO(gate.out << gate.err);
  CHECK(gate.code == 1);
  CHECK(gate.out.find("1 of 2 scenarios meet their expectation") != std::string::npos);

  scenario["incidents"][0]["logs"][1] = "logs/missing.INFO";
  write_file(tmp / "missing.json", scenario.dump(2));
  const CliResult missing = run_binary({"gate", tmp / "missing.json", "--out", tmp / "out2"});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("/incidents/0/logs/1") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(tmp / "out2"));

  scenario["incidents"][0]["expcet"] = "explained";
  write_file(tmp / "typo.json", scenario.dump(2));
  const CliResult typo = run_binary({"validate", tmp / "typo.json"});
  CHECK(typo.code == 2);
  CHECK(typo.err.find("/incidents/0/expcet") != std::string::npos);
}

TEST_CASE("explain: a timed scenario checks the incident's times against the durations",
          "[cli][explain][timed]") {
  TempDir tmp;
  const std::string timed = source("scenarios/seed-starrocks-4.1.1-timed.json");
  // The anchor insert of 17 to 19 s: the CN's clock says the load took at most 17.89 s.
  const CliResult r = run_binary({"explain", timed, kFe, kCn, "--out", tmp / "out", "--quiet"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("DPOR, the times checked against the durations, complete") != std::string::npos);
  // The times rule out some of the untimed seed's explanations (those that need a load the CN's
  // clock does not allow), never add one.
  const CliResult timed_json =
      run_binary({"explain", timed, kFe, kCn, "--out", tmp / "t", "--quiet", "--json"});
  const CliResult untimed =
      run_binary({"explain", kSeed, kFe, kCn, "--out", tmp / "u", "--quiet", "--json"});
  REQUIRE(untimed.code == 0);
  const nlohmann::json t = nlohmann::json::parse(timed_json.out);
  const nlohmann::json u = nlohmann::json::parse(untimed.out);
  CHECK_FALSE(u.contains("timed"));
  CHECK(t["timed"]["time_rejected"].get<int>() > 0);
  CHECK(t["explanations"].get<int>() > 0);
  CHECK(t["explanations"].get<int>() < u["explanations"].get<int>());

  // An anchor insert of exactly 18 s: the lines come in order, never at the incident's times.
  const CliResult exact =
      run_binary({"explain", timed, kFe, kCn, "--out", tmp / "out2", "--quiet", "--set",
                  "actors.task_runs.0.anchor_insert_s=18", "--json"});
  INFO(exact.out << exact.err);
  CHECK(exact.code == 1);
  const nlohmann::json doc = nlohmann::json::parse(exact.out);
  CHECK(doc["explained"] == false);
  CHECK(doc["timed"]["time_rejected"].get<int>() > 0);
  const CliResult text = run_binary({"explain", timed, kFe, kCn, "--out", tmp / "out3", "--quiet",
                                     "--set", "actors.task_runs.0.anchor_insert_s=18"});
  CHECK(text.out.find("executions produce the related lines in the incident's order, but within "
                      "durations that do not allow its times") != std::string::npos);
}
