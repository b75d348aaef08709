// A clean stop (issue 13, point 5), with real signals sent to the real executable: SIGINT and
// SIGTERM stop the search at the next execution, the summary is printed (incomplete,
// "interrupted by SIG..."), the exit code is 3 (1 when a violation was found), every
// counterexample found is a whole file on disk, the gate writes all its reports marked
// interrupted, and no temporary file remains.
#include "reports/cli/interrupt.hpp"
#include "tests/cli/helpers.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

using namespace interleave;
using namespace interleave::test;

namespace {

struct Exit {
  bool exited = false;  // exited normally (else killed by a signal)
  int code = -1;        // the exit code, or the signal that killed it
  std::string out;
  std::string err;
};

// Starts the real binary with stdout and stderr to files, sends `sig` after `delay`, waits (at
// most a minute, then kills it and fails).
Exit interrupt_binary(const std::vector<std::string>& args, int sig,
                      std::chrono::milliseconds delay) {
  TempDir tmp;
  const std::string out = tmp / "out.txt";
  const std::string err = tmp / "err.txt";
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    ::dup2(in, 0);
    ::dup2(o, 1);
    ::dup2(e, 2);
    // The test runner may have started us with SIGINT ignored; the binary must see it.
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    std::vector<std::string> argv_s{INTERLEAVE_BINARY};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(INTERLEAVE_BINARY, argv.data());
    ::_exit(127);
  }
  std::this_thread::sleep_for(delay);
  ::kill(pid, sig);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  pid_t done = 0;
  while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (done == 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    FAIL("the interrupted process did not stop within a minute");
  }
  Exit r;
  r.exited = WIFEXITED(status);
  r.code = r.exited ? WEXITSTATUS(status) : WIFSIGNALED(status) ? WTERMSIG(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

std::string scenario_file(const std::string& name) {
  return std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios/" + name + ".json";
}

// No file of `dir` (recursively) is a temporary of write_file_atomically (hidden files).
void check_no_temporaries(const std::filesystem::path& dir) {
  if (!std::filesystem::exists(dir)) return;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    INFO(e.path().string());
    CHECK(e.path().filename().string().rfind('.', 0) != 0);
  }
}

}  // namespace

TEST_CASE("interrupt: SIGINT stops check at an execution boundary, summary and exit 3",
          "[interrupt][binary]") {
  TempDir tmp;
  const Exit r = interrupt_binary({"check", scenario_file("h3-register-then-start-async"),
                                   "--strategy", "dfs", "--out", tmp / "out"},
                                  SIGINT, std::chrono::milliseconds(1500));
  INFO(r.out << r.err);
  REQUIRE(r.exited);
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::StartsWith("h3-register-then-start-async: incomplete\n"));
  CHECK_THAT(r.out, Catch::Contains(" executions, "));
  CHECK_THAT(r.out, Catch::Contains(" steps; interrupted by SIGINT\n"));
  CHECK_THAT(r.out, Catch::EndsWith("interrupted by SIGINT\n"));
  CHECK(!std::filesystem::exists(tmp / "out"));  // nothing found, nothing written
}

TEST_CASE("interrupt: SIGTERM keeps every counterexample found, whole, and a JSON summary",
          "[interrupt][binary]") {
  TempDir tmp;
  // DFS with every violation: counterexamples within the first second, then hours of search.
  const Exit r = interrupt_binary({"check", scenario_file("seed-starrocks-4.1.1"),
                                   scenario_file("h3-register-then-start-async"), "--strategy",
                                   "dfs", "--all-violations", "--json", "--out", tmp / "out"},
                                  SIGTERM, std::chrono::milliseconds(4000));
  INFO(r.out << r.err);
  REQUIRE(r.exited);
  CHECK(r.code == 1);  // a violation was found before the signal: violation outranks incomplete
  const nlohmann::json doc = nlohmann::json::parse(r.out);  // whole JSON on stdout
  CHECK(doc["exit_code"] == 1);
  CHECK(doc["interrupted"] == "interrupted by SIGTERM");
  CHECK(doc["not_run"] == nlohmann::json::array({"h3-register-then-start-async"}));
  REQUIRE(doc["scenarios"].size() == 1);
  const nlohmann::json& s = doc["scenarios"][0];
  CHECK(s["verdict"] == "violation");
  CHECK(s["detail"] == "interrupted");
  REQUIRE(!s["counterexamples"].empty());
  // Every counterexample reported is on disk, each a whole trace document.
  std::vector<std::string> files;
  for (const auto& c : s["counterexamples"]) {
    const std::string path = c["trace"].get<std::string>();
    files.push_back(std::filesystem::path(path).filename().string());
    const nlohmann::json trace = nlohmann::json::parse(read_file(path));
    CHECK(trace["format"] == "interleave-trace");
    CHECK(trace["violation"]["invariant"] == c["violation"]["invariant"]);
  }
  std::sort(files.begin(), files.end());
  CHECK(list_dir(tmp / "out") == files);
  check_no_temporaries(tmp / "out");
}

TEST_CASE("interrupt: the gate stops, writes every report marked interrupted, exits 3",
          "[interrupt][binary][gate]") {
  TempDir tmp;
  // Three scenarios in run (file) order: a quick pass, a long search, one never started.
  nlohmann::json quick = nlohmann::json::parse(read_file(scenario_file("h3-register-then-start-async")));
  quick.erase("$schema");
  nlohmann::json slow = quick;
  quick["name"] = "a-quick";
  std::filesystem::create_directories(tmp.path() / "scenarios");
  write_file(tmp / "scenarios/a-quick.json", quick.dump());
  slow["name"] = "b-slow";
  slow["exploration"] = {{"strategy", "dfs"}};
  write_file(tmp / "scenarios/b-slow.json", slow.dump());
  nlohmann::json last = quick;
  last["name"] = "c-last";
  write_file(tmp / "scenarios/c-last.json", last.dump());

  const Exit r = interrupt_binary(
      {"gate", tmp / "scenarios", "--junit", tmp / "gate.xml", "--report", tmp / "report",
       "--sarif", tmp / "gate.sarif", "--summary", tmp / "summary.md"},
      SIGINT, std::chrono::milliseconds(2000));
  INFO(r.out << r.err);
  REQUIRE(r.exited);
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains(
                        "gate: 1 of 3 scenarios meet their expectation; interrupted by SIGINT, 2 "
                        "not decided\n"));
  const std::string junit = read_file(tmp / "gate.xml");
  CHECK_THAT(junit, Catch::StartsWith("<?xml"));
  CHECK_THAT(junit, Catch::EndsWith("</testsuites>\n"));
  CHECK_THAT(junit, Catch::Contains("failures=\"0\" errors=\"0\" skipped=\"2\""));
  CHECK_THAT(junit, Catch::Contains("<skipped message=\"not decided: the search was interrupted "
                                    "by SIGINT after "));
  CHECK_THAT(junit, Catch::Contains("<skipped message=\"not run: the gate was interrupted by "
                                    "SIGINT\"/>"));
  const nlohmann::json sarif = nlohmann::json::parse(read_file(tmp / "gate.sarif"));
  CHECK(sarif["runs"][0]["invocations"][0]["executionSuccessful"] == false);
  CHECK_THAT(read_file(tmp / "report/report.md"),
             Catch::Contains("3 scenarios: 1 passed, 0 failed, 2 not decided (interrupted by "
                             "SIGINT)."));
  CHECK_THAT(read_file(tmp / "summary.md"), Catch::Contains("(interrupted by SIGINT)"));
  check_no_temporaries(tmp.path());
}

TEST_CASE("interrupt: the first signal sets the flag and restores the default action",
          "[interrupt]") {
  struct sigaction before {};
  sigaction(SIGINT, nullptr, &before);
  {
    cli::InterruptHandlers handlers;
    CHECK(!cli::interrupt_requested().load());
    struct sigaction now {};
    sigaction(SIGTERM, nullptr, &now);
    CHECK(now.sa_handler != SIG_DFL);
    ::raise(SIGTERM);  // handled: the process goes on
    CHECK(cli::interrupt_requested().load());
    CHECK(cli::interrupt_signal_name() == "SIGTERM");
    CHECK(cli::interruption_text() == "interrupted by SIGTERM");
    // A second SIGINT or SIGTERM would now end the process at once.
    sigaction(SIGINT, nullptr, &now);
    CHECK(now.sa_handler == SIG_DFL);
    sigaction(SIGTERM, nullptr, &now);
    CHECK(now.sa_handler == SIG_DFL);
  }
  struct sigaction after {};
  sigaction(SIGINT, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);  // restored
}

TEST_CASE("interrupt: SIGINT stops simulate between runs, with the summary of those that ended",
          "[interrupt][binary][simulate]") {
  const Exit r = interrupt_binary(
      {"simulate", scenario_file("seed-starrocks-4.1.1-timed"), "--runs", "1000000000", "-j", "2"},
      SIGINT, std::chrono::milliseconds(1500));
  INFO(r.out << r.err);
  REQUIRE(r.exited);
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::StartsWith("seed-starrocks-4.1.1-timed: ") &&
                        Catch::Contains(" runs in time order (seed 0), interrupted by SIGINT") &&
                        Catch::Contains("live_owner_table_dropped"));
}
