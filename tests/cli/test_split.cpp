// --jobs, --shard and `interleave merge` on the shipped scenarios: the output of a split search is
// the same for any number of threads; its complete executions are the single search's; the
// shards, run under GNU parallel, merge into the split search's verdict and counts; a missing
// shard makes the merge incomplete and naming it; summaries of different searches are refused.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace interleave::test;
using nlohmann::json;

namespace {

const std::string kSeed = std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios/seed-pr-79339.json";
const std::string kHolds =
    std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios/register-then-start-sync-and-client.json";

json summary(const CliResult& r) {
  INFO(r.err);
  json j = json::parse(r.out);
  for (json& s : j["scenarios"]) {
    s["stats"].erase("elapsed_seconds");
    s["stats"].erase("worker_executions");
  }
  return j;
}

}  // namespace

TEST_CASE("check --jobs: the same output for 1, 2 and 4 threads", "[cli][split]") {
  TempDir tmp;
  for (const std::string& file : {kSeed, kHolds}) {
    // --jobs alone splits at the depth chosen for the scenario, and records it.
    const CliResult two = run_binary({"check", "--strategy", "dpor", file, "--json",
                                      "--all-violations", "--jobs", "2", "--out", tmp / "a"});
    const json p = summary(two)["scenarios"][0];
    const std::uint64_t depth = p["split"]["depth"];
    CHECK(depth >= 1);
    CHECK(p["options"]["split_depth"] == depth);
    CHECK(p["split"]["prefixes"] >= 8);
    const CliResult one =
        run_binary({"check", "--strategy", "dpor", file, "--json", "--all-violations", "--jobs",
                    "1", "--split-depth", std::to_string(depth), "--out", tmp / "a"});
    const CliResult four = run_binary({"check", "--strategy", "dpor", file, "--json",
                                       "--all-violations", "-j", "4", "--out", tmp / "a"});
    CHECK(summary(two) == summary(one));
    CHECK(summary(four) == summary(one));
    CHECK(two.code == one.code);
    // One complete execution per trace, as the single search.
    const CliResult single = run_binary(
        {"check", "--strategy", "dpor", file, "--json", "--all-violations", "--out", tmp / "a"});
    const json s = summary(single)["scenarios"][0];
    CHECK(p["stats"]["completed"] == s["stats"]["completed"]);
    CHECK(p["verdict"] == s["verdict"]);
    CHECK(p["stats"]["violations"].size() == s["stats"]["violations"].size());
  }
}

TEST_CASE("check --split-after: prefixes split further, the same output for 1 and 2 threads",
          "[cli][split]") {
  TempDir tmp;
  const CliResult one =
      run_binary({"check", "--strategy", "dpor", kHolds, "--json", "--split-depth", "2",
                  "--split-after", "50", "--jobs", "1", "--out", tmp / "a"});
  const CliResult two =
      run_binary({"check", "--strategy", "dpor", kHolds, "--json", "--split-depth", "2",
                  "--split-after", "50", "--jobs", "2", "--out", tmp / "a"});
  CHECK(summary(two) == summary(one));
  const json p = summary(one)["scenarios"][0];
  CHECK(p["split"]["split_off_prefixes"] > 10);
  CHECK(p["verdict"] == "holds");
  const CliResult single =
      run_binary({"check", "--strategy", "dpor", kHolds, "--json", "--out", tmp / "a"});
  CHECK(p["stats"]["completed"] == summary(single)["scenarios"][0]["stats"]["completed"]);
}

TEST_CASE("check --shard under GNU parallel, then merge: the split search's verdict",
          "[cli][split]") {
  if (std::system("command -v parallel >/dev/null 2>&1") != 0) {
    WARN("GNU parallel is not installed (scripts/deps.sh installs it): shards not run");
    return;
  }
  TempDir tmp;
  for (const std::string& file : {kSeed, kHolds}) {
    const std::string cmd =
        "cd " + shell_quote(tmp.path().string()) + " && parallel --halt never " +
        shell_quote(INTERLEAVE_BINARY) + " check " + shell_quote(file) +
        " --all-violations --shard {}/3 --json --out traces-{} '>' shard-{}.json"
        " ::: 1 2 3";
    std::system(cmd.c_str());
    const std::vector<std::string> shards = {(tmp / "shard-1.json"), (tmp / "shard-2.json"),
                                             (tmp / "shard-3.json")};
    std::vector<std::string> args = {"merge", "--json"};
    args.insert(args.end(), shards.begin(), shards.end());
    const CliResult merged = run_binary(args);
    const CliResult whole = run_binary({"check", "--strategy", "dpor", file, "--json",
                                        "--all-violations", "--jobs", "2", "--out", tmp / "w"});
    INFO(merged.err);
    const json m = json::parse(merged.out)["scenarios"][0];
    const json w = summary(whole)["scenarios"][0];
    CHECK(merged.code == whole.code);
    CHECK(m["verdict"] == w["verdict"]);
    for (const char* k : {"executions", "completed", "blocked", "failed", "steps"})
      CHECK(m["stats"][k] == w["stats"][k]);
    CHECK(m["stats"]["violations"] == w["stats"]["violations"]);
    CHECK(m["coverage"] == w["coverage"]);
    std::vector<std::string> mp, wp;
    for (const auto& c : m["counterexamples"])
      mp.push_back(c["violation"]["invariant"]);
    for (const auto& c : w["counterexamples"])
      wp.push_back(c["violation"]["invariant"]);
    std::sort(mp.begin(), mp.end());
    std::sort(wp.begin(), wp.end());
    CHECK(mp == wp);
    if (w["verdict"] == "holds")
      CHECK(m["detail"] == w["detail"].get<std::string>() + " (3 shards merged)");

    // Two of three shards: incomplete, naming the missing one (when no violation was found).
    const CliResult partial = run_binary({"merge", shards[0], shards[2]});
    if (w["verdict"] == "holds") {
      CHECK(partial.code == 3);
      CHECK_THAT(partial.out, Catch::Contains("shard 2 of 3 missing"));
    }
    // A shard given twice: refused, naming the file.
    const CliResult twice = run_binary({"merge", shards[0], shards[0]});
    CHECK(twice.code == 2);
    CHECK_THAT(twice.err, Catch::Contains("shard-1.json"));
  }
}

TEST_CASE("merge refuses summaries of different searches and non-shards", "[cli][split]") {
  TempDir tmp;
  const std::string a = (tmp / "a.json"), b = (tmp / "b.json"), c = (tmp / "c.json");
  std::system((shell_quote(INTERLEAVE_BINARY) + " check " + shell_quote(kHolds) +
               " --shard 1/2 --split-depth 2 --json --out " + shell_quote((tmp / "o")) + " > " +
               shell_quote(a))
                  .c_str());
  std::system((shell_quote(INTERLEAVE_BINARY) + " check " + shell_quote(kHolds) +
               " --shard 2/2 --split-depth 5 --json --out " + shell_quote((tmp / "o")) + " > " +
               shell_quote(b))
                  .c_str());
  std::system((shell_quote(INTERLEAVE_BINARY) + " check " + shell_quote(kHolds) + " --json --out " +
               shell_quote((tmp / "o")) + " > " + shell_quote(c))
                  .c_str());
  const CliResult differ = run_binary({"merge", a, b});
  CHECK(differ.code == 2);
  CHECK_THAT(differ.err, Catch::Contains("b.json"));
  const CliResult not_shard = run_binary({"merge", c});
  CHECK(not_shard.code == 2);
  CHECK_THAT(not_shard.err, Catch::Contains("not a shard"));
}

TEST_CASE("check refuses a --jobs or --shard that cannot be split", "[cli][split]") {
  const CliResult bad = run_binary({"check", kSeed, "--shard", "4/3"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--shard"));
  const CliResult random = run_binary({"check", kSeed, "--strategy", "random", "--shard", "1/2"});
  CHECK(random.code == 2);
  CHECK_THAT(random.err, Catch::Contains("cannot be split into shards"));
  // A decomposed search runs its slices on one thread under --jobs; --shard refuses it.
  const std::string decomposed = std::string(INTERLEAVE_SOURCE_DIR) +
                                 "/scenarios/large-register-then-start-leader-decomposed.json";
  TempDir out;
  CHECK(run_binary({"check", decomposed, "--jobs", "2", "--quiet", "--out", out / "d"}).code == 0);
  const CliResult sharded = run_binary({"check", decomposed, "--shard", "1/2"});
  CHECK(sharded.code == 2);
  CHECK_THAT(sharded.err, Catch::Contains("a decomposed search is not split"));
  // --jobs is the machine's: a strategy that cannot be split runs on one thread, as without it.
  TempDir tmp;
  const CliResult one = run_binary(
      {"check", kSeed, "--strategy", "random", "--seed", "3", "--json", "--out", tmp / "a"});
  const CliResult two = run_binary({"check", kSeed, "--strategy", "random", "--seed", "3", "--json",
                                    "--jobs", "2", "--out", tmp / "a"});
  CHECK(two.code == one.code);
  CHECK(summary(two) == summary(one));
}
