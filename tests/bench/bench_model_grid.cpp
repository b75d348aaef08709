// Executions of the StarRocks model between the seed and the large configuration of
// bench_model: which factor makes the large one big (prints figures; not a timed test).
//
// Usage: bench_model_grid [key=value ...]
//   fes=3 runs=3 sync=1 iterations=1 rows=explore|some|none clients=2 follower=1 passes=2
//   preset=pr-79339 clock=leader|session_frontend strategy=dpor budget=60 first=0
// runs: TaskRuns t1..tN, the last `sync` of them sync; clients c1..cN, the last `follower` of
// them on fe2.
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/factory.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/program.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

using namespace interleave;
using namespace interleave::model;

int main(int argc, char** argv) {
  std::map<std::string, std::string> kv = {
      {"fes", "3"},      {"runs", "3"},     {"sync", "1"},          {"iterations", "1"},
      {"rows", "explore"}, {"clients", "2"}, {"follower", "1"},     {"passes", "2"},
      {"preset", "pr-79339"}, {"clock", "leader"}, {"strategy", "dpor"}, {"budget", "60"},
      {"first", "0"}};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    if (eq == std::string::npos || kv.count(a.substr(0, eq)) == 0) {
      std::fprintf(stderr, "bad argument %s\n", argv[i]);
      return 2;
    }
    kv[a.substr(0, eq)] = a.substr(eq + 1);
  }
  auto num = [&](const char* k) { return std::atoi(kv[k].c_str()); };
  WorldConfig w;
  w.policy = find_preset(kv["preset"]).value().policy;
  w.preset = kv["preset"];
  if (kv["clock"] == "session_frontend")
    w.policy.create_time_clock = CreateTimeClock::kSessionFrontend;
  w.cluster.frontends = num("fes");
  w.actors.cleaner.passes = num("passes");
  const int runs = num("runs");
  for (int i = 0; i < runs; ++i) {
    TaskRunConfig t;
    t.name = "t" + std::to_string(i + 1);
    t.sync = i >= runs - num("sync");
    t.iterations = num("iterations");
    t.tablet_rows = kv["rows"] == "some"   ? TabletRows::kSome
                    : kv["rows"] == "none" ? TabletRows::kNone
                                           : TabletRows::kExplore;
    w.actors.task_runs.push_back(t);
  }
  const int clients = num("clients");
  for (int i = 0; i < clients; ++i) {
    ClientConfig c;
    c.name = "c" + std::to_string(i + 1);
    c.frontend = i >= clients - num("follower") ? 1 : 0;
    w.actors.clients.push_back(c);
  }
  ExploreOptions o;
  o.stop_on_first_violation = num("first") != 0;
  o.time_budget_seconds = std::atof(kv["budget"].c_str());
  Explorer ex(make_program(w), o);
  auto s = make_strategy(StrategySpec{kv["strategy"], 1, 100'000});
  const ExplorationResult r = ex.explore(*s);
  std::string args;
  for (int i = 1; i < argc; ++i)
    args += std::string(argv[i]) + " ";
  std::printf("%-60s %-10s executions=%llu blocked=%llu steps=%llu time=%.3fs\n", args.c_str(),
              std::string(to_string(r.verdict)).c_str(),
              static_cast<unsigned long long>(r.stats.executions),
              static_cast<unsigned long long>(r.stats.blocked),
              static_cast<unsigned long long>(r.stats.steps), r.stats.elapsed_seconds);
  std::fflush(stdout);
  return 0;
}
