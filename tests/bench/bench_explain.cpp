// Benchmark of explaining an incident (explorer/explain.hpp; prints figures, not a timed test):
// the seed's incident (scenarios/incidents/seed-4.1.1.*, the seed scenario's own "bug-report")
// explained under each of its three scenarios' presets, against DPOR's plain exhaustive search of
// the same scenario (no minimisation, past every violation) on one thread. The explanation runs
// the same DPOR search with every step's notes recorded and each execution's lines matched at its
// end: the ratio is what that costs. Each figure is the fastest of three.
//
// Usage: bench_explain [source_dir=.]   (run from the source directory, or name it)
#include "explorer/strategies/dpor.hpp"
#include "model/register.hpp"
#include "reports/run/explanation.hpp"
#include "tests/bench/bench_util.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

using namespace interleave;
using namespace interleave::bench;

int main(int argc, char** argv) {
  const std::string root = argc > 1 ? argv[1] : ".";
  ModelRegistry models;
  register_models(models);
  std::printf("%-26s %11s %10s %13s %11s %8s\n", "scenario", "executions", "explain s",
              "explanations", "dpor s", "ratio");
  for (const char* name : {"seed-starrocks-4.1.1", "seed-pr-79339", "seed-register-then-start"}) {
    const cli::Scenario s =
        cli::load_scenario(root + "/scenarios/" + name + ".json", models);
    const cli::ExplanationPlan plan = cli::plan_incident(s, s.incidents.at(0), models);
    double explain_s = 1e9, dpor_s = 1e9;
    ExplainResult r;
    for (int i = 0; i < 3; ++i) {
      const auto t = Clock::now();
      r = cli::run_explanation(plan, ExplainOptions{}, {}, "bench").result;
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
  return 0;
}
