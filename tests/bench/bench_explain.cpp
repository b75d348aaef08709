// Benchmark of explaining an incident (explorer/evidence/explain.hpp; prints figures, not a timed test):
// the seed's incident (scenarios/incidents/seed-4.1.1.*, the seed scenario's own "bug-report")
// explained under each of its three scenarios' presets, against DPOR's plain exhaustive search of
// the same scenario (no minimisation, past every violation) on one thread. The explanation runs
// the same DPOR search with every step's notes recorded and each execution's lines matched at its
// end: the ratio is what that costs. Each figure is the fastest of three.
//
// Then an incident of 200 lines of the large configuration (scenarios/large-pr-79339-decomposed,
// explored by owners): the log of its lifted live_owner_table_dropped counterexample, with lines
// about other sessions, tables and tablets and lines no pattern matches added at the same times
// up to 200 lines, explained by owner decomposition (one slice per owner kind, the first
// explanation lifted to the scenario and run there).
//
// Usage: bench_explain [source_dir=.]   (run from the source directory, or name it)
#include "explorer/strategies/dpor.hpp"
#include "model/register.hpp"
#include "reports/render/render_log.hpp"
#include "reports/run/explanation.hpp"
#include "reports/run/run.hpp"
#include "tests/bench/bench_util.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace interleave;
using namespace interleave::bench;

namespace {

std::string noise_uuid(unsigned k) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-8%03x-%012x", 0x5eed0000u + k, k & 0xffffu,
                (k * 7) & 0xfffu, (k * 13) & 0xfffu, 0xabc000u + k);
  return buf;
}

// The time of a rendered line: its first two words ("1970-01-01 00:00:00.006Z", "I19700101
// 00:00:00.003000"), and for glog the level letter dropped.
std::string time_of(const std::string& line) {
  return line.substr(0, line.find(' ', line.find(' ') + 1));
}

void large_incident(const std::string& root, const ModelRegistry& models) {
  const std::string file = root + "/scenarios/large-pr-79339-decomposed.json";
  const run::Scenario s = run::load_scenario(file, models);
  const ExplorationResult found = run::explore_result(s, s.exploration);
  const Counterexample* c = nullptr;
  for (const Counterexample& x : found.counterexamples)
    if (x.invariant == "live_owner_table_dropped") c = &x;
  if (c == nullptr) {
    std::printf("large: no live_owner_table_dropped counterexample\n");
    return;
  }
  const reports::TraceDocument doc =
      run::make_trace_document(s, s.exploration, "dpor", *c, found.stats, "bench");
  const ModelDriver* driver = models.find(s.model);
  std::istringstream rendered(reports::render_log(doc, driver->log_patterns()));
  std::vector<std::string> fe, cn;
  std::string line;
  std::size_t from_trace = 0;
  while (std::getline(rendered, line)) {
    const bool glog = std::string("IWEF").find(line[0]) != std::string::npos;  // "I1970..."
    (glog ? cn : fe).push_back(line);
    ++from_trace;
  }
  // Other lines at the times of the trace's, in turn: another session's table (matched,
  // unrelated), a tablet of another table (matched, unrelated), lines no pattern matches.
  std::vector<std::string> fe_out, cn_out;
  unsigned k = 0;
  std::size_t total = from_trace;
  const std::size_t per_line = (200 - from_trace + from_trace - 1) / from_trace;
  const auto add_noise = [&](const std::string& at, bool glog) {
    for (std::size_t i = 0; i < per_line && total < 200; ++i, ++k, ++total) {
      const unsigned table = 70000 + 10 * k;
      if (glog) {
        const std::string t = "I" + at.substr(1);
        cn_out.push_back(k % 2 == 0 ? t + " 9 lake_service.cpp:120] Add shard id: " +
                                          std::to_string(table + 5) + " file path: .../db16061/" +
                                          std::to_string(table) + "/" + std::to_string(table + 2)
                                    : t + " 9 tablet_manager.cpp:912] start compaction of tablet " +
                                          std::to_string(table + 5));
      } else {
        switch (k % 3) {
          case 0:
            fe_out.push_back(at + " INFO (starrocks-mysql-nio-pool-" + std::to_string(k % 8) +
                             "|" + std::to_string(300 + k % 8) +
                             ") [TemporaryTableMgr.addTemporaryTable():110] add temporary table, "
                             "session[" + noise_uuid(k) + "], db id[16061], table name[tmp_other_" +
                             std::to_string(k) + "], table id[" + std::to_string(table) + "]");
            break;
          case 1:
            fe_out.push_back(at + " INFO (starrocks-mysql-nio-pool-" + std::to_string(k % 8) +
                             "|" + std::to_string(300 + k % 8) +
                             ") [TemporaryTableMgr.removeTemporaryTables():159] remove all "
                             "temporary tables in session[" + noise_uuid(k - 1) + "]");
            break;
          default:
            fe_out.push_back(at + " INFO (thrift-server-pool-3|90) [ReportHandler.handleReport():"
                                  "350] receive tablet report from backend 10002");
        }
      }
    }
  };
  for (const std::string& l : fe) {
    fe_out.push_back(l);
    add_noise(time_of(l), false);
  }
  for (const std::string& l : cn) {
    cn_out.push_back(l);
    add_noise(time_of(l), true);
  }
  char dir_template[] = "/tmp/bench-explain-XXXXXX";
  if (::mkdtemp(dir_template) == nullptr) return;
  const std::filesystem::path dir = dir_template;
  const auto write = [](const std::filesystem::path& p, const std::vector<std::string>& lines) {
    std::ofstream out(p);
    for (const std::string& l : lines)
      out << l << "\n";
  };
  write(dir / "fe.log", fe_out);
  write(dir / "cn.INFO", cn_out);
  const run::ExplanationPlan plan = run::plan_explanation(
      file, models, "", {}, {(dir / "fe.log").string(), (dir / "cn.INFO").string()},
      IncidentOptions{});
  double best = 1e9;
  run::ExplanationRun run;
  for (int i = 0; i < 3; ++i) {
    const auto t = Clock::now();
    run = run::run_explanation(plan, ExplainOptions{}, {}, "bench");
    best = std::min(best, seconds_since(t));
  }
  if (std::getenv("BENCH_KEEP") == nullptr) std::filesystem::remove_all(dir);
  std::size_t searched = 0;
  for (const auto& sl : run.decomposition->slices)
    searched += sl.searched ? 1 : 0;
  std::printf("\nlarge-pr-79339-decomposed: an incident of %zu lines (%zu from the lifted "
              "counterexample), %zu matched, %zu related\n",
              fe_out.size() + cn_out.size(), from_trace, plan.incident.lines.size(),
              plan.incident.related.size());
  std::printf("  explained by owners: %s, %llu executions in %zu slices, %llu explanations in "
              "the slice of %s, lifted; %.3f s\n",
              run.result.explanations > 0 ? "yes" : "no",
              static_cast<unsigned long long>(run.result.executions), searched,
              static_cast<unsigned long long>(run.result.explanations),
              run.decomposition->lifted_from.c_str(), best);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string root = argc > 1 ? argv[1] : ".";
  ModelRegistry models;
  register_models(models);
  std::printf("%-26s %11s %10s %13s %11s %8s\n", "scenario", "executions", "explain s",
              "explanations", "dpor s", "ratio");
  for (const char* name : {"seed-starrocks-4.1.1", "seed-pr-79339", "seed-register-then-start"}) {
    const run::Scenario s =
        run::load_scenario(root + "/scenarios/" + name + ".json", models);
    const run::ExplanationPlan plan = run::plan_incident(s, s.incidents.at(0), models);
    double explain_s = 1e9, dpor_s = 1e9;
    ExplainResult r;
    for (int i = 0; i < 3; ++i) {
      const auto t = Clock::now();
      r = run::run_explanation(plan, ExplainOptions{}, {}, "bench").result;
      explain_s = std::min(explain_s, seconds_since(t));
    }
    for (int i = 0; i < 3; ++i) {
      ExploreOptions o;
      o.stop_on_first_violation = false;
      o.minimize = false;
      Explorer ex(s.instance.program, o);
      DporStrategy dpor;
      const auto t = Clock::now();
      ex.explore(dpor);
      dpor_s = std::min(dpor_s, seconds_since(t));
    }
    std::printf("%-26s %11llu %10.3f %13llu %11.3f %7.2fx\n", name,
                static_cast<unsigned long long>(r.executions), explain_s,
                static_cast<unsigned long long>(r.explanations), dpor_s, explain_s / dpor_s);
  }
  large_incident(root, models);
  return 0;
}
