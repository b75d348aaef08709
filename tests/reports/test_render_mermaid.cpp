// render_mermaid: exact output for a small case, and every output (adversarial labels included)
// checked against the sequenceDiagram subset of mermaid_check.hpp.
#include "reports/render.hpp"
#include "reports/text_util.hpp"
#include "tests/reports/helpers.hpp"
#include "tests/reports/mermaid_check.hpp"

#include <catch2/catch.hpp>

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

std::string step_text(const TraceStep& s) {
  std::string t =
      normalised(std::to_string(s.index) + " " + (s.label.empty() ? "(unlabelled)" : s.label));
  if (!s.what.empty()) t += "\n" + normalised(s.what);
  return t;
}

// The diagram's structure against the document: participants in order of first appearance,
// one message or note per step (from the step's actor), the violating step and the violation
// note inside one rect.
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
  for (const MermaidStatement& st : d.statements) {
    if (st.kind == Kind::kRectStart || st.kind == Kind::kRectEnd) continue;
    if (next_step < c.steps.size() &&
        !(st.kind == Kind::kNote && st.text.rfind("violation: ", 0) == 0)) {
      const TraceStep& s = c.steps[next_step];
      CHECK(st.from == id_of(s.actor));
      if (st.kind == Kind::kNote) CHECK(st.to == st.from);
      if (st.kind == Kind::kMessage) CHECK(st.to != st.from);
      CHECK(st.text == step_text(s));
      CHECK(st.depth == (s.index == c.step ? 1 : 0));
      ++next_step;
    } else {
      CHECK(st.kind == Kind::kNote);
      CHECK(st.depth == 1);
      CHECK(st.from == d.ids.front());
      CHECK(st.to == d.ids.back());
      CHECK(st.text.find(normalised(c.message)) != std::string::npos);
      saw_violation_note = true;
    }
  }
  CHECK(next_step == c.steps.size());
  CHECK(saw_violation_note);
}

}  // namespace

TEST_CASE("mermaid diagram of the lost update, exactly", "[mermaid]") {
  const TraceDocument doc = test::explore_to_document(test::lost_update(), "lost-update");
  // Steps 2 and 3 write the counter the other actor touched: messages to that actor. The final
  // check fails after the last step: the red rect holds only the violation note.
  const std::string expected = R"(sequenceDiagram
    participant a0 as A
    participant a1 as B
    Note over a0: 0 read<br/>read counter = 0
    Note over a1: 1 read<br/>read counter = 0
    a0->>a1: 2 write<br/>write counter = 1
    a1->>a0: 3 write<br/>write counter = 1
    rect rgb(255, 221, 221)
    Note over a0,a1: violation#58; counter == 2 violated after the last step#58; counter is 1 after two increments
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
    const std::string out = render_mermaid(doc);
    INFO(out);
    test::MermaidDiagram d;
    REQUIRE_NOTHROW(d = test::parse_mermaid(out));
    check_against_document(d, doc);
  }
}

TEST_CASE("mermaid: the three-actor race sends each step to the actor it is ordered after",
          "[mermaid]") {
  const TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  const test::MermaidDiagram d = test::parse_mermaid(render_mermaid(doc));
  REQUIRE(d.ids == std::vector<std::string>{"a0", "a1", "a2"});
  std::vector<std::string> shape;
  for (const MermaidStatement& st : d.statements) {
    switch (st.kind) {
      case Kind::kMessage:
        shape.push_back(st.from + "->>" + st.to);
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
  // 0-3 Writer1 alone; 4 lock (after Writer1's unlock); 5 set x (overwrites Writer1's x);
  // 6 read x (Writer2's write); 7 read y (Writer1's write), the violating step.
  const std::vector<std::string> expected = {"note a0", "note a0",    "note a0", "note a0",
                                             "a1->>a0", "a1->>a0",    "a2->>a1", "rect",
                                             "a2->>a0", "note a0,a2", "end"};
  CHECK(shape == expected);
}

TEST_CASE("mermaid escapes adversarial labels, notes and actor names", "[mermaid]") {
  const TraceDocument doc = test::adversarial_document();
  const std::string out = render_mermaid(doc);
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
        "    Note over a0: violation#58; init violated before any step#58; broken before "
        "any step\n"
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
