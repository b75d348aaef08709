// Helpers of the CLI tests: temporary directories, files, and the CLI run in-process.
#pragma once

#include "reports/cli/cli.hpp"
#include "explorer/strategies/factory.hpp"
#include "reports/run/exploration.hpp"
#include "tests/cli/counter_model.hpp"

#include <stdlib.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace interleave::test {

/// The seed's shape as a scenario: an async recursive-CTE TaskRun whose tablet gets no rows, a
/// client session, one cleaner pass, StarRocks 4.1.1 (the StarRocks model, searched by DFS).
inline const char* const kSeedLike = R"({
  "name": "seed-like",
  "model": "starrocks-temp-tables",
  "actors": {"cleaner": {"passes": 1}, "task_runs": [{"name": "t1", "tablet_rows": "none"}],
             "clients": [{"name": "c1"}]},
  "policy": {"preset": "starrocks-4.1.1"},
  "exploration": {"strategy": "dfs"}
})";

/// `depth` nested JSON arrays: "[[...]]".
inline std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

/// The JSON path "/0/0/.../0" of `n` array levels.
inline std::string zeros(std::size_t n) {
  std::string p;
  for (std::size_t i = 0; i < n; ++i)
    p += "/0";
  return p;
}

/// A fresh directory under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "interleave-cli-XXXXXX").string();
    if (::mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

/// The sorted names of the entries of a directory (none if it does not exist).
inline std::vector<std::string> list_dir(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// The strategy names joined by `sep`, each between `quote`s: "dfs, random" or "'dfs', 'random'".
inline std::string strategy_list(const std::string& sep = ", ", const std::string& quote = "") {
  std::string s;
  for (const auto& n : run::exploration_strategy_names())  // the portfolio, then the registry's
    s += (s.empty() ? "" : sep) + quote + n + quote;
  return s;
}

/// A scenario shipped with the tests (tests/cli/scenarios/NAME).
inline std::string test_scenario(const std::string& name) {
  // Appended, not `std::string(DIR) + "..." + name`: GCC 12 reports a false -Warray-bounds on
  // that chain for some lengths of the source path.
  std::string path = INTERLEAVE_SOURCE_DIR;
  path += "/tests/cli/scenarios/";
  path += name;
  return path;
}

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};

/// `s` quoted for a POSIX shell.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Runs the real interleave executable (the StarRocks model registered) with `args`, stdin
/// closed, in the working directory `cwd` (this process's if empty); captures stdout, stderr and
/// the exit code (-1 if it did not exit normally).
inline CliResult run_binary_in(const std::filesystem::path& cwd,
                               const std::vector<std::string>& args) {
  TempDir tmp;
  std::string cmd = cwd.empty() ? std::string() : "cd " + shell_quote(cwd.string()) + " && ";
  cmd += shell_quote(INTERLEAVE_BINARY);
  for (const auto& a : args)
    cmd += " " + shell_quote(a);
  cmd += " </dev/null >" + shell_quote(tmp / "out") + " 2>" + shell_quote(tmp / "err");
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(tmp / "out");
  r.err = read_file(tmp / "err");
  return r;
}

inline CliResult run_binary(const std::vector<std::string>& args) {
  return run_binary_in({}, args);
}

/// Runs the CLI in-process with the given models (the counter model by default).
inline CliResult run_cli(const std::vector<std::string>& args, const ModelRegistry& models,
                         bool progress = false) {
  std::ostringstream out, err;
  CliResult r;
  r.code = cli::run_cli(args, models, {"interleave test", progress}, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

inline CliResult run_cli(const std::vector<std::string>& args) {
  const ModelRegistry models = counter_registry();
  return run_cli(args, models);
}

}  // namespace interleave::test
