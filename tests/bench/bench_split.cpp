// Benchmark of the split search (explorer/search/split.hpp; prints figures, not a timed test).
//
// On an exhaustive configuration of the StarRocks model (default: one async TaskRun, one client,
// two cleaner passes under pr-79339-register-then-start; with passes = 3 it is the configuration
// of docs/strategies.md, 1.36 million traces, about 14 s single-threaded on the 2-core machine),
// in one run: the single DPOR search and the split search on one thread, three times each,
// alternately (the fastest of each is kept); the split search on 1, 2, 4, 8 and 16 threads, with
// the speed-up of each over the split search on one thread and over the single search, and its
// balance (the executions of all workers over the largest worker's: how many cores' worth of work
// the workers shared, which a machine with fewer cores shows too); one thread's time and
// executions against the single search's; and 16 shards run one after another, with their total
// time over the split search on one thread (the price of enumerating the prefixes again in each
// shard) and the largest shard's executions over the mean. Every run must agree on the verdict and
// on the complete executions (one per trace), and the thread counts on the executions: the
// benchmark says so, or fails.
//
// Usage: bench_split [depth=0] [config=rts-two-passes] [passes] [split_after=the default]
//   depth: 0 chooses it as check --jobs does (the smallest depth with 8 prefixes).
//   config: clients (above), or rts-two-passes (one async TaskRun of one iteration, one client,
//   two passes, pr-79339-register-then-start: the scenario register-then-start-two-passes), or
//   three-clients (clients with a third client, on the leader); passes: the cleaner's.
#include "explorer/search/explorer.hpp"
#include "explorer/search/split.hpp"
#include "explorer/strategies/dpor.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/program.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace interleave;
using namespace interleave::model;

namespace {

WorldConfig clients_world() {
  WorldConfig w;
  w.policy = find_preset("pr-79339")->policy;
  w.preset = "pr-79339";
  w.cluster.frontends = 3;
  w.actors.cleaner.passes = 2;
  ClientConfig c1;
  c1.name = "c1";
  ClientConfig c2;
  c2.name = "c2";
  c2.frontend = 1;
  w.actors.clients = {c1, c2};
  return w;
}

WorldConfig rts_world() {
  WorldConfig w;
  w.policy = find_preset("pr-79339-register-then-start")->policy;
  w.preset = "pr-79339-register-then-start";
  w.actors.cleaner.passes = 2;
  TaskRunConfig t;
  t.name = "t1";
  w.actors.task_runs.push_back(t);
  ClientConfig c;
  c.name = "c1";
  w.actors.clients.push_back(c);
  return w;
}

ExploreOptions exhaustive() {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.minimize = false;
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void print(const char* what, const ExplorationResult& r, double secs) {
  std::printf("%-22s %-10s executions=%-9llu completed=%-9llu blocked=%-8llu time=%.2fs\n", what,
              std::string(to_string(r.verdict)).c_str(),
              static_cast<unsigned long long>(r.stats.executions),
              static_cast<unsigned long long>(r.stats.completed),
              static_cast<unsigned long long>(r.stats.blocked), secs);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string config = argc > 2 ? argv[2] : "rts-two-passes";
  WorldConfig world = config == "rts-two-passes" ? rts_world() : clients_world();
  if (config == "three-clients") {  // clients with a third client, on the leader
    ClientConfig c3;
    c3.name = "c3";
    world.actors.clients.push_back(c3);
  }
  if (argc > 3) world.actors.cleaner.passes = std::atoi(argv[3]);
  const Program program = make_program(world);
  // 0 (the default): the depth check --jobs chooses (choose_split_depth).
  const std::size_t depth = argc > 1 && std::atoi(argv[1]) > 0
                                ? static_cast<std::size_t>(std::atoi(argv[1]))
                                : choose_split_depth(program, exhaustive(), {});
  bool agree = true;
  const std::uint64_t split_after =
      argc > 4 ? std::strtoull(argv[4], nullptr, 10) : SplitOptions{}.split_after;

  // The single search and the split search on one thread, three times each, alternately: the
  // fastest of each (the noise of a shared machine only ever slows a run down), so that their
  // ratio is the price of splitting and not the machine's load.
  auto one_thread_split = [&] {
    SplitOptions split;
    split.depth = depth;
    split.split_after = split_after;
    return explore_split(program, exhaustive(), {}, split);
  };
  ExplorationResult whole;
  double single_secs = 0;
  double one_thread = 0;
  std::uint64_t one_thread_executions = 0;
  for (int round = 0; round < 3; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    Explorer single(program, exhaustive());
    DporStrategy dpor;
    whole = single.explore(dpor);
    const double s = seconds_since(t0);
    single_secs = round == 0 ? s : std::min(single_secs, s);
    t0 = std::chrono::steady_clock::now();
    const SplitResult r = one_thread_split();
    const double o = seconds_since(t0);
    one_thread = round == 0 ? o : std::min(one_thread, o);
    one_thread_executions = r.result.stats.executions;
  }
  print("single search", whole, single_secs);
  auto t0 = std::chrono::steady_clock::now();

  // The split search on 1, 2, 4, 8 and 16 worker threads: the speed-up over one thread and over
  // the single search, and the balance (all executions of the jobs over the most one worker
  // ran: 16 is perfect for 16 workers; on a machine with fewer cores the threads share them, and
  // the balance still shows how evenly the work was cut).
  std::string first_json;
  for (unsigned jobs : {1u, 2u, 4u, 8u, 16u}) {
    SplitOptions split;
    split.depth = depth;
    split.jobs = jobs;
    split.split_after = split_after;
    t0 = std::chrono::steady_clock::now();
    const SplitResult r = explore_split(program, exhaustive(), {}, split);
    const double secs = seconds_since(t0);
    const std::string what = "split d=" + std::to_string(depth) + ", " + std::to_string(jobs) +
                             " thread" + (jobs == 1 ? "" : "s");
    print(what.c_str(), r.result, secs);
    std::uint64_t total = 0;
    std::uint64_t largest = 0;
    for (const std::uint64_t e : r.result.stats.worker_executions) {
      total += e;
      largest = std::max(largest, e);
    }
    std::printf("%-22s prefixes=%zu (+%zu shared) enumeration=%llu  speed-up %.2fx over 1 "
                "thread, %.2fx over the single search, balance %.1f of %u\n",
                "", r.prefixes, r.split_off_prefixes,
                static_cast<unsigned long long>(r.enumeration_executions), one_thread / secs,
                single_secs / secs, largest == 0 ? 0.0 : static_cast<double>(total) / largest,
                jobs);
    agree = agree && r.result.verdict == whole.verdict &&
            r.result.stats.completed == whole.stats.completed;
    // The result does not depend on the threads.
    const std::string json = std::to_string(r.result.stats.executions) + "/" +
                             std::to_string(r.result.stats.blocked) + "/" +
                             std::string(to_string(r.result.verdict));
    if (jobs == 1) first_json = json;
    agree = agree && json == first_json;
  }
  std::printf("one thread against the single search (the fastest of 3 runs each, alternately): "
              "%+.1f %% time, %+.2f %% executions\n",
              100.0 * (one_thread - single_secs) / single_secs,
              100.0 * (static_cast<double>(one_thread_executions) -
                       static_cast<double>(whole.stats.executions)) /
                  static_cast<double>(whole.stats.executions));

  // 16 shards, one after another (as 16 machines would run them, each on one thread).
  // Each shard's executions: the largest over the mean is what 16 machines at once would wait
  // for (the prefixes go to shards by their estimated size).
  Stats sum;
  t0 = std::chrono::steady_clock::now();
  bool parts = true;
  std::uint64_t largest_shard = 0;
  double largest_share = 0;
  for (std::size_t k = 0; k < 16; ++k) {
    SplitOptions split;
    split.depth = depth;
    split.shard_index = k;
    split.split_after = split_after;
    split.shard_count = 16;
    const SplitResult r = explore_split(program, exhaustive(), {}, split);
    sum += r.result.stats;
    parts = parts && r.part_complete;
    largest_shard = std::max<std::uint64_t>(largest_shard, r.result.stats.executions);
    if (k < r.shard_shares.size()) largest_share = std::max(largest_share, r.shard_shares[k]);
  }
  const double shard_secs = seconds_since(t0);
  std::printf("16 shards in turn      executions=%-9llu completed=%-9llu time=%.2fs, %.1f %% over "
              "the split search on 1 thread%s\n",
              static_cast<unsigned long long>(sum.executions),
              static_cast<unsigned long long>(sum.completed), shard_secs,
              100.0 * (shard_secs - one_thread) / one_thread, parts ? "" : " (a part incomplete)");
  std::printf("16 shards: the largest ran %llu executions, %.2fx the mean (estimated: %.2fx)\n",
              static_cast<unsigned long long>(largest_shard),
              static_cast<double>(largest_shard) * 16 / static_cast<double>(sum.executions),
              largest_share * 16);
  agree = agree && parts && sum.completed == whole.stats.completed;
  std::printf("%s\n", agree ? "all runs agree: same verdict, one complete execution per trace"
                            : "RUNS DISAGREE");
  return agree ? 0 : 1;
}
