// `interleave estimate` on model configurations whose DPOR counts are known (the shipped
// scenarios' counts in /work/baseline/summary.txt, which the gate reproduces), and the progress
// line (reports/cli/progress.hpp).
#include "reports/cli/progress.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace interleave;
using namespace interleave::test;

namespace {

std::string scenario_file(const std::string& name) {
  return std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios/" + name + ".json";
}

}  // namespace

TEST_CASE("estimate: a model configuration's DPOR count within a factor of 2", "[estimate]") {
  // DPOR's executions that are not sleep-set blocked (the baseline; the first two hold, the third
  // violates killed_run_commits and runs past it, all_violations):
  //   register-then-start-two-passes  46863 traces (50388 executions, 3525 blocked)
  //   seed-register-then-start          861 traces (869 executions, 8 blocked)
  //   h9-kill-then-drop-allowed        1788 traces (1806 executions, 18 blocked)
  for (const auto& [name, traces] : std::vector<std::pair<std::string, double>>{
           {"register-then-start-two-passes", 46863},
           {"seed-register-then-start", 861},
           {"h9-kill-then-drop-allowed", 1788}}) {
    const CliResult r = run_binary({"estimate", scenario_file(name), "--json"});
    INFO(name << ": " << r.out << r.err);
    REQUIRE(r.code == 0);
    const nlohmann::json e = nlohmann::json::parse(r.out)["estimates"][0];
    CHECK(e["strategy"] == "dpor");
    CHECK(e["tree"] == "sleep-sets");
    CHECK(e["probes"] == 10000);
    const double estimate = e["executions"].get<double>();
    CHECK(estimate >= traces / 2);
    CHECK(estimate <= traces * 2);
  }
}

TEST_CASE("estimate: deterministic for a seed, text and JSON", "[estimate]") {
  const std::string file = scenario_file("seed-register-then-start");
  const CliResult a = run_binary({"estimate", file, "--probes", "200", "--seed", "3"});
  const CliResult b = run_binary({"estimate", file, "--probes", "200", "--seed", "3"});
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.err.empty());
  CHECK_THAT(a.out, Catch::StartsWith("seed-register-then-start: dpor: ~"));
  CHECK_THAT(a.out, Catch::Contains(", 200 probes, seed 3)\n"));
  CHECK_THAT(a.out, Catch::Contains("Mazurkiewicz traces"));
  const CliResult c = run_binary({"estimate", file, "--probes", "200", "--seed", "4"});
  CHECK(c.out != a.out);
  // A sampling strategy's count is its own, not estimated.
  const CliResult pct = run_binary({"estimate", scenario_file("large-pr-79339-pct")});
  CHECK(pct.code == 0);
  CHECK_THAT(pct.out, Catch::Contains("executions (the strategy's own count, not estimated)"));
  // Bad input: exit 2 before any work.
  CHECK(run_binary({"estimate", file, "--probes", "0"}).code == 2);
  CHECK(run_binary({"estimate", file, "--strategy", "dfz"}).code == 2);
}

TEST_CASE("progress: the line shows executions, rate, depth, violations, estimate and ETA",
          "[progress]") {
  Stats s;
  s.executions = 5000;
  s.elapsed_seconds = 2.5;
  s.max_depth = 44;
  s.violations = {{"p", 2}, {"q", 1}};
  CHECK(cli::ProgressLine::format("x", s, std::nullopt) ==
        "x: 5000 executions (2000/s), depth 44, 3 violations, 2.5s elapsed");
  CHECK(cli::ProgressLine::format("x", s, cli::ProgressEstimate{25000, 2500}) ==
        "x: 5000 executions (2000/s), depth 44, 3 violations, of ~25000 (+-10%), ETA 10s, "
        "2.5s elapsed");
  // An estimate below what already ran backs no ETA.
  CHECK(cli::ProgressLine::format("x", s, cli::ProgressEstimate{100, 10}) ==
        "x: 5000 executions (2000/s), depth 44, 3 violations, past the estimate of ~100, "
        "2.5s elapsed");
  // Nor one whose probes mostly ended sleep-set blocked: a lower bound, without ETA.
  CHECK(cli::ProgressLine::format("x", s, cli::ProgressEstimate{25000, 2500, true, 0.997}) ==
        "x: 5000 executions (2000/s), depth 44, 3 violations, of at least ~25000 (a lower bound: "
        "99.7% of its probes blocked), 2.5s elapsed");
}

TEST_CASE("progress: off a terminal, one line every 10 s, the estimate asked once", "[progress]") {
  std::ostringstream err;
  int asked = 0;
  {
    cli::ProgressLine line(err, "x", cli::ProgressLine::Mode::kLines,
                           [&]() -> std::optional<cli::ProgressEstimate> {
                             ++asked;
                             return cli::ProgressEstimate{1e9, 1e8};
                           });
    Stats s;
    for (const double t : {0.5, 2.5, 9.9, 10.2, 15.0, 20.1, 45.0}) {
      s.elapsed_seconds = t;
      s.executions = static_cast<std::uint64_t>(t * 1000);
      line.update(s);
    }
  }
  CHECK(asked == 1);
  CHECK(err.str() ==
        "x: 10200 executions (1000/s), depth 0, 0 violations, of ~1.00e+09 (+-10%), ETA 277h46m, "
        "10.2s elapsed\n"
        "x: 20100 executions (1000/s), depth 0, 0 violations, of ~1.00e+09 (+-10%), ETA 277h46m, "
        "20.1s elapsed\n"
        "x: 45000 executions (1000/s), depth 0, 0 violations, of ~1.00e+09 (+-10%), ETA 277h45m, "
        "45.0s elapsed\n");
}
