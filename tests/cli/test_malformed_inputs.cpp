// The malformed-input corpus (issue 16): one table of bad scenarios, bad traces and bad
// environments, each run through the real executable from an empty working directory. Every case
// must give exit code 2, nothing on stdout, one line on stderr naming the file and the JSON path
// (or the option and the path, for outputs), and leave the working directory as it was.
#include "explorer/core/json_reader.hpp"
#include "reports/trace/trace.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

namespace {

// The base of the scenario cases is kSeedLike (tests/cli/helpers.hpp), a valid StarRocks scenario.

enum class Base {
  kScenario,  // kSeedLike with `patch` merged (RFC 7386), written as input.json
  kTrace,  // a trace of kSeedLike with `patch` merged, scenario_hash recomputed: input.trace.json
  kTraceRaw,  // the same, the hash left as it was
  kText,      // `patch` itself is the text of input.json
};

// What the working directory holds besides, or instead of, the input.
enum class Env {
  kNone,
  kMissing,         // the input file does not exist
  kDirectory,       // the input is a directory
  kOutIsFile,       // --out names an existing regular file
  kOutUnderFile,    // --out names a path below a regular file
  kOutUnwritable,   // --out in a directory no one can create files in (/sys)
  kJunitIsDir,      // gate --junit names a directory
  kReportIsFile,    // gate --report names a regular file
  kJunitUnderFile,  // gate --junit below a regular file
};

struct Case {
  std::string name;
  std::string command;  // validate, check, gate, replay, show
  Base base;
  std::string patch;  // a merge patch, or the text (kText)
  std::string raw;    // replaces the string "@RAW@" of the patched text (numbers, nesting, ...)
  std::string path;   // the JSON path of the message (for outputs: what follows "error: ")
  std::string message;
  Env env = Env::kNone;
};

std::string repeated(const std::string& item, std::size_t n) {
  std::string s = "[";
  for (std::size_t i = 0; i < n; ++i)
    s += (i ? "," : "") + item;
  return s + "]";
}
std::string keys(std::size_t n) {
  std::string s = "{";
  for (std::size_t i = 0; i < n; ++i)
    s += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  return s + "}";
}

const JsonLimits kLimits;
const JsonLimits kTraceLimits = reports::trace_json_limits();
const std::string kDepth = std::to_string(kLimits.max_depth);
const std::string kTraceDepth = std::to_string(kTraceLimits.max_depth);
const std::string kNested = " levels of arrays and objects (the limit of nesting)";
const std::string kRange = "number out of range: ";

std::vector<Case> corpus() {
  using B = Base;
  const std::string R = R"("@RAW@")";
  return {
      // ---- malformed JSON ----
      {"empty file", "validate", B::kText, "", "", "/", "malformed JSON: parse error at line 1"},
      {"truncated", "check", B::kText, R"({"name": "x",)", "", "/", "unexpected end of input"},
      {"trailing garbage", "validate", B::kText, R"({"name": "x"} x)", "", "/", "malformed JSON"},
      {"comment", "validate", B::kText, "// hi\n{}", "", "/", "malformed JSON"},
      {"single quotes", "validate", B::kText, "{'name': 'x'}", "", "/", "malformed JSON"},
      {"trailing comma", "check", B::kText, R"({"name": "x",})", "", "/", "malformed JSON"},
      {"NaN", "validate", B::kText, R"({"name": NaN})", "", "/", "malformed JSON"},
      {"Infinity", "validate", B::kText, R"({"x": Infinity})", "", "/", "malformed JSON"},
      {"invalid UTF-8", "validate", B::kText, "{\"name\": \"\xff\xfe\"}", "", "/",
       "malformed JSON"},
      {"control character in a string", "validate", B::kText, "{\"name\": \"a\x01\"}", "", "/",
       "malformed JSON"},
      {"lone surrogate", "validate", B::kText, R"({"name": "\ud800"})", "", "/", "malformed JSON"},
      {"NUL byte", "validate", B::kText, std::string("{\"name\"\0: 1}", 12), "", "/",
       "malformed JSON"},
      {"NUL byte after the document", "check", B::kText, std::string("{}\0{\"x\": 1}", 11), "", "/",
       "malformed JSON: a NUL byte at line 1, column 3"},
      {"a bare value", "validate", B::kText, "42", "", "/",
       "expected a scenario (a JSON object), got"},
      {"a trace given to check", "check", B::kTrace, "{}", "", "/",
       "this is a counterexample trace, not a scenario"},
      // ---- duplicate keys ----
      {"duplicate top-level key", "validate", B::kText,
       R"({"name": "a", "model": "starrocks-temp-tables", "name": "b"})", "", "/name",
       "duplicate key 'name'"},
      {"duplicate nested key", "check", B::kScenario, R"({"actors": {"cleaner": "@RAW@"}})",
       R"({"passes": 1, "passes": 2})", "/actors/cleaner/passes", "duplicate key 'passes'"},
      {"duplicate key in an array element", "gate", B::kScenario,
       R"({"actors": {"task_runs": "@RAW@"}})", R"([{"name": "t1"}, {"name": "t2", "name": "t3"}])",
       "/actors/task_runs/1/name", "duplicate key 'name'"},
      {"duplicate key in a trace", "show", B::kTrace, R"({"options": {"seed": "@RAW@"}})",
       R"(1, "seed": 2)", "/options/seed", "duplicate key 'seed'"},
      // ---- numbers ----
      {"1e999", "validate", B::kScenario, R"({"cluster": {"frontends": "@RAW@"}})", "1e999",
       "/cluster/frontends", kRange + "'1e999'"},
      {"2e308", "check", B::kScenario, R"({"cluster": {"frontends": "@RAW@"}})", "2e308",
       "/cluster/frontends", kRange + "'2e308'"},
      {"666e6666", "gate", B::kScenario, R"({"exploration": {"max_steps": "@RAW@"}})", "666e6666",
       "/exploration/max_steps", kRange + "'666e6666'"},
      {"-1e999", "validate", B::kScenario, R"({"exploration": {"seed": "@RAW@"}})", "-1e999",
       "/exploration/seed", kRange + "'-1e999'"},
      {"1e999 in an array", "validate", B::kScenario, R"({"description": "@RAW@"})",
       "[1, 2, 1e999]", "/description/2", kRange + "'1e999'"},
      {"1e999 in a trace's options", "show", B::kTrace, R"({"options": {"max_steps": "@RAW@"}})",
       "1e999", "/options/max_steps", kRange + "'1e999'"},
      {"1e999 in a trace's scenario", "replay", B::kTrace,
       R"({"scenario": {"cluster": {"frontends": "@RAW@"}}})", "1e999",
       "/scenario/cluster/frontends", kRange + "'1e999'"},
      {"1e999 in a trace's state", "show", B::kTrace, R"({"state": {"x": "@RAW@"}})", "1e999",
       "/state/x", kRange + "'1e999'"},
      {"integer beyond 64 bits", "validate", B::kScenario, R"({"cluster": {"frontends": "@RAW@"}})",
       "18446744073709551616", "/cluster/frontends", "expected an integer"},
      {"fraction for an integer", "check", B::kScenario, R"({"exploration": {"max_steps": 1.5}})",
       "", "/exploration/max_steps", "expected an integer"},
      {"exponent for an integer", "validate", B::kScenario,
       R"({"exploration": {"max_steps": 1e3}})", "", "/exploration/max_steps",
       "expected an integer"},
      {"negative seed", "validate", B::kScenario, R"({"exploration": {"seed": -1}})", "",
       "/exploration/seed", "must be between 0 and"},
      {"max_steps 0", "check", B::kScenario, R"({"exploration": {"max_steps": 0}})", "",
       "/exploration/max_steps", "must be between 1 and 100000000, got 0"},
      {"max_steps too large", "validate", B::kScenario,
       R"({"exploration": {"max_steps": 100000001}})", "", "/exploration/max_steps",
       "must be between 1 and 100000000"},
      // ---- ordering constraints (docs/scenario-format.md, "constraints") ----
      {"constraint: unknown actor", "check", B::kScenario,
       R"({"constraints": [{"before": {"actor": "TemporaryTableCleaner", "label": "C2"},
                            "after": {"actor": "Session:c2@fe1", "label": "U2"}}]})",
       "", "/constraints/0/after/actor",
       "unknown actor 'Session:c2@fe1' (did you mean 'Session:c1@fe1'?); this scenario's "
       "program can create: 'Session:c1@fe1'"},
      {"constraint: occurrence 0", "gate", B::kScenario,
       R"({"constraints": [{"before": {"actor": "TemporaryTableCleaner", "label": "C2",
                                       "occurrence": 0},
                            "after": {"actor": "Session:c1@fe1", "label": "U2"}}]})",
       "", "/constraints/0/before/occurrence", "must be between 1 and 4294967295, got 0"},
      {"constraint: same step", "validate", B::kScenario,
       R"({"constraints": [{"before": {"actor": "Session:c1@fe1", "label": "U3"},
                            "after": {"actor": "Session:c1@fe1", "label": "U3", "occurrence": 1}}]})",
       "", "/constraints/0",
       "orders Session:c1@fe1's 1st U3 after itself: 'before' and 'after' must name two "
       "different steps"},
      {"constraint: cycle", "check", B::kScenario,
       R"({"constraints": [{"before": {"actor": "TemporaryTableCleaner", "label": "C2"},
                            "after": {"actor": "Session:c1@fe1", "label": "U2"}},
                           {"before": {"actor": "Session:c1@fe1", "label": "U2"},
                            "after": {"actor": "TemporaryTableCleaner", "label": "C2"}}]})",
       "", "/constraints/1", "a cycle no execution can satisfy"},
      {"constraint: missing label", "check", B::kScenario,
       R"({"constraints": [{"before": {"actor": "TemporaryTableCleaner"},
                            "after": {"actor": "Session:c1@fe1", "label": "U2"}}]})",
       "", "/constraints/0/before/label", "missing"},
      {"constraint: unknown key", "validate", B::kScenario,
       R"({"constraints": [{"before": {"actor": "TemporaryTableCleaner", "label": "C2"},
                            "afterr": {"actor": "Session:c1@fe1", "label": "U2"}}]})",
       "", "/constraints/0/afterr", "unknown key 'afterr' (did you mean 'after'?)"},
      {"constraint: not an array", "check", B::kScenario, R"({"constraints": {}})", "",
       "/constraints", "expected an array"},
      {"constraint in a trace's scenario", "replay", B::kTrace,
       R"({"scenario": {"constraints": [{"before": {"actor": "Nobody", "label": "C2"},
                                         "after": {"actor": "Session:c1@fe1", "label": "U2"}}]}})",
       "", "/scenario/constraints/0/before/actor", "unknown actor 'Nobody'"},
      {"frontends out of range", "validate", B::kScenario, R"({"cluster": {"frontends": 4}})", "",
       "/cluster/frontends", "must be between 1 and 3, got 4"},
      {"negative time budget", "validate", B::kScenario,
       R"({"exploration": {"time_budget_seconds": -1}})", "", "/exploration/time_budget_seconds",
       "must be between 0.0 and"},
      // ---- nesting ----
      {"60000 nested arrays in /policy/preset", "validate", B::kScenario,
       R"({"policy": {"preset": "@RAW@"}})", nested_arrays(60000),
       "/policy/preset" + zeros(kLimits.max_depth - 2), "nested deeper than " + kDepth + kNested},
      {"60000 nested arrays in /actors", "check", B::kScenario, R"({"actors": "@RAW@"})",
       nested_arrays(60000), "/actors" + zeros(kLimits.max_depth - 1),
       "nested deeper than " + kDepth + kNested},
      {"60000 nested arrays as the document", "gate", B::kText, nested_arrays(60000), "",
       zeros(kLimits.max_depth), "nested deeper than " + kDepth + kNested},
      {"nested objects one level too deep", "validate", B::kScenario, R"({"description": "@RAW@"})",
       [] {
         std::string s;
         for (std::size_t i = 0; i < kLimits.max_depth; ++i)
           s += "{\"a\":";
         return s + "1" + std::string(kLimits.max_depth, '}');
       }(),
       [] {
         std::string p = "/description";
         for (std::size_t i = 0; i + 1 < kLimits.max_depth; ++i)
           p += "/a";
         return p;
       }(),
       "nested deeper than " + kDepth + kNested},
      {"nesting at the limit, a wrong type", "validate", B::kScenario,
       R"({"description": "@RAW@"})", nested_arrays(kLimits.max_depth - 1), "/description",
       "expected a string, got an array"},
      {"60000 nested arrays in a trace's scenario", "replay", B::kTrace,
       R"({"scenario": {"policy": {"preset": "@RAW@"}}})", nested_arrays(60000),
       "/scenario/policy/preset" + zeros(kTraceLimits.max_depth - 3),
       "nested deeper than " + kTraceDepth + kNested},
      {"60000 nested arrays in a trace's state", "show", B::kTrace, R"({"state": {"x": "@RAW@"}})",
       nested_arrays(60000), "/state/x" + zeros(kTraceLimits.max_depth - 2),
       "nested deeper than " + kTraceDepth + kNested},
      // ---- sizes ----
      {"an array one element too long", "validate", B::kScenario, R"({"description": "@RAW@"})",
       repeated("0", kLimits.max_array_elements + 1),
       "/description/" + std::to_string(kLimits.max_array_elements),
       "more than " + std::to_string(kLimits.max_array_elements) + " elements in one array"},
      {"task_runs one element too long", "check", B::kScenario,
       R"({"actors": {"task_runs": "@RAW@"}})", repeated("{}", kLimits.max_array_elements + 1),
       "/actors/task_runs/" + std::to_string(kLimits.max_array_elements),
       "more than " + std::to_string(kLimits.max_array_elements) + " elements in one array"},
      {"an object one member too large", "validate", B::kScenario, R"({"cluster": "@RAW@"})",
       keys(kLimits.max_object_members + 1),
       "/cluster/k" + std::to_string(kLimits.max_object_members),
       "more than " + std::to_string(kLimits.max_object_members) + " members in one object"},
      {"200000 keys in a trace", "show", B::kTrace, R"({"state": "@RAW@"})", keys(200000),
       "/state/k" + std::to_string(kTraceLimits.max_object_members),
       "more than " + std::to_string(kTraceLimits.max_object_members) + " members in one object"},
      // ---- the envelope ----
      {"missing name", "validate", B::kScenario, R"({"name": null})", "", "/name",
       "missing (required)"},
      {"missing model", "check", B::kScenario, R"({"model": null})", "", "/model",
       "missing (required)"},
      {"name of the wrong type", "validate", B::kScenario, R"({"name": 7})", "", "/name",
       "expected a string, got"},
      {"invalid name", "validate", B::kScenario, R"({"name": "../x"})", "", "/name",
       "is not a valid scenario name"},
      {"unknown model", "gate", B::kScenario, R"({"model": "starocks-temp-tables"})", "", "/model",
       "unknown model 'starocks-temp-tables' (did you mean 'starrocks-temp-tables'?)"},
      {"unknown top-level key", "validate", B::kScenario, R"({"expcet": {}})", "", "/expcet",
       "unknown key 'expcet' (did you mean 'expect'?)"},
      {"unknown strategy", "check", B::kScenario, R"({"exploration": {"strategy": "dsf"}})", "",
       "/exploration/strategy", "unknown value 'dsf' (did you mean 'dfs'?)"},
      {"exploration not an object", "validate", B::kScenario, R"({"exploration": []})", "",
       "/exploration", "expected an object, got an array"},
      {"unknown invariant", "validate", B::kScenario,
       R"({"expect": {"verdict": "violation", "invariants": ["manager_nul_pointer"]}})", "",
       "/expect/invariants/0", "unknown invariant 'manager_nul_pointer'"},
      {"unknown verdict", "gate", B::kScenario, R"({"expect": {"verdict": "hold"}})", "",
       "/expect/verdict", "unknown value 'hold'"},
      // ---- the model's sections ----
      {"unknown preset", "validate", B::kScenario, R"({"policy": {"preset": "starrocks-9"}})", "",
       "/policy/preset", "unknown value 'starrocks-9'"},
      {"task_runs not an array", "check", B::kScenario, R"({"actors": {"task_runs": {}}})", "",
       "/actors/task_runs", "expected an array"},
      {"unknown actor key", "validate", B::kScenario, R"({"actors": {"cleaners": {}}})", "",
       "/actors/cleaners", "unknown key 'cleaners'"},
      {"cleaner passes out of range", "validate", B::kScenario,
       R"({"actors": {"cleaner": {"passes": 9}}})", "", "/actors/cleaner/passes",
       "must be between 0 and 3, got 9"},
      {"tablet_rows unknown", "check", B::kScenario,
       R"({"actors": {"task_runs": [{"name": "t1", "tablet_rows": "nonee"}]}})", "",
       "/actors/task_runs/0/tablet_rows", "unknown value 'nonee'"},
      // ---- traces ----
      {"a trace that is not an object", "show", B::kText, "[]", "", "/",
       "expected a trace document (a JSON object), got an array"},
      {"a scenario given to replay", "replay", B::kScenario, "{}", "", "/",
       "this is a scenario, not a counterexample trace"},
      {"trace: wrong format", "show", B::kTrace, R"({"format": "other"})", "", "/format",
       "expected \"interleave-trace\", got \"other\""},
      {"trace: wrong format_version", "replay", B::kTrace, R"({"format_version": 99})", "",
       "/format_version", "unsupported trace format version 99"},
      {"trace: hash mismatch", "show", B::kTraceRaw, R"({"scenario": {"name": "changed"}})", "",
       "/scenario_hash", "does not match the embedded scenario"},
      {"trace: schedule not an object", "replay", B::kTrace, R"({"schedule": 3})", "", "/schedule",
       "a schedule must be a JSON object"},
      {"trace: missing scenario", "show", B::kTrace, R"({"scenario": null})", "", "/scenario",
       "missing (required)"},
      {"trace: options.max_steps 0", "show", B::kTrace, R"({"options": {"max_steps": 0}})", "",
       "/options/max_steps", "must be between 1 and 100000000, got 0"},
      {"trace: unknown strategy in options", "show", B::kTrace,
       R"({"options": {"strategy": "dsf"}})", "", "/options/strategy", "unknown value 'dsf'"},
      {"trace: invalid embedded preset", "show", B::kTrace,
       R"({"scenario": {"policy": {"preset": "nope"}}})", "", "/scenario/policy/preset",
       "unknown value 'nope'"},
      {"trace: invalid embedded preset, replay", "replay", B::kTrace,
       R"({"scenario": {"policy": {"preset": "nope"}}})", "", "/scenario/policy/preset",
       "unknown value 'nope'"},
      {"trace: steps of the wrong type", "show", B::kTrace, R"({"steps": "many"})", "", "/steps",
       "expected an array, got a string"},
      {"trace: violation missing", "show", B::kTrace, R"({"violation": null})", "", "/violation",
       "missing (required)"},
      {"trace: truncated", "replay", B::kText, R"({"format": "interleave-trace", "sche)", "", "/",
       "malformed JSON"},
      // ---- the environment ----
      {"missing file", "check", B::kScenario, "{}", "", "/", "no such file or directory",
       Env::kMissing},
      {"missing file, validate", "validate", B::kScenario, "{}", "", "/",
       "no such file or directory", Env::kMissing},
      {"missing trace", "replay", B::kTrace, "{}", "", "/",
       "cannot read the file: No such file or directory", Env::kMissing},
      {"directory without scenarios", "validate", B::kScenario, "{}", "", "/",
       "no scenario files (*.json) in this directory", Env::kDirectory},
      {"directory as trace", "show", B::kTrace, "{}", "", "/",
       "is a directory, expected a JSON file", Env::kDirectory},
      {"--out is a file", "check", B::kScenario, "{}", "", "--out: 'out'",
       "exists and is not a directory", Env::kOutIsFile},
      {"gate --out is a file", "gate", B::kScenario, "{}", "", "--out: 'out'",
       "exists and is not a directory", Env::kOutIsFile},
      {"--out below a file", "check", B::kScenario, "{}", "", "--out: cannot create 'out/sub'",
       "'out' is not a directory", Env::kOutUnderFile},
      {"--out unwritable", "check", B::kScenario, "{}", "",
       "--out: cannot create '/sys/interleave-out'", "cannot create files in '/sys'",
       Env::kOutUnwritable},
      {"gate --out unwritable", "gate", B::kScenario, "{}", "",
       "--out: cannot create '/sys/interleave-out'", "cannot create files in '/sys'",
       Env::kOutUnwritable},
      {"gate --junit is a directory", "gate", B::kScenario, "{}", "", "--junit: 'junit'",
       "is a directory, expected a file", Env::kJunitIsDir},
      {"gate --report is a file", "gate", B::kScenario, "{}", "", "--report: 'report'",
       "exists and is not a directory", Env::kReportIsFile},
      {"gate --junit below a file", "gate", B::kScenario, "{}", "",
       "--junit: cannot create 'report/gate.xml'", "'report' is not a directory",
       Env::kJunitUnderFile},
  };
}

// A trace of kSeedLike, made once per process with the real executable.
const std::string& base_trace() {
  static const std::string text = [] {
    TempDir tmp;
    write_file(tmp / "base.json", kSeedLike);
    const CliResult r = run_binary({"check", tmp / "base.json", "--out", tmp / "out", "--quiet"});
    REQUIRE(r.code == 1);
    const auto files = list_dir(tmp / "out");
    REQUIRE(!files.empty());
    return read_file(tmp / ("out/" + files.front()));
  }();
  return text;
}

// The entries of `dir` and below, as relative paths.
std::vector<std::string> tree(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    names.push_back(std::filesystem::relative(e.path(), dir).string());
  std::sort(names.begin(), names.end());
  return names;
}

void run_case(const Case& c) {
  TempDir work;
  const bool trace = c.base == Base::kTrace || c.base == Base::kTraceRaw;
  const std::string input =
      trace || c.command == "replay" || c.command == "show" ? "input.trace.json" : "input.json";
  std::string text;
  if (c.base == Base::kText) {
    text = c.patch;
  } else {
    json j = json::parse(trace ? base_trace() : std::string(kSeedLike));
    j.merge_patch(json::parse(c.patch));
    if (c.base == Base::kTrace && j.contains("scenario"))
      j["scenario_hash"] = reports::scenario_hash(j["scenario"]);
    text = j.dump(1);
    const auto at = text.find("\"@RAW@\"");
    if (at != std::string::npos) text.replace(at, 7, c.raw);
  }
  switch (c.env) {
    case Env::kMissing:
      break;
    case Env::kDirectory:
      std::filesystem::create_directory(work / input);
      break;
    default:
      write_file(work / input, text);
  }
  std::vector<std::string> args{c.command, input};
  std::string out = "out";
  if (c.env == Env::kOutIsFile) write_file(work / "out", "");
  if (c.env == Env::kOutUnderFile) {
    write_file(work / "out", "");
    out = "out/sub";
  }
  if (c.env == Env::kOutUnwritable) out = "/sys/interleave-out";
  if (c.command == "check" || c.command == "gate") args.insert(args.end(), {"--out", out});
  if (c.command == "gate") {
    if (c.env == Env::kJunitIsDir) std::filesystem::create_directory(work / "junit");
    if (c.env == Env::kReportIsFile || c.env == Env::kJunitUnderFile)
      write_file(work / "report", "");
    args.insert(args.end(), {"--junit", c.env == Env::kJunitUnderFile ? "report/gate.xml" : "junit",
                             "--report", "report"});
  }
  const std::vector<std::string> before = tree(work.path());
  const CliResult r = run_binary_in(work.path(), args);
  INFO("case: " << c.name << "\ncommand: " << c.command << "\nstderr: " << r.err);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  const bool output_case = c.path.rfind("--", 0) == 0;
  const std::string head =
      output_case ? "error: " + c.path : "error: " + input + ": " + c.path + ": ";
  CHECK_THAT(r.err, Catch::StartsWith(head));
  CHECK_THAT(r.err, Catch::Contains(c.message));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_THAT(r.err, Catch::EndsWith("\n"));
  CHECK(tree(work.path()) == before);  // nothing written
}

}  // namespace

TEST_CASE("malformed inputs: the corpus has every kind of case", "[corpus]") {
  const auto cases = corpus();
  CHECK(cases.size() >= 60);
  std::size_t env = 0, traces = 0;
  for (const Case& c : cases) {
    env += c.env != Env::kNone;
    traces += c.command == "show" || c.command == "replay";
  }
  CHECK(env >= 8);
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(!c.message.empty());
    CHECK(!c.path.empty());
  }
  CHECK(traces >= 15);
}

TEST_CASE("malformed inputs: scenarios (validate, check, gate)", "[corpus]") {
  for (const Case& c : corpus())
    if (c.command != "show" && c.command != "replay" && c.env == Env::kNone) run_case(c);
}

TEST_CASE("malformed inputs: traces (show, replay)", "[corpus]") {
  for (const Case& c : corpus())
    if ((c.command == "show" || c.command == "replay") && c.env == Env::kNone) run_case(c);
}

TEST_CASE("malformed inputs: the environment (files, directories, outputs)", "[corpus]") {
  for (const Case& c : corpus())
    if (c.env != Env::kNone) run_case(c);
}
