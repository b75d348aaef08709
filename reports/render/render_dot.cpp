// render_dot: the happens-before graph of a counterexample as Graphviz DOT, built as a
// boost::subgraph of an adjacency_list (one child subgraph, drawn as a cluster, per actor) and
// written by boost::write_graphviz.
#include "reports/analysis/diagram_view.hpp"
#include "reports/render/render.hpp"
#include "reports/render/text_util.hpp"
#include "reports/trace/trace_view.hpp"

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

// A node's label: "#28 D2", then what happened wrapped and cut to kDotLabelLines lines.
std::string node_label(const TraceStep& step) {
  std::string label = dot_text("#" + std::to_string(step.index) + " " + step_label(step));
  if (step.what.empty()) return label;
  const std::vector<std::string> lines = text::wrap(text::printable(step.what), kDotLabelWidth);
  for (std::size_t i = 0; i < lines.size() && i < kDotLabelLines; ++i) {
    const bool last = i + 1 == kDotLabelLines && lines.size() > kDotLabelLines;
    label += "\\n" + dot_text(last ? text::shorten(lines[i] + " …", kDotLabelWidth) : lines[i]);
  }
  return label;
}

}  // namespace

std::string render_dot(const TraceDocument& doc) {
  return render_dot(doc, DiagramOptions{});
}

std::string render_dot(const TraceDocument& doc, const DiagramOptions& options) {
  const Counterexample& c = doc.counterexample;
  const DiagramView view = diagram_view(doc, options.full);
  const std::size_t n = c.steps.size();
  std::vector<std::size_t> vertex(n, n);  // the vertex of each drawn step
  std::size_t drawn = 0;
  for (std::size_t s = 0; s < n; ++s)
    if (view.drawn[s]) vertex[s] = drawn++;
  const std::size_t violation_vertex = drawn;

  Graph g(drawn + 1);  // the drawn steps, then the violation
  boost::get_property(g, boost::graph_name) = "happens_before";
  Attributes& graph_attributes = boost::get_property(g, boost::graph_graph_attribute);
  std::string title = describe_violation(c, Wording::kReport);
  if (view.left_out > 0)
    title += "\n(" + std::to_string(view.left_out) + " step" + (view.left_out == 1 ? "" : "s") +
             " not involved are not drawn; --full draws every step)";
  graph_attributes["label"] = dot_lines(title, 80);
  graph_attributes["labelloc"] = "t";
  graph_attributes["rankdir"] = "TB";
  boost::get_property(g, boost::graph_vertex_attribute) = {{"shape", "box"},
                                                           {"style", "rounded,filled"}};

  std::map<std::string, Graph*> cluster_of;
  for (std::size_t i = 0; i < view.actors.size(); ++i) {
    Graph& cluster = g.create_subgraph();
    boost::get_property(cluster, boost::graph_name) = "cluster_" + std::to_string(i);
    boost::get_property(cluster, boost::graph_graph_attribute) = {
        {"label", dot_text(view.actors[i])}, {"style", "rounded"}, {"color", "gray60"}};
    cluster_of.emplace(view.actors[i], &cluster);
  }

  auto vertex_attributes = boost::get(boost::vertex_attribute, g);
  for (std::size_t s = 0; s < n; ++s) {
    if (!view.drawn[s]) continue;
    const TraceStep& step = c.steps[s];
    const std::size_t actor = static_cast<std::size_t>(
        std::find(view.actors.begin(), view.actors.end(), step.actor) - view.actors.begin());
    boost::add_vertex(vertex[s], *cluster_of.at(step.actor));
    Attributes a{
        {"label", node_label(step)},
        {"tooltip", dot_text(accesses_text(step) + (step.what.empty() ? "" : "\n" + step.what),
                             DotField::kTooltip)},
        {"fillcolor", kPalette[actor % kPalette.size()]}};
    if (view.violating == s) {
      a["color"] = "red";
      a["penwidth"] = "3";
      a["style"] = "rounded,filled,bold";
    } else if (view.race_first == s || view.race_second == s) {
      a["color"] = "darkorange";
      a["penwidth"] = "2";
    }
    vertex_attributes[vertex[s]] = std::move(a);
  }

  auto edge_attributes = boost::get(boost::edge_attribute, g);
  bool race_drawn = false;
  for (const HbEdge& e : view.edges) {
    const auto [edge, added] = boost::add_edge(vertex[e.from], vertex[e.to], g);
    const bool race = e.from == view.race_first && e.to == view.race_second;
    if (race) {
      race_drawn = true;
      edge_attributes[edge] = {
          {"class", "race"},       {"style", "bold"},
          {"color", "darkorange"}, {"fontcolor", "darkorange"},
          {"penwidth", "2.5"},     {"label", dot_text("the race: " + objects_text(e.accesses))}};
      continue;
    }
    if (!added) continue;  // program order and a conflict between the same pair: one edge
    if (e.kind == HbEdge::Kind::kProgramOrder) {
      edge_attributes[edge] = {{"class", "program_order"}, {"style", "solid"}, {"weight", "10"}};
    } else if (e.kind == HbEdge::Kind::kEnabling) {
      edge_attributes[edge] = {{"class", "enabling"}, {"style", "dotted"}, {"color", "gray40"}};
    } else {
      edge_attributes[edge] = {{"class", "conflict"},
                               {"style", "dashed"},
                               {"color", "blue"},
                               {"fontcolor", "blue"},
                               {"label", dot_text(objects_text(e.accesses))}};
    }
  }
  if (view.race_first && !race_drawn) {
    const auto [edge, added] =
        boost::add_edge(vertex[*view.race_first], vertex[*view.race_second], g);
    if (added)
      edge_attributes[edge] = {{"class", "race"},
                               {"style", "bold"},
                               {"color", "darkorange"},
                               {"fontcolor", "darkorange"},
                               {"penwidth", "2.5"},
                               {"label", dot_text("the race: " + objects_text(view.race_objects))}};
  }

  vertex_attributes[violation_vertex] = {{"label", "violation\\n" + dot_lines(c.invariant, 40)},
                                         {"tooltip", dot_text(c.message, DotField::kTooltip)},
                                         {"shape", "octagon"},
                                         {"style", "bold"},
                                         {"color", "red"},
                                         {"fontcolor", "red"},
                                         {"penwidth", "3"}};
  if (view.violating) {
    const auto [edge, added] = boost::add_edge(vertex[*view.violating], violation_vertex, g);
    if (added)
      edge_attributes[edge] = {{"class", "violation"}, {"color", "red"}, {"penwidth", "3"}};
  } else {
    std::map<std::string, std::size_t> last_step;  // of each actor, among the drawn steps
    for (std::size_t s = 0; s < n; ++s)
      if (view.drawn[s]) last_step[c.steps[s].actor] = s;
    for (const std::string& actor : view.actors) {
      const auto [edge, added] = boost::add_edge(vertex[last_step.at(actor)], violation_vertex, g);
      if (added) edge_attributes[edge] = {{"class", "end"}, {"style", "dotted"}, {"color", "red"}};
    }
  }

  std::ostringstream os;
  os.imbue(std::locale::classic());
  boost::write_graphviz(os, g);
  return os.str();
}

}  // namespace interleave::reports
