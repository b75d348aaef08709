// Benchmark of the checked mode (prints figures; not a timed test): what `check` and `gate` pay
// for running it by default. Three modes, timed alternately in the same run, the fastest of each:
// - off: --no-check-accesses (the determinism check and the counterexamples' audit only);
// - checked: the default of check and gate: every use of the models' declared state checked
//   against its step's declaration (explorer/core/checked.hpp, Execution::check_access), no
//   execution audited but the counterexamples (AuditOptions::sample false);
// - checked + audit: --check-accesses: the same, and the commutation audit of the 1st, 2nd, 4th,
//   8th, ... executions, steps moved up to 4 places (explorer/search/audit.hpp).
// Each is printed as a ratio to off (cost = ratio - 1: check and gate run a mode by default when
// it costs at most 10 % on both workloads: the checks do, the sampled audit costs more on the
// seed; docs/writing-a-model.md gives the figures), with the executions audited, and the verdict
// and executions, which must be the same in the three modes (the benchmark aborts otherwise).
//
// Workloads, under DPOR:
// - seed: scenarios/seed-starrocks-4.1.1.json as `check` runs it (the run layer: the search past
//   every violation, minimisation, the traces written to a temporary directory);
// - large: bench_model's large configuration (3 FEs, 3 TaskRuns of which 1 sync, 2 clients of
//   which 1 on a follower, 2 cleaner passes, pr-79339), its first `executions` executions
//   (it does not finish), past every violation.
//
// Usage: bench_checks [executions=20000] [repeats=3] [scenarios=scenarios]
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/factory.hpp"
#include "model/register.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/program.hpp"
#include "tests/bench/starrocks_worlds.hpp"
#include "reports/run/run.hpp"
#include "reports/run/scenario.hpp"
#include "tests/bench/bench_util.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <time.h>
#include <unistd.h>

using namespace interleave;
using namespace interleave::model;
using namespace interleave::bench;

namespace {

enum class Mode { kOff, kChecked, kAudited };
constexpr Mode kModes[] = {Mode::kOff, Mode::kChecked, Mode::kAudited};
const char* mode_name(Mode m) {
  return m == Mode::kOff ? "off" : m == Mode::kChecked ? "checked" : "checked + audit";
}
void set_mode(Mode m, bool& check_accesses, AuditOptions& audit) {
  check_accesses = m != Mode::kOff;
  audit = AuditOptions{};
  if (m == Mode::kChecked) audit.sample = false;
}

struct Timing {
  double best = 0;
  std::string verdict;
  std::uint64_t executions = 0, audited = 0;
};

void keep(Timing& t, double seconds, const ExplorationResult& r) {
  if (t.best == 0 || seconds < t.best) t.best = seconds;
  t.verdict = std::string(to_string(r.verdict));
  t.executions = r.stats.executions;
  t.audited = r.stats.audited;
}

void print(const char* workload, const Timing (&t)[3]) {
  for (std::size_t m = 0; m < 3; ++m) {
    if (t[m].verdict != t[0].verdict || t[m].executions != t[0].executions) {
      std::printf("%s: %s changed the verdict or the executions\n", workload,
                  mode_name(kModes[m]));
      std::abort();
    }
    std::printf("%-6s %-16s %-10s executions=%-8llu audited=%-4llu cpu=%.3fs ratio=%.3f (%+.1f %%)\n",
                workload, mode_name(kModes[m]), t[m].verdict.c_str(),
                static_cast<unsigned long long>(t[m].executions),
                static_cast<unsigned long long>(t[m].audited), t[m].best, t[m].best / t[0].best,
                (t[m].best / t[0].best - 1) * 100);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t executions = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20'000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::string dir = argc > 3 ? argv[3] : "scenarios";

  ModelRegistry models;
  register_models(models);
  const run::Scenario seed = run::load_scenario(dir + "/seed-starrocks-4.1.1.json", models);
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() / ("bench_checks." + std::to_string(::getpid()));

  // The seed runs in a fraction of a second: each timing is of 10 runs.
  Timing seed_t[3], large_t[3];
  for (int rep = 0; rep < repeats; ++rep)
    for (std::size_t m = 0; m < 3; ++m) {
      run::RunContext ctx;
      ctx.out_dir = out;
      set_mode(kModes[m], ctx.check_accesses, ctx.audit);
      const double start = cpu_seconds();
      run::ScenarioRun run;
      for (int i = 0; i < 10; ++i)
        run = run::run_scenario(seed, seed.exploration, ctx);
      keep(seed_t[m], (cpu_seconds() - start) / 10, run.result);
    }
  std::filesystem::remove_all(out);
  print("seed", seed_t);

  const Program large = make_program(large_world());
  for (int rep = 0; rep < repeats; ++rep)
    for (std::size_t m = 0; m < 3; ++m) {
      ExploreOptions o;
      o.stop_on_first_violation = false;
      o.max_executions = executions;
      set_mode(kModes[m], o.check_accesses, o.audit);
      Explorer ex(large, o);
      auto dpor = make_strategy(StrategySpec{"dpor"});
      const double start = cpu_seconds();
      const ExplorationResult r = ex.explore(*dpor);
      keep(large_t[m], cpu_seconds() - start, r);
    }
  print("large", large_t);
  return 0;
}
