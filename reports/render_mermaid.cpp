// render_mermaid: the counterexample as a Mermaid sequenceDiagram.
//
// Mermaid's sequence grammar ends a message or note text at '#', ';' or a newline, reads "%%" as
// a comment and "%%{" as a directive anywhere, and lets '<' '>' through as HTML. Text taken from
// the document is therefore written with Mermaid's entity codes (`#59;`, `#lt;`...), which
// Mermaid decodes when it draws. ':' is encoded too: Mermaid strips the last character of any line
// matching `style.*:\S*#.*;` (its style directive), which a label such as "style:x;" would
// otherwise trigger, and a text starting with "wrap:" would be taken as a wrapping directive.
#include "reports/happens_before.hpp"
#include "reports/render.hpp"
#include "reports/text_util.hpp"
#include "reports/trace_view.hpp"

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

std::string step_text(const TraceStep& step) {
  std::string t = mermaid_text(std::to_string(step.index) + " " + step_label(step));
  if (!step.what.empty()) t += "<br/>" + mermaid_text(step.what);
  return t;
}

}  // namespace

std::string render_mermaid(const TraceDocument& doc) {
  const Counterexample& c = doc.counterexample;
  std::vector<std::string> actors = actors_in_order(c);
  const bool placeholder = actors.empty();  // a violation before any step: still one participant
  if (placeholder) actors.push_back("program");
  std::map<std::string, std::string> alias;
  for (std::size_t i = 0; i < actors.size(); ++i)
    alias.emplace(actors[i], "a" + std::to_string(i));

  // For each step, the latest earlier step of another actor that ordered it (if any).
  std::vector<std::optional<std::size_t>> ordered_after(c.steps.size());
  for (const HbEdge& e : happens_before_edges(c.steps))
    if (e.kind == HbEdge::Kind::kConflict &&
        (!ordered_after[e.to] || *ordered_after[e.to] < e.from))
      ordered_after[e.to] = e.from;

  const std::optional<std::size_t> violating = violating_position(c);
  const std::string all = actors.size() == 1
                              ? alias.at(actors.front())
                              : alias.at(actors.front()) + "," + alias.at(actors.back());

  std::string out = "sequenceDiagram\n";
  for (const std::string& a : actors)
    out += "    participant " + alias.at(a) + " as " + mermaid_text(a) + "\n";
  auto violation_note = [&] {
    return "    Note over " + all + ": " +
           mermaid_text("violation: " + describe_violation(c, Wording::kReport)) + "\n";
  };
  for (std::size_t s = 0; s < c.steps.size(); ++s) {
    const TraceStep& step = c.steps[s];
    const bool marked = violating == s;
    if (marked) out += "    rect " + std::string(kHighlight) + "\n";
    if (ordered_after[s]) {
      out += "    " + alias.at(step.actor) + "->>" + alias.at(c.steps[*ordered_after[s]].actor) +
             ": " + step_text(step) + "\n";
    } else {
      out += "    Note over " + alias.at(step.actor) + ": " + step_text(step) + "\n";
    }
    if (marked) out += violation_note() + "    end\n";
  }
  if (!violating)
    out += "    rect " + std::string(kHighlight) + "\n" + violation_note() + "    end\n";
  return out;
}

}  // namespace interleave::reports
