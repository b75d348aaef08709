// The engine as a package: `cmake --install` of this build into a temporary prefix, then the
// example of docs/engine.md ("Using the engine from your own project") written from the page itself,
// configured, built and run with its commands as a separate CMake project, its outputs compared
// with the page's; and the same for the tutorial's out-of-tree lease lock (docs/writing-a-model.md,
// section 10), whose files are the installed example's. What the docs show is therefore what works.
//
// Markers (HTML comments, invisible when rendered), each followed by a fenced block:
//   <!-- example-file: NAME -->                the content of the project's file NAME
//   <!-- example-commands -->                  the commands, one a line, run in the project
//   <!-- example-output: COMMAND (exit N) -->  what COMMAND prints on stdout, and its exit code
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Example {
  std::map<std::string, std::string> files;
  std::vector<std::string> commands;
  struct Output {
    int exit = 0;
    std::string text;
  };
  std::map<std::string, Output> outputs;  ///< by command
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The example of a document, from its markers. Throws on a marker without a fenced block.
Example read_example(const std::string& document) {
  static const std::regex marker(
      R"(^<!-- (example-file|example-commands|example-output)(: (.*?))? -->$)");
  static const std::regex output_of(R"(^(.*) \(exit (\d+)\)$)");
  std::vector<std::string> lines;
  std::istringstream in(document);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  Example e;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, marker)) continue;
    if (i + 1 >= lines.size() || !lines[i + 1].starts_with("```"))
      throw std::runtime_error("line " + std::to_string(i + 1) + ": " + lines[i] +
                               " is not followed by a fenced block");
    std::string block;
    std::size_t j = i + 2;
    for (; j < lines.size() && lines[j] != "```"; ++j)
      block += lines[j] + "\n";
    if (j == lines.size())
      throw std::runtime_error("line " + std::to_string(i + 2) + ": unterminated block");
    const std::string kind = m[1], argument = m[3];
    if (kind == "example-file") {
      e.files[argument] = block;
    } else if (kind == "example-commands") {
      std::istringstream cmds(block);
      for (std::string c; std::getline(cmds, c);)
        if (!c.empty()) e.commands.push_back(c);
    } else {
      std::smatch o;
      if (!std::regex_match(argument, o, output_of))
        throw std::runtime_error("'" + argument + "' should read 'COMMAND (exit N)'");
      e.outputs[o[1]] = {std::stoi(o[2]), block};
    }
    i = j;
  }
  return e;
}

Example engine_example() {
  return read_example(read_file(fs::path(INTERLEAVE_SOURCE_DIR) / "docs/engine.md"));
}

// The tutorial's out-of-tree lease lock (docs/writing-a-model.md, "Out of tree"): its commands
// and outputs; its files are the installed example's.
Example tutorial_example() {
  return read_example(read_file(fs::path(INTERLEAVE_SOURCE_DIR) / "docs/writing-a-model.md"));
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Run {
  int code = -1;
  std::string out, err;
};

// Runs `command` (a shell command line) in `dir`, capturing stdout and stderr.
Run run_in(const fs::path& dir, const std::string& command, const fs::path& logs) {
  const std::string cmd = "cd " + quote(dir.string()) + " && " + command + " </dev/null >" +
                          quote((logs / "out").string()) + " 2>" + quote((logs / "err").string());
  const int status = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(logs / "out");
  r.err = read_file(logs / "err");
  return r;
}

class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "interleave-install-XXXXXX").string();
    if (::mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Installs this build into `prefix`.
void install_package(const fs::path& dir, const fs::path& prefix, const fs::path& logs) {
  const Run install = run_in(dir,
                             quote(INTERLEAVE_CMAKE) + " --install " + quote(INTERLEAVE_BUILD_DIR) +
                                 " --prefix " + quote(prefix.string()),
                             logs);
  INFO(install.out << install.err);
  REQUIRE(install.code == 0);
}

// Runs an example's commands in `project` against the package installed in `prefix` and compares
// each output the document shows; returns how many it compared.
std::size_t run_example(const Example& e, const fs::path& project, const fs::path& prefix,
                        const fs::path& logs) {
  std::size_t compared = 0;
  for (std::string command : e.commands) {
    const std::string shown = command;
    // The documents install into /opt/interleave; this test into its temporary prefix.
    for (auto at = command.find("/opt/interleave"); at != std::string::npos;
         at = command.find("/opt/interleave"))
      command.replace(at, 15, prefix.string());
    if (command.starts_with("cmake ")) command.replace(0, 5, quote(INTERLEAVE_CMAKE));
    // The configure step gets this build's compiler, generator and flags (warnings as errors,
    // sanitizers: the installed libraries need the same runtime).
    if (shown.starts_with("cmake -S "))
      command += " -G " + quote(INTERLEAVE_GENERATOR) +
                 " -DCMAKE_CXX_COMPILER=" + quote(INTERLEAVE_CXX) +
                 " -DCMAKE_CXX_FLAGS=" + quote(INTERLEAVE_EXAMPLE_FLAGS) +
                 " -DCMAKE_EXE_LINKER_FLAGS=" + quote(INTERLEAVE_EXAMPLE_LINK_FLAGS);
    const Run r = run_in(project, command, logs);
    INFO("$ " << shown << "\n(run as: " << command << ")\nexit " << r.code << "\nstdout:\n"
              << r.out << "\nstderr:\n"
              << r.err);
    const auto expected = e.outputs.find(shown);
    if (expected == e.outputs.end()) {
      REQUIRE(r.code == 0);
      continue;
    }
    CHECK(r.code == expected->second.exit);
    CHECK(r.out == expected->second.text);
    ++compared;
  }
  return compared;
}

}  // namespace

TEST_CASE("the example of docs/engine.md is complete", "[install]") {
  const Example e = engine_example();
  for (const char* name :
       {"CMakeLists.txt", "lost_update.cpp", "my_checker.cpp", "lost-update.json"})
    CHECK(e.files.contains(name));
  CHECK_THAT(e.files.at("CMakeLists.txt"), Catch::Contains("find_package(Interleave"));
  for (const char* target : {"Interleave::explorer", "Interleave::cli"})
    CHECK_THAT(e.files.at("CMakeLists.txt"), Catch::Contains(target));
  REQUIRE(e.commands.size() >= 4);
  CHECK_THAT(e.commands[0], Catch::StartsWith("cmake -S . -B build"));
  CHECK_THAT(e.commands[0], Catch::Contains("-DCMAKE_PREFIX_PATH=/opt/interleave"));
  // Every program the commands run has its output in the page, and every output a command.
  std::size_t programs = 0;
  for (const auto& c : e.commands) {
    if (!c.starts_with("build/")) continue;
    ++programs;
    INFO(c);
    CHECK(e.outputs.contains(c));
  }
  CHECK(programs == e.outputs.size());
  CHECK(programs >= 2);
}

TEST_CASE("the example of docs/engine.md builds against the installed package and runs",
          "[install]") {
  const Example e = engine_example();
  TempDir tmp;
  const fs::path prefix = tmp.path() / "prefix", project = tmp.path() / "project",
                 logs = tmp.path() / "logs";
  fs::create_directories(logs);
  fs::create_directories(project);
  install_package(tmp.path(), prefix, logs);
  for (const char* f :
       {"lib/cmake/Interleave/InterleaveConfig.cmake",
        "lib/cmake/Interleave/InterleaveConfigVersion.cmake",
        "include/interleave/explorer/search/explorer.hpp", "include/interleave/reports/trace/trace.hpp",
        "include/interleave/reports/run/run.hpp", "include/interleave/reports/cli/cli.hpp"})
    CHECK(fs::exists(prefix / f));
  for (const auto& [name, content] : e.files)
    write_file(project / name, content);
  CHECK(run_example(e, project, prefix, logs) == e.outputs.size());
}

TEST_CASE("the tutorial's lease lock builds out of tree against the installed package",
          "[install]") {
  const Example e = tutorial_example();
  REQUIRE(e.commands.size() == 3);
  CHECK_THAT(e.commands[0], Catch::StartsWith("cmake -S . -B build"));
  REQUIRE(e.outputs.size() == 1);
  TempDir tmp;
  const fs::path prefix = tmp.path() / "prefix", project = tmp.path() / "my-checker",
                 logs = tmp.path() / "logs";
  fs::create_directories(logs);
  install_package(tmp.path(), prefix, logs);
  // The copy the tutorial asks for: the installed example, as it is.
  const fs::path example = prefix / "share/interleave/examples/lease-lock";
  for (const char* f : {"CMakeLists.txt", "main.cpp", "model/lease_lock/lease_lock.hpp",
                        "model/lease_lock/lease_lock.cpp", "model/lease_lock/driver.cpp",
                        "scenarios/lease-lock-fencing-tokens.json"})
    REQUIRE(fs::exists(example / f));
  fs::copy(example, project, fs::copy_options::recursive);
  CHECK(run_example(e, project, prefix, logs) == 1);
}
