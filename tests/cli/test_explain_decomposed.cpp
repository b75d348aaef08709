// `interleave explain` on scenarios explored by owners (exploration.decompose): the related lines
// of one owner are explained in that owner's slice and the explanation lifted to the scenario;
// the verdict agrees with the search of the whole scenario, on the logs of the scenarios' own
// counterexamples (explained) and on the same logs with their FE messages in reverse order
// (impossible); an incident about two owners is refused before any search.
#include "model/register.hpp"
#include "reports/render/render_log.hpp"
#include "reports/run/scenario.hpp"
#include "reports/trace/trace.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

using namespace interleave;
using namespace interleave::test;

namespace {

std::string source(const std::string& relative) {
  return std::string(INTERLEAVE_SOURCE_DIR) + "/" + relative;
}

bool is_glog(const std::string& line) {
  return line.size() > 1 && std::string("IWEF").find(line[0]) != std::string::npos &&
         std::isdigit(static_cast<unsigned char>(line[1])) != 0;
}

// A rendered log split into fe.log and cn.INFO; `reverse_fe`: the FE lines keep their times but
// carry their messages (everything after the time) in reverse order.
void write_incident(const std::string& log, const std::string& fe, const std::string& cn,
                    bool reverse_fe) {
  std::istringstream in(log);
  std::vector<std::string> fe_lines;
  std::string cn_text, line;
  while (std::getline(in, line)) {
    if (is_glog(line))
      cn_text += line + "\n";
    else
      fe_lines.push_back(line);
  }
  if (reverse_fe) {
    // "2025-05-16 05:10:31.962+08:00 WARN (...) [...] message": the time is the first two words.
    std::vector<std::string> times, rests;
    for (const std::string& l : fe_lines) {
      const std::size_t cut = l.find(' ', l.find(' ') + 1);
      times.push_back(l.substr(0, cut));
      rests.push_back(l.substr(cut));
    }
    std::reverse(rests.begin(), rests.end());
    for (std::size_t i = 0; i < fe_lines.size(); ++i)
      fe_lines[i] = times[i] + rests[i];
  }
  std::string fe_text;
  for (const std::string& l : fe_lines)
    fe_text += l + "\n";
  write_file(fe, fe_text);
  write_file(cn, cn_text);
}

// Runs `check` on the scenario `name` into tmp/out and writes the log of its counterexample of
// `property` (the trace file's name) as tmp/fe.log and tmp/cn.INFO; returns the scenario's path.
std::string incident_of_counterexample(const TempDir& tmp, const std::string& name,
                                       const std::string& property) {
  const std::string scenario = source("scenarios/" + name + ".json");
  const CliResult check = run_binary({"check", scenario, "--out", tmp / "out", "--quiet"});
  REQUIRE(check.code == 1);
  ModelRegistry models;
  register_models(models);
  const reports::TraceDocument doc =
      reports::read_trace_file(tmp / ("out/" + name + "." + property + ".trace.json"));
  write_incident(reports::render_log(doc, models.find("starrocks-temp-tables")->log_patterns()),
                 tmp / "fe.log", tmp / "cn.INFO", false);
  return scenario;
}

}  // namespace

TEST_CASE("explain by owners agrees with the search of the whole scenario",
          "[cli][explain][decompose]") {
  ModelRegistry models;
  register_models(models);
  const ModelDriver* driver = models.find("starrocks-temp-tables");
  REQUIRE(driver != nullptr);
  std::size_t compared = 0, impossible = 0, replayed = 0;
  for (const char* name :
       {"decomposed-two-async-task-runs-sweep",
        "decomposed-down-frontend-abnormal-client-and-task-run"}) {
    const std::string scenario = source(std::string("scenarios/") + name + ".json");
    TempDir tmp;
    const CliResult check = run_binary({"check", scenario, "--out", tmp / "out", "--quiet"});
    REQUIRE(check.code == 1);
    std::vector<std::string> traces;
    for (const auto& entry : std::filesystem::directory_iterator(tmp / "out"))
      traces.push_back(entry.path().string());
    std::sort(traces.begin(), traces.end());
    std::size_t used = 0;
    for (const std::string& trace : traces) {
      const reports::TraceDocument doc = reports::read_trace_file(trace);
      if (doc.scenario.value("name", "") != name) continue;  // a slice's own, not lifted
      if (++used > 2) break;  // the whole scenario's search is the cost: two traces each
      const std::string log = reports::render_log(doc, driver->log_patterns());
      // The focus: the first session an FE line names (a leak logs no WARN line).
      const std::size_t at = log.find("session[");
      REQUIRE(at != std::string::npos);
      const std::string focus =
          "session=" + log.substr(at + 8, log.find(']', at) - at - 8);
      for (const bool reverse : {false, true}) {
        INFO(trace << (reverse ? " (FE messages reversed)" : ""));
        const std::string fe = tmp / "fe.log", cn = tmp / "cn.INFO";
        write_incident(log, fe, cn, reverse);
        const CliResult by_owners = run_binary(
            {"explain", scenario, fe, cn, "--out", tmp / "x", "--json", "--focus", focus});
        const CliResult whole =
            run_binary({"explain", scenario, fe, cn, "--out", tmp / "y", "--json", "--focus",
                        focus, "--set", "exploration.decompose=false"});
        INFO(by_owners.out << by_owners.err << whole.err);
        REQUIRE((whole.code == 0 || whole.code == 1));
        CHECK(by_owners.code == whole.code);
        if (reverse && whole.code == 1) ++impossible;
        const nlohmann::json d = nlohmann::json::parse(by_owners.out);
        REQUIRE(d.contains("decomposition"));
        CHECK(d["decomposition"]["argument"] == "docs/model.md#owner-decomposition");
        if (by_owners.code == 0) {
          CHECK(d["at_least"] == true);
          CHECK(d["decomposition"].contains("lifted_from"));
          // The lifted explanation is an execution of the scenario: a trace is written exactly
          // when it violates a property, and replays there.
          CHECK(d.contains("trace") == d.contains("violates"));
          if (d.contains("violates")) {
            REQUIRE(d.contains("trace"));
            const CliResult replay = run_binary({"replay", d["trace"].get<std::string>()});
            CHECK(replay.code == 1);
            ++replayed;
          }
        }
        ++compared;
      }
    }
  }
  CHECK(compared >= 4);
  CHECK(impossible >= 1);
  CHECK(replayed == 3);  // the other explanations violate nothing: no trace
}

TEST_CASE("explain by owners: an incident about two owners is refused before any search",
          "[cli][explain][decompose]") {
  // Both TaskRuns' tables are dropped: the failure lines name two sessions.
  TempDir tmp;
  const std::string scenario = incident_of_counterexample(
      tmp, "decomposed-two-async-task-runs-sweep", "live-owner-table-dropped");
  const CliResult r =
      run_binary({"explain", scenario, tmp / "fe.log", tmp / "cn.INFO", "--out", tmp / "x"});
  INFO(r.out << r.err);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("form 2 groups that share no session, table, tablet or other id (first "
                   "lines: cn.INFO:1, fe.log:5)") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(tmp / "x"));
}

TEST_CASE("explain by owners: the large configuration's incident is explained in one slice",
          "[cli][explain][decompose]") {
  TempDir tmp;
  const std::string scenario =
      incident_of_counterexample(tmp, "large-pr-79339-decomposed", "live-owner-table-dropped");
  const CliResult r =
      run_binary({"explain", scenario, tmp / "fe.log", tmp / "cn.INFO", "--out", tmp / "x"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("by owner decomposition (docs/model.md#owner-decomposition)") !=
        std::string::npos);
  CHECK(r.out.find("t2 (async TaskRun, 1 iteration): the same slice as t1's") !=
        std::string::npos);
  CHECK(r.out.find("in the slice of t1 (async TaskRun, 1 iteration); the first, lifted to the "
                   "scenario") != std::string::npos);
}
