// `interleave simulate`: the timed seed's probability, its JSON, a seed's counts on any number of
// threads, a curve over --vary (a table and an SVG plot), and bad input (exit 2, nothing written).
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace interleave;
using namespace interleave::test;

namespace {

const std::string kTimedSeed =
    std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios/seed-starrocks-4.1.1-timed.json";

}  // namespace

TEST_CASE("simulate: the timed seed, as text and as JSON", "[simulate]") {
  const CliResult t = run_binary({"simulate", kTimedSeed, "--runs", "600", "--jobs", "2"});
  INFO(t.out << t.err);
  REQUIRE(t.code == 0);
  CHECK_THAT(t.out, Catch::StartsWith("seed-starrocks-4.1.1-timed: 600 runs in time order (seed 0)"));
  CHECK_THAT(t.out, Catch::Contains("live_owner_table_dropped") &&
                        Catch::Contains("per run [") && Catch::Contains("a year"));
  const CliResult j =
      run_binary({"simulate", kTimedSeed, "--runs", "600", "--jobs", "2", "--json"});
  REQUIRE(j.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  CHECK(doc["runs"] == 600);
  CHECK(doc["seed"] == 0);
  CHECK(doc["timed"] == true);
  CHECK(doc["timing_infeasible"] == 0);
  const nlohmann::json& p = doc["properties"]["live_owner_table_dropped"];
  const double estimate = p["probability"]["estimate"].get<double>();
  CHECK(p["violations"].get<double>() == estimate * 600);
  // 18 s of a 30 s period.
  CHECK(estimate > 0.5);
  CHECK(estimate < 0.7);
  CHECK(p["probability"]["low"].get<double>() < estimate);
  CHECK(p["probability"]["high"].get<double>() > estimate);
  CHECK(p["per_hour"]["estimate"].get<double>() == Approx(estimate * 60));
  // A property never seen: a probability of 0 with an upper bound.
  const nlohmann::json& none = doc["properties"]["temp_table_leak"];
  CHECK(none["violations"] == 0);
  CHECK(none["probability"]["high"].get<double>() > 0);
}

TEST_CASE("simulate: the same counts for a seed on 1 and 2 threads", "[simulate]") {
  const CliResult one =
      run_binary({"simulate", kTimedSeed, "--runs", "300", "--seed", "5", "-j", "1", "--json"});
  const CliResult two =
      run_binary({"simulate", kTimedSeed, "--runs", "300", "--seed", "5", "-j", "2", "--json"});
  REQUIRE(one.code == 0);
  CHECK(one.out == two.out);
  const CliResult other =
      run_binary({"simulate", kTimedSeed, "--runs", "300", "--seed", "6", "-j", "2", "--json"});
  CHECK(other.out != one.out);
}

TEST_CASE("simulate: --vary prints the curve and --svg draws it", "[simulate]") {
  TempDir tmp;
  const std::string svg = tmp / "curve.svg";
  const CliResult r =
      run_binary({"simulate", kTimedSeed, "--runs", "300", "-j", "2", "--vary",
                  "actors.task_runs.0.anchor_insert_s=3,27", "--svg", svg});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("actors.task_runs.0.anchor_insert_s") &&
                        Catch::Contains("live_owner_table_dropped"));
  const std::string plot = read_file(svg);
  CHECK_THAT(plot, Catch::StartsWith("<svg ") && Catch::Contains("<polyline") &&
                       Catch::EndsWith("</svg>\n"));
  const CliResult j = run_binary({"simulate", kTimedSeed, "--runs", "300", "-j", "2", "--vary",
                                  "actors.task_runs.0.anchor_insert_s=3,27", "--json"});
  REQUIRE(j.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  REQUIRE(doc["points"].size() == 2);
  CHECK(doc["points"][0]["value"] == 3);
  const double low = doc["points"][0]["properties"]["live_owner_table_dropped"]["probability"]
                        ["estimate"].get<double>();
  const double high = doc["points"][1]["properties"]["live_owner_table_dropped"]["probability"]
                         ["estimate"].get<double>();
  CHECK(low < 0.25);  // about 3/30
  CHECK(high > 0.75);  // about 27/30
}

TEST_CASE("simulate: bad input is exit 2 with one message, nothing written", "[simulate]") {
  TempDir tmp;
  const std::string svg = tmp / "curve.svg";
  const CliResult no_vary = run_binary({"simulate", kTimedSeed, "--svg", svg});
  CHECK(no_vary.code == 2);
  CHECK_THAT(no_vary.err, Catch::Contains("--svg draws the curve of --vary"));
  const CliResult bad_vary = run_binary({"simulate", kTimedSeed, "--vary", "nothing"});
  CHECK(bad_vary.code == 2);
  CHECK_THAT(bad_vary.err, Catch::Contains("expected PATH=A,B,..."));
  const CliResult bad_value = run_binary(
      {"simulate", kTimedSeed, "--vary", "actors.task_runs.0.anchor_insert_s=5,-1", "--svg", svg});
  CHECK(bad_value.code == 2);
  CHECK_THAT(bad_value.err, Catch::Contains("/actors/task_runs/0/anchor_insert_s"));
  CHECK_FALSE(std::filesystem::exists(svg));
  const CliResult zero = run_binary({"simulate", kTimedSeed, "--runs", "0"});
  CHECK(zero.code == 2);
}
