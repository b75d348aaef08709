#include "explorer/split.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

namespace interleave {

namespace {

using Clock = std::chrono::steady_clock;

// One prefix of this shard: searched by one worker, committed in order by the calling thread.
struct Job {
  std::size_t prefix = 0;  // index among all prefixes
  std::atomic<bool> stop{false};
  bool done = false;  // guarded by the mutex, as the two below
  ExplorationResult result;
  Coverage coverage;
};

std::string split_text(const SplitOptions& split, std::size_t prefixes) {
  return "split at depth " + std::to_string(split.depth) + " into " + std::to_string(prefixes) +
         " prefix" + (prefixes == 1 ? "" : "es");
}

// The prefixes at `depth`, and the enumeration's statistics.
struct Enumerated {
  std::vector<DporStrategy::Prefix> prefixes;
  std::uint64_t executions = 0;
  std::uint64_t blocked = 0;
  std::string strategy;
  bool interrupted = false;
};

Enumerated enumerate(const Program& program, const ExploreOptions& options,
                     const DporStrategy::Options& dpor, std::size_t depth) {
  DporStrategy enumerator(dpor);
  enumerator.enumerate_prefixes(depth);
  ExploreOptions eo;
  eo.max_steps = options.max_steps;
  eo.stack_size = options.stack_size;
  eo.stop_on_first_violation = false;
  eo.minimize = false;
  eo.stop = options.stop;
  Explorer explorer(program, eo);
  const ExplorationResult er = explorer.explore(enumerator);
  Enumerated e;
  e.strategy = enumerator.name();
  e.executions = er.stats.executions;
  e.blocked = enumerator.blocked_prefixes();
  e.interrupted = er.interrupted;
  e.prefixes = std::move(enumerator.prefixes());
  return e;
}

}  // namespace

std::size_t choose_split_depth(const Program& program, const ExploreOptions& options,
                               const DporStrategy::Options& dpor, std::size_t min_prefixes,
                               std::size_t max_depth) {
  for (std::size_t depth = 1; depth < max_depth; ++depth) {
    const Enumerated e = enumerate(program, options, dpor, depth);
    if (e.interrupted || e.prefixes.size() >= min_prefixes) return depth;
    // A tree that ends above the depth (every prefix a whole execution) gets no wider.
    bool deeper = false;
    for (const auto& p : e.prefixes)
      for (const auto& n : p.nodes)
        if (n.kind == Decision::Kind::kActor && n.event + 1 == depth) deeper = true;
    if (!deeper) return depth;
  }
  return max_depth;
}

SplitResult explore_split(const Program& program, const ExploreOptions& options,
                          const DporStrategy::Options& dpor, const SplitOptions& split) {
  if (split.depth == 0) throw std::invalid_argument("split: the depth must be at least 1");
  if (split.jobs == 0) throw std::invalid_argument("split: at least one job");
  if (split.shard_count == 0 || split.shard_index >= split.shard_count)
    throw std::invalid_argument("split: shard " + std::to_string(split.shard_index + 1) + "/" +
                                std::to_string(split.shard_count) + " does not exist");
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

  SplitResult out;
  ExplorationResult& result = out.result;

  // The prefixes: the same, in the same order, in every process.
  Enumerated enumerated = enumerate(program, options, dpor, split.depth);
  result.strategy = enumerated.strategy;
  out.enumeration_executions = enumerated.executions;
  out.blocked_prefixes = enumerated.blocked;
  if (enumerated.interrupted) {
    result.interrupted = true;
    result.stats.elapsed_seconds = elapsed();
    settle_verdict(result, "interrupted", {false, "interrupted"}, options.max_steps);
    return out;
  }
  std::vector<DporStrategy::Prefix> prefixes = std::move(enumerated.prefixes);
  out.prefixes = prefixes.size();
  if (split.shard_index == 0) {
    result.stats.executions += out.blocked_prefixes;
    result.stats.blocked += out.blocked_prefixes;
  }

  std::vector<std::unique_ptr<Job>> jobs;
  for (std::size_t i = split.shard_index; i < prefixes.size(); i += split.shard_count) {
    jobs.push_back(std::make_unique<Job>());
    jobs.back()->prefix = i;
  }
  out.shard_prefixes = jobs.size();

  std::mutex mutex;
  std::condition_variable finished;
  std::vector<Stats> latest(jobs.size());  // progress of each job (guarded by mutex)
  std::atomic<std::size_t> next{0};
  // The first job (position in `jobs`) with a violation, when the search stops at the first one:
  // the jobs after it are not committed, so they are not run, or are stopped.
  std::atomic<std::size_t> first_violation{std::numeric_limits<std::size_t>::max()};
  const Stats committed_base = result.stats;

  auto run_job = [&](std::size_t pos, std::uint64_t max_executions) {
    Job& job = *jobs[pos];
    ExploreOptions jo = options;
    jo.on_counterexample = {};
    jo.stop = &job.stop;
    jo.max_executions = max_executions;
    if (options.time_budget_seconds > 0)
      jo.time_budget_seconds = std::max(options.time_budget_seconds - elapsed(), 1e-9);
    if (options.on_progress) {
      jo.on_progress = [&, pos](const Stats& s) {
        std::lock_guard lock(mutex);
        latest[pos] = s;
        Stats total = committed_base;
        for (const Stats& l : latest)
          total += l;
        total.elapsed_seconds = elapsed();
        options.on_progress(total);
      };
    }
    DporStrategy strategy(dpor, prefixes[job.prefix]);
    std::unique_ptr<Strategy> wrapped = split.wrap ? split.wrap(strategy, job.prefix) : nullptr;
    Explorer explorer(program, jo);
    ExplorationResult r = explorer.explore(wrapped ? *wrapped : strategy);
    return std::make_pair(std::move(r), strategy.coverage());
  };

  auto worker = [&] {
    for (;;) {
      const std::size_t pos = next.fetch_add(1);
      if (pos >= jobs.size()) return;
      Job& job = *jobs[pos];
      std::optional<std::pair<ExplorationResult, Coverage>> r;
      if (pos <= first_violation.load() && !job.stop.load()) {
        r = run_job(pos, options.max_executions);  // a ProgramError ends the thread
        if (options.stop_on_first_violation && !r->first.counterexamples.empty()) {
          std::size_t seen = first_violation.load();
          while (pos < seen && !first_violation.compare_exchange_weak(seen, pos)) {
          }
          for (std::size_t k = pos + 1; k < jobs.size(); ++k)
            jobs[k]->stop = true;
        }
      }
      std::lock_guard lock(mutex);
      if (r) {
        job.result = std::move(r->first);
        job.coverage = std::move(r->second);
      } else {
        job.result.interrupted = true;  // not run: after a violation, or stopped
        job.coverage = {false, "not run"};
      }
      job.done = true;
      finished.notify_all();
    }
  };

  auto stop_all = [&] {
    for (auto& j : jobs)
      j->stop = true;
  };
  // Workers; an exception in one (a ProgramError) is kept and rethrown here.
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::vector<std::thread> threads;
  const std::size_t thread_count = std::min<std::size_t>(split.jobs, std::max<std::size_t>(
                                                                         jobs.size(), 1));
  for (std::size_t t = 0; t < thread_count; ++t)
    threads.emplace_back([&] {
      try {
        worker();
      } catch (...) {
        {
          std::lock_guard lock(failure_mutex);
          if (!failure) failure = std::current_exception();
        }
        stop_all();
        std::lock_guard l2(mutex);
        finished.notify_all();
      }
    });

  // Commit in prefix order.
  std::set<std::string> reported;
  std::string cut;
  bool complete = true;
  std::string description;  // of the jobs' coverage: a weaker one ("DPOR with ...") wins
  for (std::size_t pos = 0; pos < jobs.size(); ++pos) {
    Job& job = *jobs[pos];
    {
      std::unique_lock lock(mutex);
      while (!job.done) {
        {
          std::lock_guard fl(failure_mutex);
          if (failure) break;
        }
        if (options.stop != nullptr && options.stop->load()) stop_all();
        finished.wait_for(lock, std::chrono::milliseconds(20));
      }
    }
    {
      std::lock_guard fl(failure_mutex);
      if (failure) break;
    }
    if (options.max_executions != 0 && result.stats.executions >= options.max_executions) {
      cut = "the execution budget (" + std::to_string(options.max_executions) +
            " executions) ran out";
      complete = false;
      break;
    }
    ExplorationResult r = std::move(job.result);
    Coverage coverage = std::move(job.coverage);
    bool budget_cut = false;
    if (options.max_executions != 0 &&
        result.stats.executions + r.stats.executions > options.max_executions) {
      // Cut at the same execution as one search in prefix order would: run it again, shorter.
      auto again = run_job(pos, options.max_executions - result.stats.executions);
      r = std::move(again.first);
      coverage = std::move(again.second);
      budget_cut = true;
    }
    const double keep = result.stats.elapsed_seconds;
    result.stats += r.stats;
    result.stats.elapsed_seconds = keep;
    for (const auto& [goal, n] : r.covered)
      result.covered[goal] += n;
    for (Counterexample& c : r.counterexamples) {
      if (!reported.insert(c.invariant).second) continue;
      result.counterexamples.push_back(std::move(c));
      out.counterexample_prefix.push_back(job.prefix);
      if (options.on_counterexample) {
        Stats so_far = result.stats;
        so_far.elapsed_seconds = elapsed();
        options.on_counterexample(result.counterexamples.back(), so_far);
      }
    }
    if (coverage.complete) {
      ++out.searched_prefixes;
      if (description.empty() ||
          (coverage.description.find("optimal DPOR") == std::string::npos &&
           description.find("optimal DPOR") != std::string::npos))
        description = coverage.description;
    } else {
      complete = false;
    }
    if (r.interrupted) {
      result.interrupted = true;
      cut = "interrupted";
      break;
    }
    if (r.stopped_at_first_violation) {
      result.stopped_at_first_violation = true;
      cut = "stopped at the first violation";
      break;
    }
    if (budget_cut) {
      cut = "the execution budget (" + std::to_string(options.max_executions) +
            " executions) ran out";
      break;
    }
    if (!coverage.complete) {  // the time budget
      cut = r.detail;
      break;
    }
  }
  stop_all();
  for (std::thread& t : threads)
    t.join();
  if (failure) std::rethrow_exception(failure);

  result.stats.elapsed_seconds = elapsed();
  if (out.searched_prefixes < jobs.size()) complete = false;
  out.part_complete = complete;
  const std::string how = split_text(split, prefixes.size());
  out.coverage = description + ", " + how;
  settle_verdict(result, cut, {complete, out.coverage}, options.max_steps);
  if (split.shard_count > 1 && result.verdict == Verdict::kHolds) {
    result.verdict = Verdict::kIncomplete;
    result.detail = "shard " + std::to_string(split.shard_index + 1) + "/" +
                    std::to_string(split.shard_count) + " of a search " + how + ": its " +
                    std::to_string(jobs.size()) +
                    " prefixes hold (interleave merge gives the verdict of the shards)";
  }
  return out;
}

}  // namespace interleave
