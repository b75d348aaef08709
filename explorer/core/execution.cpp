#include "explorer/core/execution.hpp"

#include "explorer/core/happens_before.hpp"

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>

namespace interleave {

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::kCompleted:
      return "completed";
    case Outcome::kViolation:
      return "violation";
    case Outcome::kDeadlock:
      return "deadlock";
    case Outcome::kActorFailure:
      return "actor_failure";
    case Outcome::kStepBound:
      return "step_bound";
    case Outcome::kAbandoned:
      return "abandoned";
    case Outcome::kInfeasible:
      return "infeasible";
  }
  return "unknown";
}

// ---------------------------------------------------------------- Execution

Execution::Execution(StackPool& pool, ExecutionBuffers& buffers, ExecutionOptions options)
    : pool_(pool),
      buffers_(buffers),
      options_(options),
      tracing_(options.tracing),
      objects_(buffers.objects),
      actors_(buffers.actors),
      actor_names_(buffers.actor_names),
      pending_(buffers.pending) {
  generation_ = ++buffers_.generation;
  buffers_.trace.clear();
  buffers_.decisions.clear();
  buffers_.notes.clear();
  buffers_.states.clear();
  actors_.clear();
  actor_names_.clear();
  buffers_.actor_name_hashes.clear();
  pending_.clear();
  pending_.reserve(kMaxActors);  // never reallocated: SchedulingPoint::pending stays valid
}

Execution::~Execution() {
  // Unwind every suspended fiber first (their stacks may refer to owned objects), then destroy
  // the owned objects in reverse order of creation. The fibers are recycled, not destroyed: the
  // next execution's actors run on them.
  for (auto it = actors_.rbegin(); it != actors_.rend(); ++it)
    if ((*it)->fiber_) (*it)->fiber_->recycle();
  actor_names_.clear();
  pending_.clear();
  // The actors' storage is kept for the next execution; their bodies (and what they captured) go
  // now, in order, as when the actors themselves were destroyed here.
  for (auto& a : actors_)
    a->fn_ = nullptr;
  // Spares are taken from the back: actor i of the next execution gets the storage (and usually
  // the name) of actor i of this one.
  for (auto it = actors_.rbegin(); it != actors_.rend(); ++it)
    buffers_.spare_actors.push_back(std::move(*it));
  actors_.clear();
  // The descriptions may refer to owned objects: they go before them. The names stay, their
  // storage reused by the next execution's objects.
  for (std::size_t i = 0; i < object_count_; ++i)
    if (objects_[i].describe) objects_[i].describe = nullptr;
  while (!owned_.empty())
    owned_.pop_back();
}

ObjectId Execution::add_object(std::string_view name, ActorId actor) {
  if (object_count_ >= kNoObject - 1)  // kNoObject and the strategies' reserved ids stay free
    throw ProgramError("too many shared objects");
  if (object_count_ == objects_.size()) objects_.emplace_back();
  ObjectInfo& o = objects_[object_count_];
  o.lifecycle_of = actor;
  if (actor != kNoActor) {
    o.named = false;
  } else {
    o.named = true;
    // A deterministic program registers the same names in the same order every execution: the
    // entry usually has the name already.
    if (!detail::same_chars(o.name, name)) o.name.assign(name);
  }
  return static_cast<ObjectId>(object_count_++);
}

ObjectId Execution::object(std::string_view name) {
  return add_object(name);
}

ObjectId Execution::objects(std::string_view name, std::size_t count) {
  if (count > kNoObject - 1 - object_count_)  // kNoObject and the reserved ids stay free
    throw ProgramError("too many shared objects");
  const std::size_t first = object_count_;
  object_count_ += count;
  // The elements' entries keep whatever an earlier execution left: object_info() rewrites an
  // element's entry whenever it is asked for, and nothing else reads them.
  if (objects_.size() < object_count_) objects_.resize(object_count_);
  auto& arrays = buffers_.object_arrays;
  if (array_count_ == arrays.size()) arrays.emplace_back();
  detail::ObjectArray& a = arrays[array_count_++];
  if (!detail::same_chars(a.name, name)) a.name.assign(name);
  a.first = first;
  a.count = count;
  return static_cast<ObjectId>(first);
}

const Execution::ObjectInfo& Execution::object_info(ObjectId id) const {
  if (id >= object_count_)
    throw std::out_of_range("no object " + std::to_string(id) + " in this execution");
  ObjectInfo& o = objects_[id];
  for (std::size_t i = 0; i < array_count_; ++i) {
    const detail::ObjectArray& a = buffers_.object_arrays[i];
    if (id >= a.first && id < a.first + a.count) {
      o.name.assign(a.name);
      o.name.append("[" + std::to_string(id - a.first) + "]");
      o.lifecycle_of = kNoActor;
      o.named = true;
      return o;
    }
  }
  if (!o.named) {
    o.name.assign("actor:");
    o.name.append(actors_.at(o.lifecycle_of)->name_);
    o.named = true;
  }
  return o;
}

void Execution::describe_object(ObjectId id, std::function<std::string()> describe) {
  if (id >= object_count_)
    throw std::out_of_range("no object " + std::to_string(id) + " in this execution");
  objects_[id].describe = std::move(describe);
}

ActorId Execution::spawn(std::string_view name, ActorFn fn) {
  return add_actor(name, std::move(fn), current_event_);
}

ActorId Execution::add_actor(std::string_view name, ActorFn&& fn, std::int32_t spawn_event) {
  if (actors_.size() >= kMaxActors)
    throw ProgramError("too many actors (at most " + std::to_string(kMaxActors) + ")");
  std::vector<std::size_t>& hashes = buffers_.actor_name_hashes;
  // FNV-1a: names are short, and std::hash's byte hash costs more than the whole comparison.
  std::size_t hash = 14695981039346656037ull;
  for (const char ch : name)
    hash = (hash ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  // The spare on top is the previous execution's actor with this index while names_as_before_
  // holds (the previous execution's actors are pushed in order, above any older spares).
  auto& spares = buffers_.spare_actors;
  names_as_before_ = names_as_before_ && !spares.empty() &&
                     spares.back()->generation_ + 1 == generation_ &&
                     detail::same_chars(spares.back()->name_, name);
  if (!names_as_before_)
    for (std::size_t i = 0; i < hashes.size(); ++i)
      if (hashes[i] == hash && actors_[i]->name_ == name)
        throw ProgramError("two actors are named '" + std::string(name) + "'");
  const auto id = static_cast<ActorId>(actors_.size());
  const ObjectId lifecycle = add_object({}, id);
  if (buffers_.spare_actors.empty()) {
    actors_.push_back(std::unique_ptr<Actor>(new Actor(*this, id, name, lifecycle, std::move(fn))));
  } else {
    actors_.push_back(std::move(buffers_.spare_actors.back()));
    buffers_.spare_actors.pop_back();
    actors_.back()->reset(*this, id, name, lifecycle, std::move(fn));
  }
  Actor& a = *actors_.back();
  a.spawn_event_ = spawn_event;
  a.generation_ = generation_;
  actor_names_.push_back(a.name_);
  hashes.push_back(hash);
  pending_.push_back(&a.pending_);
  if (gates_ != nullptr) [[unlikely]]
    gates_->actor_added(id, a.name_);
  return id;
}

void Execution::invariant(std::string name, std::function<Check()> check) {
  if (running_)
    throw ProgramError("invariant '" + name +
                       "' registered while the execution runs: register invariants when setting "
                       "up the execution");
  Invariant& inv = invariants_.emplace_back();
  inv.name = std::move(name);
  inv.check = std::move(check);
}

void Execution::invariant(std::string name, std::vector<ObjectId> reads,
                          std::function<Check()> check) {
  for (const ObjectId o : reads)
    if (o >= object_count_)
      throw ProgramError("invariant '" + name + "' declares a read of object " + std::to_string(o) +
                         ", which is not registered in this execution");
  invariant(std::move(name), std::move(check));
  invariants_.back().declared = true;
  invariants_.back().reads = std::move(reads);
}

void Execution::final_check(std::string name, std::function<Check()> check) {
  final_checks_.push_back({std::move(name), std::move(check), {}});
}

std::vector<Violation> Execution::violations() const {
  std::vector<Violation> all;
  if (!violation_) return all;
  all.reserve(1 + also_.size());
  all.push_back(*violation_);
  all.insert(all.end(), also_.begin(), also_.end());
  return all;
}

void Execution::deferred_check(std::string name, std::function<std::optional<Finding>()> check) {
  final_checks_.push_back({std::move(name), {}, std::move(check)});
}

void Execution::record_state() {
  if (!state_dump_) return;
  // A step that spawned nothing and stopped the run is still a step: its state is recorded.
  buffers_.states.resize(buffers_.trace.size() - 1);
  buffers_.states.push_back(state_dump_());
}

void Execution::state_dump(std::function<nlohmann::json()> dump) {
  state_dump_ = std::move(dump);
}

void Execution::cover(std::string_view goal) {
  for (const auto& g : covered_)
    if (g == goal) return;
  covered_.emplace_back(goal);
}

// Resumes `a` until it announces its next step, stops, or finishes. The common case (it announced
// a step) stays inline in the scheduler loop; the rest is settle().
inline void Execution::resume(Actor& a) {
  running_actor_ = a.id_;
  a.fiber_->resume();
  running_actor_ = kNoActor;
  if (a.fiber_->finished() || a.request_ == Actor::Request::kChoice) [[unlikely]]
    settle(a);
  // Only these actors' enabledness is evaluated at each scheduling point; the others are enabled
  // while alive.
  if (gates_ != nullptr) [[unlikely]]
    gate(a);
  if (a.ready_fn_ != nullptr || (gates_ != nullptr && gates_->gated(a.id_))) [[unlikely]]
    waiting_.insert(a.id_);
  else
    waiting_.erase(a.id_);
}

void Execution::gate(Actor& a) {
  if (a.request_ != Actor::Request::kStep || !a.fiber_ || a.fiber_->finished()) return;
  gate_accesses_.clear();
  gates_->announced(a.id_, a.pending_.label, gate_accesses_);
  if (gate_accesses_.empty()) return;
  if (!a.pending_.wide() && a.pending_.count + gate_accesses_.size() <= Op::kMaxAccesses) {
    for (const Access& acc : gate_accesses_)
      a.pending_.accesses[a.pending_.count++] = acc;
    return;
  }
  std::vector<Access> all(a.pending_.begin(), a.pending_.end());
  all.insert(all.end(), gate_accesses_.begin(), gate_accesses_.end());
  if (all.size() > Op::kMaxWideAccesses)
    throw ProgramError("actor '" + a.name_ + "' announced step '" +
                       std::string(a.pending_.label) + "' with " + std::to_string(all.size()) +
                       " accesses with those of its ordering constraints (at most " +
                       std::to_string(Op::kMaxWideAccesses) + ")");
  a.pending_ = Op(a.pending_.label, buffers_.access_lists.intern(all));
}

void Execution::order(std::vector<OrderConstraint> constraints) {
  if (running_)
    throw ProgramError("Execution::order: state ordering constraints when setting up the execution");
  if (gates_ != nullptr) throw ProgramError("Execution::order called twice");
  if (constraints.empty()) return;
  const std::size_t n = constraints.size();
  const ObjectId first = objects("constraint", n);
  gates_ = std::make_unique<OrderGates>(std::move(constraints), first);
  for (std::size_t i = 0; i < actors_.size(); ++i)
    gates_->actor_added(static_cast<ActorId>(i), actors_[i]->name_);
}

// Serves the choose() calls of `a` (resuming it after each) and records how it finished.
void Execution::settle(Actor& a) {
  for (;;) {
    if (a.fiber_->finished()) {
      alive_.erase(a.id_);
      if (auto failure = a.fiber_->failure(); failure && !violation_) {
        std::string what;
        try {
          std::rethrow_exception(failure);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
          what = "an exception that is not a std::exception";
        }
        const std::string_view label =
            a.last_event_ >= 0 && a.last_event_ == current_event_
                ? buffers_.trace[static_cast<std::size_t>(a.last_event_)].op.label
                : std::string_view("(before its first step)");
        violation_ = Violation{
            std::string(kActorFailure),
            a.name_ + " threw at step " + std::string(label) + ": " + what,
            current_event_ < 0 ? step_count() : static_cast<std::size_t>(current_event_), a.id_,
            std::nullopt};
      }
      return;
    }
    if (a.request_ != Actor::Request::kChoice) return;
    const auto value = strategy_->next_choice(ChoicePoint{step_count(), a.id_, a.choice_n_});
    if (!value) {
      abandon_reason_ = strategy_->abandon_reason();
      return;
    }
    if (*value >= a.choice_n_)
      throw ProgramError("strategy " + strategy_->name() + " chose " + std::to_string(*value) +
                         " out of " + std::to_string(a.choice_n_));
    a.choice_value_ = *value;
    buffers_.decisions.push_back(Decision{Decision::Kind::kChoice, *value});
    running_actor_ = a.id_;
    a.fiber_->resume();
    running_actor_ = kNoActor;
  }
}

// Starts every actor spawned since the last call, running each up to its first scheduling point.
void Execution::start_new_actors() {
  while (started_ < actors_.size() && !stopped()) {
    Actor& a = *actors_[started_++];
    if (!a.fiber_) a.fiber_.emplace(pool_, [&a] { a.fn_(a); });
    alive_.insert(a.id_);
    resume(a);
  }
}

std::string Execution::actor_list(ActorSet set) const {
  std::string s = "[";
  set.for_each([&](ActorId a) {
    if (s.size() > 1) s += ", ";
    s += actors_[a]->name_;
  });
  return s + "]";
}

std::string Execution::deadlock_message(ActorSet blocked) const {
  std::string msg = "deadlock: no actor can run;";
  blocked.for_each([&](ActorId id) {
    const Actor& a = *actors_[id];
    msg += " " + a.name_ + " is blocked at " + std::string(a.pending_.label) + " waiting for";
    bool first = true;
    for (const Access& acc : a.pending_) {
      const ObjectInfo& o = object_info(acc.object);
      msg += (first ? " " : ", ") + std::string(to_string(acc.kind)) + " of " + o.name;
      if (o.describe) msg += " (" + o.describe() + ")";
      first = false;
    }
    msg += ";";
  });
  msg.pop_back();
  return msg;
}

Fingerprint Execution::state_fingerprint() const {
  if (!fingerprint_)
    throw ProgramError(
        "the program registered no fingerprint of its shared state (Execution::fingerprint): a "
        "stateful search cannot tell its states apart");
  StateHasher h;
  h << actors_.size();
  for (const auto& p : actors_) {
    const Actor& a = *p;
    h << std::string_view(a.name_);
    const bool finished = !alive_.contains(a.id_);
    h << finished;
    if (finished) continue;
    if (a.locals_fingerprint_ == nullptr)
      throw ProgramError("actor " + a.name_ +
                         " declared no local state (Actor::declare_locals or "
                         "Actor::declare_no_locals): a stateful search cannot tell its states "
                         "apart");
    h << std::string_view(a.pending_.label);
    h << static_cast<std::uint64_t>(a.pending_.end() - a.pending_.begin());
    for (const Access& acc : a.pending_)
      h << acc.object << acc.kind;
    a.locals_fingerprint_(a.locals_, h);
  }
  if (gates_) gates_->fingerprint(h);
  fingerprint_(h);
  return h.digest();
}

std::uint32_t Execution::choose(std::uint32_t n) {
  if (running_)
    throw ProgramError(
        "Execution::choose is for the set-up, before any step: an actor chooses with "
        "Actor::choose");
  if (n == 0) throw ProgramError("choose(0): there must be at least one alternative");
  if (options_.strategy == nullptr)
    throw ProgramError(
        "Execution::choose: no strategy to decide it (ExecutionOptions::strategy is not set)");
  if (stopped()) return 0;  // an earlier set-up choice was abandoned: run() stops at once
  const auto value = options_.strategy->next_choice(ChoicePoint{0, kNoActor, n});
  if (!value) {
    abandon_reason_ = options_.strategy->abandon_reason();
    return 0;
  }
  if (*value >= n)
    throw ProgramError("strategy " + options_.strategy->name() + " chose " +
                       std::to_string(*value) + " out of " + std::to_string(n));
  buffers_.decisions.push_back(Decision{Decision::Kind::kChoice, *value});
  return *value;
}

Outcome Execution::run(Strategy& strategy) {
  if (running_) throw ProgramError("Execution::run called twice");
  if (options_.strategy != nullptr && options_.strategy != &strategy)
    throw ProgramError("Execution::run: not the strategy of ExecutionOptions::strategy");
  running_ = true;
  strategy_ = &strategy;
  Outcome outcome = Outcome::kCompleted;
  ActorId previous = kNoActor;
  std::vector<Event>& trace = buffers_.trace;

  // What the invariants read, for the strategies (fixed once the execution runs).
  std::vector<InvariantReads>& invariant_reads = buffers_.invariant_reads;
  invariant_reads.clear();
  for (const Invariant& inv : invariants_)
    invariant_reads.push_back(InvariantReads{inv.name, inv.declared, inv.reads});

  SchedulingPoint point;  // every other field is written before each use
  point.invariants = invariant_reads;
  point.state = this;

  start_new_actors();
  for (;;) {
    if (stopped()) {
      if (program_error_) throw ProgramError(abandon_reason_);
      if (!abandon_reason_.empty())
        outcome = Outcome::kAbandoned;
      else
        outcome =
            violation_->invariant == kActorFailure ? Outcome::kActorFailure : Outcome::kViolation;
      break;
    }
    const std::size_t step = trace.size();
    if (alive_.empty()) {
      // Every check runs: each property that fails is reported, the first as violation_.
      for (const auto& c : final_checks_) {
        std::optional<Violation> failed;
        if (c.deferred) {
          if (auto found = c.deferred())
            failed = Violation{c.name, std::move(found->message), step, kNoActor, found->step};
        } else if (auto msg = c.check()) {
          failed = Violation{c.name, std::move(*msg), step, kNoActor, std::nullopt};
        }
        if (!failed) continue;
        if (violation_)
          also_.push_back(std::move(*failed));
        else
          violation_ = std::move(failed);
      }
      outcome = violation_ ? Outcome::kViolation : Outcome::kCompleted;
      break;
    }
    ActorSet enabled = alive_.minus(waiting_);
    (alive_ & waiting_).for_each([&](ActorId id) {
      if (actors_[id]->enabled() && (gates_ == nullptr || !gates_->held(id))) enabled.insert(id);
    });
    if (enabled.empty() && gates_ != nullptr) {
      bool held = false;
      alive_.for_each([&](ActorId id) { held = held || gates_->held(id); });
      if (held) {
        infeasible_reason_ = gates_->infeasible_message(alive_);
        outcome = Outcome::kInfeasible;
        break;
      }
    }
    if (enabled.empty()) {
      violation_ = Violation{std::string(kDeadlock), deadlock_message(alive_), step, kNoActor,
                             std::nullopt};
      outcome = Outcome::kDeadlock;
      break;
    }
    if (step >= options_.max_steps) {
      outcome = Outcome::kStepBound;
      break;
    }

    // The one place that asks the strategy which actor takes the next step. (The point lives
    // across iterations: what does not change from one step to the next is written once.)
    point.step = step;
    point.enabled = enabled;
    point.alive = alive_;
    point.previous = previous;
    point.trace = trace;
    if (point.names.size() != actor_names_.size()) [[unlikely]] {  // actors were spawned
      point.pending = pending_;
      point.names = actor_names_;
    }
    const ActorId next = strategy.next_actor(point);
    if (next == kNoActor) {
      abandon_reason_ = strategy.abandon_reason();
      outcome = Outcome::kAbandoned;
      break;
    }
    if (!enabled.contains(next))
      throw ProgramError("strategy " + strategy.name() + " picked an actor that cannot run");

    Actor& a = *actors_[next];
    std::int32_t hb_pred = -1;
    if (a.last_event_ < 0) hb_pred = a.spawn_event_;
    if (a.joining_ != kNoActor) hb_pred = actors_[a.joining_]->last_event_;
    trace.push_back(Event{next, a.pending_, hb_pred, a.ready_fn_ != nullptr});
    buffers_.decisions.push_back(Decision{Decision::Kind::kActor, next});
    current_event_ = static_cast<std::int32_t>(step);
    a.last_event_ = current_event_;
    previous = next;
    if (gates_ != nullptr) [[unlikely]]
      gates_->executed(next);
    resume(a);
    if (timed_) [[unlikely]]
      buffers_.clock->ended_step(next, step, a.default_work_ ? &*a.default_work_ : nullptr);
    if (started_ < actors_.size()) start_new_actors();
    current_event_ = -1;
    if (tracing_) [[unlikely]]
      record_state();
    if (stopped()) continue;
    for (const auto& inv : invariants_) {
      if (auto msg = inv.check()) {
        violation_ = Violation{inv.name, std::move(*msg), step, kNoActor, std::nullopt};
        break;
      }
    }
  }
  current_event_ = -1;
  if (options_.tracing) {
    buffers_.notes.resize(buffers_.trace.size());
    if (state_dump_ && tracing_) final_state_ = state_dump_();
  }
  if (timed_) [[unlikely]]
    settle_timing();
  strategy.end_execution(
      ExecutionRecord{outcome, buffers_.trace, buffers_.decisions,
                      violation_ ? std::string_view(violation_->invariant) : std::string_view(),
                      outcome == Outcome::kCompleted ? this : nullptr, timing_feasible_});
  return outcome;
}

TimeHook* Execution::clock_for(const Actor& a) {
  if (timed_) [[likely]]
    return buffers_.clock;
  if (buffers_.clock == nullptr) {
    program_error_ = true;
    abandon_reason_ = "actor '" + a.name_ +
                      "' gave a duration (Actor::lasts), but no clock keeps virtual time for this "
                      "execution (ExecutionBuffers::clock: install a VirtualTime, "
                      "explorer/time/virtual_time.hpp)";
    return nullptr;
  }
  timed_ = true;
  buffers_.clock->start(options_.tracing, options_.sampler);
  return buffers_.clock;
}

void Execution::settle_timing() {
  std::vector<std::int32_t>& spawned_at = buffers_.spawned_at;
  spawned_at.clear();
  for (const auto& a : actors_)
    spawned_at.push_back(a->spawn_event_);
  // The steps that decide the outcome (explorer/time/timing.hpp): all of them, but for a violation
  // found in a step or between steps, the causal past of what it saw.
  std::vector<char>& keep = buffers_.decisive;
  keep.clear();
  const std::vector<Event>& trace = buffers_.trace;
  if (violation_ && !violation_->found_at && violation_->step < trace.size()) {
    keep.assign(trace.size(), 0);
    const std::size_t k = violation_->step;
    keep[k] = 1;
    if (violation_->actor == kNoActor) {
      // An invariant between steps: what it reads was last set by the steps that change it.
      const Invariant* inv = nullptr;
      for (const Invariant& i : invariants_)
        if (i.name == violation_->invariant) inv = &i;
      for (std::size_t i = 0; i < k; ++i) {
        for (const Access& a : trace[i].op) {
          if (observes(a.kind)) continue;
          if (inv == nullptr || !inv->declared ||
              std::find(inv->reads.begin(), inv->reads.end(), a.object) != inv->reads.end()) {
            keep[i] = 1;
            break;
          }
        }
      }
    }
    // Close under the predecessors: program order, spawn/join, earlier conflicting steps.
    close_causal_past(trace, keep, k);
  }
  timing_feasible_ = buffers_.clock->settle(trace, spawned_at, keep);
}

}  // namespace interleave
