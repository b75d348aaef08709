// Every final and deferred check that fails at the end of an execution is reported, not only the
// first registered: Execution::violations, one counterexample per property (also when the search
// stops at its first violation), the counts, and a replay that finds each.
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <optional>

using namespace interleave;

namespace {

// Two writers set x to 1 and 2; the first check fails whatever the order, the second (found at
// B's step, reported at the end) only when B writes last, the third only when A writes last.
Program two_at_the_end() {
  return [](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    auto found = std::make_shared<std::optional<Finding>>();
    ex.spawn("A", [&x](Actor& a) { x.write(a, "w", 1); });
    ex.spawn("B", [&x, &ex, found](Actor& a) {
      x.write(a, "w", 2);
      *found = Finding{"B wrote 2", ex.current_step().value_or(0)};
    });
    ex.final_check("always", [] { return Check("fails in every execution"); });
    ex.deferred_check("b_last", [&x, found]() -> std::optional<Finding> {
      if (x.peek() == 2) return *found;
      return std::nullopt;
    });
    ex.final_check("a_last", [&x]() -> Check {
      if (x.peek() == 1) return std::string("A wrote last");
      return std::nullopt;
    });
  };
}

std::vector<std::string> invariants(const ExplorationResult& r) {
  std::vector<std::string> v;
  for (const Counterexample& c : r.counterexamples)
    v.push_back(c.invariant);
  return v;
}

}  // namespace

TEST_CASE("end checks: every check that fails at the end is reported", "[end-checks]") {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.minimize = false;
  Explorer explorer(two_at_the_end(), o);
  DfsStrategy dfs;
  const ExplorationResult r = explorer.explore(dfs);
  REQUIRE(r.verdict == Verdict::kViolation);
  // DFS runs A then B first (x = 2: "always" and "b_last"), then B then A ("always", "a_last").
  CHECK(invariants(r) == std::vector<std::string>{"always", "b_last", "a_last"});
  CHECK(r.stats.executions == 2);
  CHECK(r.stats.failed == 2);
  CHECK(r.stats.violations == std::map<std::string, std::uint64_t>{
                                  {"always", 2}, {"b_last", 1}, {"a_last", 1}});
  // The deferred check's counterexample names the step that found it.
  REQUIRE(r.counterexamples[1].found_at.has_value());
  CHECK(r.counterexamples[1].steps[*r.counterexamples[1].found_at].actor == "B");
  // Each replays to its own property, beside the others of that execution.
  for (const Counterexample& c : r.counterexamples) {
    INFO(c.invariant);
    const ReplayReport rep = explorer.replay(c.schedule);
    REQUIRE(rep.violation_of(c.invariant) != nullptr);
    CHECK(rep.violation_of(c.invariant)->message == c.message);
    REQUIRE(rep.violation.has_value());
    CHECK(rep.violation->invariant == "always");  // the first registered
    CHECK(rep.violations.size() == 2);
  }
}

TEST_CASE("end checks: a search stopped at its first violation reports all of that execution's",
          "[end-checks]") {
  for (const bool dpor : {false, true}) {
    INFO((dpor ? "dpor" : "dfs"));
    Explorer explorer(two_at_the_end());
    DfsStrategy dfs;
    DporStrategy d;
    const ExplorationResult r = dpor ? explorer.explore(d) : explorer.explore(dfs);
    REQUIRE(r.verdict == Verdict::kViolation);
    CHECK(r.stopped_at_first_violation);
    CHECK(r.stats.executions == 1);
    CHECK(invariants(r) == std::vector<std::string>{"always", "b_last"});
  }
}
