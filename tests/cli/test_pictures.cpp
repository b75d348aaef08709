// The pictures of the seed's counterexample (issue 15 point 5): the diagrams draw the causal
// slice by default and every step with --full, Graphviz renders both at a readable size, and
// Mermaid's own renderer (mermaid-cli's `mmdc`, on Debian's chromium) draws them when installed.
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <regex>

using namespace interleave;
using namespace interleave::test;

namespace {

const char* const kTrace = "out/seed-starrocks-4.1.1.live-owner-table-dropped.trace.json";

std::size_t count(const std::string& text, const std::regex& re) {
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

bool have(const std::string& tool) {
  return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace

TEST_CASE("pictures: the seed's diagrams draw its causal slice, --full every step",
          "[binary][model][pictures]") {
  TempDir tmp;
  std::filesystem::create_directory_symlink(std::string(INTERLEAVE_SOURCE_DIR) + "/scenarios",
                                            tmp.path() / "scenarios");
  REQUIRE(run_binary_in(tmp.path(), {"check", "scenarios/seed-starrocks-4.1.1.json", "-q"}).code ==
          1);
  const CliResult json = run_binary_in(tmp.path(), {"show", kTrace, "--format", "json"});
  REQUIRE(json.code == 0);
  const std::size_t steps = nlohmann::json::parse(json.out).at("steps").size();

  const CliResult mermaid = run_binary_in(tmp.path(), {"show", kTrace, "--format", "mermaid"});
  const CliResult mermaid_full =
      run_binary_in(tmp.path(), {"show", kTrace, "--format", "mermaid", "--full"});
  REQUIRE(mermaid.code == 0);
  REQUIRE(mermaid_full.code == 0);
  static const std::regex kStepNote(R"(\n    Note over a\d+: #35;\d+ )");
  const std::size_t drawn = count(mermaid.out, kStepNote);
  CHECK(drawn < steps / 2);  // the client session and what else is not involved: left out
  CHECK(count(mermaid_full.out, kStepNote) == steps);
  CHECK_THAT(mermaid.out, Catch::Contains(std::to_string(steps - drawn) +
                                          " steps not involved, not drawn (--full draws them)"));
  CHECK_THAT(mermaid.out, Catch::Contains(": the race#58; "));
  CHECK_THAT(mermaid.out, Catch::Contains("Note over a2: violation#58; live_owner_table_dropped"));
  CHECK_THAT(mermaid.out, !Catch::Contains(" as Session"));  // the client is not involved

  const CliResult dot = run_binary_in(tmp.path(), {"show", kTrace, "--format", "dot"});
  const CliResult dot_full =
      run_binary_in(tmp.path(), {"show", kTrace, "--format", "dot", "--full"});
  REQUIRE(dot.code == 0);
  static const std::regex kStepNode(R"(\n\d+\[[^\n]*fillcolor=)");
  CHECK(count(dot.out, kStepNode) == drawn);
  CHECK(count(dot_full.out, kStepNode) == steps);
  static const std::regex kViolationEdge(R"(\n\d+ -> \d+\[class=violation)");
  CHECK(count(dot.out, kViolationEdge) == 1);  // tied to the step that dropped the table
  CHECK(count(dot.out, std::regex(R"(\n\d+ -> \d+\[class=race)")) == 1);

  if (!have("dot")) {
    WARN("Graphviz 'dot' is not installed: the seed's DOT graph was not rendered");
  } else {
    write_file(tmp / "seed.dot", dot.out);
    REQUIRE(std::system(("dot -Tsvg " + shell_quote(tmp / "seed.dot") + " -o " +
                         shell_quote(tmp / "seed.svg") + " 2>/dev/null")
                            .c_str()) == 0);
    // Readable on a 1600-pixel screen: no wider than that (points, at 96 dpi about 1.33 px each).
    std::smatch m;
    const std::string svg = read_file(tmp / "seed.svg");
    REQUIRE(std::regex_search(svg, m, std::regex(R"(<svg width="(\d+)pt")")));
    CHECK(std::stoi(m[1]) * 4 / 3 <= 1600);
  }
  if (!have("mmdc")) {
    WARN("mermaid-cli 'mmdc' is not installed: the seed's Mermaid diagram was not rendered");
  } else {
    write_file(tmp / "seed.mmd", mermaid.out);
    CHECK(std::system(("mmdc -i " + shell_quote(tmp / "seed.mmd") + " -o " +
                       shell_quote(tmp / "seed-mermaid.svg") + " >/dev/null 2>&1")
                          .c_str()) == 0);
    CHECK(read_file(tmp / "seed-mermaid.svg").find("<svg") != std::string::npos);
  }
}
