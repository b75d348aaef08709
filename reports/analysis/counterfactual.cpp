#include "reports/analysis/counterfactual.hpp"

#include "reports/analysis/causal_slice.hpp"
#include "reports/analysis/happens_before.hpp"
#include "reports/trace/trace_view.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace interleave::reports {

namespace {

/// Runs the steps of a counterexample in another order (positions of the recorded steps), of
/// which the first `strict` must run exactly so, the rest as far as they can (counterfactual.hpp).
class ReorderedSteps final : public Strategy {
 public:
  ReorderedSteps(const Counterexample& c, std::vector<std::size_t> order, std::size_t strict)
      : steps_(c.steps),
        order_(std::move(order)),
        strict_(std::min(strict, order_.size())),
        taken_(order_.size(), false),
        choices_(c.steps.size()) {
    std::optional<std::size_t> step;
    for (const ScheduleEntry& e : c.schedule.steps) {
      if (e.kind == ScheduleEntry::Kind::kActor)
        step = step ? *step + 1 : 0;
      else if (step && *step < choices_.size())
        choices_[*step].push_back(e.value);
    }
  }

  std::string name() const override { return "reordered"; }
  bool begin_execution() override {
    if (started_) return false;
    started_ = true;
    return true;
  }
  ActorId next_actor(const SchedulingPoint& point) override {
    current_.reset();
    next_choice_ = 0;
    if (done_ < strict_) {  // the next listed step, exactly
      const TraceStep& want = steps_[order_[done_]];
      const ActorId a = actor_named(point, want.actor);
      // The actor must be able to run, and its next step must be the recorded one (an actor's
      // steps run in program order: the same label says the order reached it).
      if (a == kNoActor || !point.enabled.contains(a) || a >= point.pending.size() ||
          point.pending[a] == nullptr || point.pending[a]->label.view() != want.label) {
        abandoned_ = true;
        return kNoActor;
      }
      taken_[done_] = true;
      current_ = order_[done_++];
      return a;
    }
    for (std::size_t k = strict_; k < order_.size(); ++k) {  // the earliest that can run
      if (taken_[k]) continue;
      const ActorId a = actor_named(point, steps_[order_[k]].actor);
      if (a == kNoActor || !point.enabled.contains(a)) continue;
      taken_[k] = true;
      current_ = order_[k];
      return a;
    }
    ActorId lowest = kNoActor;  // a step the recorded execution did not have
    point.enabled.for_each([&](ActorId a) {
      if (lowest == kNoActor || a < lowest) lowest = a;
    });
    return lowest;
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override {
    std::uint32_t v = 0;
    if (current_ && next_choice_ < choices_[*current_].size())
      v = choices_[*current_][next_choice_];
    ++next_choice_;
    return v < point.n ? v : 0;
  }
  void end_execution(const ExecutionRecord&) override {}
  Coverage coverage() const override { return {false, "one reordered execution"}; }
  std::string abandon_reason() const override { return "the reordered steps cannot run so"; }

  /// Whether the steps that had to run first did.
  bool followed() const { return !abandoned_ && done_ == strict_; }

 private:
  static ActorId actor_named(const SchedulingPoint& point, const std::string& name) {
    for (std::size_t a = 0; a < point.names.size(); ++a)
      if (point.names[a] == name) return static_cast<ActorId>(a);
    return kNoActor;
  }

  const std::vector<TraceStep>& steps_;
  std::vector<std::size_t> order_;
  std::size_t strict_;
  std::vector<bool> taken_;                          // per entry of order_
  std::vector<std::vector<std::uint32_t>> choices_;  // per recorded step
  std::size_t done_ = 0;                             // strict entries run
  std::optional<std::size_t> current_;               // the recorded step now running
  std::size_t next_choice_ = 0;
  bool started_ = false;
  bool abandoned_ = false;
};

struct Run {
  bool followed = false;
  ExplorationResult result;
};

Run run_in_order(Explorer& explorer, const Counterexample& c, std::vector<std::size_t> order,
                 std::size_t strict) {
  ReorderedSteps strategy(c, std::move(order), strict);
  Run run;
  run.result = explorer.explore(strategy);
  run.followed = strategy.followed();
  return run;
}

bool violates(const ExplorationResult& r, const std::string& property) {
  return std::any_of(r.counterexamples.begin(), r.counterexamples.end(),
                     [&](const Counterexample& x) { return x.invariant == property; });
}

struct Candidate {
  std::size_t first = 0, second = 0;  // positions
  int group = 2;  // 0: a stale read of the violating actor, 1: another stale read, 2: the rest
  std::vector<std::string> objects;
};

}  // namespace

Explanation explain(const Program& program, const Counterexample& c, const ExploreOptions& options,
                    std::size_t max_runs) {
  Explanation ex;
  const std::size_t n = c.steps.size();
  for (std::size_t s = 0; s < n; ++s)
    if (c.steps[s].index != s) return ex;  // not numbered as the program runs them
  const std::optional<std::size_t> violating = violating_position(c);

  ExploreOptions run_options;
  run_options.max_steps = options.max_steps;
  run_options.stack_size = options.stack_size;
  run_options.minimize = false;
  Explorer explorer(program, run_options);
  const std::vector<HbEdge> edges = happens_before_edges(c.steps);
  const std::vector<std::vector<bool>> past = happens_before_closure(n, edges);

  // Not involved: each actor's steps in the violating step's past, postponed past it.
  if (violating) {
    const std::string& violator = c.steps[*violating].actor;
    std::set<std::size_t> postponed;
    for (const std::string& actor : actors_in_order(c)) {
      if (actor == violator || ex.runs >= max_runs) continue;
      // The actor's steps in the past, and so (program order) every step of it before the
      // violating step: an actor's steps cannot be postponed one by one.
      bool in_past = false;
      for (std::size_t s = 0; s < *violating; ++s)
        in_past = in_past || (c.steps[s].actor == actor && past[*violating][s]);
      if (!in_past) continue;
      std::set<std::size_t> trial = postponed;
      for (std::size_t s = 0; s < *violating; ++s)
        if (c.steps[s].actor == actor) trial.insert(s);
      std::vector<std::size_t> order;
      for (std::size_t s = 0; s <= *violating; ++s)
        if (!trial.contains(s)) order.push_back(s);
      const std::size_t strict = order.size();  // up to the violating step, exactly so
      for (std::size_t s : trial)
        order.push_back(s);
      for (std::size_t s = *violating + 1; s < n; ++s)
        order.push_back(s);
      ++ex.runs;
      const Run run = run_in_order(explorer, c, std::move(order), strict);
      if (run.followed && violates(run.result, c.invariant)) postponed = std::move(trial);
    }
    ex.not_involved.assign(postponed.begin(), postponed.end());
  }

  // The race.
  const CausalSlice slice = causal_slice(c, std::nullopt, ex.not_involved);
  const std::string violator = violating ? c.steps[*violating].actor : std::string();
  std::vector<Candidate> candidates;
  for (const HbEdge& e : edges) {
    if (e.kind != HbEdge::Kind::kConflict || !slice.involved[e.from]) continue;
    // Nothing else orders them: no other edge into e.to comes from a step after e.from.
    const bool adjacent = std::none_of(edges.begin(), edges.end(), [&](const HbEdge& o) {
      return o.to == e.to && !(o.from == e.from && o.kind == e.kind) && past[o.from][e.from];
    });
    if (!adjacent) continue;
    Candidate cand{e.from, e.to, 2, {}};
    bool stale = false;
    for (const ConflictingAccess& a : e.accesses) {
      if (observes(a.from_kind) && !observes(a.to_kind)) stale = true;
      if (std::find(cand.objects.begin(), cand.objects.end(), a.object) == cand.objects.end())
        cand.objects.push_back(a.object);
    }
    if (stale) cand.group = c.steps[e.from].actor == violator ? 0 : 1;
    candidates.push_back(std::move(cand));
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     return std::make_tuple(a.group, b.second, b.first) <
                            std::make_tuple(b.group, a.second, a.first);
                   });
  for (const Candidate& cand : candidates) {
    if (ex.runs >= max_runs) break;
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < cand.second; ++k)
      if (!past[k][cand.first]) order.push_back(k);
    order.push_back(cand.second);
    order.push_back(cand.first);
    const std::size_t strict = order.size();
    for (std::size_t k = cand.first + 1; k < n; ++k)
      if (k != cand.second && (past[k][cand.first] || k > cand.second)) order.push_back(k);
    ++ex.runs;
    const Run run = run_in_order(explorer, c, std::move(order), strict);
    if (!run.followed || run.result.stats.completed != 1 || !run.result.counterexamples.empty())
      continue;
    Race race;
    race.first = c.steps[cand.first].index;
    race.second = c.steps[cand.second].index;
    race.objects = cand.objects;
    race.reversed = "the execution runs to completion and every property holds (" +
                    std::to_string(run.result.stats.steps) + " steps)";
    ex.race = std::move(race);
    break;
  }
  return ex;
}

void explain(TraceDocument& doc, const Program& program, const ExploreOptions& options) {
  Explanation ex = explain(program, doc.counterexample, options);
  doc.not_involved = std::move(ex.not_involved);
  doc.race = std::move(ex.race);
}

}  // namespace interleave::reports
