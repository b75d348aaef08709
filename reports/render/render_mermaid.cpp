// render_mermaid: the counterexample as a Mermaid sequenceDiagram.
//
// Mermaid's sequence grammar ends a message or note text at '#', ';' or a newline, reads "%%" as
// a comment and "%%{" as a directive anywhere, and lets '<' '>' through as HTML. Text taken from
// the document is therefore written with Mermaid's entity codes (`#59;`, `#lt;`...), which
// Mermaid decodes when it draws. ':' is encoded too: Mermaid strips the last character of any line
// matching `style.*:\S*#.*;` (its style directive), which a label such as "style:x;" would
// otherwise trigger, and a text starting with "wrap:" would be taken as a wrapping directive.
#include "reports/analysis/diagram_view.hpp"
#include "reports/render/render.hpp"
#include "reports/render/text_util.hpp"
#include "reports/trace/trace_view.hpp"

#include <algorithm>
#include <map>

namespace interleave::reports {

namespace {

constexpr std::string_view kHighlight = "rgb(255, 221, 221)";

/// Text from the document, escaped for a Mermaid message, note or participant alias.
std::string mermaid_text(std::string_view raw) {
  const std::string valid = text::valid_utf8(raw);
  std::string out;
  out.reserve(valid.size());
  bool pending_space = false;  // runs of blanks become one space, none at a line's ends
  auto put = [&](std::string_view s) {
    if (pending_space && !out.empty() && !out.ends_with("<br/>")) out += ' ';
    pending_space = false;
    out += s;
  };
  text::for_each_code_point(valid, [&](std::string_view cp) {
    const auto b0 = static_cast<unsigned char>(cp[0]);
    if (cp.size() == 1) {
      switch (b0) {
        case '\n':
          pending_space = false;
          out += "<br/>";
          return;
        case '#':
          return put("#35;");
        case ';':
          return put("#59;");
        case ':':
          return put("#58;");
        case '"':
          return put("#quot;");
        case '\'':
          return put("#39;");
        case '%':
          return put("#37;");
        case '<':
          return put("#lt;");
        case '>':
          return put("#gt;");
        case '&':
          return put("#amp;");
        case '`':
          return put("#96;");
        default:
          break;
      }
      if (b0 < 0x20 || b0 == 0x7F || b0 == ' ') {
        pending_space = true;  // tabs, CR and other controls become a blank
        return;
      }
    } else if (cp.size() == 2 && b0 == 0xC2 && static_cast<unsigned char>(cp[1]) < 0xA0) {
      pending_space = true;  // C1 controls
      return;
    }
    put(cp);
  });
  if (out.empty()) out = "#160;";  // Mermaid needs some text after ':' (a no-break space)
  return out;
}

constexpr std::string_view kRaceHighlight = "rgb(255, 236, 179)";

/// A note's text: `raw` on one line, runs of blanks as one, cut to kDiagramNoteWidth columns,
/// escaped.
std::string note_text(const std::string& raw) {
  std::string line;
  for (char ch : text::printable(raw)) {
    if (ch == ' ' && (line.empty() || line.back() == ' ')) continue;
    line += ch;
  }
  while (!line.empty() && line.back() == ' ')
    line.pop_back();
  return mermaid_text(text::shorten(line, kDiagramNoteWidth));
}

std::string step_text(const TraceStep& step) {
  return note_text("#" + std::to_string(step.index) + " " + step_label(step) +
                   (step.what.empty() ? "" : ": " + step.what));
}

}  // namespace

std::string render_mermaid(const TraceDocument& doc) {
  return render_mermaid(doc, DiagramOptions{});
}

std::string render_mermaid(const TraceDocument& doc, const DiagramOptions& options) {
  const Counterexample& c = doc.counterexample;
  const DiagramView view = diagram_view(doc, options.full);
  std::vector<std::string> actors = view.actors;
  if (actors.empty()) actors.push_back("program");  // a violation before any step
  std::map<std::string, std::string> alias;
  for (std::size_t i = 0; i < actors.size(); ++i)
    alias.emplace(actors[i], "a" + std::to_string(i));
  const std::string all = actors.size() == 1
                              ? alias.at(actors.front())
                              : alias.at(actors.front()) + "," + alias.at(actors.back());

  // The arrows into each step: from another actor's step, along which something passes, or the
  // race's.
  struct Arrow {
    std::size_t from;
    std::string text;
  };
  std::vector<std::vector<Arrow>> into(c.steps.size());
  bool race_drawn = false;
  for (const HbEdge& e : view.edges) {
    if (c.steps[e.from].actor == c.steps[e.to].actor) continue;
    const bool race = e.from == view.race_first && e.to == view.race_second;
    if (!race && !passes_something(e)) continue;
    std::string t = e.kind == HbEdge::Kind::kEnabling ? "starts" : objects_text(e.accesses);
    into[e.to].push_back({e.from, race ? "the race: " + t : t});
    race_drawn = race_drawn || race;
  }
  if (view.race_first && !race_drawn &&
      c.steps[*view.race_first].actor != c.steps[*view.race_second].actor) {
    into[*view.race_second].push_back(
        {*view.race_first, "the race: " + objects_text(view.race_objects)});
  }

  std::string out = "sequenceDiagram\n";
  for (const std::string& a : actors)
    out += "    participant " + alias.at(a) + " as " + mermaid_text(a) + "\n";
  const std::string violation = "violation: " + c.invariant;
  for (std::size_t s = 0; s < c.steps.size(); ++s) {
    if (!view.drawn[s]) continue;
    const TraceStep& step = c.steps[s];
    const std::string& me = alias.at(step.actor);
    for (const Arrow& a : into[s])
      out +=
          "    " + alias.at(c.steps[a.from].actor) + "->>" + me + ": " + note_text(a.text) + "\n";
    const bool violating = view.violating == s;
    const bool race = view.race_first == s || view.race_second == s;
    if (violating || race)
      out += "    rect " + std::string(violating ? kHighlight : kRaceHighlight) + "\n";
    out += "    Note over " + me + ": " + step_text(step) + "\n";
    if (violating) out += "    Note over " + me + ": " + note_text(violation) + "\n";
    if (violating || race) out += "    end\n";
  }
  if (!view.violating)
    out +=
        "    rect " + std::string(kHighlight) + "\n    Note over " + all + ": " +
        note_text(violation + (c.steps.empty() ? " (before any step)" : " (after the last step)")) +
        "\n    end\n";
  if (view.left_out > 0)
    out += "    Note over " + all + ": " +
           note_text(std::to_string(view.left_out) + " step" + (view.left_out == 1 ? "" : "s") +
                     " not involved, not drawn (--full draws them)") +
           "\n";
  return out;
}

}  // namespace interleave::reports
