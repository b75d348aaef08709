// How a client session begins and ends (docs/model.md, "Sessions before the first pass, and how a
// session ends"), and the cleaner's own job (dead_session_table_left, dead_session_cleaned):
// - existing: alive / gone: the session's U1..U3 are the initial state (StarRocks'
//   TemporaryTableCleanerTest starts from a manager that holds sessions);
// - end: abnormal (the connection drops: no CLEAN TEMPORARY TABLE) / never (stays connected).
#include "explorer/core/input_error.hpp"
#include "model/starrocks/scenario.hpp"
#include "model/starrocks/world.hpp"
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <set>
#include <string>

using namespace interleave;
using namespace interleave::model;
using test::covered;

namespace {

ClientConfig session(const std::string& name, ClientStart existing, ClientEnd end) {
  ClientConfig c = test::client(name);
  c.existing = existing;
  c.end = end;
  return c;
}

// The tables in CAT at the end of every execution, as "name,name" (one string per distinct end
// state, collected by a final check that never fails).
struct EndStates {
  std::set<std::string> seen;
};

ExplorationResult explore_collecting(const WorldConfig& cfg, EndStates& out,
                                     const std::string& strategy = "dfs") {
  auto plan = std::make_shared<const SpawnPlan>(cfg);
  Program p = [cfg, plan, &out](Execution& ex) {
    World& w = ex.make<World>(ex, cfg, *plan);
    w.setup();
    ex.final_check("collect", [&w, &out]() -> Check {
      std::string s;
      for (int id : w.cat.present())
        s += (s.empty() ? "" : ",") + w.cat.info(id).name;
      out.seen.insert(s);
      return std::nullopt;
    });
  };
  ExploreOptions o;
  o.stop_on_first_violation = false;
  Explorer ex(std::move(p), o);
  auto st = make_strategy(StrategySpec{strategy});
  return ex.explore(*st);
}

}  // namespace

TEST_CASE("testNormal: an alive session is spared, a gone one is cleaned in one pass",
          "[sessions][starrocks-tests]") {
  WorldConfig w = test::world("pr-79339");
  w.actors.cleaner.passes = 1;
  w.actors.clients.push_back(session("session1", ClientStart::kAlive, ClientEnd::kNever));
  w.actors.clients.push_back(session("session2", ClientStart::kGone, ClientEnd::kClean));
  EndStates end;
  const auto r = explore_collecting(w, end);
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.executions == 1);  // the cleaner is the only actor
  CHECK(end.seen == std::set<std::string>{"tmp_session1_1"});
  CHECK(covered(r, goal::kClientSessionSpared) == 1);
  CHECK(covered(r, goal::kDeadSessionCleaned) == 1);

  SECTION("both gone: both cleaned") {
    w.actors.clients[0] = session("session1", ClientStart::kGone, ClientEnd::kClean);
    EndStates both;
    const auto r2 = explore_collecting(w, both);
    CHECK(r2.verdict == Verdict::kHolds);
    CHECK(both.seen == std::set<std::string>{""});
    CHECK(covered(r2, goal::kClientSessionSpared) == 0);
  }
  SECTION("no pass: both stay") {
    w.actors.cleaner.passes = 0;
    EndStates none;
    const auto r3 = explore_collecting(w, none);
    CHECK(r3.verdict == Verdict::kHolds);
    CHECK(none.seen == std::set<std::string>{"tmp_session1_1,tmp_session2_1"});
    CHECK(covered(r3, goal::kDeadSessionCleaned) == 0);
  }
  SECTION("on a follower: its replayed manager has the session, so listSessions names it") {
    w.cluster.frontends = 2;
    w.actors.clients[0].frontend = 1;
    EndStates f;
    const auto r4 = explore_collecting(w, f);
    CHECK(r4.verdict == Verdict::kHolds);
    CHECK(f.seen == std::set<std::string>{"tmp_session1_1"});
  }
}

TEST_CASE("an alive pre-existing session that ends in the scenario starts at U4a",
          "[sessions]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.cleaner.passes = 1;
  w.actors.clients.push_back(session("c1", ClientStart::kAlive, ClientEnd::kClean));
  EndStates end;
  const auto r = explore_collecting(w, end);
  CHECK(r.verdict == Verdict::kHolds);
  // U4a before or after the pass; with a clean end the table is always gone, by U4b or D2.
  CHECK(end.seen == std::set<std::string>{""});
  CHECK(covered(r, goal::kClientSessionSpared) > 0);
  CHECK(covered(r, goal::kDeadSessionCleaned) > 0);  // U4a before C2: the pass cleans it
}

TEST_CASE("an abnormal end leaves the tables to the cleaner, a clean end cleans them itself",
          "[sessions]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.cleaner.passes = 0;
  w.actors.cleaner.sweep = true;
  w.actors.clients.push_back(session("c1", ClientStart::kInScenario, ClientEnd::kAbnormal));
  SECTION("abnormal: only the sweep pass drops the table") {
    const auto r = test::explore(w, false);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(covered(r, goal::kDeadSessionCleaned) == r.stats.executions);
  }
  SECTION("abnormal, no sweep: the table stays") {
    w.actors.cleaner.sweep = false;
    EndStates end;
    const auto r = explore_collecting(w, end);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(end.seen == std::set<std::string>{"tmp_c1_1"});
  }
  SECTION("clean: U4b cleans before the sweep pass, which finds nothing") {
    w.actors.clients[0].end = ClientEnd::kClean;
    const auto r = test::explore(w, false);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(covered(r, goal::kDeadSessionCleaned) == 0);
  }
}

TEST_CASE("a session that never ends keeps its tables, and they are not a leak", "[sessions]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.cleaner.passes = 1;
  w.actors.cleaner.sweep = true;
  w.actors.clients.push_back(session("c1", ClientStart::kInScenario, ClientEnd::kNever));
  EndStates end;
  const auto r = explore_collecting(w, end);
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(end.seen == std::set<std::string>{"tmp_c1_1"});
  CHECK(covered(r, goal::kSweepPassCompleted) == r.stats.executions);
  CHECK(covered(r, goal::kClientSessionSpared) > 0);
  CHECK(covered(r, goal::kDeadSessionCleaned) == 0);
}

TEST_CASE("existing and end: parsed, and a gone session takes no end", "[sessions][scenario]") {
  const WorldConfig w = parse_world(
      {{"actors",
        {{"clients",
          {{{"name", "a"}, {"existing", "alive"}, {"end", "never"}},
           {{"name", "b"}, {"existing", "gone"}},
           {{"name", "c"}, {"end", "abnormal"}}}}}}},
      "s.json");
  CHECK(w.actors.clients[0].existing == ClientStart::kAlive);
  CHECK(w.actors.clients[0].end == ClientEnd::kNever);
  CHECK_FALSE(w.actors.clients[0].has_actor());
  CHECK(w.actors.clients[1].existing == ClientStart::kGone);
  CHECK_FALSE(w.actors.clients[1].has_actor());
  CHECK(w.actors.clients[2].existing == ClientStart::kInScenario);
  CHECK(w.actors.clients[2].end == ClientEnd::kAbnormal);
  CHECK(w.actors.clients[2].has_actor());
  auto error_of = [](const nlohmann::json& j) {
    try {
      parse_world(j, "s.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of({{"actors", {{"clients", {{{"existing", "gone"}, {"end", "clean"}}}}}}}) ==
        "s.json: /actors/clients/0/end: a session that is gone before the first pass "
        "(existing: 'gone') has already ended: it takes no 'end'");
  CHECK(error_of({{"actors", {{"clients", {{{"existing", "dead"}}}}}}}) ==
        "s.json: /actors/clients/0/existing: unknown value 'dead'; expected one of 'no', "
        "'alive', 'gone'");
  CHECK(error_of({{"actors", {{"clients", {{{"end", true}}}}}}}) ==
        "s.json: /actors/clients/0/end: expected a string, got a boolean");
}

TEST_CASE("the cleaner's job can fail: a killed run's later staging table, created after D1",
          "[sessions][dead_session_table_left]") {
  // A forced kill makes the run's owner dead before the pass; its second recursive CTE's staging
  // table is created after the pass's D1 copied the session's tables, so the pass's D4 leaves it
  // in CAT (the run's own finalize drops it later).
  WorldConfig w = test::world("starrocks-4.1.1");
  w.policy.add_temporary_table = AddTemporaryTable::kAtomic;
  w.actors.cleaner.passes = 1;
  TaskRunConfig t = test::task_run("t1", false, TabletRows::kNone);
  t.staging_tables = 2;
  t.kill = KillMode::kForce;
  w.actors.task_runs.push_back(t);
  const auto r = test::explore(w, false);
  REQUIRE(r.verdict == Verdict::kViolation);
  const Counterexample* c = test::counterexample(r, inv::kDeadSessionTableLeft);
  REQUIRE(c != nullptr);
  CHECK_THAT(c->message, Catch::Contains("found session t1#1 dead and old enough"));
  CHECK_THAT(c->message, Catch::Contains("created after D1's copy"));
  CHECK(test::all_replay(w, r));

  SECTION("one staging table: the pass always finishes its job") {
    w.actors.task_runs[0].staging_tables = 1;
    const auto r1 = test::explore(w, false);
    CHECK(test::counterexample(r1, inv::kDeadSessionTableLeft) == nullptr);
    CHECK(covered(r1, goal::kDeadSessionCleaned) > 0);
  }
}
