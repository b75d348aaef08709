// The happens-before edges behind render_dot and render_mermaid, on explored programs and on
// hand-made step lists.
#include "reports/analysis/happens_before.hpp"
#include "explorer/core/happens_before.hpp"
#include "tests/reports/helpers.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <random>

using namespace interleave;
using namespace interleave::reports;

namespace {

using K = AccessKind;
constexpr auto kPo = HbEdge::Kind::kProgramOrder;
constexpr auto kConflict = HbEdge::Kind::kConflict;

TraceStep step(std::size_t i, std::string actor, std::vector<TraceAccess> acc) {
  TraceStep s;
  s.index = i;
  s.actor = std::move(actor);
  s.label = "s" + std::to_string(i);
  s.accesses = std::move(acc);
  return s;
}

HbEdge po(std::size_t from, std::size_t to) {
  return HbEdge{from, to, kPo, {}};
}
HbEdge cf(std::size_t from, std::size_t to, std::vector<ConflictingAccess> acc) {
  return HbEdge{from, to, kConflict, std::move(acc)};
}

}  // namespace

TEST_CASE("happens-before of the lost update: program order and two conflicts", "[hb]") {
  const TraceDocument doc = test::explore_to_document(test::lost_update(), "lost-update");
  // Steps: 0 A read, 1 B read, 2 A write, 3 B write. The reads commute with each other.
  const std::vector<HbEdge> expected = {po(0, 2), cf(1, 2, {{"counter", K::kRead, K::kWrite}}),
                                        po(1, 3), cf(2, 3, {{"counter", K::kWrite, K::kWrite}})};
  CHECK(happens_before_edges(doc.counterexample.steps) == expected);
}

TEST_CASE("happens-before of the locked race keeps each read's edge from its write", "[hb]") {
  const TraceDocument doc = test::explore_to_document(test::locked_pair_race(), "locked-pair");
  // 0-3 Writer1 lock, set x, set y, unlock; 4-5 Writer2 lock, set x; 6-7 Auditor read x, read y.
  const std::vector<HbEdge> expected = {
      po(0, 1),
      po(1, 2),
      po(2, 3),
      cf(3, 4, {{"m", K::kRelease, K::kAcquire}}),
      po(4, 5),
      cf(1, 5, {{"x", K::kWrite, K::kWrite}}),
      cf(5, 6, {{"x", K::kWrite, K::kRead}}),
      po(6, 7),
      cf(2, 7, {{"y", K::kWrite, K::kRead}}),  // also ordered through the lock, still drawn
  };
  CHECK(happens_before_edges(doc.counterexample.steps) == expected);
}

TEST_CASE("happens-before on hand-made steps", "[hb]") {
  SECTION("reads, waits and shared acquisitions commute; earlier sources are left out") {
    const std::vector<TraceStep> steps = {
        step(0, "A", {{"o", K::kWrite}}),         step(1, "B", {{"o", K::kRead}}),
        step(2, "C", {{"o", K::kWait}}),          step(3, "A", {{"l", K::kAcquireShared}}),
        step(4, "B", {{"l", K::kAcquireShared}}), step(5, "C", {{"o", K::kWrite}}),
    };
    const std::vector<HbEdge> expected = {
        cf(0, 1, {{"o", K::kWrite, K::kRead}}),
        cf(0, 2, {{"o", K::kWrite, K::kWait}}),
        po(0, 3),
        po(1, 4),
        po(2, 5),
        // C's write: A's write happens before B's read, so only the read is a source (C's own
        // wait is program order).
        cf(1, 5, {{"o", K::kRead, K::kWrite}}),
    };
    CHECK(happens_before_edges(steps) == expected);
  }
  SECTION("a write after two independent reads is ordered after both") {
    const std::vector<TraceStep> steps = {
        step(0, "A", {{"o", K::kWrite}}),
        step(1, "B", {{"o", K::kRead}}),
        step(2, "C", {{"o", K::kRead}}),
        step(3, "D", {{"o", K::kWrite}}),
    };
    // A's write happens before both reads: left out of step 3's sources.
    const std::vector<HbEdge> expected = {
        cf(0, 1, {{"o", K::kWrite, K::kRead}}),
        cf(0, 2, {{"o", K::kWrite, K::kRead}}),
        cf(1, 3, {{"o", K::kRead, K::kWrite}}),
        cf(2, 3, {{"o", K::kRead, K::kWrite}}),
    };
    CHECK(happens_before_edges(steps) == expected);
  }
  SECTION("two steps linked through two objects give one edge listing both") {
    const std::vector<TraceStep> steps = {
        step(0, "A", {{"x", K::kWrite}, {"y", K::kWrite}}),
        step(1, "B", {{"y", K::kRead}, {"x", K::kReadModifyWrite}}),
    };
    const std::vector<HbEdge> expected = {
        cf(0, 1, {{"y", K::kWrite, K::kRead}, {"x", K::kWrite, K::kReadModifyWrite}})};
    CHECK(happens_before_edges(steps) == expected);
  }
  SECTION("different objects and empty traces have no conflict edge") {
    CHECK(happens_before_edges({}).empty());
    const std::vector<TraceStep> steps = {step(0, "A", {{"x", K::kWrite}}),
                                          step(1, "B", {{"y", K::kWrite}}), step(2, "A", {})};
    CHECK(happens_before_edges(steps) == std::vector<HbEdge>{po(0, 2)});
  }
}

TEST_CASE("the closure of the drawn edges is the engine's happens-before", "[hb]") {
  // Random step lists (three actors, three objects, every access kind, spawn/join `after`s),
  // each also as the engine's Events: the closure of happens_before_edges must be the relation
  // of explorer/core/happens_before.hpp, pair by pair.
  std::mt19937 rng(20260507);
  const auto below = [&rng](std::size_t n) {
    return static_cast<std::size_t>(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng));
  };
  const std::vector<std::string> actors = {"A", "B", "C"}, objects = {"x", "y", "z"};
  for (int round = 0; round < 400; ++round) {
    const std::size_t n = 1 + below(14);
    std::vector<TraceStep> steps;
    std::vector<Event> trace(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t actor = below(actors.size());
      std::vector<TraceAccess> acc;
      for (std::size_t k = below(4); k > 0; --k) {
        const std::size_t object = below(objects.size());
        const auto kind = static_cast<AccessKind>(below(8));
        acc.push_back({objects[object], kind});
        trace[i].op.accesses[trace[i].op.count++] = Access{static_cast<ObjectId>(object), kind};
      }
      steps.push_back(step(i, actors[actor], std::move(acc)));
      trace[i].actor = static_cast<ActorId>(actor);
      if (i > 0 && below(4) == 0) {
        const std::size_t after = below(i);
        steps[i].after = after;
        trace[i].hb_pred = static_cast<std::int32_t>(after);
      }
    }
    const std::vector<std::vector<bool>> past =
        happens_before_closure(n, happens_before_edges(steps));
    const HappensBefore hb(trace);
    for (std::size_t b = 0; b < n; ++b)
      for (std::size_t a = 0; a < b; ++a) {
        INFO("round " << round << ": step " << a << " before step " << b);
        REQUIRE(past[b][a] == hb.before(a, b));
      }
  }
}
