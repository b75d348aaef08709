// The sentences of reports/trace/trace.hpp: the one place that says a counterexample in words, in the
// report and the console wording, for each place a violation can be detected.
#include "reports/trace/trace.hpp"
#include "tests/reports/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using reports::Wording;

namespace {

TraceStep step(std::size_t index, const std::string& actor, const std::string& label,
               std::vector<TraceAccess> accesses, const std::string& what) {
  TraceStep s;
  s.index = index;
  s.actor = actor;
  s.label = label;
  s.accesses = std::move(accesses);
  s.what = what;
  return s;
}

Counterexample violated_at(std::size_t at, const std::string& actor, std::size_t steps) {
  Counterexample c;
  c.invariant = "x == y";
  c.message = "x is 1, y is 0";
  c.step = at;
  c.actor = actor;
  for (std::size_t i = 0; i < steps; ++i)
    c.steps.push_back(step(i, i % 2 == 0 ? "A" : "B", "s" + std::to_string(i), {}, ""));
  return c;
}

}  // namespace

TEST_CASE("the violation in both wordings, wherever it was detected", "[sentences]") {
  // Raised inside step 1 by the actor that took it.
  Counterexample c = violated_at(1, "B", 3);
  CHECK(describe_violation(c, Wording::kReport) == "x == y violated at step 1 (B): x is 1, y is 0");
  CHECK(describe_violation(c, Wording::kConsole) ==
        "'x == y' violated at step #1 by B: x is 1, y is 0");
  // An invariant checked after step 2: no actor raised it; the report names the step's actor.
  c = violated_at(2, "", 3);
  CHECK(describe_violation(c, Wording::kReport) == "x == y violated at step 2 (A): x is 1, y is 0");
  CHECK(describe_violation(c, Wording::kConsole) == "'x == y' violated at step #2: x is 1, y is 0");
  // After the last step (a final check, a deadlock).
  c = violated_at(3, "", 3);
  CHECK(describe_violation(c, Wording::kReport) ==
        "x == y violated after the last step: x is 1, y is 0");
  CHECK(describe_violation(c, Wording::kConsole) ==
        "'x == y' violated at the end of the execution (after step #2): x is 1, y is 0");
  // Before any step.
  c = violated_at(0, "", 0);
  CHECK(describe_violation(c, Wording::kReport) ==
        "x == y violated before any step: x is 1, y is 0");
  CHECK(describe_violation(c, Wording::kConsole) ==
        "'x == y' violated before any step: x is 1, y is 0");
}

TEST_CASE("a step and its accesses in both wordings", "[sentences]") {
  const TraceStep noted = step(3, "B", "W", {{"counter", AccessKind::kWrite}}, "write counter = 1");
  const TraceStep silent =
      step(4, "C", "S", {{"CAT", AccessKind::kReadModifyWrite}, {"J", AccessKind::kRead}}, "");
  CHECK(reports::describe_accesses(silent, Wording::kReport) == "read-modify-write CAT, read J");
  CHECK(reports::describe_accesses(silent, Wording::kConsole) == "[CAT read-modify-write, J read]");
  CHECK(reports::describe_accesses(step(0, "A", "x", {}, ""), Wording::kConsole).empty());
  CHECK(reports::describe_what(noted, Wording::kReport) == "write counter = 1");
  CHECK(reports::describe_what(silent, Wording::kReport).empty());
  CHECK(reports::describe_what(silent, Wording::kConsole) == "[CAT read-modify-write, J read]");
  CHECK(reports::describe_step(noted, Wording::kReport) == "W: write counter = 1");
  CHECK(reports::describe_step(noted, Wording::kConsole) == "B W: write counter = 1");
  CHECK(reports::describe_step(silent, Wording::kReport) == "S");
  CHECK(reports::describe_step(silent, Wording::kConsole) ==
        "C S: [CAT read-modify-write, J read]");
  CHECK(reports::describe_step(step(5, "A", "", {}, "done"), Wording::kReport) ==
        "(unlabelled): done");
}

TEST_CASE("the headline counts steps, actors and preemptions", "[sentences]") {
  Counterexample c = violated_at(1, "B", 3);
  c.preemptions = 1;
  CHECK(reports::counterexample_headline(c) ==
        "Counterexample: x == y (3 steps, 2 actors, 1 preemption)");
  c = violated_at(0, "", 1);
  CHECK(reports::counterexample_headline(c) ==
        "Counterexample: x == y (1 step, 1 actor, 0 preemptions)");
}
