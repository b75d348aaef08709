// The shipped scenarios through the real binary: the gate passes on scenarios/, every
// counterexample it writes replays, and each, rendered as text, equals its golden copy in
// tests/golden/. When the
// model changes, the failure shows the diff; `scripts/regen-golden` rewrites the golden files
// (review `git diff tests/golden` before committing them).
#include "tests/cli/helpers.hpp"

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

using namespace interleave;
using namespace interleave::test;
using nlohmann::json;

namespace {

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Runs `command` with the source directory as the working directory (so that the scenario paths
/// recorded in the traces are the relative ones the golden files show); returns its exit code.
int run_in_source(const std::string& command) {
  const std::string cmd = "cd " + quote(INTERLEAVE_SOURCE_DIR) + " && " + command;
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE(
    "golden: the shipped scenarios pass the gate and their counterexamples match tests/golden",
    "[golden][gate]") {
  TempDir tmp;
  const std::string bin = quote(INTERLEAVE_BINARY);
  const int gate =
      run_in_source(bin + " gate scenarios --report " + quote(tmp / "report") + " --junit " +
                    quote(tmp / "gate.xml") + " >" + quote(tmp / "gate.txt") + " 2>&1");
  INFO(read_file(tmp / "gate.txt"));
  REQUIRE(gate == 0);

  const std::filesystem::path golden =
      std::filesystem::path(INTERLEAVE_SOURCE_DIR) / "tests/golden";
  std::set<std::string> produced, expected;
  for (const auto& f : list_dir(tmp / "report"))
    if (f.ends_with(".trace.json")) produced.insert(f.substr(0, f.size() - 11));
  for (const auto& f : list_dir(golden.string()))
    if (f.ends_with(".txt")) expected.insert(f.substr(0, f.size() - 4));
  INFO(
      "counterexamples the gate wrote and golden files must be the same set; regenerate with "
      "scripts/regen-golden");
  CHECK(produced == expected);
  CHECK(produced.size() >= 10);

  for (const auto& name : produced) {
    if (!expected.count(name)) continue;
    const std::string text = tmp / (name + ".txt");
    const std::string trace = tmp / ("report/" + name + ".trace.json");
    // Every counterexample the gate wrote replays to its violation (exit 1: the violation
    // reproduces).
    CHECK(run_in_source(bin + " replay " + quote(trace) + " --quiet >/dev/null 2>&1") == 1);
    REQUIRE(run_in_source(bin + " show " + quote(trace) + " --format text >" + quote(text)) == 0);
    const std::string want = (golden / (name + ".txt")).string();
    const std::string got = read_file(text);
    if (got != read_file(want)) {
      const std::string diff = tmp / (name + ".diff");
      std::system(("diff -u " + quote(want) + " " + quote(text) + " >" + quote(diff)).c_str());
      FAIL_CHECK(name << " differs from tests/golden/" << name
                      << ".txt (scripts/regen-golden rewrites it):\n"
                      << read_file(diff));
    }
  }
}

TEST_CASE("the seed's counterexample shows its causal slice and names the race",
          "[golden][slice]") {
  TempDir tmp;
  const std::string bin = quote(INTERLEAVE_BINARY);
  const std::string out = tmp / "check.txt";
  CHECK(run_in_source(bin + " check scenarios/seed-pr-79339.json --out " + quote(tmp / "out") +
                      " >" + quote(out)) == 1);
  const std::string text = read_file(out);
  // The first counterexample, up to its trace file.
  const std::string first = text.substr(0, text.find("  counterexample: "));
  INFO(first);
  // The description of the scenario, under the verdict.
  CHECK_THAT(first, Catch::Contains("\n  The seed world under the proposed fix, pr-79339"));
  CHECK_THAT(first,
             Catch::Contains("\n  the race: #22 C3 reads RUN = [] before #29 S3 RUN.put(t1)\n"));
  CHECK_THAT(first,
             Catch::Contains(
                 "    #22  TemporaryTableCleaner   C3   task runs in RUN: []  <-- the race\n"));
  CHECK_THAT(first,
             Catch::Contains("    #29  TaskRunScheduler        S3   RUN.put(t1)  <-- the race\n"));
  // The client session played no part: none of its steps is shown, one line says so.
  CHECK_THAT(first, !Catch::Contains("Session:c1@fe1  "));
  CHECK_THAT(first, Catch::Contains("\n    Session:c1@fe1: 12 steps not involved\n"));
  // What enables the slice stays: the dispatcher's S2a starts the TaskRun.
  CHECK_THAT(first, Catch::Contains("    #12  TaskRunScheduler        S2a  "));
  // The trace on disk keeps the complete schedule: it replays to the same violation.
  const std::string trace = tmp / "out/seed-pr-79339.sink-table-not-found.trace.json";
  CHECK(run_in_source(bin + " replay " + quote(trace) + " --quiet >/dev/null 2>&1") == 1);
  const json doc = json::parse(read_file(trace));
  CHECK(doc["steps"].size() == 36);  // 37 while the sink's empty step N1 was a step
  CHECK(doc["states"].size() == 36);
  CHECK(doc["violation"]["found_at"] == 30);
  CHECK(doc["state"] == doc["states"][30]);  // the state at the violation: after step 30
  CHECK(doc["state"]["RUN"] == json::array({"t1"}));
}

TEST_CASE("the README's matrix command answers which fix holds, as the README says",
          "[golden][matrix]") {
  // The command of README.md, "Using it", and the answer the README quotes.
  const std::string readme = read_file(std::string(INTERLEAVE_SOURCE_DIR) + "/README.md");
  const std::string command =
      "scripts/interleave matrix scenarios/seed-starrocks-4.1.1.json scenarios/seed-pr-79339.json "
      "\\\n    scenarios/h3-pr-79339-async-window.json --presets all --base pr-79339";
  REQUIRE_THAT(readme, Catch::Contains(command));
  const std::string answer =
      "the smallest change from pr-79339 that makes every scenario hold:\n"
      "dispatch_order=register_then_start (pr-79339-register-then-start)";
  REQUIRE_THAT(readme, Catch::Contains(answer));
  TempDir tmp;
  const std::string out = tmp / "matrix.txt";
  CHECK(run_in_source(quote(INTERLEAVE_BINARY) +
                      " matrix scenarios/seed-starrocks-4.1.1.json scenarios/seed-pr-79339.json "
                      "scenarios/h3-pr-79339-async-window.json --presets all --base pr-79339 >" +
                      quote(out)) == 0);
  const std::string text = read_file(out);
  std::string flat = answer;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  CHECK_THAT(text, Catch::EndsWith(flat + "\n"));
  CHECK_THAT(text, Catch::Contains("\n   pr-79339                        no change "));
}

TEST_CASE("docs/model.md's table of every hazard under the three presets is what matrix prints",
          "[golden][matrix]") {
  const std::string doc = read_file(std::string(INTERLEAVE_SOURCE_DIR) + "/docs/model.md");
  const std::string header =
      "| scenario | its own policy | `starrocks-4.1.1` | `pr-79339` | "
      "`pr-79339-register-then-start` |";
  const std::size_t at = doc.find(header);
  REQUIRE(at != std::string::npos);
  // The table's rows: scenario -> the three cells.
  std::map<std::string, std::vector<std::string>> table;
  std::istringstream in(doc.substr(at));
  std::string line;
  std::getline(in, line);  // the header
  std::getline(in, line);  // |---|
  while (std::getline(in, line) && line.rfind("| `", 0) == 0) {
    std::vector<std::string> cells;
    std::size_t from = 2;
    for (std::size_t bar = line.find(" | ", from); bar != std::string::npos;
         bar = line.find(" | ", from)) {
      cells.push_back(line.substr(from, bar - from));
      from = bar + 3;
    }
    cells.push_back(line.substr(from, line.size() - from - 2));
    REQUIRE(cells.size() == 5);
    table[cells[0].substr(1, cells[0].size() - 2)] = {cells[2], cells[3], cells[4]};
  }
  // Every scenario of the families the table covers is in it.
  std::vector<std::string> files;
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(std::string(INTERLEAVE_SOURCE_DIR) +
                                                           "/scenarios")) {
    const std::string name = e.path().stem().string();
    if (e.path().extension() != ".json") continue;
    const bool hazard = name.size() > 1 && name[0] == 'h' && std::isdigit(name[1]) != 0;
    for (const char* family : {"cte-", "starrocks-test-", "pr-55353-", "abnormal-end-"})
      if (hazard || name.rfind(family, 0) == 0) {
        names.insert(name);
        break;
      }
  }
  std::set<std::string> documented;
  for (const auto& [name, _] : table)
    documented.insert(name);
  CHECK(documented == names);
  for (const std::string& name : names)
    files.push_back("scenarios/" + name + ".json");
  std::vector<std::string> args = {"matrix"};
  args.insert(args.end(), files.begin(), files.end());
  for (const char* a : {"--presets", "starrocks-4.1.1,pr-79339,pr-79339-register-then-start",
                        "--strategy", "dpor", "--format", "json"})
    args.emplace_back(a);
  const CliResult r = run_binary_in(INTERLEAVE_SOURCE_DIR, args);
  // Exit 1: no row holds everywhere, as the section says.
  REQUIRE(r.code == 1);
  const json m = json::parse(r.out);
  CHECK(m["conclusion"] == "no policy tried makes every scenario hold");
  CHECK_THAT(doc, Catch::Contains("(`matrix` says \"no\npolicy tried makes every scenario hold\")"));
  const std::map<std::string, std::string> letter = {
      {"live_owner_table_dropped", "L"}, {"sink_table_not_found", "S"},
      {"manager_null_pointer", "N"},     {"untracked_temp_table", "U"},
      {"unreachable_frontend_leak", "F"}, {"killed_run_commits", "K"},
      {"dead_session_table_left", "D"}};
  const std::string order = "LSNUFKD";
  REQUIRE(m["rows"].size() == 3);
  for (std::size_t i = 0; i < m["scenarios"].size(); ++i) {
    const std::string name = m["scenarios"][i];
    for (std::size_t p = 0; p < 3; ++p) {
      const json& c = m["rows"][p]["cells"][i];
      CHECK(!c.contains("cut"));  // every cell searched to its end
      std::string want = c["verdict"];
      if (want == "violation") {
        std::string letters;
        for (const json& v : c["violated"]) {
          REQUIRE(letter.count(v.get<std::string>()) == 1);
          letters += letter.at(v.get<std::string>());
        }
        std::sort(letters.begin(), letters.end(),
                  [&](char a, char b) { return order.find(a) < order.find(b); });
        want += ":";
        for (char l : letters)
          want += std::string(" ") + l;
      }
      INFO(name << " under " << m["rows"][p]["preset"].get<std::string>());
      CHECK(table[name].at(p) == want);
    }
  }
}
