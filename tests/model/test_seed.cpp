// The seed (StarRocks issue 79294) under starrocks-4.1.1: a recursive-CTE TaskRun's staging table
// is dropped by the TemporaryTableCleaner while a CN tablet sink still needs its schema.
#include "reports/trace/trace.hpp"  // to_json(ExplorationResult), to compare two explorations
#include "model/starrocks/log_patterns.hpp"
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace interleave;
using namespace interleave::model;

namespace {

// One async recursive-CTE TaskRun (anchor insert only, a tablet that gets no rows before finish,
// as in the seed's log), one client session on the leader, one cleaner pass.
WorldConfig seed_world() {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.task_runs.push_back(test::task_run("t1", false, TabletRows::kNone));
  w.actors.clients.push_back(test::client("c1"));
  return w;
}

// Index of the first step at or after `from` by `actor` with `label` whose description contains
// `text`; steps.size() when there is none.
std::size_t find_step(const std::vector<TraceStep>& steps, std::size_t from,
                      const std::string& actor, const std::string& label,
                      const std::string& text = "") {
  for (std::size_t i = from; i < steps.size(); ++i)
    if (steps[i].actor == actor && steps[i].label == label &&
        steps[i].what.find(text) != std::string::npos)
      return i;
  return steps.size();
}

}  // namespace

TEST_CASE("seed: starrocks-4.1.1 drops a live TaskRun's staging table and the CN sink fails",
          "[seed]") {
  // Exploring past the first violation: both properties are found, each with its counterexample.
  const ExplorationResult r = test::explore(seed_world(), false, 20000);
  REQUIRE(r.verdict == Verdict::kViolation);
  REQUIRE(r.counterexamples.size() >= 2);
  const auto by_name = [&r](std::string_view n) -> const Counterexample& {
    for (const auto& c : r.counterexamples)
      if (c.invariant == n) return c;
    FAIL("no counterexample for " << n);
    return r.counterexamples.front();
  };
  const Counterexample& dropped = by_name(inv::kLiveOwnerTableDropped);
  CHECK_THAT(dropped.message,
             Catch::Matches("the TemporaryTableCleaner \\(pass 1, D2 at step [0-9]+\\) dropped "
                            "temporary table hierarchy_[0-9]+ \\(id 52300\\) of session t1#1, "
                            "owner TaskRun t1 \\(attempt 1\\) while its owner is live"));

  const Counterexample& c = by_name(inv::kSinkTableNotFound);
  CHECK_THAT(c.message, Catch::Matches("TabletSink:t1#1/E3/cn1 N3 at step [0-9]+: the schema "
                                       "lookup of temporary table hierarchy_[0-9]+ \\(id 52300\\) "
                                       "of session t1#1, owner TaskRun t1 \\(attempt 1\\) "
                                       "answered TABLE_NOT_EXIST \\(table not found, may be "
                                       "dropped\\) while its owner is live"));
  const auto& s = c.steps;
  const std::string sink = "TabletSink:t1#1/E3/cn1";
  // The causal order of the seed's observation, on the counterexample's steps.
  const std::size_t e2 = find_step(s, 0, "TaskRun:t1", "E2", "cn1: Add shard id: 52305");
  const std::size_t e2a = find_step(s, e2, "TaskRun:t1", "E2a", "new session t1#1");
  const std::size_t c1 = find_step(s, e2a, "TemporaryTableCleaner", "C1");
  const std::size_t c2 = find_step(s, c1, "TemporaryTableCleaner", "C2");
  const std::size_t d1 = find_step(s, c2, "TemporaryTableCleaner", "D1",
                                   "cannot find alive session " + session_uuid("t1#1") +
                                       ", should clean all temporary tables on it");
  const std::size_t d2 =
      find_step(s, d1, "TemporaryTableCleaner", "D2", "(db id 16061, table id 52300)");
  const std::size_t n3 = find_step(s, d2, sink, "N3",
                                   "failed to get schema db_id: 16061, table_id: 52300, "
                                   "schema_id: 52301, tablet_id: 52305");
  const std::size_t e3 = find_step(s, n3, "TaskRun:t1", "E3", "the load failed");
  const std::size_t e7 = find_step(s, e3, "TaskRun:t1", "E7",
                                   "task run t1 FAILED: Error occurred during executing "
                                   "recursive CTE start statement: cn1: table not found, may be "
                                   "dropped, db id: 16061, table id: 52300");
  CHECK(e2 < s.size());
  CHECK(e2a < s.size());
  CHECK(c1 < s.size());
  CHECK(c2 < s.size());
  CHECK(d1 < s.size());
  CHECK(d2 < s.size());
  CHECK(n3 < s.size());
  CHECK(e3 < s.size());
  REQUIRE(e7 < s.size());
  CHECK_THAT(s[n3].what, Catch::Contains("Table not exist: table not found, may be dropped"));
  CHECK_THAT(s[n3].what, Catch::Contains("Fail to finish write"));
  CHECK_THAT(s[n3].what, Catch::Contains("Fail to finish tablet 52305"));
  // The property is reported at the end, after the run ended FAILED.
  CHECK(c.step == s.size());

  SECTION("every counterexample replays exactly") {
    Explorer ex(make_program(seed_world()));
    for (const Counterexample& k : r.counterexamples) {
      const ReplayReport rep = ex.replay(k.schedule);
      CHECK_FALSE(rep.diverged);
      const Violation* v = rep.violation_of(k.invariant);  // perhaps beside others at the end
      REQUIRE(v != nullptr);
      CHECK(v->message == k.message);
      CHECK(rep.steps.size() == k.steps.size());
    }
  }
}

TEST_CASE("seed: the same configuration gives byte-identical results", "[seed][determinism]") {
  const auto a = to_json(test::explore(seed_world(), false, 3000), false).dump();
  const auto b = to_json(test::explore(seed_world(), false, 3000), false).dump();
  CHECK(a == b);
}
