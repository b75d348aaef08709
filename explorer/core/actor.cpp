#include "explorer/core/actor.hpp"

#include "explorer/core/execution.hpp"

#include <exception>
#include <string>

namespace interleave {

Actor::Actor(Execution& exec, ActorId id, std::string_view name, ObjectId lifecycle, ActorFn&& fn)
    : exec_(&exec), id_(id), name_(name), lifecycle_(lifecycle), fn_(std::move(fn)) {}

void Actor::reset(Execution& exec, ActorId id, std::string_view name, ObjectId lifecycle,
                  ActorFn&& fn) {
  exec_ = &exec;
  id_ = id;
  if (!detail::same_chars(name_, name)) name_.assign(name);
  lifecycle_ = lifecycle;
  fn_ = std::move(fn);
  // The fiber, if any, was recycled when its execution ended: it runs the new body (its body is
  // `fn_(*this)`, and this Actor object is the same).
  request_ = Request::kNone;
  pending_.label = {};  // (its accesses are written by the first announcement)
  pending_.count = 0;
  ready_ = nullptr;
  ready_fn_ = nullptr;
  joining_ = kNoActor;
  choice_n_ = 0;
  choice_value_ = 0;
  spawn_event_ = -1;
  last_event_ = -1;
  default_work_.reset();
  locals_ = nullptr;
  locals_fingerprint_ = nullptr;
}

std::uint32_t Actor::choose(std::uint32_t n) {
  if (n == 0) fail("choose(0): there must be at least one alternative");
  choice_n_ = n;
  request_ = Request::kChoice;
  fiber_->yield();
  request_ = Request::kNone;
  if (exec_->tracing())
    note("choose(" + std::to_string(n) + ") = " + std::to_string(choice_value_));
  return choice_value_;
}

ActorId Actor::spawn(std::string_view name, ActorFn fn) {
  return exec_->add_actor(name, std::move(fn), exec_->current_event_);
}

void Actor::join(Label label, ActorId child) {
  if (child >= exec_->actors_.size() || child == id_) fail("join of an invalid actor");
  const Actor* c = exec_->actors_[child].get();
  joining_ = child;
  wait_until(label, {Access{c->lifecycle_, AccessKind::kWait}},
             [c] { return c->fiber_ && c->fiber_->finished(); });
  joining_ = kNoActor;
}

void Actor::cover(std::string_view goal) {
  exec_->cover(goal);
}

void Actor::note(std::string_view text) {
  if (!exec_->tracing() || exec_->current_event_ < 0) return;
  auto& notes = exec_->buffers_.notes;
  notes.resize(exec_->buffers_.trace.size());
  std::string& n = notes[static_cast<std::size_t>(exec_->current_event_)];
  if (!n.empty()) n += "; ";
  n += text;
}

void Actor::violation(std::string_view invariant, std::string message) {
  if (!exec_->violation_) {
    exec_->violation_ =
        Violation{std::string(invariant), std::move(message),
                  exec_->current_event_ < 0 ? exec_->step_count()
                                            : static_cast<std::size_t>(exec_->current_event_),
                  id_, std::nullopt};
  }
  stop();
}

void Actor::fail(std::string message) {
  const std::int32_t ev = exec_->current_event_;
  const std::string label =
      ev >= 0 && ev == last_event_
          ? std::string(exec_->buffers_.trace[static_cast<std::size_t>(ev)].op.label)
          : std::string("(before its first step)");
  violation(kActorFailure, name_ + " failed at step " + label + ": " + std::move(message));
}

void Actor::set_pending_wide(Label label, const Access* accesses, std::size_t n) {
  if (n > Op::kMaxWideAccesses)
    fail("an operation declares at most " + std::to_string(Op::kMaxWideAccesses) +
         " accesses (this one " + std::to_string(n) + ")");
  pending_ = Op(label, exec_->buffers_.access_lists.intern({accesses, n}));
  const std::size_t registered = exec_->object_count_;
  for (const Access& acc : pending_)
    if (acc.object >= registered) [[unlikely]]
      unregistered_access();
}

void Actor::unregistered_access() {
  const std::size_t registered = exec_->object_count_;
  ObjectId bad = kNoObject;
  for (const Access& acc : pending_)
    if (acc.object >= registered) {
      bad = acc.object;
      break;
    }
  const std::string what = bad == kNoObject
                               ? std::string("kNoObject (an access whose object was never set)")
                               : "object " + std::to_string(bad);
  const std::string known =
      registered == 0 ? std::string("no object is registered")
                      : "objects 0 to " + std::to_string(registered - 1) + " are registered";
  exec_->program_error_ = true;
  exec_->abandon_reason_ = "actor '" + name_ + "' announced step '" + std::string(pending_.label) +
                           "' with an access to " + what +
                           ", which is not registered in this execution (" + known +
                           "; register shared objects with Execution::object before using them)";
  stop();
}

void Actor::check_access_checked(ObjectId object, bool write) {
  // The common case first, with nothing built: this actor's own step declared an access that
  // allows the use. The messages below are made only for a use that fails.
  const bool in_own_fiber = exec_->running_actor_ == id_;
  const std::int32_t ev = exec_->current_event_;
  if (in_own_fiber && ev >= 0 && ev == last_event_) {
    const Op& op = exec_->buffers_.trace[static_cast<std::size_t>(ev)].op;
    for (const Access& acc : op)
      if (acc.object == object && (!write || !observes(acc.kind))) return;
  }
  const std::string use = write ? "writes" : "reads";
  const std::string obj = object < exec_->object_count_ ? "'" + exec_->object_name(object) + "'"
                                                        : "object " + std::to_string(object);
  if (!in_own_fiber) {
    // From the scheduler's side (an invariant, a wait condition, a state dump) or from another
    // actor's step with this actor's handle: nothing to unwind here, so the error is thrown (and
    // recorded, should it be thrown inside an actor, whose failure it would otherwise become).
    const std::string message = "actor '" + name_ + "' " + use + " " + obj +
                                " outside its own steps (an invariant, a wait condition or a state "
                                "dump reads a Checked value with peek())";
    exec_->program_error_ = true;
    if (exec_->abandon_reason_.empty()) exec_->abandon_reason_ = message;
    throw ProgramError(message);
  }
  std::string message;
  if (ev < 0 || ev != last_event_) {
    message = "actor '" + name_ + "' " + use + " " + obj +
              " before its first step: declare the access on a step";
  } else {
    const Op& op = exec_->buffers_.trace[static_cast<std::size_t>(ev)].op;
    std::string declared;
    for (const Access& acc : op)
      declared += (declared.empty() ? "" : ", ") + std::string(to_string(acc.kind)) + " " +
                  exec_->object_name(acc.object);
    message = "actor '" + name_ + "' " + use + " " + obj + " in its step '" +
              std::string(op.label) + "' (step " + std::to_string(ev) + "), which declares " +
              (write ? "no access that changes it" : "no access to it") + " (it declares " +
              (declared.empty() ? std::string("none") : declared) + ")";
  }
  exec_->program_error_ = true;
  exec_->abandon_reason_ = std::move(message);
  stop();
}

void Actor::lasts(Duration d) {
  if (d.min < 0 || d.max < d.min) {
    exec_->program_error_ = true;
    exec_->abandon_reason_ = "actor '" + name_ + "' gave a duration [" + std::to_string(d.min) +
                             ", " + std::to_string(d.max) +
                             "] us (Actor::lasts needs 0 <= min <= max)";
    stop();
  }
  TimeHook* clock = exec_->clock_for(*this);
  if (clock == nullptr) stop();
  clock->lasts(id_, last_event_, d);
}

void Actor::lasts_by_default(Duration d) {
  if (d.min < 0 || d.max < d.min) {
    exec_->program_error_ = true;
    exec_->abandon_reason_ = "actor '" + name_ + "' gave a default duration [" +
                             std::to_string(d.min) + ", " + std::to_string(d.max) +
                             "] us (Actor::lasts_by_default needs 0 <= min <= max)";
    stop();
  }
  if (exec_->clock_for(*this) == nullptr) stop();
  default_work_ = d;
}

void Actor::stop() {
  request_ = Request::kStopped;
  fiber_->yield();
  // Never resumed: the execution ends and destroying the fiber unwinds this stack from yield().
  std::terminate();
}

}  // namespace interleave
