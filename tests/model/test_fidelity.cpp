// Fidelity checks of issue 14 (docs/model.md, "Fidelity, round 2"): what StarRocks' source does
// and the model follows, or the hypothetical variant the model adds to show what a difference
// would do.
// - point 3: MetadataMgr.cleanTemporaryTables catches the DdlException of the catalog drop and
//   still removes the session; the knob catalog_drop (hypothetical may_fail) explores that catch.
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace interleave;
using namespace interleave::model;
using test::counterexample;
using test::covered;
using test::find_step;

namespace {

std::size_t count_steps(const std::vector<TraceStep>& steps, const std::string& actor,
                        const std::string& label) {
  return static_cast<std::size_t>(std::count_if(steps.begin(), steps.end(), [&](const TraceStep& s) {
    return s.actor == actor && s.label == label;
  }));
}

}  // namespace

TEST_CASE("point 3: a failed catalog drop in cleanTemporaryTables leaves an untracked table",
          "[fidelity][catalog_drop]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.clients.push_back(test::client("c1"));

  SECTION("succeeds (StarRocks: IF EXISTS and FORCE leave nothing to throw): unchanged, holds") {
    CHECK(w.policy.catalog_drop == CatalogDrop::kSucceeds);
    const auto r = test::explore(w, true);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 41);  // as in hazard 5: the default adds no choice
    CHECK(covered(r, goal::kCatalogDropFailed) == 0);
  }

  SECTION("may_fail: the catch is taken, D4 still removes the session, the table is orphaned") {
    w.policy.catalog_drop = CatalogDrop::kMayFail;
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    CHECK(covered(r, goal::kCatalogDropFailed) > 0);
    // Only the orphan: no live owner loses a table, nothing else breaks.
    REQUIRE(r.counterexamples.size() == 1);
    const Counterexample* c = counterexample(r, inv::kUntrackedTempTable);
    REQUIRE(c != nullptr);
    CHECK_THAT(c->message, Catch::Contains("removed session c1 from TemporaryTableMgr while its "
                                           "entry still held temporary table tmp_c1_1"));
    CHECK_THAT(c->message, Catch::Contains("whose catalog drop failed at D2 (caught and logged)"));
    // The failing D2 logs StarRocks' message, the D3 of that table is skipped (it is inside the
    // same try), and D4 follows.
    const auto& s = c->steps;
    const std::size_t d2 = std::min(find_step(s, "TemporaryTableCleaner", "D2", "Failed to drop"),
                                    find_step(s, "Session:c1@fe1", "D2", "Failed to drop"));
    REQUIRE(d2 < s.size());
    CHECK_THAT(s[d2].what, Catch::Contains("Failed to drop temporary table db16061.tmp_c1_1 in "
                                           "session c1"));
    CHECK(s.back().label == "D4");
    CHECK(s.back().actor == s[d2].actor);
    CHECK(count_steps(s, s[d2].actor, "D3") == 0);
    CHECK(test::all_replay(w, r));
  }

  SECTION("may_fail with the sweep: the orphan is reported at D4, before the sweep could see it") {
    w.policy.catalog_drop = CatalogDrop::kMayFail;
    w.actors.cleaner.sweep = true;
    const auto r = test::explore(w, false);
    REQUIRE(r.verdict == Verdict::kViolation);
    CHECK(counterexample(r, inv::kUntrackedTempTable) != nullptr);
    CHECK(counterexample(r, inv::kTempTableLeak) == nullptr);
    CHECK(covered(r, goal::kSweepPassCompleted) > 0);
  }
}
