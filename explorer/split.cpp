#include "explorer/split.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <map>
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

using Key = std::vector<std::uint32_t>;

// One prefix of this shard: searched by one worker, committed in key order by the calling thread.
struct Job {
  enum class State : std::uint8_t { kPending, kRunning, kDone };
  Key key;
  DporStrategy::Prefix prefix;
  bool split_off = false;  // split off a larger prefix while it ran
  std::atomic<bool> stop{false};
  State state = State::kPending;  // guarded by the mutex, as the two below
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

  // The jobs, in commit order: a prefix's key is its index; a prefix split off a job while it ran
  // (split_when_large) comes after that job and before the job's next sibling: its key is the
  // job's, then (kLate - the split's number) so that a later, deeper split comes first, then the
  // child's position.
  constexpr std::uint32_t kLate = 1u << 30;
  std::map<Key, std::unique_ptr<Job>> jobs;  // guarded by mutex
  for (std::size_t i = split.shard_index; i < prefixes.size(); i += split.shard_count) {
    auto job = std::make_unique<Job>();
    job->key = {static_cast<std::uint32_t>(i)};
    job->prefix = std::move(prefixes[i]);
    jobs.emplace(job->key, std::move(job));
  }
  out.shard_prefixes = jobs.size();

  std::mutex mutex;
  std::condition_variable changed;
  std::size_t running = 0;
  std::map<Key, Stats> latest;  // progress of each job run so far (guarded by mutex)
  // The first job with a violation, when the search stops at the first one: the jobs after it
  // are not committed, so they are not run, or are stopped.
  std::optional<Key> first_violation;
  bool quit = false;  // the commit is over: the workers stop
  const Stats committed_base = result.stats;
  std::atomic<std::size_t> wrapped_jobs{0};  // jobs given to split.wrap
  // Splitting a job further would not cut an execution budget at the same execution (a budget
  // re-runs a job); so a budget keeps the prefixes of the depth.
  const std::uint64_t split_after = options.max_executions != 0 ? 0 : split.split_after;

  // Runs one job's search (on any thread): its prefix, with `max_executions`, handing the
  // prefixes it splits off to the queue.
  auto run_job = [&](Job& job, std::uint64_t max_executions, bool may_split) {
    ExploreOptions jo = options;
    jo.on_counterexample = {};
    jo.stop = &job.stop;
    jo.max_executions = max_executions;
    if (options.time_budget_seconds > 0)
      jo.time_budget_seconds = std::max(options.time_budget_seconds - elapsed(), 1e-9);
    const Key key = job.key;
    if (options.on_progress) {
      jo.on_progress = [&, key](const Stats& st) {
        std::lock_guard lock(mutex);
        latest[key] = st;
        Stats total = committed_base;
        for (const auto& [k, l] : latest)
          total += l;
        total.elapsed_seconds = elapsed();
        options.on_progress(total);
      };
    }
    DporStrategy strategy(dpor, job.prefix);
    std::uint32_t split_number = 0;
    if (may_split && split_after != 0)
      strategy.split_when_large(split_after, [&, key](std::vector<DporStrategy::Prefix> kids) {
        std::lock_guard lock(mutex);
        ++split_number;
        for (std::size_t c = 0; c < kids.size(); ++c) {
          auto child = std::make_unique<Job>();
          child->key = key;
          child->key.push_back(kLate - split_number);
          child->key.push_back(static_cast<std::uint32_t>(c));
          child->prefix = std::move(kids[c]);
          child->split_off = true;
          if (first_violation && *first_violation < child->key) child->stop = true;
          jobs.emplace(child->key, std::move(child));
        }
        changed.notify_all();
      });
    std::unique_ptr<Strategy> wrapped =
        split.wrap ? split.wrap(strategy, wrapped_jobs.fetch_add(1)) : nullptr;
    Explorer explorer(program, jo);
    ExplorationResult r = explorer.explore(wrapped ? *wrapped : strategy);
    return std::make_pair(std::move(r), strategy.coverage());
  };

  auto stop_all = [&] {  // with the mutex held
    for (auto& [k, j] : jobs)
      j->stop = true;
  };

  auto worker = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      if (quit) return;
      // The first job not started: the commit waits for the earliest ones.
      Job* job = nullptr;
      for (auto& [k, j] : jobs)
        if (j->state == Job::State::kPending) {
          job = j.get();
          break;
        }
      if (job == nullptr) {
        if (running == 0) return;  // nothing left, and nothing that could split off more
        changed.wait(lock);
        continue;
      }
      job->state = Job::State::kRunning;
      ++running;
      const bool skip = job->stop.load() || (first_violation && *first_violation < job->key);
      lock.unlock();
      std::optional<std::pair<ExplorationResult, Coverage>> r;
      if (!skip) r = run_job(*job, options.max_executions, true);  // a ProgramError ends the thread
      lock.lock();
      --running;
      if (r) {
        if (options.stop_on_first_violation && !r->first.counterexamples.empty() &&
            (!first_violation || job->key < *first_violation)) {
          first_violation = job->key;
          for (auto& [k, j] : jobs)
            if (job->key < k) j->stop = true;
        }
        job->result = std::move(r->first);
        job->coverage = std::move(r->second);
      } else {
        job->result.interrupted = true;  // not run: after a violation, or stopped
        job->coverage = {false, "not run"};
      }
      job->state = Job::State::kDone;
      changed.notify_all();
    }
  };

  // Workers; an exception in one (a ProgramError) is kept and rethrown here.
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < split.jobs; ++t)
    threads.emplace_back([&] {
      try {
        worker();
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        --running;
        stop_all();
        quit = true;
        changed.notify_all();
      }
    });

  // Commit in key order: the first job, once it is done (a job still running may split off
  // prefixes, which come right after it, before every later one).
  std::set<std::string> reported;
  std::string cut;
  bool complete = true;
  std::string description;  // of the jobs' coverage: a weaker one ("DPOR with ...") wins
  for (;;) {
    std::unique_ptr<Job> taken;
    {
      std::unique_lock lock(mutex);
      for (;;) {
        if (failure) break;
        if (options.stop != nullptr && options.stop->load()) stop_all();
        if (jobs.empty()) break;
        Job& first = *jobs.begin()->second;
        if (first.state == Job::State::kDone) {
          taken = std::move(jobs.begin()->second);
          jobs.erase(jobs.begin());
          break;
        }
        changed.wait_for(lock, std::chrono::milliseconds(20));
      }
      if (failure || !taken) break;
    }
    Job& job = *taken;
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
      auto again = run_job(job, options.max_executions - result.stats.executions, false);
      r = std::move(again.first);
      coverage = std::move(again.second);
      budget_cut = true;
    }
    const double keep = result.stats.elapsed_seconds;
    result.stats += r.stats;
    result.stats.elapsed_seconds = keep;
    for (const auto& [goal, n] : r.covered)
      result.covered[goal] += n;
    merge_timing(result, r);
    for (Counterexample& c : r.counterexamples) {
      if (!reported.insert(c.invariant).second) continue;
      result.counterexamples.push_back(std::move(c));
      out.counterexample_prefix.push_back(job.key);
      if (options.on_counterexample) {
        Stats so_far = result.stats;
        so_far.elapsed_seconds = elapsed();
        options.on_counterexample(result.counterexamples.back(), so_far);
      }
    }
    if (job.split_off) ++out.split_off_prefixes;
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
  std::size_t left = 0;
  {
    std::lock_guard lock(mutex);
    left = jobs.size();
    stop_all();
    quit = true;
    changed.notify_all();
  }
  for (std::thread& t : threads)
    t.join();
  if (failure) std::rethrow_exception(failure);
  if (left != 0) complete = false;

  result.stats.elapsed_seconds = elapsed();
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
