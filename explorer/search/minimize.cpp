#include "explorer/search/minimize.hpp"

#include "explorer/core/happens_before.hpp"
#include "explorer/strategies/preemption_bound.hpp"
#include "explorer/strategies/replay.hpp"
#include "explorer/time/virtual_time.hpp"

#include <algorithm>
#include <optional>

namespace interleave {

namespace {

// What minimisation needs to know about one execution.
struct Run {
  Outcome outcome = Outcome::kCompleted;
  std::optional<Violation> violation;  // the first property that failed
  std::vector<std::string> violated;   // every property that failed (Execution::violations)
  std::vector<Event> trace;
  std::vector<Decision> decisions;
  std::vector<std::string> names;  // by actor id
  std::uint64_t preemptions = 0;
  Schedule schedule;  // the decisions taken, as a schedule
  bool timing_feasible = true;  // a timed program's execution that fits no times is no behaviour

  bool violates(const std::string& invariant) const {
    return timing_feasible &&
           std::find(violated.begin(), violated.end(), invariant) != violated.end();
  }
};

class Minimizer {
 public:
  Minimizer(const Program& program, const MinimizeOptions& options)
      : runner_(program, limits(options)) {}

  // Runs one execution under `strategy` (which must have begun it).
  Run run(Strategy& strategy) {
    PreemptionCounter recorder(strategy);
    Run r;
    r.outcome = runner_.once(recorder, ExecutionOptions{},
                             [&](Execution& ex, Outcome) { look(ex, r); });
    ++executions;
    finish(r, recorder);
    return r;
  }

  Run replay(const Schedule& schedule) {
    ReplayStrategy replay(schedule);
    replay.begin_execution();
    return run(replay);
  }

  // Searches the executions with at most `bound` preemptions for a violation of `invariant`.
  // Returns it if found; `exhaustive` tells whether the whole bounded space was searched.
  std::optional<Run> bounded_search(std::uint32_t bound, const std::string& invariant,
                                    std::uint64_t& budget, bool& exhaustive) {
    PreemptionBoundStrategy search(PreemptionBoundStrategy::Options{bound, false});
    PreemptionCounter recorder(search);
    // Looks at each execution of the search; ends it at the first that violates `invariant`.
    struct Finder final : LoopObserver {
      Minimizer& m;
      PreemptionCounter& recorder;
      const std::string& invariant;
      Run r;
      Finder(Minimizer& minimizer, PreemptionCounter& counter, const std::string& property)
          : m(minimizer), recorder(counter), invariant(property) {}
      void ended(Execution& ex, Outcome outcome) override {
        r = Run{};
        r.outcome = outcome;
        m.look(ex, r);
      }
      bool go_on() override {
        ++m.executions;
        m.finish(r, recorder);
        return !r.violates(invariant);
      }
    } finder(*this, recorder, invariant);
    LoopObserver* const observers[] = {&finder};
    const std::uint64_t before = runner_.executions();
    const LoopEnd end = runner_.loop(recorder, ExecutionOptions{}, observers, budget);
    budget -= runner_.executions() - before;
    exhaustive = end == LoopEnd::kExhausted;
    if (end == LoopEnd::kObserver) return std::move(finder.r);
    return std::nullopt;
  }

  std::uint64_t executions = 0;

 private:
  // The runner's limits: the budget is the Minimizer's to share among its searches, and a
  // minimisation under way is finished whatever a stop request says.
  // What a run keeps of the execution while it exists, and once it is gone.
  void look(Execution& ex, Run& r) {
    r.violation = ex.violation();
    if (r.violation)
      for (const Violation& v : ex.violations())
        r.violated.push_back(v.invariant);
    r.timing_feasible = ex.timing_feasible();
    for (std::size_t a = 0; a < ex.actor_count(); ++a)
      r.names.push_back(ex.actor(static_cast<ActorId>(a)).name());
  }
  void finish(Run& r, const PreemptionCounter& recorder) {
    r.trace = runner_.buffers().trace;
    r.decisions = runner_.buffers().decisions;
    r.preemptions = recorder.preemptions();
    for (const Decision& d : r.decisions)
      r.schedule.steps.push_back(d.kind == Decision::Kind::kActor
                                     ? ScheduleEntry::run(r.names[d.value])
                                     : ScheduleEntry::choice(d.value));
  }

  static RunLimits limits(const MinimizeOptions& options) {
    RunLimits l;
    l.max_steps = options.max_steps;
    l.stack_size = options.stack_size;
    return l;
  }
  Runner runner_;
};

// Reorderings of the steps the violation depends on, each actor running as long as it can, one per
// actor that can take the first step.
std::vector<Schedule> reorder(const Run& run) {
  const std::size_t n = run.trace.size();
  if (n == 0 || !run.violation || n > 1000) return {};  // quadratic below
  const Violation& v = *run.violation;

  // Immediate predecessors of each step: its actor's previous step, its spawn/join edge, and every
  // earlier conflicting step (explorer/core/happens_before.hpp).
  auto preds = [&](std::size_t i, auto&& f) { for_each_direct_predecessor(run.trace, i, f); };
  std::vector<char> keep(n, 0);
  if (v.actor != kNoActor && v.step < n) {
    // Raised inside step v.step: what it saw depends only on the steps that happen before it.
    keep[v.step] = 1;
    close_causal_past(run.trace, keep, v.step);
  } else {
    // A property of the state after a step, of the final state, or a deadlock: all steps count.
    const std::size_t last = std::min(v.step, n - 1);
    std::fill(keep.begin(), keep.begin() + static_cast<std::ptrdiff_t>(last) + 1, 1);
  }

  // The choice values made during each step (and by actors it started), and before any step.
  std::vector<std::vector<std::uint32_t>> choices(n);
  std::vector<std::uint32_t> setup;
  std::size_t ev = 0;
  for (const Decision& d : run.decisions) {
    if (d.kind == Decision::Kind::kActor)
      ++ev;
    else if (ev == 0)
      setup.push_back(d.value);
    else
      choices[ev - 1].push_back(d.value);
  }

  // Greedy: keep running the current actor while its next kept step is ready (all its kept
  // predecessors done); otherwise switch to the actor whose ready step comes first.
  std::vector<std::size_t> missing(n, 0);  // kept predecessors
  std::vector<std::vector<std::size_t>> succs(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    preds(i, [&](std::size_t j) {
      if (keep[j]) {
        ++missing[i];
        succs[j].push_back(i);
      }
    });
  }
  const std::size_t total = static_cast<std::size_t>(std::count(keep.begin(), keep.end(), 1));
  auto linearize = [&](ActorId start) {
    std::vector<std::size_t> left = missing;
    std::vector<std::size_t> order;
    std::vector<char> done(n, 0);
    ActorId current = start;
    while (order.size() < total) {
      std::size_t pick = n;
      for (std::size_t i = 0; i < n && pick == n; ++i)  // the current actor's next step, if ready
        if (keep[i] && !done[i] && run.trace[i].actor == current && left[i] == 0) pick = i;
      for (std::size_t i = 0; i < n && pick == n; ++i)  // else the first ready step
        if (keep[i] && !done[i] && left[i] == 0) pick = i;
      if (pick == n) break;  // cannot happen: happens-before is acyclic
      done[pick] = 1;
      order.push_back(pick);
      current = run.trace[pick].actor;
      for (std::size_t s : succs[pick])
        --left[s];
    }
    Schedule out;
    out.seed = run.schedule.seed;
    for (std::uint32_t c : setup)
      out.steps.push_back(ScheduleEntry::choice(c));
    for (std::size_t i : order) {
      out.steps.push_back(ScheduleEntry::run(run.names[run.trace[i].actor]));
      for (std::uint32_t c : choices[i])
        out.steps.push_back(ScheduleEntry::choice(c));
    }
    return out;
  };
  std::vector<Schedule> candidates;
  ActorSet starts;
  for (std::size_t i = 0; i < n; ++i)
    if (keep[i] && missing[i] == 0) starts.insert(run.trace[i].actor);
  starts.for_each([&](ActorId a) { candidates.push_back(linearize(a)); });
  return candidates;
}

bool better(const Run& a, const Run& b) {
  if (a.preemptions != b.preemptions) return a.preemptions < b.preemptions;
  return a.trace.size() < b.trace.size();
}

}  // namespace

Minimized minimize(const Program& program, const Schedule& schedule, const std::string& invariant,
                   const MinimizeOptions& options) {
  Minimizer m(program, options);
  Run best = m.replay(schedule);
  if (!best.violates(invariant))
    throw ProgramError("minimisation: the schedule does not reproduce a violation of " + invariant);
  best.schedule.seed = schedule.seed;
  Minimized result;
  result.original_preemptions = best.preemptions;
  result.original_steps = best.trace.size();

  // Reorders a violating run's steps; keeps the result if it still violates and is better.
  auto improve = [&](const Run& from) {
    for (const Schedule& s : reorder(from)) {
      Run r = m.replay(s);
      r.schedule.seed = schedule.seed;
      if (r.violates(invariant) && better(r, best)) best = std::move(r);
    }
  };
  improve(best);

  // Fewer preemptions may need another trace: search the executions with at most k preemptions,
  // k = 0, 1, ..., up to the best so far. At the best's own bound the first violation in search
  // order is preferred when it is as good: the result then does not depend on which strategy found
  // the violation first.
  std::uint64_t budget = options.max_executions;
  bool fewest = true;
  for (std::uint32_t k = 0; k <= best.preemptions; ++k) {
    bool exhaustive = false;
    std::optional<Run> found;
    if (budget > 0) found = m.bounded_search(k, invariant, budget, exhaustive);
    if (found) {
      found->schedule.seed = schedule.seed;
      if (!better(best, *found)) best = std::move(*found);
      improve(best);
      break;
    }
    if (!exhaustive) {
      // The budget ran out: a schedule with k preemptions may exist (unless k is the best's).
      if (k < best.preemptions) fewest = false;
      break;
    }
  }

  result.schedule = best.schedule;
  result.preemptions = best.preemptions;
  result.steps = best.trace.size();
  result.fewest_preemptions = fewest;
  result.executions = m.executions;
  return result;
}

}  // namespace interleave
