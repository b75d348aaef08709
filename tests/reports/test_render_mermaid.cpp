// render_mermaid: exact output for a small case, and every output (adversarial labels included)
// checked against the sequenceDiagram subset of mermaid_check.hpp.
#include "reports/render/render.hpp"
#include "reports/render/text_util.hpp"
#include "tests/reports/helpers.hpp"
#include "tests/reports/mermaid_check.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

using namespace interleave;
using namespace interleave::reports;
using interleave::test::MermaidStatement;

namespace {

using Kind = MermaidStatement::Kind;

// What a document text must decode to: control characters as blanks, runs of blanks as one,
// none at the ends of a line.
std::string normalised(const std::string& raw) {
  const std::string p = text::printable(raw, /*keep_newlines=*/true);
  std::string out;
  bool blank = false;
  for (char ch : p) {
    if (ch == ' ') {
      blank = true;
      continue;
    }
    if (blank && !out.empty() && out.back() != '\n' && ch != '\n') out += ' ';
    blank = false;
    out += ch;
  }
  return out;
}

// A note's text: "#index label: what" on one line, decoded, cut to the diagram's width.
std::string step_text(const TraceStep& s) {
  return text::shorten(normalised(text::printable("#" + std::to_string(s.index) + " " +
                                                  (s.label.empty() ? "(unlabelled)" : s.label) +
                                                  (s.what.empty() ? "" : ": " + s.what))),
                       kDiagramNoteWidth);
}

// The diagram's structure against the document (every step drawn: these programs' slices hold
// every step): participants in order of first appearance, one note per step over its actor, in
// order, each at most kDiagramNoteWidth columns; messages only between two different actors,
// each followed by the note of a step of its receiver; the violating step and a
// "violation: PROPERTY" note inside one red rect.
void check_against_document(const test::MermaidDiagram& d, const TraceDocument& doc) {
  const Counterexample& c = doc.counterexample;
  std::vector<std::string> actors;
  for (const TraceStep& s : c.steps)
    if (std::find(actors.begin(), actors.end(), s.actor) == actors.end()) actors.push_back(s.actor);
  REQUIRE(d.names.size() == actors.size());
  for (std::size_t i = 0; i < actors.size(); ++i)
    CHECK(d.names[i] == normalised(actors[i]));
  auto id_of = [&](const std::string& actor) {
    return d.ids[static_cast<std::size_t>(std::find(actors.begin(), actors.end(), actor) -
                                          actors.begin())];
  };

  std::size_t next_step = 0;
  bool saw_violation_note = false;
  std::optional<std::string> pending_receiver;  // of the last message, until a note follows
  for (const MermaidStatement& st : d.statements) {
    if (st.kind == Kind::kRectStart || st.kind == Kind::kRectEnd) continue;
    CHECK(text::display_width(st.text) <= kDiagramNoteWidth);
    if (st.kind == Kind::kMessage) {
      CHECK(st.to != st.from);
      pending_receiver = st.to;
      continue;
    }
    if (st.text.rfind("violation: ", 0) == 0) {
      CHECK(st.text.find(normalised(c.invariant)) != std::string::npos);
      CHECK(st.depth == 1);
      saw_violation_note = true;
      continue;
    }
    REQUIRE(next_step < c.steps.size());
    const TraceStep& s = c.steps[next_step];
    CHECK(st.from == id_of(s.actor));
    CHECK(st.to == st.from);
    CHECK(st.text == step_text(s));
    CHECK(st.depth == (s.index == c.step ? 1 : 0));
    if (pending_receiver) CHECK(*pending_receiver == st.from);
    pending_receiver.reset();
    ++next_step;
  }
  CHECK(next_step == c.steps.size());
  CHECK(saw_violation_note);
}

std::vector<std::string> shape_of(const test::MermaidDiagram& d) {
  std::vector<std::string> shape;
  for (const MermaidStatement& st : d.statements) {
    switch (st.kind) {
      case Kind::kMessage:
        shape.push_back(st.from + "->>" + st.to + " " + st.text);
        break;
      case Kind::kNote:
        shape.push_back("note " + st.from + (st.to != st.from ? "," + st.to : ""));
        break;
      case Kind::kRectStart:
        shape.push_back("rect");
        break;
      case Kind::kRectEnd:
        shape.push_back("end");
        break;
    }
  }
  return shape;
}

}  // namespace

TEST_CASE("mermaid diagram of the lost update, exactly", "[mermaid]") {
  const TraceDocument doc = test::explore_to_document(test::lost_update(), "lost-update");
  // Nothing passes between A and B: each reads the initial counter, and a write overwritten passes
  // nothing; so no arrow. The final check fails after the last step: the red rect holds only the
  // violation note.
  const std::string expected = R"(sequenceDiagram
    participant a0 as A
    participant a1 as B
    Note over a0: #35;0 read#58; read counter = 0
    Note over a1: #35;1 read#58; read counter = 0
    Note over a0: #35;2 write#58; write counter = 1
    Note over a1: #35;3 write#58; write counter = 1
    rect rgb(255, 221, 221)
    Note over a0,a1: violation#58; counter == 2 (after the last step)
    end
)";
  CHECK(render_mermaid(doc) == expected);
}

TEST_CASE("mermaid diagrams follow the sequenceDiagram grammar and match their documents",
          "[mermaid]") {
  for (const auto& [program, name] : {std::pair{test::lost_update(), "lost-update"},
                                      {test::locked_pair_race(), "locked-pair"},
                                      {test::lock_order_deadlock(), "deadlock"}}) {
    INFO(name);
    const TraceDocument doc = test::explore_to_document(program, name);
    for (bool full : {false, true}) {
      const std::string out = render_mermaid(doc, DiagramOptions{full});
      INFO(out);
      test::MermaidDiagram d;
      REQUIRE_NOTHROW(d = test::parse_mermaid(out));
      check_against_document(d, doc);
    }
  }
}

TEST_CASE("mermaid: arrows only where something passes, from the earlier actor to the later",
          "[mermaid]") {
  const TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  const test::MermaidDiagram d = test::parse_mermaid(render_mermaid(doc));
  REQUIRE(d.ids == std::vector<std::string>{"a0", "a1", "a2"});
  // 0-3 Writer1 alone (its 3 unlocks m); 4 Writer2 locks m (released by 3: an arrow a0->>a1);
  // 5 sets x (overwrites Writer1's x: no arrow); 6 Auditor reads x (Writer2's write: a1->>a2);
  // 7 reads y, the violating step (Writer1's write of y, implied through 3 -> 4 -> 5 -> 6).
  const std::vector<std::string> expected = {
      "note a0",   "note a0", "note a0", "note a0", "a0->>a1 m", "note a1", "note a1",
      "a1->>a2 x", "note a2", "rect",    "note a2", "note a2",   "end"};
  CHECK(shape_of(d) == expected);
}

TEST_CASE("mermaid: the race is named on its arrow and both its steps are marked", "[mermaid]") {
  TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  const auto& steps = doc.counterexample.steps;
  // Name the overwrite of x (1: Writer1, 5: Writer2) the race: it passes nothing, yet is drawn.
  doc.race = Race{steps[1].index, steps[5].index, {"x"}, "the execution completes"};
  const test::MermaidDiagram d = test::parse_mermaid(render_mermaid(doc));
  const std::vector<std::string> shape = shape_of(d);
  CHECK(std::find(shape.begin(), shape.end(), "a0->>a1 the race: x") != shape.end());
  const std::string out = render_mermaid(doc);
  CHECK(out.find("    rect rgb(255, 236, 179)\n    Note over a0: #35;1 ") != std::string::npos);
  CHECK(out.find("    rect rgb(255, 236, 179)\n    Note over a1: #35;5 ") != std::string::npos);
}

TEST_CASE("mermaid escapes adversarial labels, notes and actor names", "[mermaid]") {
  const TraceDocument doc = test::adversarial_document();
  const std::string out = render_mermaid(doc, DiagramOptions{true});
  INFO(out);
  test::MermaidDiagram d;
  REQUIRE_NOTHROW(d = test::parse_mermaid(out));
  check_against_document(d, doc);
  // None of these reach the diagram raw (';' and '#' only appear in entity codes, which the
  // validator checks).
  for (const char* raw : {"\"", "'", "%%", "<script", "`", "\x1b", "\r"})
    CHECK(out.find(raw) == std::string::npos);
}

TEST_CASE("mermaid with no step still has a participant and the violation", "[mermaid]") {
  TraceDocument doc;
  doc.counterexample.invariant = "init";
  doc.counterexample.message = "broken before any step";
  const std::string out = render_mermaid(doc);
  CHECK(out ==
        "sequenceDiagram\n"
        "    participant a0 as program\n"
        "    rect rgb(255, 221, 221)\n"
        "    Note over a0: violation#58; init (before any step)\n"
        "    end\n");
  CHECK_NOTHROW(test::parse_mermaid(out));
}

TEST_CASE("the mermaid validator rejects what Mermaid would misread", "[mermaid][validator]") {
  const std::string head = "sequenceDiagram\n    participant a0 as A\n    participant a1 as B\n";
  const std::vector<std::string> bad = {
      "",
      "graph TD\n",
      head + "    a0->>a1: x;y\n",       // ';' ends the statement
      head + "    a0->>a1: issue #5\n",  // '#' starts a comment
      head + "    a0->>a1: #bogus;\n",   // not an entity Mermaid decodes
      head + "    a0->>a1: say \"hi\"\n",
      head + "    a0->>a1: 100%% sure\n",
      head + "    a0->>a1: a <b>bold</b>\n",
      head + "    a0->>a1: key: value\n",
      head + "    a0->>a1: wrap:x\n",
      head + "    a0->>a2: to nobody\n",
      head + "    a0->>a1:\n",
      head + "    a0->>a1: \n",
      head + "    Note over a0,a1:  padded\n",
      head + "    rect rgb(255, 0, 0)\n    Note over a0: x\n",
      head + "    end\n",
      head + "    rect rgb(256, 0, 0)\n    Note over a0: x\n    end\n",
      head + "    Note over a0: x\n    participant a2 as C\n",
      "sequenceDiagram\n    participant end1 as E\n    Note over end1: x\n",
      "sequenceDiagram\n    participant a-b as E\n    Note over a-b: x\n",
      "sequenceDiagram\n    participant a0 as A\n    participant a0 as B\n",
      head + "    Note over a0: bad \xff byte\n",
      head + "    Note over a0: tab\there\n",
      head + "    Note over a0: no newline at the end",
      head + "    a0->>a1: a\r\n",
  };
  for (const std::string& text : bad) {
    INFO(text);
    CHECK_THROWS_AS(test::parse_mermaid(text), test::MermaidError);
  }
  CHECK_NOTHROW(test::parse_mermaid(head + "    a0->>a1: fine #59; #35;5 #quot;q#quot; a<br/>b\n"));
  CHECK(test::decode_mermaid_text("x#59;y #35;5 #quot;q#quot; #lt;b#gt; #amp; a<br/>b #128640;") ==
        "x;y #5 \"q\" <b> & a\nb 🚀");
}
