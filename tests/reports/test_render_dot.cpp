// render_dot: exact output and edges for small graphs, and every output rendered by Graphviz.
#include "reports/render/render.hpp"
#include "tests/reports/helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <sstream>

using namespace interleave;
using namespace interleave::reports;

namespace {

// "FROM -> TO CLASS[ LABEL]" for each edge line of a DOT text written by render_dot.
std::vector<std::string> edges_of(const std::string& dot) {
  static const std::regex kEdge(R"re(^(\d+) -> (\d+)\[(.*)\];$)re");
  static const std::regex kClass(R"re((?:^|, )class=([a-z_]+))re");
  static const std::regex kLabel(R"re((?:^|, )label=(?:"([^"]*)"|([^,\]]+)))re");
  std::vector<std::string> edges;
  std::istringstream in(dot);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, kEdge)) continue;
    const std::string attributes = m[3];
    std::smatch c;
    std::smatch l;
    std::string e = m[1].str() + " -> " + m[2].str();
    if (std::regex_search(attributes, c, kClass)) e += " " + c[1].str();
    if (std::regex_search(attributes, l, kLabel)) e += " " + l[1].str() + l[2].str();
    edges.push_back(e);
  }
  return edges;
}

}  // namespace

TEST_CASE("dot graph of the lost update, exactly", "[dot]") {
  const TraceDocument doc = test::explore_to_document(test::lost_update(), "lost-update");
  const std::string expected = R"(digraph happens_before {
graph [
label="counter == 2 violated after the last step: counter is 1 after two increments", labelloc=t, rankdir=TB];
node [
shape=box, style="rounded,filled"];
subgraph cluster_0 {
graph [
color=gray60, label=A, style=rounded];
0[fillcolor="#e8f0fe", label="#0 read\nread counter = 0", tooltip="read counter\nread counter = 0"];
2[fillcolor="#e8f0fe", label="#2 write\nwrite counter = 1", tooltip="write counter\nwrite counter = 1"];
0 -> 2[class=program_order, style=solid, weight=10];
}
subgraph cluster_1 {
graph [
color=gray60, label=B, style=rounded];
1[fillcolor="#e6f4ea", label="#1 read\nread counter = 0", tooltip="read counter\nread counter = 0"];
3[fillcolor="#e6f4ea", label="#3 write\nwrite counter = 1", tooltip="write counter\nwrite counter = 1"];
1 -> 3[class=program_order, style=solid, weight=10];
}
4[color=red, fontcolor=red, label="violation\ncounter == 2", penwidth=3, shape=octagon, style=bold, tooltip="counter is 1 after two increments"];
1 -> 2[class=conflict, color=blue, fontcolor=blue, label=counter, style=dashed];
2 -> 3[class=conflict, color=blue, fontcolor=blue, label=counter, style=dashed];
2 -> 4[class=end, color=red, style=dotted];
3 -> 4[class=end, color=red, style=dotted];
}
)";
  CHECK(render_dot(doc) == expected);
}

TEST_CASE(
    "dot graph of the three-actor race: edges no other path implies, the violation tied to "
    "its step",
    "[dot]") {
  const TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  const std::string dot = render_dot(doc);
  // Program order inside each actor's cluster, then the conflicts that no path implies (1 -> 5
  // on x and 2 -> 7 on y follow through the lock: 3 -> 4), then the violating step 7 to the
  // violation node 8.
  const std::vector<std::string> expected = {
      "0 -> 1 program_order", "1 -> 2 program_order", "2 -> 3 program_order",
      "4 -> 5 program_order", "6 -> 7 program_order", "3 -> 4 conflict m",
      "5 -> 6 conflict x",    "7 -> 8 violation",
  };
  CHECK(edges_of(dot) == expected);
  CHECK(dot.find("7[color=red, fillcolor=\"#fef7e0\", label=\"#7 read y") != std::string::npos);
  CHECK(dot.find("8[color=red, fontcolor=red, label=\"violation\\n") != std::string::npos);
  CHECK(dot.find("subgraph cluster_2 {\ngraph [\ncolor=gray60, label=Auditor, style=rounded];") !=
        std::string::npos);
}

TEST_CASE("dot graph: the race's edge is drawn and named even when another path implies it",
          "[dot]") {
  TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  const auto& steps = doc.counterexample.steps;
  doc.race = Race{steps[1].index, steps[5].index, {"x"}, "the execution completes"};
  const std::vector<std::string> edges = edges_of(render_dot(doc));
  CHECK(std::find(edges.begin(), edges.end(), "1 -> 5 race the race: x") != edges.end());
}

TEST_CASE("dot graph of a deadlock: the violation node after each actor's last step", "[dot]") {
  const TraceDocument doc = test::explore_to_document(test::lock_order_deadlock(), "deadlock");
  const std::vector<std::string> expected = {"0 -> 2 end", "1 -> 2 end"};
  CHECK(edges_of(render_dot(doc)) == expected);
}

TEST_CASE("Graphviz renders every dot graph, adversarial labels included", "[dot][graphviz]") {
  if (!test::have_tool("dot")) {
    WARN("Graphviz 'dot' is not installed: the DOT outputs were not rendered");
    return;
  }
  std::vector<std::pair<std::string, TraceDocument>> docs = {
      {"lost-update", test::explore_to_document(test::lost_update(), "lost-update")},
      {"locked-pair", test::explore_to_document(test::locked_pair_race(), "locked-pair")},
      {"deadlock", test::explore_to_document(test::lock_order_deadlock(), "deadlock")},
      {"adversarial", test::adversarial_document()},
      {"no-step", TraceDocument{}},  // a violation before any step: only the violation node
  };
  for (const auto& [name, doc] : docs) {
    INFO(name);
    const test::TempFile in(name + ".dot", render_dot(doc, DiagramOptions{true}));
    const test::TempFile svg(name + ".svg", "");
    std::string output;
    CHECK(test::run_command("dot -Tsvg '" + in.path() + "' -o '" + svg.path() + "'", output) == 0);
    CHECK(output.empty());  // not even a warning
    std::string rendered;
    REQUIRE(test::run_command("cat '" + svg.path() + "'", rendered) == 0);
    CHECK(rendered.find("<svg") != std::string::npos);
    if (name == "adversarial") {
      // Labels arrive intact (as SVG text): quotes, HTML-looking text, backslashes that Graphviz
      // would otherwise expand (\N is the node name), entities.
      CHECK(rendered.find("semi;colon #hash &quot;dq&quot; &#39;sq&#39;") != std::string::npos);
      CHECK(rendered.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
      CHECK(rendered.find("\\N\\G &amp;amp;</text>") != std::string::npos);
      // In tooltips a backslash is shown as U+29F5.
      CHECK(rendered.find("C:\u29F5path\u29F5n\u29F5N \u29F5G \u29F5 end") != std::string::npos);
    }
  }
}

TEST_CASE("renderers are pure: identical documents give byte-identical output",
          "[text][mermaid][dot]") {
  for (const auto& [program, name] : {std::pair{test::lost_update(), "lost-update"},
                                      {test::locked_pair_race(), "locked-pair"},
                                      {test::lock_order_deadlock(), "deadlock"}}) {
    const TraceDocument a = test::explore_to_document(program, name);
    const TraceDocument b = test::explore_to_document(program, name);
    CHECK(render_text(a) == render_text(b));
    CHECK(render_mermaid(a) == render_mermaid(b));
    CHECK(render_dot(a) == render_dot(b));
  }
}
