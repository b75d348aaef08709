#include "explorer/search/audit.hpp"

#include "explorer/strategies/dpor/dependency.hpp"

#include <algorithm>
#include <utility>

namespace interleave {

namespace {

// Follows a schedule entry by entry (an actor by name, or a choice value) and records what the
// execution did. Stops (abandons) where the program does not follow the schedule, or where the
// schedule ends.
class Follower final : public Strategy {
 public:
  explicit Follower(const std::vector<ScheduleEntry>& entries) : entries_(entries) {}

  std::string name() const override { return "audit"; }
  bool begin_execution() override { return !begun_ && (begun_ = true); }
  ActorId next_actor(const SchedulingPoint& point) override {
    if (point.step == 0 && !configured_) {
      configured_ = true;
      dependency_.configure(point.invariants);
    }
    if (next_ == entries_.size()) return kNoActor;
    const ScheduleEntry& e = entries_[next_];
    if (e.kind != ScheduleEntry::Kind::kActor) {
      diverged_ = "the program runs a step where a choice was made";
      return kNoActor;
    }
    for (std::size_t a = 0; a < point.names.size(); ++a) {
      if (point.names[a] != e.actor) continue;
      if (!point.enabled.contains(static_cast<ActorId>(a))) break;
      step_entry_.push_back(next_++);
      return static_cast<ActorId>(a);
    }
    diverged_ = e.actor + " cannot run";
    return kNoActor;
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override {
    if (next_ == entries_.size()) return std::nullopt;
    const ScheduleEntry& e = entries_[next_];
    if (e.kind != ScheduleEntry::Kind::kChoice || e.value >= point.n) {
      diverged_ = "the program makes another choice";
      return std::nullopt;
    }
    ++next_;
    return e.value;
  }
  void end_execution(const ExecutionRecord& record) override {
    outcome_ = record.outcome;
    property_ = std::string(record.property);
    for (const Event& e : record.trace) {
      ops_.push_back(e.op);
      hb_pred_.push_back(e.hb_pred);
      StepRecord s;
      s.actor = e.actor;
      s.label = std::string(e.op.label);
      s.accesses.assign(e.op.begin(), e.op.end());
      steps_.push_back(std::move(s));
    }
  }
  Coverage coverage() const override { return {false, "an audited execution"}; }
  std::string abandon_reason() const override {
    return diverged_.empty() ? "the schedule ended" : diverged_;
  }

  // ---- what the run did ----
  Outcome outcome() const { return outcome_; }
  const std::string& property() const { return property_; }
  const std::string& diverged() const { return diverged_; }
  const std::vector<StepRecord>& steps() const { return steps_; }
  const std::vector<Op>& ops() const { return ops_; }
  const std::vector<std::int32_t>& hb_pred() const { return hb_pred_; }
  /// The schedule entry of each step's actor.
  const std::vector<std::size_t>& step_entry() const { return step_entry_; }
  /// DPOR's dependency relation for the program's invariants.
  const detail::dpor::Dependency& dependency() const { return dependency_; }

 private:
  const std::vector<ScheduleEntry>& entries_;
  bool begun_ = false;
  bool configured_ = false;
  std::size_t next_ = 0;
  detail::dpor::Dependency dependency_{/*all_writes=*/false, /*order_invariants=*/true};
  std::vector<std::size_t> step_entry_;
  std::vector<StepRecord> steps_;
  std::vector<Op> ops_;
  std::vector<std::int32_t> hb_pred_;
  Outcome outcome_ = Outcome::kAbandoned;
  std::string property_;
  std::string diverged_;
};

std::string describe(const std::vector<std::string>& names, const StepRecord& s,
                     std::size_t index) {
  const std::string actor = s.actor < names.size() ? names[s.actor] : "?";
  return actor + "'s '" + s.label + "' (step " + std::to_string(index) + ")";
}

}  // namespace

std::string CommutationFinding::message() const {
  const std::string moved_past =
      distance <= 1 ? std::string()
                    : " (" + moved_step + " moved past the " + std::to_string(distance) +
                          " steps up to " + past_step + ")";
  return moved_step + " and " + past_step +
         " are declared independent but do not commute: " + how + moved_past +
         ". A step touches state it does not declare (or declares a read where it writes), so "
         "DPOR may have skipped behaviours: fix the declarations (explorer/core/checked.hpp checks "
         "them as the steps run)";
}

namespace {

std::string readable(const TraceStep& s, std::size_t index) {
  return s.actor + "'s '" + s.label + "' (step " + std::to_string(index) + ")";
}

}  // namespace

CommutationAudit audit_commutation(Explorer& explorer, const Schedule& schedule,
                                   const AuditOptions& options) {
  CommutationAudit audit;
  Follower base(schedule.steps);
  base.begin_execution();
  Explorer::Once base_run;
  explorer.run_once(base, &base_run);
  if (!base.diverged().empty()) {
    audit.not_audited = "the schedule does not run: " + base.diverged();
    return audit;
  }
  const std::vector<StepRecord>& steps = base.steps();
  const std::vector<Op>& ops = base.ops();
  const std::vector<TraceStep>& named = base_run.steps;
  const std::size_t n = steps.size();
  // The entries of step k: its actor's, then the choices made in it.
  const auto group = [&](std::size_t k) {
    const std::size_t from = base.step_entry()[k];
    const std::size_t to = k + 1 < n ? base.step_entry()[k + 1] : schedule.steps.size();
    return std::pair{from, to};
  };
  // A step that spawns an actor is never moved, nor moved past: the order of spawns decides the
  // actors' ids (nothing else), which the comparison below would see as a difference.
  std::vector<bool> spawns(n, false);
  for (std::size_t k = 0; k < n; ++k)
    if (base.hb_pred()[k] >= 0 && steps[static_cast<std::size_t>(base.hb_pred()[k])].actor !=
                                      steps[k].actor)
      spawns[static_cast<std::size_t>(base.hb_pred()[k])] = true;
  const auto independent = [&](std::size_t a, std::size_t b) {
    // Steps of one actor, or ordered by a spawn or a join, are ordered whatever they declare.
    if (steps[a].actor == steps[b].actor || spawns[a] || spawns[b]) return false;
    const std::size_t lo = std::min(a, b), hi = std::max(a, b);
    if (base.hb_pred()[hi] >= 0 && static_cast<std::size_t>(base.hb_pred()[hi]) >= lo &&
        static_cast<std::size_t>(base.hb_pred()[hi]) < hi)
      return false;
    return !base.dependency().dependent(ops[a], ops[b]);
  };
  // Runs the steps in `order` (a permutation of 0..n-1) and compares what the program shows with
  // the original: every step, in the permuted order, the same (actor, label, accesses); the same
  // end (outcome, property); the same final state dump. Returns how it differs, "" if it does not.
  const auto try_order = [&](const std::vector<std::size_t>& order) -> std::string {
    std::vector<ScheduleEntry> entries(schedule.steps.begin(),
                                       schedule.steps.begin() + base.step_entry()[0]);
    for (std::size_t k : order) {
      const auto [from, to] = group(k);
      entries.insert(entries.end(), schedule.steps.begin() + from, schedule.steps.begin() + to);
    }
    Follower moved(entries);
    moved.begin_execution();
    Explorer::Once run;
    explorer.run_once(moved, &run);
    ++audit.moves;
    const std::size_t common = std::min(run.steps.size(), order.size());
    for (std::size_t p = 0; p < common; ++p)
      if (!same_step(run.steps[p], named[order[p]], StepFields::kDeclared))
        return "in the other order, " + readable(run.steps[p], p) + " runs where " +
               readable(named[order[p]], order[p]) + " ran";
    if (!moved.diverged().empty()) return "in the other order, " + moved.diverged();
    if (moved.outcome() == Outcome::kAbandoned && base.outcome() != Outcome::kAbandoned &&
        run.steps.size() == order.size())
      return "in the other order, the execution does not end after the same steps (an actor "
             "that had finished still has a step to run)";
    // The original ends at its first failure. Moved earlier, the failing step may fail before
    // the steps it was moved past: the same failure, cut sooner.
    const auto fails = [](Outcome o) {
      return o == Outcome::kViolation || o == Outcome::kActorFailure;
    };
    if (fails(base.outcome()) && moved.outcome() == base.outcome() &&
        moved.property() == base.property() && run.steps.size() < order.size())
      return "";
    if (run.steps.size() != order.size() || moved.outcome() != base.outcome() ||
        moved.property() != base.property())
      return "in the other order, the execution ends otherwise (" +
             std::string(to_string(moved.outcome())) +
             (moved.property().empty() ? "" : ": " + moved.property()) + " after " +
             std::to_string(run.steps.size()) + " steps, where it had ended " +
             std::string(to_string(base.outcome())) +
             (base.property().empty() ? "" : ": " + base.property()) + " after " +
             std::to_string(n) + ")";
    if (run.final_state != base_run.final_state)
      return "in the other order, the execution ends in another state";
    return "";
  };

  // Every step moved by one first (a finding then names the very pair), then by two, ...: step
  // j moved left past steps j-d .. j-1, or right past j+1 .. j+d, when every step it passes is
  // independent of it; the rest of the execution follows as it was.
  std::vector<std::size_t> order;
  for (std::size_t d = 1; d <= options.max_distance; ++d) {
    for (std::size_t j = 0; j < n; ++j) {
      for (const bool left : {true, false}) {
        if (!left && d == 1) continue;  // the order of step j+1 moved left by one
        if (left ? d > j : j + d >= n) continue;
        bool movable = true;
        for (std::size_t k = 1; k <= d && movable; ++k)
          movable = independent(j, left ? j - k : j + k);
        if (!movable) continue;
        if (audit.moves >= options.max_moves) return audit;
        order.clear();
        for (std::size_t k = 0; k < n; ++k) {
          if (left && k == j - d) order.push_back(j);
          if (k != j) order.push_back(k);
          if (!left && k == j + d) order.push_back(j);
        }
        if (std::string how = try_order(order); !how.empty()) {
          CommutationFinding f;
          f.moved = j;
          f.past = left ? j - d : j + d;
          f.distance = d;
          f.moved_step = readable(named[f.moved], f.moved);
          f.past_step = readable(named[f.past], f.past);
          f.how = std::move(how);
          audit.finding = std::move(f);
          return audit;
        }
      }
    }
  }
  return audit;
}

void DeterminismSamples::offer(RecordedExecution e) {
  pending_ = false;
  if (kept_.size() == kKept) kept_.erase(kept_.begin() + 1);
  kept_.push_back(std::move(e));
}

void check_determinism(Explorer& explorer, const DeterminismSamples& samples) {
  for (const RecordedExecution& rec : samples.kept()) {
    Follower again(rec.schedule.steps);
    again.begin_execution();
    explorer.run_once(again);
    const std::vector<StepRecord>& now = again.steps();
    // Actor names by id: the k-th actor entry of the schedule is the k-th step's actor.
    std::vector<std::string> names;
    std::size_t k_step = 0;
    for (const ScheduleEntry& e : rec.schedule.steps) {
      if (e.kind != ScheduleEntry::Kind::kActor || k_step >= rec.steps.size()) continue;
      const ActorId id = rec.steps[k_step++].actor;
      if (names.size() <= id) names.resize(id + 1);
      names[id] = e.actor;
    }
    std::string what;
    const std::size_t common = std::min(now.size(), rec.steps.size());
    for (std::size_t k = 0; k < common && what.empty(); ++k) {
      if (now[k] == rec.steps[k]) continue;
      what = "at step " + std::to_string(k) + " it ran " + describe(names, now[k], k) +
             " where it had run " + describe(names, rec.steps[k], k) +
             (now[k].label == rec.steps[k].label && now[k].actor == rec.steps[k].actor
                  ? ", with other accesses"
                  : "");
    }
    if (what.empty() && !again.diverged().empty())
      what = "at step " + std::to_string(now.size()) + " " + again.diverged();
    if (what.empty() && now.size() != rec.steps.size())
      what = "it ended after " + std::to_string(now.size()) + " steps where it had run " +
             std::to_string(rec.steps.size());
    if (what.empty() && (again.outcome() != rec.outcome || again.property() != rec.property))
      what = "it ended " + std::string(to_string(again.outcome())) +
             (again.property().empty() ? "" : " (" + again.property() + ")") + " where it had ended " +
             std::string(to_string(rec.outcome)) +
             (rec.property.empty() ? "" : " (" + rec.property + ")");
    if (!what.empty())
      throw ProgramError("the program is not deterministic: execution " +
                         std::to_string(rec.number) +
                         " of the search, run again at its end, did something else: " + what +
                         " (state kept from one execution to the next, such as a static "
                         "variable, changes what the program does)");
  }
}

}  // namespace interleave
