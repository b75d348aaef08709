// Operations with more accesses than an Op holds inline (Op::kMaxAccesses), kept out of line: they
// keep every access, and DFS and DPOR order them exactly with the operations on each of their
// objects (the random programs of Shape::kWideOps in test_dpor_soundness.cpp check more).
#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/dpor/dependency.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

using namespace interleave;

namespace {

constexpr ObjectId kWidth = 12;  // more than Op::kMaxAccesses

std::vector<Access> updates_of(ObjectId first, ObjectId count) {
  std::vector<Access> list;
  for (ObjectId o = first; o < first + count; ++o)
    list.push_back(read_modify_write(o));
  return list;
}

}  // namespace

TEST_CASE("a wide operation keeps every access and conflicts with the operations on each object",
          "[wide]") {
  static_assert(kWidth > Op::kMaxAccesses);
  AccessListStore store;
  const std::vector<Access> list = updates_of(0, kWidth);
  const Op wide("W", store.intern(list));
  CHECK(wide.wide());
  REQUIRE(static_cast<std::size_t>(wide.end() - wide.begin()) == kWidth);
  for (ObjectId o = 0; o < kWidth; ++o) {
    CHECK(wide.begin()[o] == read_modify_write(o));
    CHECK(conflicts(wide, Op("R", {read(o)})));
    CHECK(conflicts(Op("R", {read(o)}), wide));
  }
  CHECK_FALSE(conflicts(wide, Op("X", {write(kWidth)})));
  CHECK(store.intern(list).data() == wide.begin());  // one stored list per distinct list
  const Op copy = wide;                               // a copy refers to the same list
  CHECK(copy.begin() == wide.begin());
  CHECK(changes_state(wide));
  // Up to Op::kMaxAccesses, a stored list is copied inline.
  const Op narrow("N", store.intern(updates_of(0, 3)));
  CHECK_FALSE(narrow.wide());
  CHECK(narrow.begin() == narrow.accesses.data());
}

TEST_CASE("dpor's relation tracks a wide operation's accesses and its ghost writes", "[wide][dpor]") {
  AccessListStore store;
  const Op wide("W", store.intern(updates_of(0, kWidth)));
  // An invariant reading the last object: the wide operation also writes its ghost.
  detail::dpor::Dependency dependency(false, true);
  const std::vector<ObjectId> reads{kWidth - 1};
  const InvariantReads inv{"last", true, reads};
  REQUIRE(dependency.configure(std::span<const InvariantReads>(&inv, 1)));
  const detail::dpor::Tracked tracked = dependency.tracked(wide);
  REQUIRE(tracked.end() - tracked.begin() == kWidth + 1);
  for (ObjectId o = 0; o < kWidth; ++o)
    CHECK(tracked.begin()[o] == read_modify_write(o));
  CHECK(tracked.begin()[kWidth].object == detail::dpor::invariant_ghost(0));
  CHECK(dependency.dependent(wide, Op("Y", {write(kWidth - 1)})));
  CHECK_FALSE(dependency.dependent(wide, Op("Z", {read(kWidth)})));
  // The list is kept once: a second operation with the same accesses gets the same one.
  const Op again("W2", store.intern(updates_of(0, kWidth)));
  const detail::dpor::Tracked tracked_again = dependency.tracked(again);
  CHECK(tracked_again.begin() == tracked.begin());
  // Under all writes, every state-changing step writes one ghost.
  detail::dpor::Dependency all(true, true);
  REQUIRE(all.configure({}));
  const detail::dpor::Tracked t_all = all.tracked(wide);
  REQUIRE(t_all.end() - t_all.begin() == kWidth + 1);
  CHECK(t_all.begin()[kWidth].object == detail::dpor::kAllWritesGhost);
}

TEST_CASE("a wide step is ordered only with the steps on its objects, under dfs and dpor",
          "[wide][dpor]") {
  // A updates o[0..11] in one step; B writes o[11] (an access past the inline ones); C writes
  // o[12], which A does not touch. Two traces (A before or after B), six interleavings.
  auto program = [](bool with_invariant, std::set<std::string>* orders) -> Program {
    return [with_invariant, orders](Execution& ex) {
      const ObjectId first = ex.objects("o", kWidth + 1);
      auto& order = ex.make<std::string>();
      ex.spawn("A", [first, &order](Actor& a) {
        a.step("A", updates_of(first, kWidth));
        order += "A";
      });
      ex.spawn("B", [first, &order](Actor& a) {
        a.step("B", {write(first + kWidth - 1)});
        order += "B";
      });
      ex.spawn("C", [first](Actor& a) { a.step("C", {write(first + kWidth)}); });
      if (with_invariant)  // reads o[11]: A and B still form two traces
        ex.invariant("holds", {first + kWidth - 1}, [] { return Check{}; });
      ex.final_check("order", [&order, orders]() -> Check {
        orders->insert(order);
        return std::nullopt;
      });
    };
  };
  for (const bool with_invariant : {false, true}) {
    INFO("with an invariant: " << with_invariant);
    std::set<std::string> seen_by_dfs;
    std::set<std::string> seen_by_dpor;
    DfsStrategy dfs;
    const ExplorationResult brute = Explorer(program(with_invariant, &seen_by_dfs)).explore(dfs);
    CHECK(brute.stats.executions == 6);
    DporStrategy dpor;
    const ExplorationResult reduced =
        Explorer(program(with_invariant, &seen_by_dpor)).explore(dpor);
    CHECK(reduced.verdict == Verdict::kHolds);
    CHECK(reduced.stats.executions == 2);
    CHECK(reduced.stats.blocked == 0);
    CHECK(dpor.optimal());
    CHECK(seen_by_dfs == std::set<std::string>{"AB", "BA"});
    CHECK(seen_by_dpor == seen_by_dfs);
  }
}

TEST_CASE("an operation declares at most Op::kMaxWideAccesses accesses", "[wide]") {
  Program p = [](Execution& ex) {
    const ObjectId first = ex.objects("o", Op::kMaxWideAccesses + 1);
    ex.spawn("A", [first](Actor& a) {
      a.step("A", updates_of(first, static_cast<ObjectId>(Op::kMaxWideAccesses + 1)));
    });
  };
  DfsStrategy dfs;
  const ExplorationResult r = Explorer(p).explore(dfs);
  REQUIRE(r.counterexamples.size() == 1);
  CHECK(r.counterexamples[0].invariant == "actor_failure");
  CHECK(r.counterexamples[0].message.find("at most 255 accesses") != std::string::npos);
}
