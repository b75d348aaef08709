// The split search (explorer/search/split.hpp) against the single DPOR search and against brute force:
// on random programs and at several depths, the union over the prefixes explores each trace once
// (the same Foata forms as DFS, as many complete executions as traces), violates the same
// properties, reaches the same final states and gives the same verdict; its result is
// byte-identical whatever the number of threads; shards partition the prefixes; a stop at the
// first violation and an execution budget cut the search at the same place with any thread count.
#include "explorer/search/split.hpp"
#include "reports/trace/trace.hpp"  // to_json(ExplorationResult)
#include "tests/strategies/oracle.hpp"

#include <catch2/catch.hpp>

#include <mutex>

using namespace interleave;
using namespace interleave::test;

namespace {

// Per prefix: the Foata forms of its complete executions (each prefix is searched by one thread).
struct Forms {
  std::mutex mutex;
  std::map<std::size_t, std::unique_ptr<Canonicalising>> by_prefix;
  Relation dep = Dep::kDeclared;

  SplitOptions hook(SplitOptions split) {
    split.wrap = [this](Strategy& inner, std::size_t job) -> std::unique_ptr<Strategy> {
      auto c = std::make_unique<Canonicalising>(inner, dep);
      Canonicalising* raw = c.get();
      struct Handle final : Strategy {  // the wrapper the explorer runs; the forms stay here
        Canonicalising* c;
        explicit Handle(Canonicalising* x) : c(x) {}
        std::string name() const override { return c->name(); }
        bool begin_execution() override { return c->begin_execution(); }
        ActorId next_actor(const SchedulingPoint& p) override { return c->next_actor(p); }
        std::optional<std::uint32_t> next_choice(const ChoicePoint& p) override {
          return c->next_choice(p);
        }
        void end_execution(const ExecutionRecord& r) override { c->end_execution(r); }
        Coverage coverage() const override { return c->coverage(); }
        std::string abandon_reason() const override { return c->abandon_reason(); }
      };
      std::lock_guard lock(mutex);
      by_prefix[job] = std::move(c);
      return std::make_unique<Handle>(raw);
    };
    return split;
  }
  // Every form once over all prefixes: their union, and whether some form came twice.
  std::set<std::string> all(std::uint64_t& completed) const {
    std::set<std::string> u;
    completed = 0;
    for (const auto& [p, c] : by_prefix) {
      completed += c->completed;
      u.insert(c->forms.begin(), c->forms.end());
    }
    return u;
  }
};

// Prefixes split off larger ones over the checks so far, and those of them the races below a
// shared node demanded (so that the tests show they happen).
std::size_t g_split_off = 0;
std::size_t g_demanded = 0;

ExploreOptions exhaustive() {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.max_steps = 200;
  o.minimize = false;
  return o;
}

std::set<std::string> violated(const ExplorationResult& r) {
  std::set<std::string> v;
  for (const auto& [name, n] : r.stats.violations)
    v.insert(name);
  return v;
}

// One random program at one depth, each prefix split further after `split_after` executions
// (0: never): false when brute force cannot run it.
bool check_split(std::uint64_t seed, std::size_t depth, RandomProgram::Shape shape,
                 std::uint64_t split_after = 0) {
  RandomProgram rp(seed, shape);
  const Relation dep(Dep::kDeclared, rp.invariant_reads());
  DfsStrategy dfs;
  const Observed brute = observe([&rp](Sink* s) { return rp.program(s); }, dfs, dep, 5'000);
  if (!brute.exhaustive) return false;
  INFO("seed " << seed << ", depth " << depth << ", split after " << split_after << "\n"
                << rp.describe());

  // One thread, with final states.
  Sink sink;
  Forms one;
  one.dep = dep;
  SplitOptions split;
  split.depth = depth;
  split.split_after = split_after;
  const SplitResult r1 =
      explore_split(rp.program(&sink), exhaustive(), {}, one.hook(split));
  std::uint64_t completed = 0;
  const std::set<std::string> forms = one.all(completed);
  CHECK(forms == brute.traces);
  CHECK(completed == brute.traces.size());  // no trace twice
  CHECK(r1.result.stats.completed == brute.traces.size());
  CHECK(sink.final_states == brute.final_states);
  CHECK(violated(r1.result) == brute.violated);
  CHECK(r1.result.verdict == brute.verdict);
  CHECK(r1.searched_prefixes == r1.prefixes + r1.split_off_prefixes);
  g_split_off += r1.split_off_prefixes;
  CHECK(r1.part_complete);

  g_demanded += r1.demanded_prefixes;
  CHECK(r1.result.stats.worker_executions.size() == 1);
  CHECK(r1.result.stats.worker_executions[0] + r1.blocked_prefixes ==
        r1.result.stats.executions);

  // Two and four threads: the same result, byte for byte, whoever ran which job (a sink per
  // thread: the program writes to it); the workers' executions add up to the search's.
  Program threaded = [&rp](Execution& ex) {
    thread_local Sink s;
    rp.program(&s)(ex);
  };
  for (const unsigned jobs : {2u, 4u}) {
    split.jobs = jobs;
    const SplitResult rn = explore_split(threaded, exhaustive(), {}, split);
    CHECK(to_json(rn.result, false).dump() == to_json(r1.result, false).dump());
    CHECK(rn.prefixes == r1.prefixes);
    CHECK(rn.split_off_prefixes == r1.split_off_prefixes);
    CHECK(rn.demanded_prefixes == r1.demanded_prefixes);
    std::uint64_t ran = rn.blocked_prefixes;
    for (const std::uint64_t e : rn.result.stats.worker_executions)
      ran += e;
    CHECK(ran == rn.result.stats.executions);
  }
  split.jobs = 2;

  // Three shards: their counts add up to the whole, their prefixes partition it.
  Stats sum;
  std::size_t shard_prefixes = 0;
  std::set<std::string> shard_violated;
  for (std::size_t k = 0; k < 3; ++k) {
    SplitOptions s = split;
    s.shard_index = k;
    s.shard_count = 3;
    const SplitResult rk = explore_split(threaded, exhaustive(), {}, s);
    CHECK(rk.prefixes == r1.prefixes);
    CHECK(rk.part_complete);
    CHECK(rk.result.verdict != Verdict::kHolds);  // a part alone proves nothing
    sum += rk.result.stats;
    shard_prefixes += rk.shard_prefixes;
    for (const auto& v : violated(rk.result))
      shard_violated.insert(v);
  }
  CHECK(shard_prefixes == r1.prefixes);
  CHECK(sum.executions == r1.result.stats.executions);
  CHECK(sum.completed == r1.result.stats.completed);
  CHECK(sum.blocked == r1.result.stats.blocked);
  CHECK(shard_violated == brute.violated);
  return true;
}

void check_seeds(std::uint64_t first, std::uint64_t last, RandomProgram::Shape shape) {
  std::uint64_t checked = 0;
  for (std::uint64_t seed = first; seed <= last; ++seed)
    for (std::size_t depth : {1u, 2u, 4u, 7u})
      if (check_split(seed, depth, shape, depth == 2 ? 3 : depth == 1 ? 1 : 0)) ++checked;
  // Brute force cannot run a third of the lock-heavy programs (too many interleavings).
  const std::uint64_t min_percent = shape == RandomProgram::Shape::kLocks ? 30 : 60;
  INFO("program-depth pairs checked: " << checked);
  CHECK(checked * 100 >= (last - first + 1) * 4 * min_percent);
}

}  // namespace

TEST_CASE("split: random programs explore each trace once, as brute force", "[split][random]") {
  g_split_off = 0;
  g_demanded = 0;
  check_seeds(1, 60, RandomProgram::Shape::kSmall);
  CHECK(g_split_off > 40);  // prefixes were split further, and it still holds
  CHECK(g_demanded > 5);    // some of them after the searches below their node
}

TEST_CASE("split: random programs with waits and locks", "[split][random]") {
  check_seeds(60'001, 60'040, RandomProgram::Shape::kWaits);
  check_seeds(40'001, 40'040, RandomProgram::Shape::kLocks);
}

TEST_CASE("split: the first violation and a budget cut the same place with 1 or 2 threads",
          "[split]") {
  std::uint64_t compared = 0;
  for (std::uint64_t seed = 1; seed <= 200 && compared < 20; ++seed) {
    RandomProgram rp(seed);
    Program threaded = [&rp](Execution& ex) {
      thread_local Sink s;
      rp.program(&s)(ex);
    };
    ExploreOptions first;
    first.max_steps = 200;  // stop at the first violation, minimised
    SplitOptions split;
    split.depth = 2;
    const SplitResult a = explore_split(threaded, first, {}, split);
    if (a.result.counterexamples.empty()) continue;
    ++compared;
    split.jobs = 2;
    const SplitResult b = explore_split(threaded, first, {}, split);
    INFO("seed " << seed);
    CHECK(to_json(b.result, false).dump() == to_json(a.result, false).dump());
    CHECK(b.counterexample_prefix == a.counterexample_prefix);

    ExploreOptions budget = exhaustive();
    budget.max_executions = 5;
    split.jobs = 1;
    const SplitResult c = explore_split(threaded, budget, {}, split);
    split.jobs = 2;
    const SplitResult d = explore_split(threaded, budget, {}, split);
    CHECK(to_json(d.result, false).dump() == to_json(c.result, false).dump());
    CHECK(c.result.stats.executions <= 5);
  }
  CHECK(compared == 20);
}

TEST_CASE("split: under a time budget, the executions counted are those that ran", "[split]") {
  std::uint64_t cut = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    RandomProgram rp(seed, RandomProgram::Shape::kLocks);
    Program threaded = [&rp](Execution& ex) {
      thread_local Sink s;
      rp.program(&s)(ex);
    };
    ExploreOptions o = exhaustive();
    // Odd seeds: a budget spent before the first execution, so the cut does not depend on the
    // machine's speed; even seeds: a budget that runs out somewhere in the search, or not at all.
    o.time_budget_seconds = seed % 2 == 1 ? 1e-9 : 0.002;
    SplitOptions split;
    split.depth = 2;
    split.jobs = 3;
    split.split_after = 2;
    const SplitResult r = explore_split(threaded, o, {}, split);
    std::uint64_t ran = r.blocked_prefixes;
    for (const std::uint64_t e : r.result.stats.worker_executions)
      ran += e;
    INFO("seed " << seed);
    CHECK(ran == r.result.stats.executions);
    if (r.result.verdict == Verdict::kIncomplete) ++cut;
  }
  CHECK(cut >= 15);  // at least every search whose budget was spent at the start
}

TEST_CASE("split: the chosen depth is the smallest with enough prefixes", "[split]") {
  std::uint64_t deep = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    RandomProgram rp(seed);
    Sink sink;
    const Program program = rp.program(&sink);
    const std::size_t depth = choose_split_depth(program, exhaustive(), {}, 6);
    INFO("seed " << seed << ": depth " << depth);
    SplitOptions split;
    split.depth = depth;
    const std::size_t at = explore_split(program, exhaustive(), {}, split).prefixes;
    if (depth > 1) {
      ++deep;
      split.depth = depth - 1;
      CHECK(explore_split(program, exhaustive(), {}, split).prefixes < 6);
    }
    if (at < 6) {  // then the tree ends above the depth: one more level adds nothing
      split.depth = depth + 1;
      CHECK(explore_split(program, exhaustive(), {}, split).prefixes == at);
    }
    CHECK(choose_split_depth(program, exhaustive(), {}, 6) == depth);  // deterministic
  }
  CHECK(deep > 10);
}

TEST_CASE("split: impossible splits are refused", "[split]") {
  RandomProgram rp(1);
  Sink sink;
  SplitOptions s;
  s.depth = 0;
  CHECK_THROWS_AS(explore_split(rp.program(&sink), {}, {}, s), std::invalid_argument);
  s.depth = 2;
  s.shard_index = 3;
  s.shard_count = 3;
  CHECK_THROWS_AS(explore_split(rp.program(&sink), {}, {}, s), std::invalid_argument);
}

TEST_CASE("split: many more random programs (slow, run by hand)", "[.stress]") {
  for (auto shape : {RandomProgram::Shape::kSmall, RandomProgram::Shape::kWaits,
                     RandomProgram::Shape::kLocks, RandomProgram::Shape::kWideOps})
    for (std::uint64_t seed = 100; seed <= 400; ++seed)
      for (std::size_t depth : {3u, 5u, 6u})
        for (std::uint64_t split_after : {0u, 1u, 4u})
          check_split(seed, depth, shape, split_after);
}

