// Preemption bounding against brute force: with bound k, exactly the DFS executions that have at
// most k preemptions, and exactly the properties they violate.
#include "explorer/strategies/preemption_bound.hpp"
#include "tests/programs.hpp"
#include "tests/strategies/oracle.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace interleave;
using namespace interleave::test;

namespace {

// Counts the preemptions of every execution of an inner strategy.
class Counting final : public Strategy {
 public:
  Counting(Strategy& inner, const Sink* sink) : inner_(inner), sink_(sink) {}
  std::string name() const override { return inner_.name(); }
  bool begin_execution() override {
    current_ = 0;
    return inner_.begin_execution();
  }
  ActorId next_actor(const SchedulingPoint& p) override {
    const ActorId a = inner_.next_actor(p);
    if (is_preemption(p, a)) ++current_;
    return a;
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& p) override {
    return inner_.next_choice(p);
  }
  void end_execution(const ExecutionRecord& r) override {
    ++executions[current_];
    if (r.outcome == Outcome::kCompleted) ++completed[current_];
    if (r.outcome == Outcome::kDeadlock) violated[current_].insert("deadlock");
    if (r.outcome == Outcome::kViolation) violated[current_].insert(sink_->violation);
    inner_.end_execution(r);
  }
  Coverage coverage() const override { return inner_.coverage(); }

  // per number of preemptions:
  std::map<std::uint64_t, std::uint64_t> executions, completed;
  std::map<std::uint64_t, std::set<std::string>> violated;

 private:
  Strategy& inner_;
  const Sink* sink_;
  std::uint64_t current_ = 0;
};

ExploreOptions all_violations() {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.minimize = false;
  return o;
}

}  // namespace

TEST_CASE("preemption bound 0: only run-to-completion schedules", "[bound]") {
  // Lost update without preemptions: A then B, or B then A. Both are correct.
  Explorer ex(lost_update(), all_violations());
  PreemptionBoundStrategy s({0, false});
  auto r = ex.explore(s);
  CHECK(r.stats.executions == 2);
  CHECK(r.verdict == Verdict::kIncomplete);
  CHECK(r.detail == "no violation with at most 0 preemptions");
}

TEST_CASE("iterative bounding finds the lost update at bound 1, with 1 preemption", "[bound]") {
  ExploreOptions o;
  o.minimize = false;  // the counterexample is the one the search found
  Explorer ex(lost_update(), o);
  PreemptionBoundStrategy s({3, true});
  auto r = ex.explore(s);
  REQUIRE(r.verdict == Verdict::kViolation);
  CHECK(s.bound() == 1);
  CHECK(r.counterexamples.at(0).preemptions == 1);
  // Bound 0: A,B and B,A (2). Bound 1: A.read, then B (preempting A) runs to its end, then A: the
  // first execution of bound 1 after A,B,... is A,B,B,A, which loses an update.
  CHECK(r.stats.executions == 4);
}

TEST_CASE("a bound that cuts nothing gives a complete search", "[bound]") {
  // Two actors of one step each: at most one preemption is ever possible (2 executions, one of
  // which switches while the first actor is done: no preemption at all). Bound 0 cuts nothing.
  auto prog = [](Execution& ex) {
    const ObjectId x = ex.object("x");
    ex.spawn("A", [x](Actor& a) { a.step("a", {write(x)}); });
    ex.spawn("B", [x](Actor& a) { a.step("b", {write(x)}); });
  };
  Explorer ex(prog);
  PreemptionBoundStrategy s({2, true});
  auto r = ex.explore(s);
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.executions == 2);
  CHECK(r.detail ==
        "every interleaving and every choice value (the bound of 0 preemptions cut nothing)");
}

TEST_CASE("preemption bound k runs exactly the DFS executions with at most k preemptions",
          "[bound][random]") {
  for (std::uint64_t seed = 500'001; seed <= 500'080; ++seed) {
    RandomProgram rp(seed);
    Sink sink;
    DfsStrategy dfs;
    Counting brute(dfs, &sink);
    ExploreOptions budget = all_violations();
    budget.max_executions = 5'000;
    Explorer capped(rp.program(&sink), budget);
    if (capped.explore(brute).stats.executions == 5'000) continue;  // too large for brute force
    const std::uint64_t most = brute.executions.rbegin()->first;
    for (std::uint32_t k = 0; k <= 2; ++k) {
      std::uint64_t executions = 0, completed = 0;
      std::set<std::string> violated;
      for (const auto& [p, n] : brute.executions) {
        if (p > k) continue;
        executions += n;
        completed += brute.completed[p];
        violated.insert(brute.violated[p].begin(), brute.violated[p].end());
      }
      Sink sink2;
      Explorer ex(rp.program(&sink2), all_violations());
      PreemptionBoundStrategy s({k, false});
      auto r = ex.explore(s);
      std::set<std::string> found;
      for (const auto& [name, n] : r.stats.violations)
        found.insert(name);
      INFO("seed " << seed << ", bound " << k << "\n" << rp.describe());
      CHECK(r.stats.executions == executions);
      CHECK(r.stats.completed == completed);
      CHECK(found == violated);
      CHECK(s.coverage().complete == (most <= k));
    }
  }
}
