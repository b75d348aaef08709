// The regressions of issue 16, one test case each: numbers out of range, deep nesting, parsing
// in linear time, outputs checked before any work, `show` validating as `replay` does, and the
// temporaries of a killed run cleaned up by the next one.
#include "explorer/core/json_reader.hpp"
#include "reports/run/output_files.hpp"
#include "reports/trace/trace.hpp"
#include "tests/cli/helpers.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

namespace {

const char* const kRacy =
    R"({"name": "counter-racy", "model": "counter", "counter": {"workers": 2, "increments": 1},
        "exploration": {"strategy": "dfs"}})";

// A trace of racy.json, and copies of it changed by a function of its JSON (the scenario's hash
// recomputed, so that only the change is wrong).
struct TraceFixture {
  TempDir tmp;
  std::string trace;
  TraceFixture() {
    REQUIRE(run_cli({"check", test_scenario("racy.json"), "--out", tmp / "out", "--quiet"}).code ==
            1);
    trace = tmp / "out/counter-racy.counter-total.trace.json";
  }
  std::string changed(const std::string& name, const std::function<void(json&)>& change) const {
    json j = json::parse(read_file(trace));
    change(j);
    j["scenario_hash"] = reports::scenario_hash(j["scenario"]);
    write_file(tmp / name, j.dump(2));
    return tmp / name;
  }
};

}  // namespace

TEST_CASE("hardening: a number out of range is an input error naming its path (exit 2)",
          "[hardening]") {
  TempDir tmp;
  for (const char* number : {"1e999", "2e308", "666e6666", "-1e999"}) {
    const std::string file = tmp / "big.json";
    write_file(file, std::string(R"({"name": "x", "model": "counter", "counter": {"workers": )") +
                         number + "}}");
    const std::string expected = "error: " + file + ": /counter/workers: number out of range: '" +
                                 number +
                                 "' is beyond the 64-bit floating point range (about 1.8e308)\n";
    for (const char* cmd : {"validate", "check", "gate"}) {
      std::vector<std::string> args{cmd, file};
      if (std::string(cmd) != "validate") args.insert(args.end(), {"--out", tmp / "out"});
      const CliResult r = run_cli(args);
      INFO(cmd << " " << number << ": " << r.err);
      CHECK(r.code == 2);
      CHECK(r.err == expected);
      CHECK(r.out.empty());
    }
  }
  // In a trace, for show and replay.
  const TraceFixture t;
  const std::string trace = t.tmp / "big.trace.json";
  std::string text = read_file(t.trace);
  const auto at = text.find("\"max_steps\": ");
  REQUIRE(at != std::string::npos);
  const auto end = text.find_first_of(",\n}", at + 13);
  text.replace(at + 13, end - (at + 13), "1e999");
  write_file(trace, text);
  for (const char* cmd : {"show", "replay"}) {
    const CliResult r = run_cli({cmd, trace});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("error: " + trace + ": /options/max_steps: number out of "
                                        "range: '1e999'"));
    CHECK(r.out.empty());
  }
  CHECK(!std::filesystem::exists(tmp / "out"));
}

TEST_CASE("hardening: 60000 nested arrays in an accepted key are rejected at the depth limit",
          "[hardening]") {
  const std::size_t limit = JsonLimits{}.max_depth;
  TempDir tmp;
  // A scenario: the value of a model section (which parse_scenario copied before the model read
  // it, recursively: a stack overflow).
  write_file(tmp / "deep.json",
             R"({"name": "x", "model": "counter", "counter": )" + nested_arrays(60000) + "}");
  for (const char* cmd : {"validate", "check", "gate"}) {
    std::vector<std::string> args{cmd, tmp / "deep.json"};
    if (std::string(cmd) != "validate") args.insert(args.end(), {"--out", tmp / "out"});
    const CliResult r = run_cli(args);
    CHECK(r.code == 2);
    CHECK(r.err == "error: " + tmp / "deep.json" + ": /counter" + zeros(limit - 1) +
                       ": nested deeper than " + std::to_string(limit) +
                       " levels of arrays and objects (the limit of nesting)\n");
    CHECK(r.out.empty());
  }
  // The same at the top level.
  write_file(tmp / "top.json", nested_arrays(60000));
  CHECK(run_cli({"validate", tmp / "top.json"}).err ==
        "error: " + tmp / "top.json" + ": " + zeros(limit) + ": nested deeper than " +
            std::to_string(limit) + " levels of arrays and objects (the limit of nesting)\n");
  // Exactly at the limit, the document is read, and the model rejects the value.
  write_file(tmp / "limit.json",
             R"({"name": "x", "model": "counter", "counter": )" + nested_arrays(limit - 1) + "}");
  CHECK(run_cli({"validate", tmp / "limit.json"}).err ==
        "error: " + tmp / "limit.json" + ": /counter: expected an object, got an array\n");

  // Traces: in the embedded scenario and in the state (both copied by trace_from_json).
  const TraceFixture t;
  const std::string deep_scenario = t.tmp / "deep-scenario.trace.json";
  const std::string deep_state = t.tmp / "deep-state.trace.json";
  std::string text = read_file(t.trace);
  std::string a = text, b = text;
  const auto counter = a.find("\"counter\": {");
  REQUIRE(counter != std::string::npos);
  a.insert(counter, "\"deep\": " + nested_arrays(60000) + ", ");
  write_file(deep_scenario, a);
  const auto state = b.find("\"state\": ");
  REQUIRE(state != std::string::npos);
  b.insert(state, "\"deep\": " + nested_arrays(60000) + ", ");
  write_file(deep_state, b);
  for (const char* cmd : {"show", "replay"}) {
    for (const std::string& file : {deep_scenario, deep_state}) {
      const CliResult r = run_cli({cmd, file});
      INFO(cmd << " " << file << ": " << r.err);
      CHECK(r.code == 2);
      CHECK_THAT(r.err, Catch::StartsWith("error: " + file + ": /"));
      CHECK_THAT(r.err, Catch::EndsWith(": nested deeper than " + std::to_string(limit + 1) +
                                        " levels of arrays and objects (the limit of nesting)\n"));
      CHECK(r.out.empty());
    }
  }
}

TEST_CASE("hardening: parsing takes linear time, and the size limits are rejected at once",
          "[hardening]") {
  const JsonLimits limits;
  // 200000 objects in one array, and one object with as many members as allowed: quadratic
  // before (about 50 s and 10 s), well under a second now (a generous bound for sanitizers).
  std::string runs = "[";
  for (int i = 0; i < 200000; ++i)
    runs += std::string(i ? "," : "") + R"({"name": "t)" + std::to_string(i) + R"(", "k": 1})";
  runs += "]";
  std::string wide = "{";
  for (std::size_t i = 0; i < limits.max_object_members; ++i)
    wide += std::string(i ? "," : "") + "\"k" + std::to_string(i) + "\": " + std::to_string(i);
  wide += "}";
  for (const std::string* text : {&runs, &wide}) {
    const auto start = std::chrono::steady_clock::now();
    const json j = parse_json(*text, "big.json");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(j.size() == (text == &runs ? 200000u : limits.max_object_members));
    CHECK(seconds < 20);
  }
  // One member more, one element more, one byte more: rejected, naming where.
  wide.back() = ',';
  wide += "\"one-more\": 0}";
  CHECK_THROWS_WITH(parse_json(wide, "w.json"),
                    "w.json: /one-more: more than " + std::to_string(limits.max_object_members) +
                        " members in one object (the limit of an object's size)");
  std::string long_array = "{\"a\": [0";
  for (std::size_t i = 0; i < limits.max_array_elements; ++i)
    long_array += ",0";
  long_array += "]}";
  CHECK_THROWS_WITH(parse_json(long_array, "a.json"),
                    "a.json: /a/" + std::to_string(limits.max_array_elements) + ": more than " +
                        std::to_string(limits.max_array_elements) +
                        " elements in one array (the limit of an array's length)");
  // A file beyond the size limit is rejected from its size, before it is read (a sparse file).
  TempDir tmp;
  write_file(tmp / "huge.json", "");
  std::filesystem::resize_file(tmp / "huge.json", limits.max_bytes + 1);
  const CliResult r = run_cli({"check", tmp / "huge.json", "--out", tmp / "out"});
  CHECK(r.code == 2);
  CHECK(r.err == "error: " + tmp / "huge.json" + ": /: the file is " +
                     std::to_string(limits.max_bytes + 1) +
                     " bytes, more than 64 MiB (the limit of a document's size)\n");
  CHECK(!std::filesystem::exists(tmp / "out"));
  // Duplicate keys are still found, at any depth.
  CHECK_THROWS_WITH(parse_json(R"({"a": [{"b": 1, "c": 2, "b": 3}]})", "d.json"),
                    "d.json: /a/0/b: duplicate key 'b'");
}

TEST_CASE("hardening: every output path is checked before anything is explored", "[hardening]") {
  TempDir tmp;
  write_file(tmp / "racy.json", kRacy);
  write_file(tmp / "a-file", "x");
  std::filesystem::create_directories(tmp / "a-dir");
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const std::string file = tmp / "a-file", dir = tmp / "a-dir";
  const std::vector<Case> cases{
      {{"gate", tmp / "racy.json", "--out", tmp / "out", "--junit", dir},
       "error: --junit: '" + dir + "' is a directory, expected a file\n"},
      {{"gate", tmp / "racy.json", "--out", file},
       "error: --out: '" + file + "' exists and is not a directory\n"},
      {{"gate", tmp / "racy.json", "--report", file},
       "error: --report: '" + file + "' exists and is not a directory\n"},
      {{"gate", tmp / "racy.json", "--out", tmp / "out", "--junit", file + "/gate.xml"},
       "error: --junit: cannot create '" + file + "/gate.xml': '" + file + "' is not a directory\n"},
      {{"gate", tmp / "racy.json", "--out", tmp / "out", "--report", tmp / "r", "--junit",
        file + "/x/y.xml"},
       "error: --junit: cannot create '" + file + "/x/y.xml': '" + file + "' is not a directory\n"},
      {{"check", tmp / "racy.json", "--out", file + "/out"},
       "error: --out: cannot create '" + file + "/out': '" + file + "' is not a directory\n"},
      {{"check", tmp / "racy.json", "--out", file},
       "error: --out: '" + file + "' exists and is not a directory\n"},
  };
  for (const Case& c : cases) {
    const CliResult r = run_cli(c.args);
    INFO(c.args[0] << " " << c.err);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    CHECK(r.out.empty());  // nothing was explored: no scenario's line
    CHECK(list_dir(tmp.path()) == std::vector<std::string>{"a-dir", "a-file", "racy.json"});
    CHECK(list_dir(dir).empty());
  }
}

TEST_CASE("hardening: show validates a trace as replay does", "[hardening]") {
  const TraceFixture t;
  const std::string bad_scenario = t.changed("bad-scenario.trace.json", [](json& j) {
    j["scenario"]["counter"]["workers"] = "two";
  });
  const std::string zero_steps =
      t.changed("zero-steps.trace.json", [](json& j) { j["options"]["max_steps"] = 0; });
  const std::string strategy =
      t.changed("strategy.trace.json", [](json& j) { j["options"]["strategy"] = "dsf"; });
  const std::vector<std::pair<std::string, std::string>> cases{
      {bad_scenario,
       ": /scenario/counter/workers: expected an integer, got a string (in the scenario embedded "
       "in the trace)\n"},
      {zero_steps, ": /options/max_steps: must be between 1 and 100000000, got 0\n"},
      {strategy, ": /options/strategy: unknown value 'dsf' (did you mean 'dfs'?)"},
  };
  for (const auto& [file, message] : cases) {
    for (const char* cmd : {"replay", "show"}) {
      const CliResult r = run_cli({cmd, file});
      INFO(cmd << ": " << r.err);
      CHECK(r.code == 2);
      CHECK_THAT(r.err, Catch::StartsWith("error: " + file + message));
      CHECK(r.out.empty());
    }
  }
  // The unchanged trace still shows.
  CHECK(run_cli({"show", t.trace}).code == 0);
}

TEST_CASE("hardening: the next run removes the temporaries a killed run left", "[hardening]") {
  TempDir tmp;
  write_file(tmp / "racy.json", kRacy);
  std::filesystem::create_directories(tmp / "out");
  // A process that has exited: its pid is not running (nor reused this soon).
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  REQUIRE(dead > 0);
  ::waitpid(dead, nullptr, 0);
  const std::string d = std::to_string(dead), live = std::to_string(::getppid());
  const std::vector<std::string> stale{
      // the pattern of this version, and that of the versions before (".NAME.tmp-PID")
      run::temporary_name("counter-racy.counter-total.trace.json", dead, 0),
      run::temporary_name("other.trace.json", dead, 7),
      ".counter-racy.counter-total.trace.json.tmp-" + d,
  };
  const std::vector<std::string> kept{
      run::temporary_name("running.trace.json", ::getppid(), 0),  // its process still runs
      ".running.trace.json.tmp-" + live,
      ".notes.tmp-x" + d,                     // not the pattern
      "a.trace.json.tmp-" + d,                // not hidden: not ours
      ".x.interleave-tmp-" + d + "-0-extra",  // not the pattern
  };
  for (const auto& name : stale)
    write_file(tmp / ("out/" + name), "{}");
  for (const auto& name : kept)
    write_file(tmp / ("out/" + name), "{}");
  std::filesystem::create_directories(tmp / ("out/" + run::temporary_name("dir", dead, 1)));

  const CliResult r = run_cli({"check", tmp / "racy.json", "--out", tmp / "out", "--quiet"});
  CHECK(r.code == 1);
  std::vector<std::string> expected = kept;
  expected.push_back("counter-racy.counter-total.trace.json");
  expected.push_back(run::temporary_name("dir", dead, 1));  // a directory: never removed
  std::sort(expected.begin(), expected.end());
  CHECK(list_dir(tmp / "out") == expected);
}

TEST_CASE("hardening: docs/scenario-format.md states the limits JsonLimits enforces",
          "[hardening][docs]") {
  const JsonLimits scenario;
  const JsonLimits trace = reports::trace_json_limits();
  auto size = [](std::uint64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB (" + std::to_string(bytes) + " bytes)";
  };
  auto row = [](const std::string& what, const std::string& a, const std::string& b) {
    return "| " + what + " | " + a + " | " + b + " |\n";
  };
  const std::string expected =
      "| limit | scenario | trace |\n|---|---|---|\n" +
      row("size of the file", size(scenario.max_bytes), size(trace.max_bytes)) +
      row("nesting depth of arrays and objects (the root is level 1)",
          std::to_string(scenario.max_depth), std::to_string(trace.max_depth)) +
      row("elements of one array", std::to_string(scenario.max_array_elements),
          std::to_string(trace.max_array_elements)) +
      row("members (keys) of one object", std::to_string(scenario.max_object_members),
          std::to_string(trace.max_object_members));
  const std::string text = read_file(std::string(INTERLEAVE_SOURCE_DIR) + "/docs/scenario-format.md");
  const std::string begin = "<!-- BEGIN json-limits -->\n", end = "<!-- END json-limits -->";
  const auto b = text.find(begin), e = text.find(end);
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  CHECK(text.substr(b + begin.size(), e - b - begin.size()) == expected);
  // The trace's limits hold the scenario it embeds, one level down.
  CHECK(trace.max_depth == scenario.max_depth + 1);
  CHECK(trace.max_bytes >= scenario.max_bytes);
}

TEST_CASE("hardening: check runs killed with SIGKILL leave no temporary after the next run",
          "[hardening][binary]") {
  TempDir tmp;
  std::filesystem::create_directories(tmp / "in");
  for (const char* s : {"seed-starrocks-4.1.1.json", "h1-starrocks-4.1.1-async-task-run.json",
                        "h6-failed-rpc-ignored.json", "h7-follower-replay-lag.json"})
    std::filesystem::copy_file(std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios/" + s,
                               tmp / ("in/" + std::string(s)));
  const std::string run = shell_quote(INTERLEAVE_BINARY) + " check " + shell_quote(tmp / "in") +
                          " --out " + shell_quote(tmp / "out") + " --quiet >/dev/null 2>&1";
  auto temporaries = [&] {
    std::size_t n = 0;
    for (const auto& name : list_dir(tmp / "out"))
      n += name.find("tmp") != std::string::npos;
    return n;
  };
  for (int i = 0; i < 20; ++i) {
    // Killed at 0 to 95 ms, while it explores or writes its traces; then the next run.
    const std::string kill = "(" + run + " & p=$!; sleep 0.0" + std::to_string(i % 10) +
                             std::to_string((i * 7) % 10) + "; kill -9 $p; wait $p) 2>/dev/null";
    (void)std::system(kill.c_str());
    REQUIRE(std::system(run.c_str()) != -1);
    CHECK(temporaries() == 0);
  }
  CHECK(list_dir(tmp / "out").size() == 14);  // every trace, complete
}
