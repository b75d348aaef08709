// The owner decomposition (docs/model.md, "Owner decomposition") against the full search. On a
// grid of configurations small enough for the full DPOR search, exploring one slice per owner
// kind must give the same verdict, the same violated properties and the same coverage goals as
// exploring the whole configuration; a counterexample of each violating slice must lift to the
// configuration and replay there, and the properties `check --decompose` reports (one lifted
// counterexample each, report_violations) must be the full search's. A second grid has the sweep
// pass, FEs that stay down and sessions that end abnormally. A test-only variant with a coupling between owners that does
// more than delay shows that the comparison would catch a broken argument.
#include "tests/model/helpers.hpp"

#include "explorer/search/decomposition.hpp"
#include "model/starrocks/actors.hpp"
#include "model/starrocks/decomposition.hpp"
#include "model/starrocks/spawn_plan.hpp"
#include "model/starrocks/world.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace interleave;
using namespace interleave::model;

namespace {

struct SearchOutcome {
  Verdict verdict = Verdict::kHolds;
  std::set<std::string> violated;
  std::set<std::string> reached;
  std::uint64_t executions = 0;
  std::vector<Counterexample> counterexamples;
  std::vector<std::string> owners;  // counterexamples[i] was found in the slice of owners[i]
};

ExploreOptions options() {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.minimize = false;
  return o;
}

void add(SearchOutcome& out, const ExplorationResult& r, const std::string& owner) {
  out.executions += r.stats.executions;
  for (const auto& [name, n] : r.stats.violations)
    if (n > 0) out.violated.insert(name);
  for (const auto& [goal, n] : r.covered)
    if (n > 0) out.reached.insert(goal);
  for (const Counterexample& c : r.counterexamples) {
    out.counterexamples.push_back(c);
    out.owners.push_back(owner);
  }
}

SearchOutcome full_search(const Program& program) {
  Explorer ex(program, options());
  auto s = make_strategy(StrategySpec{});
  const ExplorationResult r = ex.explore(*s);
  SearchOutcome out;
  out.verdict = r.verdict;
  add(out, r, "");
  return out;
}

// Explores each distinct kind once and combines as `check --decompose` does.
SearchOutcome decomposed(const std::vector<OwnerSlice>& slices) {
  SearchOutcome out;
  bool any_violation = false, all_hold = true;
  std::set<std::string> kinds;
  for (const OwnerSlice& slice : slices) {
    if (!kinds.insert(slice.kind).second) continue;
    Explorer ex(slice.program, options());
    auto s = make_strategy(StrategySpec{});
    const ExplorationResult r = ex.explore(*s);
    any_violation = any_violation || r.verdict == Verdict::kViolation;
    all_hold = all_hold && r.verdict == Verdict::kHolds;
    add(out, r, slice.owner);
  }
  out.verdict = any_violation ? Verdict::kViolation
                : all_hold    ? Verdict::kHolds
                              : Verdict::kIncomplete;
  return out;
}

std::string describe(const WorldConfig& w) {
  std::string s = w.preset + ", " + std::to_string(w.cluster.frontends) + " FE(s), " +
                  std::to_string(w.actors.cleaner.passes) + " pass(es):";
  for (const TaskRunConfig& t : w.actors.task_runs)
    s += std::string(" ") + t.name + (t.sync ? " sync" : " async") +
         (t.kill != KillMode::kNone ? " kill" : "") + (t.retries ? " retries" : "");
  for (const ClientConfig& c : w.actors.clients)
    s += " " + c.name + "@" + frontend_name(c.frontend) +
         (c.end == ClientEnd::kAbnormal ? " abnormal" : "");
  for (int f : w.cluster.down_frontends)
    s += " " + frontend_name(f) + " down";
  if (w.actors.cleaner.sweep) s += " sweep";
  return s;
}

// The full search and the decomposed one agree; each slice counterexample lifts and replays.
void agree(const WorldConfig& w) {
  INFO(describe(w));
  const DecompositionOffer offer = decompose_by_owners(w);
  REQUIRE(offer.decomposition);
  const Program program = make_program(w);
  const auto t0 = std::chrono::steady_clock::now();
  const SearchOutcome f = full_search(program);
  const auto t1 = std::chrono::steady_clock::now();
  const SearchOutcome d = decomposed(offer.decomposition->slices);
  const auto t2 = std::chrono::steady_clock::now();
  // INTERLEAVE_DECOMPOSITION_TIMES=1 prints each configuration's counts and times (docs/model.md).
  if (std::getenv("INTERLEAVE_DECOMPOSITION_TIMES"))
    std::fprintf(stderr, "%s: full %llu ex %.2fs, decomposed %llu ex %.2fs\n", describe(w).c_str(),
                 (unsigned long long)f.executions, std::chrono::duration<double>(t1 - t0).count(),
                 (unsigned long long)d.executions, std::chrono::duration<double>(t2 - t1).count());
  CHECK(f.verdict != Verdict::kIncomplete);
  CHECK(d.verdict == f.verdict);
  CHECK(d.violated == f.violated);
  CHECK(d.reached == f.reached);
  // What `check --decompose` reports (its headline, its JSON summary, the gate): one violation per
  // property, each lifted to the configuration. The same properties as the full search's.
  std::vector<std::pair<std::string, Counterexample>> found;
  for (std::size_t i = 0; i < d.counterexamples.size(); ++i)
    found.emplace_back(d.owners[i], d.counterexamples[i]);
  std::set<std::string> reported;
  for (const ReportedViolation& v :
       report_violations(program, *offer.decomposition, found, ExploreOptions{})) {
    INFO("reported " << v.counterexample.invariant << " from slice " << v.owner);
    reported.insert(v.counterexample.invariant);
    CHECK(v.failure == "");
    CHECK(v.lifted);
  }
  CHECK(reported == f.violated);
  for (std::size_t i = 0; i < d.counterexamples.size(); ++i) {
    if (d.owners[i].empty()) continue;
    INFO("lift of " << d.counterexamples[i].invariant << " from slice " << d.owners[i]);
    const LiftResult lr = lift_counterexample(program, *offer.decomposition, d.owners[i],
                                              d.counterexamples[i], ExploreOptions{});
    CHECK(lr.failure == "");
    REQUIRE(lr.counterexample);
    CHECK(lr.counterexample->invariant == d.counterexamples[i].invariant);
    Explorer ex(program);
    const ReplayReport rep = ex.replay(lr.counterexample->schedule);
    CHECK(rep.violation_of(d.counterexamples[i].invariant) != nullptr);
    CHECK_FALSE(rep.diverged);
  }
}

WorldConfig with(const std::string& preset, int passes, int frontends,
                 std::vector<TaskRunConfig> runs, std::vector<ClientConfig> clients) {
  WorldConfig w = test::world(preset);
  w.actors.cleaner.passes = passes;
  w.cluster.frontends = frontends;
  w.actors.task_runs = std::move(runs);
  w.actors.clients = std::move(clients);
  return w;
}

TaskRunConfig run(const std::string& name, bool sync = false, bool kill = false,
                  int retries = 0) {
  TaskRunConfig t = test::task_run(name, sync, TabletRows::kSome);
  t.kill = kill ? KillMode::kForce : KillMode::kNone;
  t.retries = retries;
  return t;
}

// The grid: owners x presets x passes, each small enough for the full search.
std::vector<WorldConfig> grid(bool large) {
  const std::vector<std::string> presets = {"starrocks-4.1.1",
                                            "pr-79339",
                                            "pr-79339-run-only",
                                            "pr-79339-register-then-start",
                                            "pr-79339-snapshot-before-start",
                                            "pending-task-runs",
                                            "no-create-time-guard",
                                            "ignore-failed-frontend",
                                            "atomic-add-temporary-table"};
  struct OwnerSet {
    int frontends;
    std::vector<TaskRunConfig> runs;
    std::vector<ClientConfig> clients;
  };
  std::vector<OwnerSet> owners = {
      {1, {run("t1")}, {test::client("c1")}},
      {1, {run("t1", true)}, {test::client("c1")}},
      {1, {run("t1"), run("t2")}, {}},
      {1, {run("t1", false, true)}, {test::client("c1")}},
      {2, {run("t1")}, {test::client("c1", 1)}},
      {2, {}, {test::client("c1"), test::client("c2", 1)}},
  };
  if (large) {
    owners.push_back({1, {run("t1", false, false, 1)}, {test::client("c1")}});
    owners.push_back({1, {run("t1"), run("t2", true)}, {test::client("c1")}});
    owners.push_back({2, {run("t1", true)}, {test::client("c1"), test::client("c2", 1)}});
  }
  std::vector<WorldConfig> out;
  for (const std::string& p : presets)
    for (const OwnerSet& o : owners)
      for (int passes : {1, 2}) {
        // Two passes multiply the traces (two owners: 50 000 to 5 million executions): the
        // quick grid keeps the cheap ones; the stress grid has them all.
        const bool cheap =
            (p == "pr-79339" && o.clients.empty()) ||
            (p == "pr-79339-register-then-start" && o.runs.size() == 1 && !o.runs[0].sync &&
             o.runs[0].kill == KillMode::kNone && o.frontends == 1);
        if (!large && passes == 2 && !cheap) continue;
        // Three owners and two passes: beyond what a full search ends in minutes.
        if (passes == 2 && o.runs.size() + o.clients.size() > 2) continue;
        WorldConfig w = with(p, passes, o.frontends, o.runs, o.clients);
        if (p == "ignore-failed-frontend") w.cluster.unreachable_frontends = {0};
        out.push_back(w);
      }
  // One owner alone, two passes: the slice is the configuration (the pipeline, the lift's
  // identity case).
  for (const std::string& p : {std::string("starrocks-4.1.1"), std::string("pr-79339")}) {
    out.push_back(with(p, 2, 1, {run("t1")}, {}));
    out.push_back(with(p, 2, 2, {}, {test::client("c1", 1)}));
  }
  return out;
}

ClientConfig abnormal(ClientConfig c) {
  c.end = ClientEnd::kAbnormal;
  return c;
}

// The grid of the sweep pass (one pass, then the sweep after every owner ended), with FEs that
// stay down and sessions that end abnormally: a property reported at the end of the execution
// (`unreachable_frontend_leak`, `temp_table_leak`) and a sweep whose joins wait for owners a
// slice does not have.
std::vector<WorldConfig> sweep_grid() {
  struct OwnerSet {
    int frontends;
    std::vector<int> down;
    std::vector<TaskRunConfig> runs;
    std::vector<ClientConfig> clients;
  };
  const std::vector<OwnerSet> owners = {
      {1, {}, {run("t1"), run("t2")}, {}},
      {2, {1}, {run("t1")}, {abnormal(test::client("c1"))}},
      {3, {1}, {}, {test::client("c1"), abnormal(test::client("c2", 2)), test::client("c3", 2)}},
      {1, {}, {run("t1")}, {abnormal(test::client("c1"))}},
      {2, {1}, {run("t1", true)}, {test::client("c1")}},
      {1, {}, {run("t1", false, true)}, {abnormal(test::client("c1"))}},
  };
  std::vector<WorldConfig> out;
  for (const std::string& p : {std::string("starrocks-4.1.1"), std::string("pr-79339"),
                               std::string("pr-79339-register-then-start")})
    for (const OwnerSet& o : owners) {
      WorldConfig w = with(p, 1, o.frontends, o.runs, o.clients);
      w.actors.cleaner.sweep = true;
      w.cluster.down_frontends = o.down;
      out.push_back(w);
    }
  return out;
}

}  // namespace

TEST_CASE("decomposition: the slices of owners of one kind are one slice, named apart",
          "[decomposition]") {
  WorldConfig w = with("pr-79339", 1, 2, {run("t1"), run("t2"), run("t3", true)},
                       {test::client("c1"), test::client("c2", 1)});
  const DecompositionOffer offer = decompose_by_owners(w);
  REQUIRE(offer.decomposition);
  const auto& s = offer.decomposition->slices;
  REQUIRE(s.size() == 5);
  CHECK(s[0].owner == "t1");
  CHECK(s[0].kind == s[1].kind);  // t1, t2: async, same iterations
  CHECK(s[0].kind != s[2].kind);  // t3 is sync
  CHECK(s[3].kind != s[4].kind);  // c1 on the leader, c2 on a follower
  CHECK(s[2].kind_text == "sync TaskRun, 0 iterations");
  CHECK(s[4].kind_text == "client on fe2 (follower), 1 temp table");
  const auto& d = *offer.decomposition;
  CHECK(d.actor_owner("TaskRun:t2") == "t2");
  CHECK(d.actor_owner("TabletSink:t3#1/E3/cn1") == "t3");
  CHECK(d.actor_owner("Session:c2@fe2") == "c2");
  CHECK(d.actor_owner("TemporaryTableCleaner") == "");
  CHECK(d.actor_owner("Replayer:fe2") == "");
  CHECK(d.object_owner("TTM_L[t1#1].tables") == "t1");
  CHECK(d.object_owner("CAT[tmp_c1_1]") == "c1");
  CHECK(d.object_owner("CS_fe2[c2]") == "c2");
  CHECK(d.object_owner("runCtx(t3)") == "t3");
  CHECK(d.object_owner("J[fe2]") == "");
  CHECK(d.object_owner("RUN") == "");
  CHECK(mentions_name("RUN.put(t1)", "t1"));
  CHECK(mentions_name("session t1#2", "t1"));
  CHECK_FALSE(mentions_name("RUN.put(t10)", "t1"));
}

TEST_CASE("decomposition: a coupling that does more than delay is refused", "[decomposition]") {
  WorldConfig w = test::world("cross-frontend-create-time");
  w.actors.clients.push_back(test::client("c1"));
  const DecompositionOffer offer = decompose_by_owners(w);
  CHECK_FALSE(offer.decomposition);
  CHECK(offer.refusal_path == "/policy/create_time_clock");
  CHECK_THAT(offer.refusal, Catch::Contains("more than a delay"));
}

TEST_CASE("decomposition: agrees with the full search on the grid", "[decomposition]") {
  const std::vector<WorldConfig> configs = grid(false);
  CHECK(configs.size() >= 30);
  for (const WorldConfig& w : configs)
    agree(w);
}

// Named so that the CI's sanitizer step, which leaves out "agrees with the full search on the
// grid" (.ci/run), leaves it out too: it runs in the GCC step.
TEST_CASE("decomposition: agrees with the full search on the grid of sweeps, down FEs and "
          "abnormal ends",
          "[decomposition]") {
  for (const WorldConfig& w : sweep_grid())
    agree(w);
}

TEST_CASE("decomposition: agrees with the full search on the larger grid",
          "[decomposition][.stress]") {
  for (const WorldConfig& w : grid(true))
    agree(w);
}

namespace {

// A test-only variant with a coupling that does more than delay: once client c1 is registered
// (U2) and TaskRun t1 has its runCtx (E1), a "Coupler" (as if c1's session shared a ConnectContext
// with the run) sets t1's runCtx session to null. Neither slice has it (it needs both owners).
Program coupled_program(const WorldConfig& config) {
  struct Prepared {
    explicit Prepared(const WorldConfig& c) : cfg(c), plan(c) {}
    WorldConfig cfg;
    SpawnPlan plan;
  };
  auto prepared = std::make_shared<const Prepared>(config);
  return [prepared](Execution& ex) {
    World& w = ex.make<World>(ex, prepared->cfg, prepared->plan);
    w.setup();
    if (prepared->cfg.actors.task_runs.empty() || prepared->cfg.actors.clients.empty()) return;
    ex.spawn("Coupler", [&w](Actor& a) {
      a.wait_until("X1", {w.cs.update_registration(0), w.scheduler.update_runctx(0)}, [&w] {
        return !w.cs.sessions(w.client_cfg(0).frontend).empty() &&
               !w.scheduler.task(0).session.empty();
      });
      w.scheduler.task(0).session.clear();
    });
  };
}

}  // namespace

TEST_CASE("decomposition: the comparison catches a coupling that does more than delay",
          "[decomposition]") {
  // Under pr-79339-register-then-start both slices hold; the coupled full world drops t1's
  // staging table while t1 is live (C3 finds a null runCtx).
  const WorldConfig w =
      with("pr-79339-register-then-start", 1, 1, {run("t1")}, {test::client("c1")});
  std::vector<OwnerSlice> slices;
  for (int i = 0; i < 2; ++i) {
    WorldConfig s = w;
    if (i == 0) s.actors.clients.clear();
    if (i == 1) s.actors.task_runs.clear();
    slices.push_back({i == 0 ? "t1" : "c1", std::to_string(i), "", coupled_program(s), nullptr});
  }
  const SearchOutcome f = full_search(coupled_program(w));
  const SearchOutcome d = decomposed(slices);
  CHECK(d.verdict == Verdict::kHolds);
  CHECK(f.verdict == Verdict::kViolation);
  CHECK(f.violated.count("live_owner_table_dropped") == 1);
  CHECK(d.violated != f.violated);
  // The model as shipped: the same configuration agrees.
  agree(w);
}
