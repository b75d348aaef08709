#include "explorer/search/split.hpp"

#include "explorer/search/estimate.hpp"
#include "explorer/search/workers.hpp"

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
  bool ran = false;        // its search ran (guarded by the mutex)
  // The shared nodes above it, outer first (indices in `groups`; guarded by the mutex).
  std::vector<std::size_t> chain;
  std::atomic<bool> stop{false};
  State state = State::kPending;  // guarded by the mutex, as the two below
  ExplorationResult result;
  Coverage coverage;
};

// A node shared by work sharing (SplitOptions::split_after, DporStrategy::split_when_large): the
// branches of its wakeup tree became jobs when it was shared, and the search that shared it went
// on with it fixed. The searches below it are its jobs (and theirs); a race reversed at the node
// in any of them is recorded as a demand (the reversal's initials) instead of being dropped. Once
// they are all over, each demand that no actor explored from the node (or asleep there) covers
// gets one of its initials explored, as a new job with the actors explored before it asleep (a
// wave), until a wave finds none: the explored actors then form a source set at the node, which
// is what source-DPOR's proof asks of every node, and the sleep sets keep each trace once. The
// node is not branched fully, so sharing costs few executions.
struct Group {
  DporStrategy::SharedNode node;
  Key key_base;                    // the new jobs' keys: key_base, then their number
  std::uint32_t next_child = 0;    // the number of the next job made at the node
  std::vector<std::size_t> chain;  // the shared nodes above it, outer first
  std::size_t outstanding = 0;     // jobs below it not over
  std::vector<ActorSet> demands;
  bool finished = false;
  bool abandoned = false;  // finished without its waves (a stop)
  Key bound() const {      // every job it may still make has a key at least this
    Key k = key_base;
    k.push_back(next_child);
    return k;
  }
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

// The estimated executions below a prefix (Knuth's estimator, seeded by its index).
double estimate_prefix(const Program& program, const ExploreOptions& options,
                       const DporStrategy::Options& dpor, const DporStrategy::Prefix& p,
                       std::size_t index, std::uint64_t probes) {
  EstimateOptions o;
  o.tree = EstimateOptions::Tree::kSleepSets;
  o.all_writes = dpor.dependency == DporStrategy::Dependency::kAllWrites;
  o.probes = probes;
  o.seed = index;
  o.max_steps = options.max_steps;
  o.stack_size = options.stack_size;
  o.stop = options.stop;
  for (const auto& n : p.nodes) {
    o.prefix.push_back(n.chosen);
    if (n.kind == Decision::Kind::kActor) o.prefix_sleep = n.child_sleep;
  }
  const TreeEstimate e = estimate_tree(program, o);
  return std::max(1.0, e.traces);
}

}  // namespace

std::vector<std::uint32_t> assign_shards(const std::vector<double>& sizes, std::size_t shards) {
  std::vector<std::uint32_t> shard(sizes.size(), 0);
  if (shards <= 1) return shard;
  std::vector<std::size_t> order(sizes.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  std::vector<double> load(shards, 0);
  for (const std::size_t i : order) {
    const auto least = static_cast<std::size_t>(
        std::min_element(load.begin(), load.end()) - load.begin());
    shard[i] = static_cast<std::uint32_t>(least);
    load[least] += sizes[i];
  }
  return shard;
}

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
  if (split.shard_count > 1) {
    std::vector<double> sizes;
    for (std::size_t i = 0; i < prefixes.size(); ++i)
      sizes.push_back(estimate_prefix(program, options, dpor, prefixes[i], i, split.shard_probes));
    out.assignment = assign_shards(sizes, split.shard_count);
    out.shard_shares.assign(split.shard_count, 0);
    double total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      out.shard_shares[out.assignment[i]] += sizes[i];
      total += sizes[i];
    }
    for (double& s : out.shard_shares)
      s = total > 0 ? s / total : 0;
  }
  for (std::size_t i = 0; i < prefixes.size(); ++i) {
    if (split.shard_count > 1 && out.assignment[i] != split.shard_index) continue;
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

  std::vector<std::unique_ptr<Group>> groups;  // guarded by mutex, as the two below
  std::vector<std::size_t> open_groups;         // not finished
  bool stopping = false;                        // stop_all() was called: no new job runs
  std::size_t demanded = 0;                     // jobs made by waves
  std::vector<std::uint64_t> worker_executions(split.jobs, 0);

  // A job below the shared nodes `chain` (with the mutex held).
  auto add_job = [&](Key key, DporStrategy::Prefix prefix, const std::vector<std::size_t>& chain) {
    auto child = std::make_unique<Job>();
    child->key = std::move(key);
    child->prefix = std::move(prefix);
    child->split_off = true;
    child->chain = chain;
    for (const std::size_t g : chain)
      ++groups[g]->outstanding;
    if (stopping || (first_violation && *first_violation < child->key)) child->stop = true;
    const Key k = child->key;
    jobs.emplace(k, std::move(child));
  };

  // All jobs below group g are over: its next wave, or its end (with the mutex held).
  auto wave = [&](std::size_t gi) {
    Group& g = *groups[gi];
    std::vector<ActorSet> demands = std::move(g.demands);
    g.demands.clear();
    if (stopping || (first_violation && *first_violation < g.bound())) {
      g.finished = g.abandoned = true;
    } else {
      std::sort(demands.begin(), demands.end(),
                [](ActorSet a, ActorSet b) { return a.bits() < b.bits(); });
      std::vector<ActorId> picked;
      ActorSet explored = g.node.explored;
      for (const ActorSet d : demands) {
        if (!(d & (explored | g.node.sleep)).empty()) continue;  // covered
        picked.push_back(d.first());
        explored.insert(d.first());
      }
      if (picked.empty()) {
        g.finished = true;
      } else {
        std::vector<std::size_t> chain = g.chain;
        chain.push_back(gi);
        ActorSet before = g.node.explored;
        for (const ActorId a : picked) {
          DporStrategy::Prefix p = g.node.base;
          p.has_first = true;
          p.first_kind = Decision::Kind::kActor;
          p.first = a;
          p.first_done = before;
          p.demand_nodes.push_back(g.node.index);
          before.insert(a);
          Key k = g.key_base;
          k.push_back(g.next_child++);
          add_job(std::move(k), std::move(p), chain);
          ++demanded;
        }
        g.node.explored = explored;
      }
    }
    if (g.finished)
      open_groups.erase(std::find(open_groups.begin(), open_groups.end(), gi));
  };

  // A job is over (with the mutex held): its demands go to the shared nodes above it, and the
  // nodes it was the last job below of make their next wave (the deepest first).
  auto job_over = [&](Job& job, const std::vector<std::pair<std::uint32_t, ActorSet>>& demands) {
    for (const auto& [index, initials] : demands)
      for (const std::size_t g : job.chain)
        if (groups[g]->node.index == index) groups[g]->demands.push_back(initials);
    for (std::size_t i = job.chain.size(); i-- > 0;) {
      Group& g = *groups[job.chain[i]];
      if (--g.outstanding == 0) wave(job.chain[i]);
    }
  };

  // A job may be committed once no shared node can still make a job before it.
  auto committable = [&](const Key& key) {
    for (const std::size_t g : open_groups)
      if (!(key < groups[g]->bound())) return false;
    return true;
  };

  // Runs one job's search (on any thread): its prefix, with `max_executions`, handing the
  // prefixes it splits off to the queue.
  struct Ran {
    ExplorationResult result;
    Coverage coverage;
    std::vector<std::pair<std::uint32_t, ActorSet>> demands;
  };
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
      strategy.split_when_large(
          split_after,
          [&, key](DporStrategy::SharedNode shared, std::vector<DporStrategy::Prefix> kids) {
            std::lock_guard lock(mutex);
            ++split_number;
            Key base = key;
            base.push_back(kLate - split_number);
            if (shared.demand) {
              auto g = std::make_unique<Group>();
              g->key_base = base;
              g->chain = job.chain;
              g->node = std::move(shared);
              g->outstanding = 1;  // this job
              g->next_child = static_cast<std::uint32_t>(kids.size());
              job.chain.push_back(groups.size());
              groups.push_back(std::move(g));
              open_groups.push_back(job.chain.back());
            }
            for (std::size_t c = 0; c < kids.size(); ++c) {
              Key k = base;
              k.push_back(static_cast<std::uint32_t>(c));
              add_job(std::move(k), std::move(kids[c]), job.chain);
            }
            changed.notify_all();
          });
    std::unique_ptr<Strategy> wrapped =
        split.wrap ? split.wrap(strategy, wrapped_jobs.fetch_add(1)) : nullptr;
    Explorer explorer(program, jo);
    ExplorationResult r = explorer.explore(wrapped ? *wrapped : strategy);
    return Ran{std::move(r), strategy.coverage(), strategy.demands()};
  };

  auto stop_all = [&] {  // with the mutex held
    stopping = true;
    for (auto& [k, j] : jobs)
      j->stop = true;
  };

  auto worker = [&](unsigned self) {
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
      std::optional<Ran> r;
      if (!skip) r = run_job(*job, options.max_executions, true);  // a ProgramError ends the thread
      lock.lock();
      --running;
      if (r) {
        if (options.stop_on_first_violation && !r->result.counterexamples.empty() &&
            (!first_violation || job->key < *first_violation)) {
          first_violation = job->key;
          for (auto& [k, j] : jobs)
            if (job->key < k) j->stop = true;
        }
        worker_executions[self] += r->result.stats.executions;
        job->ran = true;
        job->result = std::move(r->result);
        job->coverage = std::move(r->coverage);
        job_over(*job, r->demands);
      } else {
        job->result.interrupted = true;  // not run: after a violation, or stopped
        job->coverage = {false, "not run"};
        job_over(*job, {});
      }
      job->state = Job::State::kDone;
      changed.notify_all();
    }
  };

  // Workers; an exception in one (a ProgramError) is kept and rethrown by join(), below.
  Workers workers(split.jobs, worker, [&] {
    std::lock_guard lock(mutex);
    --running;
    stop_all();
    quit = true;
    changed.notify_all();
  });

  // Commit in key order: the first job, once it is done (a job still running may split off
  // prefixes, which come right after it, before every later one).
  std::set<std::string> reported;
  std::string cut;
  bool time_cut = false;
  bool complete = true;
  std::string description;  // of the jobs' coverage: a weaker one ("DPOR with ...") wins
  for (;;) {
    std::unique_ptr<Job> taken;
    {
      std::unique_lock lock(mutex);
      for (;;) {
        if (workers.failed()) break;
        if (options.stop != nullptr && options.stop->load()) stop_all();
        if (jobs.empty()) break;
        Job& first = *jobs.begin()->second;
        if (first.state == Job::State::kDone && committable(first.key)) {
          taken = std::move(jobs.begin()->second);
          jobs.erase(jobs.begin());
          break;
        }
        changed.wait_for(lock, std::chrono::milliseconds(20));
      }
      if (workers.failed() || !taken) break;
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
      Ran again = run_job(job, options.max_executions - result.stats.executions, false);
      r = std::move(again.result);
      coverage = std::move(again.coverage);
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
      time_cut = true;
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
  workers.join();
  if (left != 0) complete = false;
  for (const auto& g : groups)
    if (!g->finished || g->abandoned) complete = false;
  // An interruption or a time budget: the jobs that ran past the cut count too (what was run;
  // their violations are not reported, since those before them in prefix order are unknown).
  // The cuts that must give the same output whatever the threads (an execution budget, the first
  // violation) count what the commit order reached.
  if (result.interrupted || time_cut) {
    for (const auto& [k, j] : jobs)
      if (j->ran) {
        Stats s = j->result.stats;
        s.violations.clear();
        s.elapsed_seconds = 0;
        result.stats += s;
      }
  }
  result.stats.worker_executions = std::move(worker_executions);
  out.demanded_prefixes = demanded;

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
