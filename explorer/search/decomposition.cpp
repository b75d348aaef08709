// The lift of a slice counterexample onto the full program (decomposition.hpp). It builds the
// full schedule step by step: each step is tried by re-running the full program up to it (a
// stateless "probe": the program is deterministic, so a prefix always leads to the same point),
// and a shared actor's step is compared with the slice's by its label, its objects and its notes.
#include "explorer/search/decomposition.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace interleave {

namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

// One step of the slice's counterexample: the actor, what it announced, the choices it made.
struct SliceStep {
  std::string actor;
  std::string label;
  std::set<std::string> objects;
  std::string what;
  std::vector<std::uint32_t> choices;
};

std::vector<SliceStep> slice_steps(const Counterexample& c) {
  std::vector<SliceStep> out;
  for (const ScheduleEntry& e : c.schedule.steps) {
    if (e.kind == ScheduleEntry::Kind::kChoice) {
      if (!out.empty()) out.back().choices.push_back(e.value);
      continue;
    }
    SliceStep s;
    s.actor = e.actor;
    const std::size_t k = out.size();
    if (k < c.steps.size()) {
      s.label = c.steps[k].label;
      for (const TraceAccess& a : c.steps[k].accesses)
        s.objects.insert(a.object);
      s.what = c.steps[k].what;
    }
    out.push_back(std::move(s));
  }
  return out;
}

// What the full program offers after a prefix.
struct Probe {
  bool reached = false;  // the prefix was followed and an actor decision came after it
  bool diverged = false;
  std::vector<std::string> names;
  ActorSet enabled;
  ActorSet alive;
  std::vector<Op> pending;
  Schedule taken;  // the prefix, plus the choices answered 0 after it
};

// Follows `prefix` strictly; then either records the scheduling point and stops (probe), or
// completes the execution: the owner's and shared actors first, then the others; every choice
// after the prefix is 0. probe().taken is the schedule followed.
class GuidedStrategy final : public Strategy {
 public:
  GuidedStrategy(Schedule prefix, bool complete, const OwnerDecomposition& d, std::string owner)
      : prefix_(std::move(prefix)), complete_(complete), d_(d), owner_(std::move(owner)) {
    probe_.taken = prefix_;
  }
  std::string name() const override { return "lift"; }
  bool begin_execution() override {
    if (started_) return false;
    started_ = true;
    return true;
  }
  ActorId next_actor(const SchedulingPoint& p) override {
    if (next_ < prefix_.steps.size()) {
      const ScheduleEntry& e = prefix_.steps[next_];
      if (e.kind == ScheduleEntry::Kind::kActor)
        for (ActorId a = p.enabled.first(); a != kNoActor; a = p.enabled.next_after(a))
          if (p.names[a] == e.actor) {
            ++next_;
            return a;
          }
      probe_.diverged = true;
      reason_ = "the lift's prefix diverged";
      return kNoActor;
    }
    if (!complete_) {
      probe_.reached = true;
      probe_.names.assign(p.names.begin(), p.names.end());
      probe_.enabled = p.enabled;
      probe_.alive = p.alive;
      probe_.pending.clear();
      for (std::size_t a = 0; a < p.pending.size(); ++a)
        probe_.pending.push_back(p.alive.contains(static_cast<ActorId>(a)) && p.pending[a]
                                     ? *p.pending[a]
                                     : Op{});
      reason_ = "probe point reached";
      return kNoActor;
    }
    ActorId pick = p.enabled.first();
    for (ActorId a = p.enabled.first(); a != kNoActor; a = p.enabled.next_after(a)) {
      const std::string o = d_.actor_owner(p.names[a]);
      if (o.empty() || o == owner_) {
        pick = a;
        break;
      }
    }
    if (pick != kNoActor)
      probe_.taken.steps.push_back(ScheduleEntry::run(std::string(p.names[pick])));
    return pick;
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& c) override {
    if (next_ < prefix_.steps.size()) {
      const ScheduleEntry& e = prefix_.steps[next_];
      if (e.kind != ScheduleEntry::Kind::kChoice || e.value >= c.n) {
        probe_.diverged = true;
        reason_ = "the lift's prefix diverged at a choice";
        return std::nullopt;
      }
      ++next_;
      return e.value;
    }
    probe_.taken.steps.push_back(ScheduleEntry::choice(0));
    return 0;
  }
  void end_execution(const ExecutionRecord&) override {}
  Coverage coverage() const override { return {false, "one lifted execution"}; }
  std::string abandon_reason() const override { return reason_; }
  const Probe& probe() const { return probe_; }

 private:
  Schedule prefix_;
  bool complete_;
  const OwnerDecomposition& d_;
  std::string owner_;
  std::size_t next_ = 0;
  bool started_ = false;
  Probe probe_;
  std::string reason_;
};

std::size_t actor_steps(const Schedule& s) {
  return static_cast<std::size_t>(std::count_if(s.steps.begin(), s.steps.end(), [](const auto& e) {
    return e.kind == ScheduleEntry::Kind::kActor;
  }));
}

}  // namespace

bool mentions_name(std::string_view text, std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t at = text.find(name); at != std::string_view::npos;
       at = text.find(name, at + 1)) {
    const bool before = at == 0 || !is_name_char(text[at - 1]);
    const std::size_t end = at + name.size();
    const bool after = end == text.size() || !is_name_char(text[end]);
    if (before && after) return true;
  }
  return false;
}

namespace {

// The lifted schedule up to the slice's last step (lift_counterexample describes the walk), or
// why there is none; `extra` counts the steps it took for other owners.
struct LiftedPrefix {
  std::optional<Schedule> schedule;
  std::string failure;
  std::size_t extra = 0;
};

LiftedPrefix lift_prefix(const OwnerDecomposition& d, const std::string& owner,
                         const Counterexample& slice_cx, Explorer& explorer, std::size_t max_len) {
  LiftedPrefix result;
  std::vector<std::string> others;
  for (const OwnerSlice& s : d.slices)
    if (s.owner != owner) others.push_back(s.owner);
  auto probe = [&](const Schedule& prefix) {
    GuidedStrategy g(prefix, false, d, owner);
    explorer.explore(g);
    return g.probe();
  };
  auto fail = [&](std::string why) {
    result.failure = std::move(why);
    return result;
  };

  const std::vector<SliceStep> steps = slice_steps(slice_cx);
  Schedule prefix;
  prefix.seed = slice_cx.schedule.seed;
  // Choices made before the first step (a program's set-up choices) are the slice's too.
  for (const ScheduleEntry& e : slice_cx.schedule.steps) {
    if (e.kind != ScheduleEntry::Kind::kChoice) break;
    prefix.steps.push_back(e);
  }
  // Whether the full program's next step of actor `b` (enabled after `prefix`, as `p` shows) is
  // the slice's step `s` of the same actor: the same label, a replay that takes it, and nothing
  // that says it is for another owner (it works on another owner's objects only where the
  // slice's step worked on this owner's and shares none of them, or it names another owner where
  // the slice's step named this one).
  auto is_slice_step = [&](const Schedule& pre, const Probe& p, ActorId b, const SliceStep& s) {
    if (std::string_view(p.pending[b].label) != s.label) return false;
    Schedule candidate = pre;
    candidate.steps.push_back(ScheduleEntry::run(s.actor));
    for (std::uint32_t c : s.choices)
      candidate.steps.push_back(ScheduleEntry::choice(c));
    const ReplayReport rep = explorer.replay(candidate);
    if (rep.diverged || rep.steps.size() != actor_steps(candidate)) return false;
    const TraceStep& t = rep.steps.back();
    bool for_owner = false;
    for (const std::string& obj : s.objects)
      if (d.object_owner(obj) == owner) for_owner = true;
    bool touches_other = false, shares = false;
    for (const TraceAccess& acc : t.accesses) {
      const std::string oo = d.object_owner(acc.object);
      if (!oo.empty() && oo != owner) touches_other = true;
      if (s.objects.count(acc.object) != 0) shares = true;
    }
    if (for_owner && touches_other && !shares) return false;
    if (mentions_name(s.what, owner) && !mentions_name(t.what, owner))
      for (const std::string& other : others)
        if (mentions_name(t.what, other)) return false;
    return true;
  };

  std::size_t i = 0;
  while (i < steps.size()) {
    if (actor_steps(prefix) >= max_len)
      return fail("the lift reached the step bound (" + std::to_string(max_len) + ")");
    const SliceStep& s = steps[i];
    const Probe p = probe(prefix);
    if (p.diverged) return fail("the lifted prefix does not replay (internal)");
    if (!p.reached) break;  // the full execution ended (a violation): finish below
    ActorId a = kNoActor;
    for (std::size_t k = 0; k < p.names.size(); ++k)
      if (p.names[k] == s.actor && p.alive.contains(static_cast<ActorId>(k)))
        a = static_cast<ActorId>(k);
    if (a != kNoActor && p.enabled.contains(a)) {
      const std::string a_owner = d.actor_owner(s.actor);
      if (a_owner == owner && !owner.empty()) {
        if (std::string_view(p.pending[a].label) != s.label)
          return fail("slice step " + std::to_string(i) + ": " + s.actor + " announces '" +
                      std::string(std::string_view(p.pending[a].label)) +
                      "' in the full scenario where the slice had '" + s.label + "'");
        prefix.steps.push_back(ScheduleEntry::run(s.actor));
        for (std::uint32_t c : s.choices)
          prefix.steps.push_back(ScheduleEntry::choice(c));
        ++i;
        continue;
      }
      // A shared actor: is its next step the slice's, or one it takes for another owner?
      Schedule candidate = prefix;
      candidate.steps.push_back(ScheduleEntry::run(s.actor));
      if (is_slice_step(prefix, p, a, s)) {
        for (std::uint32_t c : s.choices)
          candidate.steps.push_back(ScheduleEntry::choice(c));
        prefix = std::move(candidate);
        ++i;
      } else {
        prefix = probe(candidate).taken;
        ++result.extra;
      }
      continue;
    }
    // The slice's actor cannot run yet: a shared actor waits for another owner (a dispatch in
    // PEND order, a reaping in PEND order, the sweep's joins), or the actor is not spawned yet.
    // Run a step that the projection onto the slice drops: one of another owner's actors, or a
    // shared actor whose next step is not its next one in the slice. The projection keeps a
    // shared actor's steps for this owner and for nobody in their order, so such a step is one
    // for another owner (the dispatch or the reaping of another run, a join of the sweep on an
    // actor the slice does not have); a shared actor the slice does not contain, or one with no
    // step left in the slice's counterexample, qualifies. Prefer a step that conflicts with the
    // waiting one's, then another owner's, then a shared actor's.
    ActorId conflicting = kNoActor, foreign = kNoActor, shared = kNoActor;
    for (ActorId b = p.enabled.first(); b != kNoActor; b = p.enabled.next_after(b)) {
      const std::string b_owner = d.actor_owner(p.names[b]);
      if (b_owner == owner) continue;
      bool dropped = !b_owner.empty();
      if (!dropped) {
        const auto next = std::find_if(steps.begin() + static_cast<std::ptrdiff_t>(i), steps.end(),
                                       [&](const SliceStep& t) { return t.actor == p.names[b]; });
        dropped = next == steps.end() || !is_slice_step(prefix, p, b, *next);
      }
      if (!dropped) continue;
      if (conflicting == kNoActor && a != kNoActor && conflicts(p.pending[b], p.pending[a]))
        conflicting = b;
      if (foreign == kNoActor && !b_owner.empty()) foreign = b;
      if (shared == kNoActor && b_owner.empty()) shared = b;
    }
    const ActorId helper = conflicting != kNoActor ? conflicting
                           : foreign != kNoActor   ? foreign
                                                   : shared;
    if (helper == kNoActor)
      return fail("slice step " + std::to_string(i) + " (" + s.actor + " " + s.label +
                  ") cannot run in the full scenario, and no actor can run a step for another "
                  "owner");
    Schedule candidate = prefix;
    candidate.steps.push_back(ScheduleEntry::run(p.names[helper]));
    prefix = probe(candidate).taken;
    ++result.extra;
  }
  result.schedule = std::move(prefix);
  return result;
}

ExploreOptions lift_options(const ExploreOptions& options) {
  ExploreOptions o;
  o.max_steps = options.max_steps;
  o.stack_size = options.stack_size;
  o.minimize = false;
  o.stop_on_first_violation = true;
  return o;
}

}  // namespace

LiftResult lift_counterexample(const Program& full, const OwnerDecomposition& d,
                               const std::string& owner, const Counterexample& slice_cx,
                               const ExploreOptions& options) {
  LiftResult result;
  const ExploreOptions o = lift_options(options);
  Explorer explorer(full, o);
  LiftedPrefix lifted = lift_prefix(d, owner, slice_cx, explorer, o.max_steps);
  if (!lifted.schedule) {
    result.failure = std::move(lifted.failure);
    return result;
  }
  auto fail = [&](std::string why) {
    result.failure = std::move(why);
    return result;
  };
  // The rest: every remaining actor to the end.
  GuidedStrategy g(std::move(*lifted.schedule), true, d, owner);
  ExplorationResult r = explorer.explore(g);
  if (r.verdict != Verdict::kViolation || r.counterexamples.empty())
    return fail("the lifted execution of the full scenario ends without a violation (" +
                std::string(to_string(r.verdict)) + ")");
  // The lifted execution may violate other properties beside the slice's (each is reported).
  const auto same = std::find_if(
      r.counterexamples.begin(), r.counterexamples.end(),
      [&](const Counterexample& x) { return x.invariant == slice_cx.invariant; });
  if (same == r.counterexamples.end())
    return fail("the lifted execution violates '" + r.counterexamples.front().invariant +
                "', not '" + slice_cx.invariant + "'");
  const Counterexample& c = *same;
  const std::size_t full_steps = actor_steps(c.schedule);
  const std::size_t slice_total = actor_steps(slice_cx.schedule);
  result.extra_steps = full_steps >= slice_total ? full_steps - slice_total : 0;
  result.counterexample = explorer.make_counterexample(c.schedule, slice_cx.invariant);
  return result;
}

std::vector<ReportedViolation> report_violations(
    const Program& full, const OwnerDecomposition& d,
    const std::vector<std::pair<std::string, Counterexample>>& found,
    const ExploreOptions& options) {
  std::vector<ReportedViolation> out;
  for (const auto& [owner, c] : found) {
    const std::string& invariant = c.invariant;  // a lambda cannot capture a structured binding
    auto it = std::find_if(out.begin(), out.end(), [&](const ReportedViolation& r) {
      return r.counterexample.invariant == invariant;
    });
    if (it != out.end() && it->lifted) continue;
    if (owner.empty()) {  // no owners: the slice is the program itself
      if (it == out.end()) out.push_back({owner, c, true, ""});
      else *it = {owner, c, true, ""};
      continue;
    }
    LiftResult lr = lift_counterexample(full, d, owner, c, options);
    if (lr.counterexample) {
      ReportedViolation r{owner, std::move(*lr.counterexample), true, ""};
      if (it == out.end()) out.push_back(std::move(r));
      else *it = std::move(r);
    } else if (it == out.end()) {
      out.push_back({owner, c, false, std::move(lr.failure)});
    }
  }
  return out;
}

ExecutionLift lift_execution(const Program& full, const OwnerDecomposition& d,
                             const std::string& owner, const Schedule& slice_schedule,
                             const std::vector<TraceStep>& slice_steps,
                             const ExploreOptions& options) {
  ExecutionLift result;
  const ExploreOptions o = lift_options(options);
  Explorer explorer(full, o);
  Counterexample slice;
  slice.schedule = slice_schedule;
  slice.steps = slice_steps;
  LiftedPrefix lifted = lift_prefix(d, owner, slice, explorer, o.max_steps);
  result.extra_steps = lifted.extra;
  if (!lifted.schedule) {
    result.failure = std::move(lifted.failure);
    return result;
  }
  GuidedStrategy g(std::move(*lifted.schedule), true, d, owner);
  explorer.explore(g);
  if (g.probe().diverged) {
    result.failure = "the lifted prefix does not replay (internal)";
    return result;
  }
  result.schedule = g.probe().taken;
  const std::size_t full_steps = actor_steps(*result.schedule);
  const std::size_t slice_total = actor_steps(slice_schedule);
  result.extra_steps = full_steps >= slice_total ? full_steps - slice_total : 0;
  return result;
}

}  // namespace interleave
