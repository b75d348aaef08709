// render_dot: the happens-before graph of a counterexample as Graphviz DOT, built as a
// boost::subgraph of an adjacency_list (one child subgraph, drawn as a cluster, per actor) and
// written by boost::write_graphviz.
#include "reports/happens_before.hpp"
#include "reports/render.hpp"
#include "reports/text_util.hpp"
#include "reports/trace_view.hpp"

// GCC 12 reports a false -Wmaybe-uninitialized inside Boost.Graph's edge iterator (a
// boost::optional member) once write_graphviz is inlined here; the state is per source location,
// so ignoring it around these includes silences exactly that.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/graph/subgraph.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <array>
#include <locale>
#include <map>
#include <sstream>

namespace interleave::reports {

namespace {

using Attributes = std::map<std::string, std::string>;
using Graph = boost::subgraph<boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS,
    boost::property<boost::vertex_attribute_t, Attributes>,
    boost::property<boost::edge_index_t, int, boost::property<boost::edge_attribute_t, Attributes>>,
    boost::property<boost::graph_name_t, std::string,
                    boost::property<boost::graph_graph_attribute_t, Attributes,
                                    boost::property<boost::graph_vertex_attribute_t, Attributes,
                                                    boost::property<boost::graph_edge_attribute_t,
                                                                    Attributes>>>>>>;

// Fill colours of the actors' steps, in order of first appearance (cycled).
constexpr std::array<const char*, 8> kPalette = {"#e8f0fe", "#e6f4ea", "#fef7e0", "#f3e8fd",
                                                 "#e0f7fa", "#fde7f3", "#f1f3f4", "#fff3e0"};

// Where a text goes: Graphviz expands escape sequences (\N, \G, \n...) once in labels but twice
// in tooltips, where no quoting of a backslash survives.
enum class DotField { kLabel, kTooltip };

// A DOT escString from document text. boost::write_graphviz quotes the value and escapes '"'.
// Here: '&' becomes "&amp;" (Graphviz decodes HTML entities in labels, and SVG keeps them in
// tooltips), newlines the centred line break "\n", and a backslash "\\" in labels (read as one
// literal backslash) or U+29F5 REVERSE SOLIDUS OPERATOR in tooltips.
std::string dot_text(std::string_view raw, DotField field = DotField::kLabel) {
  const std::string s = text::printable(raw, /*keep_newlines=*/true);
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    if (ch == '\\')
      out += field == DotField::kLabel ? "\\\\" : "\xE2\xA7\xB5";
    else if (ch == '&')
      out += "&amp;";
    else if (ch == '\n')
      out += "\\n";
    else
      out += ch;
  }
  return out;
}

// Wrapped text joined by DOT line breaks.
std::string dot_lines(std::string_view raw, std::size_t width) {
  std::string out;
  for (const std::string& line : text::wrap(text::printable(raw), width)) {
    if (!out.empty()) out += "\\n";
    out += dot_text(line);
  }
  return out;
}

std::string accesses_text(const TraceStep& step) {
  const std::string s = describe_accesses(step, Wording::kReport);
  return s.empty() ? std::string("no declared access") : s;
}

}  // namespace

std::string render_dot(const TraceDocument& doc) {
  const Counterexample& c = doc.counterexample;
  const std::vector<std::string> actors = actors_in_order(c);
  const std::optional<std::size_t> violating = violating_position(c);
  const std::size_t n = c.steps.size();

  Graph g(n + (violating ? 0 : 1));  // vertex s is step s; vertex n the violation, if after them
  boost::get_property(g, boost::graph_name) = "happens_before";
  Attributes& graph_attributes = boost::get_property(g, boost::graph_graph_attribute);
  graph_attributes["label"] = dot_lines(describe_violation(c, Wording::kReport), 80);
  graph_attributes["labelloc"] = "t";
  graph_attributes["rankdir"] = "TB";
  boost::get_property(g, boost::graph_vertex_attribute) = {{"shape", "box"},
                                                           {"style", "rounded,filled"}};

  std::map<std::string, Graph*> cluster_of;
  for (std::size_t i = 0; i < actors.size(); ++i) {
    Graph& cluster = g.create_subgraph();
    boost::get_property(cluster, boost::graph_name) = "cluster_" + std::to_string(i);
    boost::get_property(cluster, boost::graph_graph_attribute) = {
        {"label", dot_text(actors[i])}, {"style", "rounded"}, {"color", "gray60"}};
    cluster_of.emplace(actors[i], &cluster);
  }

  auto vertex_attributes = boost::get(boost::vertex_attribute, g);
  for (std::size_t s = 0; s < n; ++s) {
    const TraceStep& step = c.steps[s];
    const std::size_t actor = static_cast<std::size_t>(
        std::find(actors.begin(), actors.end(), step.actor) - actors.begin());
    boost::add_vertex(s, *cluster_of.at(step.actor));
    Attributes a{
        {"label", dot_text(std::to_string(step.index) + ": " + step.actor) + "\\n" +
                      dot_text(step_label(step))},
        {"tooltip", dot_text(accesses_text(step) + (step.what.empty() ? "" : "\n" + step.what),
                             DotField::kTooltip)},
        {"fillcolor", kPalette[actor % kPalette.size()]}};
    if (violating == s) {
      a["color"] = "red";
      a["fontcolor"] = "red";
      a["penwidth"] = "3";
      a["style"] = "rounded,filled,bold";
    }
    vertex_attributes[s] = std::move(a);
  }

  auto edge_attributes = boost::get(boost::edge_attribute, g);
  for (const HbEdge& e : happens_before_edges(c.steps)) {
    const auto [edge, added] = boost::add_edge(e.from, e.to, g);
    if (!added) continue;
    if (e.kind == HbEdge::Kind::kProgramOrder) {
      edge_attributes[edge] = {{"class", "program_order"}, {"style", "solid"}, {"weight", "10"}};
      continue;
    }
    std::string label;
    for (const ConflictingAccess& p : e.accesses) {
      if (!label.empty()) label += "\n";
      label += p.object + ": " + std::string(to_string(p.from_kind)) + " -> " +
               std::string(to_string(p.to_kind));
    }
    edge_attributes[edge] = {{"class", "conflict"},
                             {"style", "dashed"},
                             {"color", "blue"},
                             {"fontcolor", "blue"},
                             {"label", dot_text(label)}};
  }

  if (!violating) {
    vertex_attributes[n] = {{"label", "violation\\n" + dot_lines(c.invariant, 40)},
                            {"tooltip", dot_text(c.message, DotField::kTooltip)},
                            {"shape", "octagon"},
                            {"style", "bold"},
                            {"color", "red"},
                            {"fontcolor", "red"},
                            {"penwidth", "3"}};
    std::map<std::string, std::size_t> last_step;  // of each actor
    for (std::size_t s = 0; s < n; ++s)
      last_step[c.steps[s].actor] = s;
    for (const std::string& actor : actors) {
      const auto it = last_step.find(actor);
      if (it == last_step.end()) continue;
      const auto [edge, added] = boost::add_edge(it->second, n, g);
      if (added) edge_attributes[edge] = {{"class", "end"}, {"style", "dotted"}, {"color", "red"}};
    }
  }

  std::ostringstream os;
  os.imbue(std::locale::classic());
  boost::write_graphviz(os, g);
  return os.str();
}

}  // namespace interleave::reports
