// End-to-end: the real `interleave` executable, its exit codes and its help.
#include "tests/cli/helpers.hpp"

#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace interleave::test;

namespace {

struct Run {
  int code = -1;
  std::string out, err;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the interleave binary with `args`, stdin closed; captures stdout, stderr, exit code.
Run run_binary(const std::vector<std::string>& args) {
  TempDir tmp;
  std::string cmd = quote(INTERLEAVE_BINARY);
  for (const auto& a : args)
    cmd += " " + quote(a);
  cmd += " </dev/null >" + quote(tmp / "out") + " 2>" + quote(tmp / "err");
  const int status = std::system(cmd.c_str());
  Run r;
  REQUIRE(WIFEXITED(status));
  r.code = WEXITSTATUS(status);
  r.out = read_file(tmp / "out");
  r.err = read_file(tmp / "err");
  return r;
}

}  // namespace

TEST_CASE("binary: --help and --version", "[binary]") {
  auto r = run_binary({"--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("interleave: a deterministic interleaving explorer"));
  CHECK(r.err.empty());
  for (const char* cmd : {"check", "replay", "show", "validate", "list"}) {
    r = run_binary({cmd, "--help"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("Examples:"));
  }
  r = run_binary({"--version"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("interleave "));
}

TEST_CASE("binary: exit code 2 for usage and input errors, nothing on stdout", "[binary]") {
  TempDir tmp;
  write_file(tmp / "bad.json", "{\"name\": \"x\",");
  for (const std::vector<std::string>& args : {std::vector<std::string>{},
                                               {"nonsense"},
                                               {"check"},
                                               {"check", tmp / "missing.json"},
                                               {"check", tmp / "bad.json"},
                                               {"validate", tmp / "bad.json"},
                                               {"replay", tmp / "bad.json"},
                                               {"show", tmp / "bad.json", "--format", "json"}}) {
    const Run r = run_binary(args);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::StartsWith("error: "));
  }
  const Run r = run_binary({"check", tmp / "bad.json", "--out", tmp / "out"});
  CHECK(r.err == "error: " + tmp / "bad.json" +
                     ": /: malformed JSON: parse error at line 1, column 14: syntax error while "
                     "parsing object key - unexpected end of input; expected string literal\n");
  CHECK(!std::filesystem::exists(tmp / "out"));
}

TEST_CASE("binary: list shows the strategies", "[binary]") {
  const Run r = run_binary({"list"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("strategies:\n"));
  for (const auto& name : interleave::strategy_names())
    CHECK_THAT(r.out, Catch::Contains("\n  " + name));
}
