// render_text: the timeline with one column per actor, exactly.
#include "reports/render/render.hpp"
#include "tests/reports/helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace interleave;
using namespace interleave::reports;

TEST_CASE("text timeline of the lost update, exactly", "[text]") {
  const TraceDocument doc = test::explore_to_document(test::lost_update(), "lost-update");
  const std::string expected = R"(Counterexample: counter == 2 (4 steps, 2 actors, 2 preemptions)
Scenario: tests/lost-update.json
Strategy: dfs

   step | A                        | B
--------+--------------------------+--------------------------
      0 | read: read counter = 0   |
      1 |                          | read: read counter = 0
      2 | write: write counter = 1 |
      3 |                          | write: write counter = 1

Violation: counter == 2 violated after the last step: counter is 1 after two increments

State at the violation:
{
  "counter": 1
}
)";
  CHECK(render_text(doc) == expected);
}

TEST_CASE("text timeline marks the violating step of a three-actor race", "[text]") {
  const TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  const std::string expected = R"(Counterexample: x == y (8 steps, 3 actors, 1 preemption)
Scenario: tests/locked-pair.json
Strategy: dfs

   step | Writer1            | Writer2            | Auditor
--------+--------------------+--------------------+--------------------
      0 | lock               |                    |
      1 | set x: write x = 1 |                    |
      2 | set y: write y = 1 |                    |
      3 | unlock             |                    |
      4 |                    | lock               |
      5 |                    | set x: write x = 2 |
      6 |                    |                    | read x: read x = 2
=>    7 |                    |                    | read y: read y = 1

Violation: x == y violated at step 7 (Auditor): auditor saw x = 2, y = 1
)";
  CHECK(render_text(doc) == expected);
}

TEST_CASE("text timeline wraps long cells and neutralises control characters", "[text]") {
  TraceDocument doc = test::explore_to_document(test::lock_order_deadlock(), "deadlock");
  doc.scenario_file.clear();
  doc.strategy.clear();
  doc.counterexample.steps[0].what = "T1 now holds lock_a and goes on to take lock_b";
  const std::string expected = R"(Counterexample: deadlock (2 steps, 2 actors, 1 preemption)

   step | T1                   | T2
--------+----------------------+--------
      0 | lock a: T1 now holds |
        | lock_a and goes on   |
        | to take lock_b       |
      1 |                      | lock b

Violation: deadlock violated after the last step: deadlock: no actor can run; T1 is blocked at lock b waiting for acquire of lock_b (held by T2); T2 is blocked at lock a waiting for acquire of lock_a (held by T1)
)";
  CHECK(render_text(doc, TextOptions{20}) == expected);

  const std::string adversarial = render_text(test::adversarial_document());
  const auto control = std::count_if(adversarial.begin(), adversarial.end(), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return ch != '\n' && (u < 0x20 || u == 0x7F);
  });
  CHECK(control == 0);
  CHECK(adversarial.find("=>    4 |") != std::string::npos);
  CHECK(adversarial.find("\xEF\xBF\xBD") != std::string::npos);  // the invalid bytes, replaced
}

TEST_CASE("text timeline of more actors than max_columns is a list, one step per line", "[text]") {
  const TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  TextOptions options;
  options.max_columns = 2;
  const std::string expected = R"(Counterexample: x == y (8 steps, 3 actors, 1 preemption)
Scenario: tests/locked-pair.json
Strategy: dfs

   step | actor   | label: what happened
--------+---------+------------------------
      0 | Writer1 | lock
      1 | Writer1 | set x: write x = 1
      2 | Writer1 | set y: write y = 1
      3 | Writer1 | unlock
      4 | Writer2 | lock
      5 | Writer2 | set x: write x = 2
      6 | Auditor | read x: read x = 2
=>    7 | Auditor | read y: read y = 1

Violation: x == y violated at step 7 (Auditor): auditor saw x = 2, y = 1
)";
  CHECK(render_text(doc, options) == expected);
  options.max_columns = 3;  // three actors still fit: the table
  CHECK(render_text(doc, options) == render_text(doc));
}
