// same_step: which fields of two readable steps the audit and a replay compare.
#include "explorer/search/explorer.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

namespace {

TraceStep step() {
  TraceStep s;
  s.index = 3;
  s.actor = "A";
  s.label = "A.add";
  s.accesses = {{"x", AccessKind::kRead}, {"y", AccessKind::kWrite}};
  s.what = "x was 1";
  s.after = 1;
  s.time = 250;
  return s;
}

}  // namespace

TEST_CASE("same_step compares what a step declares, and with kAll its notes and time") {
  const TraceStep a = step();
  CHECK(same_step(a, a, StepFields::kDeclared));
  CHECK(same_step(a, a, StepFields::kAll));

  SECTION("where a step is and what it follows are never compared") {
    TraceStep b = step();
    b.index = 7;
    b.after = std::nullopt;
    CHECK(same_step(a, b, StepFields::kDeclared));
    CHECK(same_step(a, b, StepFields::kAll));
  }
  SECTION("notes and time: only kAll compares them") {
    TraceStep notes = step();
    notes.what = "x was 2";
    CHECK(same_step(a, notes, StepFields::kDeclared));
    CHECK_FALSE(same_step(a, notes, StepFields::kAll));
    TraceStep time = step();
    time.time = std::nullopt;
    CHECK(same_step(a, time, StepFields::kDeclared));
    CHECK_FALSE(same_step(a, time, StepFields::kAll));
  }
  SECTION("actor, label and accesses: both compare them") {
    TraceStep actor = step();
    actor.actor = "B";
    TraceStep label = step();
    label.label = "A.sub";
    TraceStep kind = step();
    kind.accesses[1].kind = AccessKind::kRead;
    TraceStep object = step();
    object.accesses[0].object = "z";
    TraceStep fewer = step();
    fewer.accesses.pop_back();
    TraceStep order = step();
    std::swap(order.accesses[0], order.accesses[1]);
    for (const TraceStep& b : {actor, label, kind, object, fewer, order}) {
      CHECK_FALSE(same_step(a, b, StepFields::kDeclared));
      CHECK_FALSE(same_step(a, b, StepFields::kAll));
    }
  }
}
