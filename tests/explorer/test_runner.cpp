// The one execution loop (explorer/search/runner.hpp) and the engine's threads
// (explorer/search/workers.hpp): the order of the loop's checks, what ends it, what its observers
// see, and that an exception of a thread reaches the caller.
#include "explorer/search/runner.hpp"
#include "explorer/search/workers.hpp"
#include "explorer/strategies/dfs.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

using namespace interleave;

namespace {

// Two actors of two steps each, on one object: DFS has 6 executions.
Program two_by_two() {
  return [](Execution& ex) {
    const ObjectId x = ex.object("x");
    for (const char* name : {"A", "B"})
      ex.spawn(name, [x](Actor& a) {
        a.step("first", {write(x)});
        a.step("second", {write(x)});
      });
  };
}

// Writes down what the loop calls, in order.
class Log final : public LoopObserver {
 public:
  explicit Log(std::vector<std::string>& calls) : calls_(calls) {}
  bool next() override {
    calls_.push_back("next");
    return next_left-- != 0;
  }
  void before(Execution&) override { calls_.push_back("before"); }
  void ended(Execution&, Outcome outcome) override {
    calls_.push_back(outcome == Outcome::kCompleted ? "ended" : "ended?");
  }
  bool go_on() override {
    calls_.push_back("go_on");
    return go_on_left-- != 0;
  }
  void progress(std::uint64_t executions) override {
    calls_.push_back("progress " + std::to_string(executions));
  }
  int next_left = 100;
  int go_on_left = 100;

 private:
  std::vector<std::string>& calls_;
};

}  // namespace

TEST_CASE("runner: the loop runs what the strategy has and tells why it ended", "[runner]") {
  const Program program = two_by_two();
  std::vector<std::string> calls;
  Log log(calls);
  LoopObserver* const observers[] = {&log};

  SECTION("to the end of the strategy, with progress every interval") {
    RunLimits limits;
    limits.progress_interval = 4;
    Runner runner(program, limits);
    DfsStrategy dfs;
    CHECK(runner.loop(dfs, {}, observers) == LoopEnd::kExhausted);
    CHECK(runner.executions() == 6);
    // Each execution: next, before, ended, go_on; progress after the 4th; a last next that the
    // strategy answers with its end.
    REQUIRE(calls.size() == 6 * 4 + 1 + 1);
    CHECK(calls[0] == "next");
    CHECK(calls[1] == "before");
    CHECK(calls[2] == "ended");
    CHECK(calls[3] == "go_on");
    CHECK(calls[16] == "progress 4");
    CHECK(calls.back() == "next");
  }

  SECTION("in slices that add up to one run") {
    Runner runner(program, RunLimits{});
    DfsStrategy dfs;
    CHECK(runner.loop(dfs, {}, observers, 4) == LoopEnd::kSlice);
    CHECK(runner.executions() == 4);
    CHECK(runner.loop(dfs, {}, observers, 4) == LoopEnd::kExhausted);
    CHECK(runner.executions() == 6);
  }

  SECTION("an execution budget, counted from restart()") {
    RunLimits limits;
    limits.max_executions = 2;
    Runner runner(program, limits);
    DfsStrategy dfs;
    CHECK(runner.loop(dfs, {}, observers) == LoopEnd::kExecutionBudget);
    CHECK(runner.executions() == 2);
    runner.restart();
    CHECK(runner.loop(dfs, {}, observers) == LoopEnd::kExecutionBudget);
    CHECK(runner.executions() == 2);
  }

  SECTION("the stop request, polled before every execution, before the observers") {
    std::atomic<bool> stop{true};
    RunLimits limits;
    limits.stop = &stop;
    Runner runner(program, limits);
    DfsStrategy dfs;
    CHECK(runner.loop(dfs, {}, observers) == LoopEnd::kInterrupted);
    CHECK(runner.executions() == 0);
    CHECK(calls.empty());
  }

  SECTION("an observer's next() and go_on()") {
    Runner runner(program, RunLimits{});
    DfsStrategy dfs;
    log.next_left = 1;
    CHECK(runner.loop(dfs, {}, observers) == LoopEnd::kExhausted);
    CHECK(runner.executions() == 1);
    log.go_on_left = 0;
    CHECK(runner.loop(dfs, {}, observers) == LoopEnd::kObserver);
    CHECK(runner.executions() == 2);
  }

  SECTION("once() runs one execution outside the count") {
    Runner runner(program, RunLimits{});
    DfsStrategy dfs;
    REQUIRE(dfs.begin_execution());
    std::size_t steps = 0;
    const Outcome o =
        runner.once(dfs, {}, [&](Execution&, Outcome) { steps = runner.buffers().trace.size(); });
    CHECK(o == Outcome::kCompleted);
    CHECK(steps == 4);
    CHECK(runner.executions() == 0);
  }
}

TEST_CASE("workers: every task runs once, and the lowest task's exception reaches the caller",
          "[runner]") {
  for (unsigned threads : {1u, 3u}) {
    std::vector<std::atomic<int>> ran(10);
    for_each_task(threads, ran.size(), [&](std::size_t k) { ++ran[k]; });
    for (const auto& r : ran)
      CHECK(r.load() == 1);

    std::atomic<int> done{0};
    try {
      for_each_task(threads, 10, [&](std::size_t k) {
        ++done;
        if (k == 7 || k == 3) throw std::runtime_error("task " + std::to_string(k));
      });
      FAIL("no exception");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "task 3");
    }
    CHECK(done.load() == 10);
  }

  std::atomic<int> told{0};
  Workers workers(
      2, [](unsigned t) { if (t == 1) throw std::logic_error("worker 1"); },
      [&] { ++told; });
  CHECK_THROWS_WITH(workers.join(), "worker 1");
  CHECK(told.load() == 1);
  CHECK(workers.failed());
}
