#include "explorer/search/explorer.hpp"

#include "explorer/search/audit.hpp"
#include "explorer/search/minimize.hpp"
#include "explorer/search/readable_steps.hpp"
#include "explorer/strategies/replay.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

namespace interleave {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::kHolds:
      return "holds";
    case Verdict::kViolation:
      return "violation";
    case Verdict::kIncomplete:
      return "incomplete";
  }
  return "unknown";
}

std::optional<Verdict> verdict_from_string(std::string_view name) {
  for (Verdict v : {Verdict::kHolds, Verdict::kViolation, Verdict::kIncomplete})
    if (to_string(v) == name) return v;
  return std::nullopt;
}

Verdict worse(Verdict a, Verdict b) {
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::kHolds:
        return 0;
      case Verdict::kIncomplete:
        return 1;
      case Verdict::kViolation:
        return 2;
    }
    return 3;
  };
  return rank(a) >= rank(b) ? a : b;
}

bool same_step(const TraceStep& a, const TraceStep& b, StepFields fields) {
  if (a.actor != b.actor || a.label != b.label || a.accesses.size() != b.accesses.size())
    return false;
  if (fields == StepFields::kAll && (a.what != b.what || a.time != b.time)) return false;
  for (std::size_t i = 0; i < a.accesses.size(); ++i)
    if (a.accesses[i].object != b.accesses[i].object || a.accesses[i].kind != b.accesses[i].kind)
      return false;
  return true;
}

Explorer::Explorer(Program program, ExploreOptions options)
    : program_(std::move(program)), options_(std::move(options)), runner_(program_, options_) {}

Explorer::~Explorer() = default;

std::vector<TraceStep> readable_steps(const Execution& ex, const ExecutionBuffers& b) {
  std::vector<TraceStep> steps;
  steps.reserve(b.trace.size());
  const std::span<const Micros> times = ex.times();
  for (std::size_t i = 0; i < b.trace.size(); ++i) {
    const Event& e = b.trace[i];
    TraceStep s;
    s.index = i;
    s.actor = ex.actor(e.actor).name();
    s.label = std::string(e.op.label);
    for (const Access& a : e.op)
      s.accesses.push_back({ex.object_name(a.object), a.kind});
    if (i < b.notes.size()) s.what = b.notes[i];
    if (e.hb_pred >= 0) s.after = static_cast<std::size_t>(e.hb_pred);
    if (i < times.size() && times[i] >= 0) s.time = times[i];  // -1: outside the cut
    steps.push_back(std::move(s));
  }
  return steps;
}


const Violation* ReplayReport::violation_of(std::string_view invariant) const {
  for (const Violation& v : violations)
    if (v.invariant == invariant) return &v;
  return nullptr;
}

ReplayReport Explorer::replay(const Schedule& schedule) {
  ReplayStrategy replay(schedule);
  PreemptionCounter strategy(replay);
  strategy.begin_execution();
  ExecutionOptions eo;
  eo.tracing = true;
  ReplayReport r;
  r.outcome = runner_.once(strategy, eo, [&](Execution& ex, Outcome outcome) {
    ExecutionBuffers& buffers = runner_.buffers();
    r.violation = ex.violation();
    r.violations = ex.violations();
    r.steps = readable_steps(ex, buffers);
    r.state = ex.final_state();
    r.states = std::move(buffers.states);
    buffers.states.clear();
    if (outcome == Outcome::kAbandoned) r.reason = ex.abandon_reason();
    if (outcome == Outcome::kInfeasible) r.reason = ex.infeasible_reason();
    r.timing_infeasible = !ex.timing_feasible();
    r.wall_clock = ex.wall_clock();
  });
  r.preemptions = strategy.preemptions();
  r.consumed = replay.consumed();
  r.diverged = replay.diverged();
  r.exhausted = replay.exhausted();
  if (r.timing_infeasible && r.reason.empty())
    r.reason = "no times fit the durations of the execution";
  return r;
}

Outcome Explorer::run_once(Strategy& strategy, Once* once) {
  ExecutionOptions eo;
  eo.check_accesses = options_.check_accesses;
  return runner_.once(strategy, eo, [&](Execution& ex, Outcome) {
    if (once != nullptr) {
      once->steps = readable_steps(ex, runner_.buffers());
      once->final_state = ex.dump_state();
    }
  });
}

namespace {

// The audit of a counterexample or of a sampled execution: a finding is the program's error.
void audit_or_throw(Explorer& explorer, const Schedule& schedule, const AuditOptions& options,
                    Stats& stats) {
  CommutationAudit audit = audit_commutation(explorer, schedule, options);
  if (audit.not_audited.empty()) ++stats.audited;
  if (audit.finding) throw ProgramError(audit.finding->message());
}

}  // namespace

Counterexample Explorer::make_counterexample(const Schedule& schedule,
                                             const std::string& expected_invariant) {
  ReplayReport r = replay(schedule);
  const Violation* v = r.timing_infeasible         ? nullptr
                       : expected_invariant.empty() ? (r.violation ? &*r.violation : nullptr)
                                                    : r.violation_of(expected_invariant);
  if (v == nullptr)
    throw ProgramError(
        "the program is not deterministic: replaying a violating schedule did not reproduce " +
        (expected_invariant.empty() ? std::string("a violation") : expected_invariant) +
        (r.reason.empty() ? std::string() : " (" + r.reason + ")"));
  Counterexample c;
  c.invariant = v->invariant;
  c.message = v->message;
  c.step = v->step;
  if (v->actor != kNoActor && v->step < r.steps.size()) c.actor = r.steps[v->step].actor;
  c.preemptions = r.preemptions;
  c.schedule = schedule;
  c.schedule.steps.resize(r.consumed);
  c.found_at = v->found_at;
  c.steps = std::move(r.steps);
  // The state at the violation: after the step that found it, else after the violating step.
  const std::size_t at = c.found_at.value_or(c.step);
  c.state = at < r.states.size() ? r.states[at] : std::move(r.state);
  c.states = std::move(r.states);
  if (std::any_of(c.steps.begin(), c.steps.end(),
                  [](const TraceStep& s) { return s.time.has_value(); }))
    c.wall_clock = r.wall_clock;
  return c;
}

void settle_verdict(ExplorationResult& result, const std::string& cut, const Coverage& coverage,
                    std::size_t max_steps) {
  const Stats& stats = result.stats;
  result.exhaustive = result.stopped_at_first_violation ||
                      (cut.empty() && !result.interrupted && stats.cut_by_bound == 0 &&
                       coverage.complete);
  if (!result.counterexamples.empty()) {
    result.verdict = Verdict::kViolation;
    result.detail = cut.empty() ? coverage.description : cut;
  } else if (result.interrupted) {
    result.verdict = Verdict::kIncomplete;
    result.detail = cut;
  } else if (stats.cut_by_bound > 0) {
    result.verdict = Verdict::kIncomplete;
    result.detail = "the step bound (" + std::to_string(max_steps) + " steps) cut " +
                    std::to_string(stats.cut_by_bound) + " execution(s)";
  } else if (!cut.empty()) {
    result.verdict = Verdict::kIncomplete;
    result.detail = cut;
  } else if (!coverage.complete) {
    result.verdict = Verdict::kIncomplete;
    result.detail = coverage.description;
  } else if (stats.timing_infeasible > 0 && stats.completed == 0 && stats.infeasible == 0) {
    // No execution fits the durations: nothing was checked.
    result.verdict = Verdict::kIncomplete;
    result.detail = "the durations are unsatisfiable: none of the " +
                    std::to_string(stats.executions) + " executions explored fits them (" +
                    std::to_string(stats.timing_infeasible) + " timing-infeasible)";
  } else if (stats.infeasible > 0 && stats.completed == 0) {
    // Every execution was held by the scenario's ordering constraints: nothing was checked.
    result.verdict = Verdict::kIncomplete;
    result.detail = "the ordering constraints are unsatisfiable: none of the " +
                    std::to_string(stats.executions) +
                    " executions explored could satisfy them (" +
                    std::to_string(stats.infeasible) + " infeasible)";
  } else {
    result.verdict = Verdict::kHolds;
    result.detail = coverage.description;
  }
}

void merge_timing(ExplorationResult& into, const ExplorationResult& from) {
  into.timed = into.timed || from.timed;
  for (const auto& [name, b] : from.windows) {
    WindowBounds& w = into.windows[name];
    w.least = std::min(w.least, b.least);
    w.greatest = std::max(w.greatest, b.greatest);
    w.executions += b.executions;
    w.missing += b.missing;
  }
}

std::string AuditOptions::reach(std::uint64_t audited) const {
  const auto ordinal = [](std::uint64_t n) {
    const std::uint64_t tens = n % 100, units = n % 10;
    const char* suffix = tens >= 11 && tens <= 13 ? "th"
                         : units == 1             ? "st"
                         : units == 2             ? "nd"
                         : units == 3             ? "rd"
                                                  : "th";
    return std::to_string(n) + suffix;
  };
  const std::string which = every == 0   ? "the 1st, 2nd, 4th, 8th, ..."
                            : every == 1 ? "every one"
                                         : "the 1st and every " + ordinal(every);
  return "audit: " + std::to_string(audited) + (audited == 1 ? " execution" : " executions") +
         " (" + which + "), steps moved up to " + std::to_string(max_distance) +
         (max_distance == 1 ? " place" : " places");
}

ExplorationResult Explorer::explore(Strategy& strategy) {
  Exploration exploration(*this, strategy);
  exploration.run(std::numeric_limits<std::uint64_t>::max());
  return exploration.finish();
}

// What ended() saw of the execution that ran last, for go_on().
struct Exploration::Last {
  Outcome outcome = Outcome::kCompleted;
  std::vector<Violation> violations;  // every property it violated, first first
  bool timing_infeasible = false;
  Schedule schedule;  // when it violated a property not reported yet
  RecordedExecution recorded;
  bool kept = false;     // for the determinism check
  bool audited = false;  // by the checked mode
};

Exploration::Exploration(Explorer& explorer, Strategy& strategy)
    : explorer_(explorer),
      strategy_(strategy),
      samples_(std::make_unique<DeterminismSamples>()),
      last_(std::make_unique<Last>()) {
  result_.strategy = strategy.name();
  explorer_.runner_.restart();
}

Exploration::~Exploration() = default;

double Exploration::elapsed() const { return explorer_.runner_.elapsed(); }

bool Exploration::run(std::uint64_t executions) {
  if (over_ || executions == 0) return !over_;
  const ExploreOptions& options = explorer_.options_;
  ExecutionOptions eo;
  eo.check_accesses = options.check_accesses;
  LoopObserver* const self[] = {this};
  switch (explorer_.runner_.loop(strategy_, eo, self, executions)) {
    case LoopEnd::kSlice:
      break;
    case LoopEnd::kExhausted:
      over_ = true;
      break;
    case LoopEnd::kInterrupted:
      cut_ = "interrupted";
      result_.interrupted = true;
      over_ = true;
      break;
    case LoopEnd::kExecutionBudget:
      cut_ = "the execution budget (" + std::to_string(options.max_executions) +
             " executions) ran out";
      over_ = true;
      break;
    case LoopEnd::kTimeBudget:
      cut_ = "the time budget ran out";
      over_ = true;
      break;
    case LoopEnd::kObserver:  // go_on() said why
      over_ = true;
      break;
  }
  result_.stats.elapsed_seconds = elapsed();
  return !over_;
}

void Exploration::ended(Execution& ex, Outcome outcome) {
  const ExploreOptions& options = explorer_.options_;
  const ExecutionBuffers& buffers = explorer_.runner_.buffers();
  Last& last = *last_;
  last.outcome = outcome;
  last.violations.clear();
  last.timing_infeasible = false;
  last.schedule = Schedule{};
  last.recorded = RecordedExecution{};
  const std::uint64_t number = result_.stats.executions + 1;
  // Kept for the determinism check, audited (the checked mode), or both.
  last.kept = options.check_determinism && samples_->wants(number);
  last.audited = options.check_accesses && options.audit.sample &&
                 (audit_pending_ || options.audit.wants(number));
  if (ex.violation()) [[unlikely]]
    last.violations = ex.violations();
  if (ex.timed()) [[unlikely]] {
    result_.timed = true;
    if (!ex.timing_feasible() && outcome != Outcome::kStepBound) {
      // Not a behaviour of the timed program: counted, never reported.
      last.timing_infeasible = true;
      last.violations.clear();
    }
  }
  if (!last.timing_infeasible)
    for (const auto& goal : ex.covered())
      ++result_.covered[goal];
  if (ex.timed() && (!ex.windows().empty() || !options.windows.empty())) [[unlikely]] {
    // Declared windows are reported whatever the verdict; measured in violating executions.
    for (const auto* list : {&ex.windows(), &options.windows})
      for (const TimingWindow& w : *list) {
        WindowBounds& b = result_.windows[w.name];
        if (!last.violations.empty() && !last.timing_infeasible)
          measure_window(explorer_.runner_.clock().graph(), buffers.trace, buffers.actor_names,
                         w, b);
      }
  }
  auto schedule_of = [&] {
    Schedule schedule;
    schedule.seed = strategy_.execution_seed();
    schedule.steps.reserve(buffers.decisions.size());
    for (const Decision& d : buffers.decisions)
      schedule.steps.push_back(
          d.kind == Decision::Kind::kActor
              ? ScheduleEntry::run(ex.actor(static_cast<ActorId>(d.value)).name())
              : ScheduleEntry::choice(d.value));
    return schedule;
  };
  if (last.kept || last.audited) [[unlikely]] {
    if (outcome == Outcome::kAbandoned || last.timing_infeasible) {
      if (last.kept) samples_->skipped();
      if (last.audited) audit_pending_ = true;
    } else {
      RecordedExecution& recorded = last.recorded;
      recorded.number = number;
      recorded.outcome = outcome;
      if (ex.violation()) recorded.property = ex.violation()->invariant;
      recorded.schedule = schedule_of();
      for (const Event& e : buffers.trace)
        recorded.steps.push_back(
            StepRecord{e.actor, std::string(e.op.label), {e.op.begin(), e.op.end()}});
    }
  }
  if (std::any_of(last.violations.begin(), last.violations.end(),
                  [&](const Violation& v) { return !reported_.contains(v.invariant); }))
    last.schedule = schedule_of();
  Stats& stats = result_.stats;
  stats.steps += buffers.trace.size();
  stats.max_depth = std::max<std::uint64_t>(stats.max_depth, buffers.trace.size());
}

bool Exploration::go_on() {
  const ExploreOptions& options = explorer_.options_;
  Stats& stats = result_.stats;
  Last& last = *last_;
  if (!last.recorded.steps.empty() || !last.recorded.schedule.steps.empty()) {
    if (last.audited) {
      audit_pending_ = false;
      audit_or_throw(explorer_, last.recorded.schedule, options.audit, stats);
    }
    if (last.kept) samples_->offer(std::move(last.recorded));
  }
  ++stats.executions;
  switch (last.timing_infeasible ? Outcome::kAbandoned : last.outcome) {
    case Outcome::kCompleted:
      ++stats.completed;
      break;
    case Outcome::kAbandoned:
      ++(last.timing_infeasible ? stats.timing_infeasible : stats.blocked);
      break;
    case Outcome::kDeadlock:
      ++stats.deadlocked;
      break;
    case Outcome::kStepBound:
      ++stats.cut_by_bound;
      break;
    case Outcome::kInfeasible:
      ++stats.infeasible;
      break;
    case Outcome::kViolation:
    case Outcome::kActorFailure:
      ++stats.failed;
      break;
  }
  // Every property the execution violated is counted and, the first time, reported.
  bool reported = false;
  for (const Violation& violation : last.violations) {
    ++stats.violations[violation.invariant];
    if (reported_.contains(violation.invariant)) continue;
    reported_.insert(violation.invariant);
    reported = true;
    Schedule shown = last.schedule;
    if (options.minimize) {
      MinimizeOptions mo;
      mo.max_executions = options.minimize_budget;
      mo.max_steps = options.max_steps;
      mo.stack_size = options.stack_size;
      shown = minimize(explorer_.program_, last.schedule, violation.invariant, mo).schedule;
    }
    result_.counterexamples.push_back(explorer_.make_counterexample(shown, violation.invariant));
    if (options.audit_counterexamples) audit_or_throw(explorer_, shown, options.audit, stats);
    if (options.on_counterexample) {
      stats.elapsed_seconds = elapsed();
      options.on_counterexample(result_.counterexamples.back(), stats);
    }
  }
  if (reported && options.stop_on_first_violation) {
    cut_ = "stopped at the first violation";
    result_.stopped_at_first_violation = true;
    return false;
  }
  return true;
}

void Exploration::progress(std::uint64_t) {
  const ExploreOptions& options = explorer_.options_;
  if (!options.on_progress) return;
  result_.stats.elapsed_seconds = elapsed();
  options.on_progress(result_.stats);
}

ExplorationResult Exploration::finish() {
  if (explorer_.options_.check_determinism) check_determinism(explorer_, *samples_);
  result_.stats.elapsed_seconds = elapsed();
  const std::string cut = over_ || !cut_.empty() ? cut_ : "the search was not run to its end";
  settle_verdict(result_, cut, strategy_.coverage(), explorer_.options_.max_steps);
  return std::move(result_);
}

}  // namespace interleave
