// render_html and render_html_index: the page's lanes, highlights, folding and the data its script
// reads, exactly; every text escaped (the adversarial document); deterministic.
#include "reports/analysis/causal_slice.hpp"
#include "reports/gate/gate_report.hpp"
#include "reports/render/render.hpp"
#include "reports/render/text_util.hpp"
#include "reports/trace/trace_view.hpp"
#include "tests/reports/helpers.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <regex>

using namespace interleave;
using namespace interleave::reports;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// The JSON block the page's script reads.
nlohmann::json page_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"trace-data\">";
  const std::size_t from = page.find(open);
  REQUIRE(from != std::string::npos);
  const std::size_t begin = from + open.size();
  const std::size_t end = page.find("</script>", begin);
  REQUIRE(end != std::string::npos);
  const std::string text = page.substr(begin, end - begin);
  CHECK(text.find('<') == std::string::npos);
  return nlohmann::json::parse(text);
}

}  // namespace

TEST_CASE("html: a lane per actor, a row per step, the violation marked", "[html]") {
  const TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  const Counterexample& c = doc.counterexample;
  const std::string page = render_html(doc);
  const std::vector<std::string> actors = actors_in_order(c);
  for (std::size_t a = 0; a < actors.size(); ++a)
    CHECK_THAT(page, Catch::Contains("<th class=\"actor\" data-lane=\"" + std::to_string(a) +
                                     "\" title=\"" + actors[a] + "\">" + actors[a] + "</th>"));
  CHECK(count(page, "<th class=\"actor\"") == actors.size());
  CHECK(count(page, "<tr class=\"step") == c.steps.size());
  // Each row has one cell per lane: the step's card in its actor's.
  CHECK(count(page, "<td class=\"lane\"></td>") == c.steps.size() * (actors.size() - 1));
  const std::optional<std::size_t> v = violating_position(c);
  REQUIRE(v);
  CHECK(count(page, " violating\"") == 1);
  CHECK_THAT(page, Catch::Contains("<tr class=\"step violating\" id=\"step-" + std::to_string(*v) +
                                   "\" data-p=\"" + std::to_string(*v) + "\">"));
  CHECK_THAT(page, Catch::Contains(describe_violation(c, Wording::kReport)));
  // Self-contained: no address anywhere, the script and style inline.
  CHECK(page.find("src=") == std::string::npos);
  CHECK(page.find("href=") == std::string::npos);
  CHECK(page.find("http:") == std::string::npos);
  CHECK(page.find("https:") == std::string::npos);
  CHECK(page.find("url(") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
  CHECK(count(page, "<script") == 2);
  CHECK(count(page, "</script>") == 2);
  CHECK(page == render_html(doc));  // deterministic
  const nlohmann::json data = page_data(page);
  CHECK(data["actors"] == actors);
  CHECK(data["violating"] == *v);
  CHECK(data["steps"].size() == c.steps.size());
  CHECK(data["race"].is_null());
}

TEST_CASE("html: the race's steps, the slice folded, log lines per step", "[html]") {
  TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  const Counterexample& c = doc.counterexample;
  const std::size_t last = *violating_position(c);
  REQUIRE(last >= 2);
  doc.race = Race{0, last, {"x"}, "the execution completes and every property holds (9 steps)"};
  doc.not_involved.clear();
  HtmlOptions options;
  options.log.resize(c.steps.size());
  options.log[0] = {"2025-05-16 05:10:31.962+08:00 WARN <line> & more"};
  const std::string page = render_html(doc, options);
  CHECK(count(page, " race\"") + count(page, " race ") == 2);
  CHECK_THAT(page, Catch::Contains("<span class=\"badge race-badge\">race 1</span>"));
  CHECK_THAT(page, Catch::Contains("<span class=\"badge race-badge\">race 2</span>"));
  CHECK_THAT(page, Catch::Contains("<div class=\"log\" title=\"2025-05-16 05:10:31.962+08:00 WARN "
                                   "&lt;line&gt; &amp; more\">2025-05-16 05:10:31.962+08:00 WARN "
                                   "&lt;line&gt; &amp; more</div>"));
  const nlohmann::json data = page_data(page);
  CHECK(data["race"] == nlohmann::json::array({0, last}));
  CHECK(data["steps"][0]["log"] == nlohmann::json::array({options.log[0][0]}));
  CHECK_FALSE(data["steps"][1].contains("log"));

  // The steps outside the causal slice: a fold row per run, each step marked with its run.
  const CausalSlice slice = causal_slice(doc);
  const std::size_t folded = c.steps.size() - slice.involved_count();
  CHECK(count(page, " uninvolved") == folded);
  std::size_t runs = 0;
  for (std::size_t p = 0; p < c.steps.size(); ++p)
    if (!slice.involved[p] && (p == 0 || slice.involved[p - 1])) ++runs;
  CHECK(count(page, "<tr class=\"fold\"") == runs);
  if (folded > 0)
    CHECK_THAT(page,
               Catch::Contains(std::to_string(slice.involved_count()) + " of " +
                               std::to_string(c.steps.size()) + " steps are in the causal slice"));
}

TEST_CASE("html: the states as the changes each step made", "[html]") {
  TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  Counterexample& c = doc.counterexample;
  c.states.assign(c.steps.size(), nlohmann::json::object());
  c.states[0] = {{"a", 1}};
  if (c.steps.size() > 1) c.states[1] = {{"a", 1}, {"b", 2}};
  if (c.steps.size() > 2) c.states[2] = {{"b", 3}};
  for (std::size_t p = 3; p < c.steps.size(); ++p)
    c.states[p] = c.states[2];
  const nlohmann::json data = page_data(render_html(doc));
  CHECK(data["has_states"] == true);
  CHECK(data["steps"][0]["set"] == nlohmann::json{{"a", 1}});
  CHECK(data["steps"][1]["set"] == nlohmann::json{{"b", 2}});
  CHECK(data["steps"][2]["set"] == nlohmann::json{{"b", 3}});
  CHECK(data["steps"][2]["removed"] == nlohmann::json::array({"a"}));
  CHECK(data["steps"][3]["set"] == nlohmann::json::object());
  CHECK_FALSE(data["steps"][3].contains("removed"));
}

TEST_CASE("html: every text is escaped", "[html]") {
  const TraceDocument doc = test::adversarial_document();
  const std::string page = render_html(doc);
  CHECK(page.find("<script>alert") == std::string::npos);
  CHECK(page.find("<b>bold") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK(count(page, "<script") == 2);
  CHECK(count(page, "</script>") == 2);
  // Valid UTF-8 throughout.
  CHECK(text::valid_utf8(page) == page);
  const nlohmann::json data = page_data(page);
  CHECK(data["actors"] == actors_in_order(doc.counterexample));
  CHECK(page == render_html(doc));
}

TEST_CASE("html: the gate's index, failures first, each counterexample linked", "[html]") {
  GateReport report;
  report.tool_version = "interleave 0.1.0";
  GateCase pass;
  pass.scenario = "fine";
  pass.file = "scenarios/fine.json";
  pass.expected = "holds";
  pass.actual = "holds";
  pass.passed = true;
  pass.executions = 12;
  GateCase fail;
  fail.scenario = "racy <one>";
  fail.file = "scenarios/racy.json";
  fail.expected = "holds";
  fail.actual = "violation of x == y";
  fail.failure = "expected holds, got violation of x == y";
  fail.traces.push_back(test::explore_to_document(test::locked_pair_race(), "racy"));
  fail.counterexample_paths.push_back("out/racy.x-y.trace.json");
  fail.counterexample_pages.push_back("racy.x-y&\".html");
  report.cases = {pass, fail};
  const std::string page = render_html_index(report);
  CHECK_THAT(page, Catch::Contains("2 scenarios: 1 passed, 1 failed."));
  const std::size_t failed_row = page.find("<tr class=\"fail\">");
  const std::size_t passed_row = page.find("<tr class=\"pass\">");
  REQUIRE(failed_row != std::string::npos);
  REQUIRE(passed_row != std::string::npos);
  CHECK(failed_row < passed_row);
  CHECK_THAT(page, Catch::Contains("<b>racy &lt;one&gt;</b>"));
  CHECK_THAT(page, Catch::Contains("<a href=\"racy.x-y&amp;&quot;.html\">x == y</a>"));
  CHECK(count(page, "<script") == 0);
  CHECK(page == render_html_index(report));
}
