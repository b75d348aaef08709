// The public API refuses what would otherwise fail late or silently: an access to an object that
// is not registered (at the step that announces it, naming the actor, the label and the id), a
// label that would dangle (it does not compile; runtime strings become labels explicitly, in
// storage the Explorer keeps), and a duration given with no clock to keep virtual time.
#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/time/virtual_time.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

using namespace interleave;

namespace {

// Whether `a.step(label, {})` compiles for a label expression of type L.
template <class L>
constexpr bool can_step_with = requires(Actor& a, L label) {
  a.step(label, {});
};
// Whether the label of the dangling example, `"step " + text`, compiles with text of type S.
template <class S>
constexpr bool can_step_with_concatenation = requires(Actor& a, S text) {
  a.step("step " + text, {});
};
// Whether a literal compiles (in a template, so that the answer is a value, not an error).
template <class A>
constexpr bool can_step_with_literal = requires(A& a) {
  a.step("C1", {});
};

}  // namespace

TEST_CASE("a label is a string literal or an explicitly stored string", "[api][label]") {
  static_assert(can_step_with_literal<Actor>);
  static_assert(std::is_constructible_v<Label, const char(&)[3]>);
  // What would dangle does not compile: a temporary std::string, a view of one, a pointer.
  static_assert(!can_step_with_concatenation<std::string>);
  static_assert(!can_step_with<std::string>);
  static_assert(!can_step_with<std::string_view>);
  static_assert(!can_step_with<const char*>);
  static_assert(!std::is_convertible_v<std::string, Label>);
  static_assert(!std::is_convertible_v<std::string_view, Label>);
  static_assert(!std::is_constructible_v<Label, const char*>);
  static_assert(std::is_convertible_v<Label, std::string_view>);
  // The explicit way compiles: Actor::label and Execution::label.
  static_assert(requires(Actor & a, std::string s) { a.step(a.label("step " + s), {}); });
  static_assert(requires(Execution & ex, std::string s) { ex.label(s); });
  constexpr Label c1 = "C1";
  static_assert(c1.view() == "C1" && c1.size() == 2 && c1 == Label("C1"));
  SUCCEED("checked at compile time");
}

TEST_CASE("a runtime label is stored once and is the same in every execution", "[api][label]") {
  std::vector<const char*> seen;  // where "step 1" of W1 lives, per execution
  auto prog = [&seen](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    for (int w = 0; w < 2; ++w)
      ex.spawn("W" + std::to_string(w), [&x, &seen, w](Actor& a) {
        for (int i = 0; i < 2; ++i) {
          const Label l = a.label("step " + std::to_string(i));
          if (w == 1 && i == 1) seen.push_back(l.data());
          x.update(a, l, [](int& v) { ++v; });
        }
      });
  };
  ExploreOptions o;
  o.minimize = false;
  o.check_determinism = false;  // its runs would be counted in `seen` too
  Explorer explorer(prog, o);
  DporStrategy dpor;
  const ExplorationResult r = explorer.explore(dpor);
  // Four updates of one object: C(4, 2) = 6 traces, as with literal labels (DPOR compares the
  // labels of different executions, which therefore must stay valid and equal).
  CHECK(r.verdict == Verdict::kHolds);
  CHECK(r.stats.completed == 6);
  CHECK(dpor.dropped_certain() == 0);
  REQUIRE(seen.size() == 6);
  for (const char* p : seen)
    CHECK(p == seen.front());
  CHECK(std::string_view(seen.front()) == "step 1");
  // And a counterexample reads them back.
  auto failing = [](Execution& ex) {
    ex.spawn("A", [](Actor& a) {
      a.step(a.label(std::string("look ") + "here"), {});
      a.fail("stop");
    });
  };
  const ExplorationResult f = test::explore_dfs(failing);
  REQUIRE(f.counterexamples.size() == 1);
  CHECK(f.counterexamples[0].steps.at(0).label == "look here");
  CHECK(f.counterexamples[0].message == "A failed at step look here: stop");
}

TEST_CASE("an access to an unregistered object is refused at the step that announces it",
          "[api][objects]") {
  auto explore = [](Program p) {
    ExploreOptions o;
    o.minimize = false;
    Explorer ex(std::move(p), o);
    DporStrategy dpor;
    ex.explore(dpor);
  };
  // Object 7 in an execution with 3 objects (x and the two actors' lifecycle objects), after a
  // first step that is fine.
  auto bad_id = [](Execution& ex) {
    const ObjectId x = ex.object("x");
    ex.spawn("A", [x](Actor& a) {
      a.step("fine", {write(x)});
      a.step("A2", {read(x), write(7)});
    });
    ex.spawn("B", [x](Actor& a) { a.step("B1", {read(x)}); });
  };
  CHECK_THROWS_MATCHES(
      explore(bad_id), ProgramError,
      Catch::Message("actor 'A' announced step 'A2' with an access to object 7, which is not "
                     "registered in this execution (objects 0 to 2 are registered; register "
                     "shared objects with Execution::object before using them)"));
  // A default Access (its object never set), through an Op, in the actor's first announcement.
  auto unset = [](Execution& ex) {
    ex.spawn("A", [](Actor& a) {
      Op op("first", {Access{}});
      a.step(op);
    });
  };
  CHECK_THROWS_MATCHES(explore(unset), ProgramError,
                       Catch::Message("actor 'A' announced step 'first' with an access to "
                                      "kNoObject (an access whose object was never set), which "
                                      "is not registered in this execution (objects 0 to 0 are "
                                      "registered; register shared objects with "
                                      "Execution::object before using them)"));
  // An id of an earlier execution's object, in a blocking operation: refused as well, with DFS.
  ObjectId stale = kNoObject;
  int runs = 0;
  auto stale_id = [&stale, &runs](Execution& ex) {
    if (runs++ == 0) stale = ex.object("gone") + 10;
    ex.spawn("W", [&stale](Actor& a) { a.wait_until("wait", {read(stale)}, [] { return true; }); });
  };
  CHECK_THROWS_WITH(test::explore_dfs(stale_id),
                    Catch::StartsWith("actor 'W' announced step 'wait' with an access to object "
                                      "10, which is not registered"));
}

TEST_CASE("a timed program needs a clock: without one it is refused, naming the actor",
          "[api][time]") {
  StackPool pool(64 * 1024);
  ExecutionBuffers buffers;  // no clock installed (ExecutionBuffers::clock)
  auto program = [](bool timed) {
    return [timed](Execution& ex) {
      const ObjectId x = ex.object("x");
      ex.spawn("A", [x, timed](Actor& a) {
        a.step("A1", {write(x)});
        if (timed) a.lasts(Duration::exactly(5));
        a.step("A2", {write(x)});
      });
    };
  };
  auto run = [&](bool timed, Outcome& outcome, bool& was_timed, std::vector<Micros>& times) {
    DfsStrategy dfs;
    REQUIRE(dfs.begin_execution());
    Execution ex(pool, buffers, ExecutionOptions{100, /*tracing=*/true, &dfs});
    program(timed)(ex);
    outcome = ex.run(dfs);
    was_timed = ex.timed();
    times.assign(ex.times().begin(), ex.times().end());
  };
  Outcome outcome = Outcome::kAbandoned;
  bool timed = false;
  std::vector<Micros> times;
  CHECK_THROWS_MATCHES(run(true, outcome, timed, times), ProgramError,
                       Catch::Message("actor 'A' gave a duration (Actor::lasts), but no clock "
                                      "keeps virtual time for this execution "
                                      "(ExecutionBuffers::clock: install a VirtualTime, "
                                      "explorer/time/virtual_time.hpp)"));
  // An untimed program needs none.
  run(false, outcome, timed, times);
  CHECK(outcome == Outcome::kCompleted);
  CHECK_FALSE(timed);
  CHECK(times.empty());
  // With a clock: timed, and the earliest times of the traced steps.
  VirtualTime clock;
  buffers.clock = &clock;
  run(true, outcome, timed, times);
  CHECK(outcome == Outcome::kCompleted);
  CHECK(timed);
  CHECK(times == std::vector<Micros>{0, 5});
  // An untimed execution after a timed one, with the same buffers, has no times.
  run(false, outcome, timed, times);
  CHECK_FALSE(timed);
  CHECK(times.empty());
}
