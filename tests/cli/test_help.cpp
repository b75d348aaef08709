// The help of the generic command line: generic over models (no model's name in any --help), and
// every example it gives runs.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <sstream>

using namespace interleave;
using namespace interleave::test;

namespace {

const std::vector<std::string> kCommands = {"check", "replay", "show", "validate", "list", "gate",
                                            "matrix", "estimate", "merge", "explain"};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The names a model brings, from the real executable's `list --json`: the model's name, and
// every name, invariant and coverage goal of its catalog (the engine's own properties aside).
std::set<std::string> model_names(const nlohmann::json& list) {
  std::set<std::string> names;
  std::function<void(const nlohmann::json&, const std::string&)> walk =
      [&](const nlohmann::json& j, const std::string& key) {
        if (j.is_string() && (key == "name" || key == "invariants" || key == "coverage_goals"))
          names.insert(j.get<std::string>());
        if (j.is_object())
          for (const auto& [k, v] : j.items())
            walk(v, k);
        if (j.is_array())
          for (const auto& v : j)
            walk(v, key);
      };
  for (const auto& model : list.at("models")) {
    names.insert(model.at("name").get<std::string>());
    walk(model.at("catalog"), "");
  }
  names.erase("deadlock");
  names.erase("actor_failure");
  return names;
}

// The lines "  interleave ..." of a help text's "Examples:" section.
std::vector<std::string> examples(const std::string& help) {
  std::vector<std::string> found;
  const auto at = help.find("Examples:\n");
  if (at == std::string::npos) return found;
  std::istringstream in(help.substr(at + 10));
  for (std::string line; std::getline(in, line) && line.starts_with("  interleave ");)
    found.push_back(line.substr(2));
  return found;
}

// Changes the working directory for its lifetime.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::filesystem::path& dir)
      : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~WorkingDirectory() {
    std::error_code ec;
    std::filesystem::current_path(previous_, ec);
  }
  WorkingDirectory(const WorkingDirectory&) = delete;
  WorkingDirectory& operator=(const WorkingDirectory&) = delete;

 private:
  std::filesystem::path previous_;
};

// A test scenario without its "$schema" (which is relative to tests/cli/scenarios).
std::string scenario_text(const std::string& name) {
  nlohmann::json j = nlohmann::json::parse(read_file(test_scenario(name)));
  j.erase("$schema");
  return j.dump(2);
}

}  // namespace

TEST_CASE("help: no command's --help names a model (the CLI is generic over models)", "[help]") {
  const CliResult list = run_binary({"list", "--json"});
  REQUIRE(list.code == 0);
  std::set<std::string> forbidden = model_names(nlohmann::json::parse(list.out));
  REQUIRE(forbidden.size() > 10);  // the StarRocks model's presets, invariants, goals
  for (const char* word : {"starrocks", "taskrun", "temp", "79294", "79339", "cleaner"})
    forbidden.insert(word);
  std::vector<std::vector<std::string>> helps{{"--help"}};
  for (const auto& cmd : kCommands)
    helps.push_back({cmd, "--help"});
  for (const auto& args : helps) {
    const CliResult r = run_binary(args);
    INFO("interleave " << args.front() << " --help");
    REQUIRE(r.code == 0);
    REQUIRE(r.out.size() > 200);
    const std::string text = lower(r.out);
    for (const auto& name : forbidden) {
      INFO("names '" << name << "'");
      CHECK(text.find(lower(name)) == std::string::npos);
    }
  }
}

TEST_CASE("help: every example in every command's --help runs", "[help]") {
  // A working directory with what the examples name: scenario.json, changed-scenario.json,
  // scenarios/, and out/NAME.PROPERTY.trace.json from a first check (NAME.PROPERTY is the
  // counterexample's file name).
  TempDir tmp;
  write_file(tmp / "scenario.json", scenario_text("racy.json"));
  write_file(tmp / "changed-scenario.json", scenario_text("locked.json"));
  std::filesystem::create_directories(tmp.path() / "scenarios");
  write_file(tmp / "scenarios/racy.json", scenario_text("racy.json"));
  write_file(tmp / "scenarios/locked.json", scenario_text("locked.json"));
  // The logs explain's examples read: the counter's writes, in two files.
  write_file(tmp / "app.log", "00:00:01 write counter = 1\n");
  write_file(tmp / "other.log", "00:00:02 write counter = 2\n");
  const WorkingDirectory cwd(tmp.path());
  REQUIRE(run_cli({"check", "scenario.json", "--quiet"}).code == 1);
  REQUIRE(std::filesystem::exists(tmp / "out/counter-racy.counter-total.trace.json"));
  // The shards merge's example combines.
  for (const char* k : {"1", "2"}) {
    const CliResult shard = run_cli({"check", "scenario.json", "--strategy", "dpor", "--shard",
                                     std::string(k) + "/2",
                                     "--json", "--out", "shard-out"});
    REQUIRE(shard.code == 1);
    write_file(tmp / ("shard-" + std::string(k) + ".json"), shard.out);
  }

  std::vector<std::string> all;
  for (const auto& e : examples(run_cli({"--help"}).out))
    all.push_back(e);
  for (const auto& cmd : kCommands) {
    const std::vector<std::string> found = examples(run_cli({cmd, "--help"}).out);
    INFO(cmd << " --help");
    CHECK(!found.empty());
    all.insert(all.end(), found.begin(), found.end());
  }
  REQUIRE(all.size() >= 18);
  for (const std::string& example : all) {
    // The command line before a shell pipe or redirection, with the placeholder filled in.
    std::string line = example.substr(0, std::min(example.find(" |"), example.find(" >")));
    std::vector<std::string> args;
    std::istringstream words(line);
    for (std::string w; words >> w;) {
      const auto at = w.find("NAME.PROPERTY");
      if (at != std::string::npos) w.replace(at, 13, "counter-racy.counter-total");
      if (w == "shard-*.json") {  // the shell's glob
        args.insert(args.end(), {"shard-1.json", "shard-2.json"});
        continue;
      }
      args.push_back(w);
    }
    args.erase(args.begin());  // "interleave"
    const CliResult r = run_cli(args);
    INFO(example << "\nexit " << r.code << "\nstderr: " << r.err);
    CHECK((r.code == 0 || r.code == 1 || r.code == 3));  // holds, violation, incomplete
    CHECK(r.err.empty());
    CHECK(!r.out.empty());
  }
}
