// Counterexample trace documents: the JSON round trip, and a reader that rejects malformed,
// truncated, wrong-version, edited or mismatched traces with the file and the JSON path.
#include "reports/render/render.hpp"
#include "reports/trace/trace.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

namespace {

// A trace written by `check` for a test scenario, as text.
std::string make_trace(const TempDir& tmp, const std::string& scenario, const std::string& file) {
  const auto r = run_cli({"check", test_scenario(scenario), "--out", tmp / "out", "--quiet"});
  REQUIRE(r.code == 1);
  return read_file(tmp / ("out/" + file));
}

// The error `show` reports for a trace with this text (exit 2, nothing on stdout).
std::string show_error(const TempDir& tmp, const std::string& text) {
  const std::string file = tmp / "t.json";
  write_file(file, text);
  const auto r = run_cli({"show", file, "--format", "json"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  const std::string prefix = "error: " + file + ": ";
  if (r.err.rfind(prefix, 0) != 0) return "unexpected: " + r.err;
  return r.err.substr(prefix.size(), r.err.size() - prefix.size() - 1);
}

std::string edited(const std::string& text, const std::function<void(json&)>& edit) {
  json j = json::parse(text);
  edit(j);
  return j.dump(2);
}

}  // namespace

TEST_CASE("trace documents round-trip through JSON", "[trace]") {
  TempDir tmp;
  for (const auto& [scenario, file] : std::vector<std::pair<std::string, std::string>>{
           {"racy.json", "counter-racy.counter-total.trace.json"},
           {"deadlock.json", "counter-deadlock.deadlock.trace.json"},
           {"failing.json", "counter-failing.actor-failure.trace.json"}}) {
    const std::string text = make_trace(tmp, scenario, file);
    const reports::TraceDocument doc = reports::trace_from_json(json::parse(text), file);
    CHECK(reports::to_json(doc) == json::parse(text));
    CHECK(reports::to_json(doc).dump(2) + "\n" == text);
    // `show --format json` prints the same document.
    const auto shown = run_cli({"show", tmp / ("out/" + file), "--format", "json"});
    CHECK(shown.code == 0);
    CHECK(shown.out == text);
  }
}

TEST_CASE("a trace document has every documented key", "[trace]") {
  TempDir tmp;
  const json j = json::parse(make_trace(tmp, "racy.json", "counter-racy.counter-total.trace.json"));
  std::vector<std::string> keys;
  for (const auto& [k, _] : j.items())
    keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"format", "format_version", "options", "preemptions",
                                         "race", "scenario", "scenario_file", "scenario_hash",
                                         "schedule", "state", "states", "stats", "steps",
                                         "strategy", "tool_version", "violation"});
  CHECK(j["format"] == "interleave-trace");
  CHECK(j["format_version"] == 1);
  CHECK(j["scenario_hash"] == reports::scenario_hash(j["scenario"]));
  CHECK(j["schedule"] == json::parse(R"({"format_version":1,"seed":0,
                                          "steps":["W0","W1","W1","W0"]})"));
  CHECK(j["steps"][1] == json::parse(R"({"index":1,"actor":"W1","label":"R",
      "accesses":[{"object":"counter","access":"read"}],"what":"read counter = 0"})"));
  CHECK(j["violation"] == json::parse(R"({"invariant":"counter == total",
      "message":"counter is 1, expected 2","step":4,"actor":""})"));
  CHECK(j["stats"].contains("elapsed_seconds"));
}

TEST_CASE("malformed, truncated and wrong-version traces are rejected", "[trace][errors]") {
  TempDir tmp;
  const std::string text = make_trace(tmp, "racy.json", "counter-racy.counter-total.trace.json");
  CHECK_THAT(show_error(tmp, text.substr(0, text.size() / 2)),
             Catch::StartsWith("/: malformed JSON: parse error at line "));
  CHECK(show_error(tmp, "") ==
        "/: malformed JSON: parse error at line 1, column 1: syntax error while parsing value - "
        "unexpected end of input; expected '[', '{', or a literal");
  CHECK(show_error(tmp, "[]") == "/: expected a trace document (a JSON object), got an array");
  CHECK(show_error(tmp, read_file(test_scenario("racy.json"))) ==
        "/: this is a scenario, not a counterexample trace (traces are written by 'interleave "
        "check')");
  CHECK(show_error(tmp, R"({"format_version": 1, "steps": []})") ==
        "/format: missing (required): this is not an interleave counterexample trace");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["format"] = "other"; })) ==
        "/format: expected \"interleave-trace\", got \"other\"");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["format_version"] = 2; })) ==
        "/format_version: unsupported trace format version 2 (this build reads 1)");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["format_version"] = "1"; })) ==
        "/format_version: expected an integer, got a string");
  CHECK(show_error(tmp, edited(text, [](json& j) { j.erase("steps"); })) ==
        "/steps: missing (required)");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["extra"] = 1; })) ==
        "/extra: unknown key 'extra'; known keys: 'format', 'format_version', 'tool_version', "
        "'scenario_file', 'scenario_hash', 'scenario', 'strategy', 'options', 'violation', "
        "'preemptions', 'schedule', 'steps', 'state', 'states', 'wall_clock', 'stats', "
        "'overrides', 'race', 'not_involved'");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["steps"].erase(3); })) ==
        "/schedule/steps/3: the schedule runs more steps than /steps lists (3): the trace is "
        "truncated");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["schedule"]["steps"].erase(3); })) ==
        "/steps: lists 4 steps but the schedule runs 3: the trace is truncated or was edited");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["schedule"]["steps"][0] = true; })) ==
        "/schedule/steps/0: expected an actor name (string) or a choice value (integer)");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["schedule"]["format_version"] = 7; })) ==
        "/schedule/format_version: unsupported version 7 (this build reads 1)");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["steps"][2]["index"] = 5; })) ==
        "/steps/2/index: expected 2 (steps are numbered from 0)");
  CHECK(show_error(tmp,
                   edited(text, [](json& j) { j["steps"][1]["accesses"][0]["access"] = "red"; })) ==
        "/steps/1/accesses/0/access: unknown value 'red' (did you mean 'read'?); expected one of "
        "'read', 'write', 'read-modify-write', 'acquire', 'release', 'acquire-shared', "
        "'release-shared', 'wait'");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["violation"]["step"] = 9; })) ==
        "/violation/step: step 9 does not exist (the trace has 4 steps)");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["stats"]["executions"] = -1; })) ==
        "/stats/executions: must be between 0 and 18446744073709551615, got -1");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["stats"]["violations"] = json::object(); })) ==
        "/stats/violations: does not count the violated invariant 'counter == total'");
}

TEST_CASE("the explanation of a trace (race, states, steps not involved) is checked when read",
          "[trace][errors]") {
  TempDir tmp;
  const std::string text = make_trace(tmp, "racy.json", "counter-racy.counter-total.trace.json");
  const json j = json::parse(text);
  // W0's read of 0 reversed with W1's write of 1: W0 reads 1, writes 2, the property holds.
  CHECK(j["race"] == json::parse(R"j({"first":0,"second":2,"objects":["counter"],
      "reversed":"the execution runs to completion and every property holds (4 steps)"})j"));
  REQUIRE(j["states"].size() == 4);
  CHECK(j["states"][2] == json::parse(R"({"counter":1,"lock":"free"})"));
  CHECK(show_error(tmp, edited(text, [](json& d) { d["race"]["first"] = 1; })) ==
        "/race/second: steps 1 and 2 are both taken by 'W1': a race is between two actors");
  CHECK(show_error(tmp, edited(text, [](json& d) { d["race"]["second"] = 0; })) ==
        "/race/second: must be between 1 and 3, got 0");
  CHECK(show_error(tmp, edited(text, [](json& d) {
                     d["not_involved"] = {2, 1};
                   })) == "/not_involved/1: the step indices must be increasing");
  CHECK(show_error(tmp, edited(text, [](json& d) { d["states"].erase(0); })) ==
        "/states: lists 3 states but the trace has 4 steps (one state after each step)");
  CHECK(show_error(tmp, edited(text, [](json& d) { d["steps"][0]["after"] = 0; })) ==
        "/steps/0/after: the first step follows no other step");
  CHECK(show_error(tmp, edited(text, [](json& d) { d["violation"]["found_at"] = 7; })) ==
        "/violation/found_at: must be between 0 and 3, got 7");
}

TEST_CASE(
    "show --state prints each step with the state it changed, then the state at the violation",
    "[trace][show]") {
  TempDir tmp;
  make_trace(tmp, "racy.json", "counter-racy.counter-total.trace.json");
  const std::string trace = tmp / "out/counter-racy.counter-total.trace.json";
  const auto r = run_cli({"show", trace, "--state"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "'counter == total' violated at the end of the execution (after step #3): counter is 1, "
        "expected 2\n"
        "the race: #0 W0 R reads counter = 0 before #2 W1 W: write counter = 1\n"
        "#0  W0  R  read counter = 0  <-- the race\n"
        "      counter = 0\n"
        "      lock = \"free\"\n"
        "#1  W1  R  read counter = 0\n"
        "#2  W1  W  write counter = 1  <-- the race\n"
        "      counter = 1\n"
        "#3  W0  W  write counter = 1\n"
        "State at the violation:\n"
        "  counter = 1\n"
        "  lock = \"free\"\n");
  const auto both = run_cli({"show", trace, "--state", "--format", "json"});
  CHECK(both.code == 2);
}

TEST_CASE("a trace whose steps or scenario were edited is a mismatch", "[trace][errors]") {
  TempDir tmp;
  const std::string text = make_trace(tmp, "racy.json", "counter-racy.counter-total.trace.json");
  const std::string hash = json::parse(text)["scenario_hash"];
  std::string other_hash;
  const std::string changed = edited(text, [&](json& j) {
    j["scenario"]["counter"]["lock"] = true;
    other_hash = reports::scenario_hash(j["scenario"]);
  });
  CHECK(show_error(tmp, changed) ==
        "/scenario_hash: does not match the embedded scenario (recorded " + hash +
            ", the scenario hashes to " + other_hash +
            "): the trace was edited or does not belong to this scenario");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["steps"][1]["actor"] = "W0"; })) ==
        "/steps/1/actor: step 1 is taken by 'W0' but the schedule (entry 1) runs 'W1'");
  CHECK(show_error(tmp, edited(text, [](json& j) { j["violation"]["actor"] = "W1"; })) ==
        "/violation/actor: names actor 'W1' but the violation happened after the last step");
  const std::string dl =
      make_trace(tmp, "failing.json", "counter-failing.actor-failure.trace.json");
  CHECK(show_error(tmp, edited(dl, [](json& j) { j["violation"]["actor"] = "W0"; })) ==
        "/violation/actor: names actor 'W0' but step 2 is taken by 'W1'");
}

TEST_CASE("scenario_hash is the FNV-1a of the canonical JSON", "[trace]") {
  CHECK(reports::scenario_hash(json::object()) == "fnv1a64:" + std::string("08f44b07b5901a25"));
  // Key order and white space do not matter; content does.
  CHECK(reports::scenario_hash(json::parse(R"({"a":1,"b":[2]})")) ==
        reports::scenario_hash(json::parse("{ \"b\" : [2], \"a\" : 1 }")));
  CHECK(reports::scenario_hash(json::parse(R"({"a":1})")) !=
        reports::scenario_hash(json::parse(R"({"a":2})")));
}

TEST_CASE("show renders a trace as text (default), json, mermaid and dot", "[trace][show]") {
  TempDir tmp;
  make_trace(tmp, "racy.json", "counter-racy.counter-total.trace.json");
  const std::string trace = tmp / "out/counter-racy.counter-total.trace.json";
  const reports::TraceDocument doc = reports::read_trace_file(trace);
  const auto text = run_cli({"show", trace});
  CHECK(text.code == 0);
  CHECK(text.out == reports::render_text(doc));
  CHECK_THAT(text.out, Catch::Contains("counter is 1, expected 2"));
  const auto json_out = run_cli({"show", trace, "--format", "json"});
  CHECK(json_out.out == read_file(trace));
  const auto mermaid = run_cli({"show", trace, "--format", "mermaid"});
  CHECK(mermaid.code == 0);
  CHECK(mermaid.out == reports::render_mermaid(doc));
  CHECK_THAT(mermaid.out, Catch::StartsWith("sequenceDiagram"));
  const auto dot = run_cli({"show", trace, "-f", "dot"});
  CHECK(dot.code == 0);
  CHECK(dot.out == reports::render_dot(doc));
  CHECK_THAT(dot.out, Catch::StartsWith("digraph"));
}
