// The HTML pages from the command line: `show --format html` with the model's log lines,
// `replay --html FILE`, `check --html`, and the gate's index.html with a page per counterexample;
// bad input writes nothing.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace interleave;
using namespace interleave::test;

namespace {

const char* const kTrace = "out/seed-starrocks-4.1.1.live-owner-table-dropped.trace.json";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("html: the seed's page, from show, replay --html and check --html",
          "[binary][model][html]") {
  TempDir tmp;
  std::filesystem::create_directory_symlink(std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios",
                                            tmp.path() / "scenarios");
  REQUIRE(
      run_binary_in(tmp.path(), {"check", "scenarios/seed-starrocks-4.1.1.json", "-q", "--html"})
          .code == 1);
  const nlohmann::json trace = nlohmann::json::parse(read_file(tmp / kTrace));
  const CliResult show = run_binary_in(tmp.path(), {"show", kTrace, "--format", "html"});
  REQUIRE(show.code == 0);
  const std::string& page = show.out;
  CHECK(page.size() < 2 * 1024 * 1024);
  CHECK(count(page, "<tr class=\"step") == trace.at("steps").size());
  // The log line each step printed, as `show --format log` prints it.
  const CliResult log = run_binary_in(tmp.path(), {"show", kTrace, "--format", "log"});
  REQUIRE(log.code == 0);
  std::size_t lines = 0;
  for (std::size_t at = 0, end; (end = log.out.find('\n', at)) != std::string::npos; at = end + 1) {
    ++lines;
    std::string escaped;
    for (const char ch : log.out.substr(at, end - at))
      escaped += ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : ch == '&' ? "&amp;" : std::string(1, ch);
    CHECK_THAT(page, Catch::Contains(">" + escaped + "</div>"));
  }
  CHECK(lines > 0);
  CHECK(count(page, "<div class=\"log\"") == lines);
  // check --html wrote the same page beside the trace; replay --html writes it too.
  CHECK(read_file(tmp / "out/seed-starrocks-4.1.1.live-owner-table-dropped.html") == page);
  const CliResult replay =
      run_binary_in(tmp.path(), {"replay", kTrace, "-q", "--html", "page/seed.html"});
  CHECK(replay.code == 1);
  CHECK(read_file(tmp / "page/seed.html") == page);
}

TEST_CASE("html: bad input writes no page", "[binary][model][html]") {
  TempDir tmp;
  std::filesystem::create_directory_symlink(std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios",
                                            tmp.path() / "scenarios");
  REQUIRE(run_binary_in(tmp.path(), {"check", "scenarios/seed-starrocks-4.1.1.json", "-q"}).code ==
          1);
  std::string text = read_file(tmp / kTrace);
  write_file(tmp / "truncated.trace.json", text.substr(0, text.size() / 2));
  const CliResult bad =
      run_binary_in(tmp.path(), {"replay", "truncated.trace.json", "--html", "bad.html"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("truncated.trace.json"));
  const CliResult show_bad =
      run_binary_in(tmp.path(), {"show", "truncated.trace.json", "--format", "html"});
  CHECK(show_bad.code == 2);
  CHECK(show_bad.out.empty());
  // An --html that names a directory: refused before the replay runs.
  std::filesystem::create_directory(tmp.path() / "dir.html");
  const CliResult dir = run_binary_in(tmp.path(), {"replay", kTrace, "--html", "dir.html"});
  CHECK(dir.code == 2);
  CHECK_THAT(dir.err, Catch::Contains("--html"));
  CHECK(dir.out.empty());
  const auto files = list_dir(tmp.path());
  CHECK(std::count(files.begin(), files.end(), "bad.html") == 0);
  CHECK(list_dir(tmp.path() / "dir.html").empty());
}

TEST_CASE("html: gate --report writes index.html and a page per counterexample", "[gate][html]") {
  TempDir tmp;
  for (const char* f : {"racy.json", "locked.json", "deadlock.json", "failing.json"})
    write_file(tmp / f, read_file(test_scenario(f)));
  const auto r = run_cli({"gate", tmp.path().string(), "--report", tmp / "report"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const auto files = list_dir(tmp.path() / "report");
  std::vector<std::string> traces, pages;
  for (const auto& f : files) {
    if (f.ends_with(".trace.json"))
      traces.push_back(f.substr(0, f.size() - 11));
    else if (f.ends_with(".html") && f != "index.html")
      pages.push_back(f.substr(0, f.size() - 5));
  }
  CHECK(traces.size() == 4);
  CHECK(pages == traces);  // one page per counterexample, named after its trace
  CHECK(std::count(files.begin(), files.end(), "index.html") == 1);
  CHECK(std::count(files.begin(), files.end(), "report.md") == 1);
  const std::string index = read_file(tmp / "report/index.html");
  CHECK_THAT(index, Catch::Contains("4 scenarios: 4 passed, 0 failed."));
  for (const auto& p : pages)
    CHECK(count(index, "<a href=\"" + p + ".html\">") == 1);
  CHECK(count(index, "<tr class=\"pass\">") == 4);
}
