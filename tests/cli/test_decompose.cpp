// `check --decompose` through the real binary: the verdict of the scenario as written, the summary
// naming the argument and the slices, lifted counterexamples that `replay` accepts strictly, a
// refused configuration (exit 2, before any work) and a model without owners.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

namespace {

const std::string kSource = INTERLEAVE_SOURCE_DIR;

}  // namespace

TEST_CASE("decompose: a violation by slices, lifted to the scenario, replays there",
          "[decompose][cli]") {
  TempDir tmp;
  const CliResult r = run_binary({"check", kSource + "/scenarios/seed-pr-79339.json",
                                  "--decompose", "--out", tmp / "out"});
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("the verdict came by owner decomposition "
                                    "(docs/model.md#owner-decomposition)"));
  CHECK_THAT(r.out, Catch::Contains("slice t1 (async TaskRun, 0 iterations): violation"));
  CHECK_THAT(r.out, Catch::Contains("slice c1 (client on fe1 (leader), 1 temp table): holds"));
  CHECK_THAT(r.out, Catch::Contains("lifted to this scenario"));
  const std::vector<std::string> files = list_dir(tmp / "out");
  CHECK(files.size() == 4);
  for (const std::string& f : files) {
    INFO(f);
    const json doc = json::parse(read_file(tmp / ("out/" + f)));
    // A trace of the scenario the user wrote: its document, with both owners.
    CHECK(doc["scenario"]["actors"]["clients"].size() == 1);
    CHECK(doc["scenario"]["actors"]["task_runs"].size() == 1);
    const CliResult rep = run_binary({"replay", tmp / ("out/" + f)});
    INFO(rep.out << rep.err);
    CHECK(rep.code == 1);  // the violation reproduces
    CHECK_THAT(rep.out, Catch::Contains("the violation reproduces"));
  }
}

TEST_CASE("decompose: slices of one kind are explored once and a holds covers any number",
          "[decompose][cli]") {
  TempDir tmp;
  const CliResult r =
      run_binary({"check", kSource + "/scenarios/large-register-then-start-leader-decomposed.json",
                  "--json", "--out", tmp / "out"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const json s = json::parse(r.out)["scenarios"][0];
  CHECK(s["verdict"] == "holds");
  const json& d = s["decomposition"];
  CHECK(d["argument"] == "docs/model.md#owner-decomposition");
  CHECK(d["holds_for"] ==
        "every cluster with any number of TaskRuns and clients of these kinds");
  REQUIRE(d["slices"].size() == 5);
  CHECK(d["slices"][1]["same_as"] == "t1");
  CHECK(d["slices"][4]["same_as"] == "c1");
  CHECK(d["slices"][2]["verdict"] == "holds");
  CHECK(s["coverage"]["task_session_spared"].get<int>() > 0);
}

TEST_CASE("decompose: a coupling that does more than delay is refused before any work",
          "[decompose][cli]") {
  TempDir tmp;
  const CliResult r = run_binary(
      {"check", kSource + "/scenarios/h8-hypothetical-cross-frontend-create-time.json",
       "--decompose", "--out", tmp / "out"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("h8-hypothetical-cross-frontend-create-time.json: "
                                    "/policy/create_time_clock: cannot decompose by owners"));
  CHECK(list_dir(tmp / "out").empty());
}

TEST_CASE("decompose: a model that declares no owners is refused", "[decompose][cli]") {
  TempDir tmp;
  const CliResult r = run_binary(
      {"check", kSource + "/scenarios/lease-lock-no-fencing.json", "--decompose", "--out",
       tmp / "out"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("/model: the model 'lease-lock' declares no owners"));
}

TEST_CASE("decompose: a slice counterexample that does not lift is reported, with a trace of the "
          "slice",
          "[decompose][cli]") {
  // The counter test model's decomposition by workers is deliberately unsound
  // (tests/cli/counter_model.hpp): the slice of "locked" violates 'counter == total', which no
  // execution of the scenario does, so no lift exists. The property is reported all the same.
  TempDir tmp;
  const CliResult r = run_cli(
      {"check", test_scenario("locked.json"), "--decompose", "--json", "--out", tmp / "out"});
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  const json s = json::parse(r.out)["scenarios"][0];
  CHECK(s["verdict"] == "violation");
  REQUIRE(s["counterexamples"].size() == 1);
  CHECK(s["counterexamples"][0]["violation"]["invariant"] == "counter == total");
  const json& u = s["decomposition"]["unlifted"];
  REQUIRE(u.size() == 1);
  CHECK(u[0]["invariant"] == "counter == total");
  CHECK(u[0]["owner"] == "W0");
  CHECK_THAT(u[0]["reason"].get<std::string>(), Catch::Contains("ends without a violation"));
  const std::string trace = s["counterexamples"][0]["trace"];
  CHECK(u[0]["trace"] == trace);
  CHECK(u[0]["scenario"] == tmp / "out/counter-locked.slice-W0.json");
  CHECK(trace == tmp / "out/counter-locked.slice-W0.counter-total.trace.json");
  // A trace of the slice's scenario (written next to it), never of the scenario: it replays on
  // the slice, embedded or read from that file.
  const json doc = json::parse(read_file(trace));
  CHECK(doc["scenario"]["name"] == "counter-locked.slice-W0");
  CHECK(doc["scenario"]["counter"]["workers"] == 1);
  CHECK_FALSE(doc["scenario"].contains("expect"));
  CHECK(json::parse(read_file(tmp / "out/counter-locked.slice-W0.json")) == doc["scenario"]);
  CHECK(run_cli({"replay", trace}).code == 1);
  CHECK(run_cli({"replay", trace, "--scenario", tmp / "out/counter-locked.slice-W0.json"}).code ==
        1);
  // The headline names it; the summary says whose counterexample it is.
  const CliResult text =
      run_cli({"check", test_scenario("locked.json"), "--decompose", "--out", tmp / "text"});
  CHECK_THAT(text.out, Catch::Contains("counter-locked: violation (counter == total)"));
  CHECK_THAT(text.out, Catch::Contains("'counter == total' (slice W0) is not lifted to this "
                                       "scenario: the lifted execution"));
  CHECK_THAT(text.out, Catch::Contains("its counterexample is the slice's own, which replays on "
                                       "the slice's scenario " +
                                       tmp / "text/counter-locked.slice-W0.json"));
  CHECK_THAT(text.out, !Catch::Contains("violation ()"));
  CHECK_THAT(text.out, !Catch::Contains("is lifted to this scenario (the other owners"));
  // The gate compares properties, not lifted traces.
  json gated = json::parse(read_file(test_scenario("locked.json")));
  gated["exploration"]["decompose"] = true;
  gated["expect"] = {{"verdict", "violation"}, {"invariants", {"counter == total"}}};
  write_file(tmp / "gated.json", gated.dump());
  const CliResult gate = run_cli({"gate", tmp / "gated.json", "--out", tmp / "gate"});
  INFO(gate.out << gate.err);
  CHECK(gate.code == 0);
}
