// The handle an actor's code holds (Actor): its visible operations (each a scheduling point of
// the loop in explorer/core/execution.hpp), its choices, its durations, its children. The members
// that need the whole Execution are defined at the bottom of execution.hpp, which includes this
// file: include that one.
#pragma once

#include "explorer/core/duration.hpp"
#include "explorer/core/fiber.hpp"
#include "explorer/core/fingerprint.hpp"
#include "explorer/core/types.hpp"

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace interleave {

class Actor;
class Execution;

using ActorFn = std::function<void(Actor&)>;

namespace detail {
/// Equality of short strings (names), inline and eight bytes at a time: cheaper than a call to
/// memcmp.
inline bool same_chars(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}
}  // namespace detail

/// The handle an actor's code uses to perform visible operations. Every method that takes a
/// label is a scheduling point: the actor announces the operation and waits for the scheduler to
/// pick it; when the call returns, the actor has been picked and everything it does until its
/// next scheduling point is that one atomic step.
class Actor {
 public:
  ActorId id() const { return id_; }
  const std::string& name() const { return name_; }
  Execution& execution() { return *exec_; }
  /// The object that stands for this actor's lifecycle (joining it waits for it to finish).
  ObjectId lifecycle_object() const { return lifecycle_; }

  /// A visible operation that is always enabled. Every object it declares must be registered in
  /// this execution (Execution::object): an access to any other id is a ProgramError naming the
  /// actor, the label and the id, raised when the step is announced.
  void step(Label label, std::initializer_list<Access> accesses) {
    set_pending(label, accesses.begin(), accesses.size());
    announce(nullptr, nullptr);
  }
  inline void step(const Op& op);
  /// A visible operation with accesses built at run time, any number of them up to
  /// Op::kMaxWideAccesses: up to Op::kMaxAccesses are held in the operation as above; more (a
  /// rare wide step, e.g. a snapshot reading one row per session) are kept out of line, in a list
  /// stored once per distinct list for the whole exploration (a lookup for the wide step, nothing
  /// more for the others).
  void step(Label label, std::span<const Access> accesses) {
    set_pending(label, accesses.data(), accesses.size());
    announce(nullptr, nullptr);
  }

  /// A label for a runtime string (a literal converts to a Label by itself): the text is copied
  /// into storage the Explorer keeps for all its executions. See Label in types.hpp.
  inline Label label(std::string_view text);

  /// A visible operation that is enabled only while ready() holds (the actor is blocked, not
  /// runnable, otherwise). ready() must be a pure function of shared state.
  template <class Ready>
  void wait_until(Label label, std::initializer_list<Access> accesses, Ready&& ready) {
    using R = std::remove_reference_t<Ready>;
    set_pending(label, accesses.begin(), accesses.size());
    announce(const_cast<void*>(static_cast<const void*>(&ready)),
             [](void* r) -> bool { return (*static_cast<R*>(r))(); });
  }

  /// A nondeterministic choice in [0, n), decided by the strategy and recorded in the schedule.
  /// Not a scheduling point: it belongs to the current step. n must be at least 1.
  std::uint32_t choose(std::uint32_t n);

  /// Virtual time (explorer/time/timing.hpp): the work this actor does from its current step up to its
  /// next scheduling point lasts `d` (before its first step: from its spawn, or the origin for an
  /// actor spawned at set-up, to its first step: a periodic actor's phase). Not a scheduling
  /// point. Calls in one step add up (the work, then a wait: a daemon's interval); a step with
  /// none lasts [0, forever). Any call makes the program timed: only the executions whose steps
  /// can be given times that fit every duration count.
  void lasts(Duration d);
  /// Virtual time: every later step of this actor that gives no duration of its own (no lasts()
  /// in it) lasts `d` (an actor whose steps all take about the same time says so once). Not a
  /// scheduling point; makes the program timed as lasts() does.
  void lasts_by_default(Duration d);

  /// Spawns a child actor (not a scheduling point). Its steps happen after this actor's current
  /// step. Names must be unique within the execution.
  ActorId spawn(std::string_view name, ActorFn fn);
  /// Waits until `child` has finished (a scheduling point, blocked until then).
  void join(Label label, ActorId child);

  /// Records that a coverage goal was reached in this execution (see Execution::cover).
  void cover(std::string_view goal);

  /// Declares this actor's local state for state fingerprints (explorer/core/fingerprint.hpp): every
  /// value its next steps depend on that its announced operation does not show (a loop index, a
  /// value read in an earlier step, a flag that picks a branch). T is written to a StateHasher
  /// (a `void fingerprint(StateHasher&) const` member, or a type StateHasher takes). `locals`
  /// must stay where it is while the actor runs: keep it in the actor's own function and pass it
  /// down to the functions it calls. Call before the first step; a stateful search refuses a
  /// program with an unfinished actor that declared nothing.
  template <class T>
  void declare_locals(const T& locals) {
    locals_ = &locals;
    locals_fingerprint_ = [](const void* l, StateHasher& h) { h << *static_cast<const T*>(l); };
  }
  /// Declares that nothing local decides this actor's next steps (its announced operation and the
  /// shared state do).
  void declare_no_locals() {
    locals_ = nullptr;
    locals_fingerprint_ = [](const void*, StateHasher&) {};
  }

  /// In the checked mode (ExecutionOptions::check_accesses), stops the search with a ProgramError
  /// naming the object, this actor and its step unless the step this actor is running declared
  /// an access to `object` that allows the use: `write` needs an access that changes the object
  /// (anything but a read or a wait), a read any access to it. Called outside this actor's steps
  /// (before its first step, or from an invariant, a wait condition or a state dump, which read
  /// with Checked::peek) it fails too. Does nothing when the mode is off. explorer/core/checked.hpp
  /// wraps it around a value.
  inline void check_access(ObjectId object, bool write);

  /// Whether readable descriptions are being recorded (only when a trace is built).
  inline bool tracing() const;
  /// Adds a description to the current step (ignored unless tracing()).
  void note(std::string_view text);

  /// Reports that `invariant` is violated during the current step and ends the execution.
  [[noreturn]] void violation(std::string_view invariant, std::string message);
  /// Reports an actor failure (a failed assertion) and ends the execution.
  [[noreturn]] void fail(std::string message);
  /// fail(message) unless `condition` holds.
  void check(bool condition, std::string_view message) {
    if (!condition) fail(std::string(message));
  }

 private:
  friend class Execution;
  enum class Request : std::uint8_t { kNone, kStep, kChoice, kStopped };
  using ReadyFn = bool (*)(void*);

  Actor(Execution& exec, ActorId id, std::string_view name, ObjectId lifecycle, ActorFn&& fn);
  // Makes a finished actor of an earlier execution (no fiber, no body) a new one.
  void reset(Execution& exec, ActorId id, std::string_view name, ObjectId lifecycle, ActorFn&& fn);
  inline void set_pending(Label label, const Access* accesses, std::size_t count);
  // The same for more than Op::kMaxAccesses accesses: an out-of-line list (rare).
  void set_pending_wide(Label label, const Access* accesses, std::size_t count);
  // Raises the ProgramError for an access of the pending operation to an unregistered object.
  [[noreturn]] void unregistered_access();
  // check_access when the checked mode is on.
  void check_access_checked(ObjectId object, bool write);
  // Inline so that the context switch sits right under the actor's own code (see Fiber::resume).
  void announce(void* ready, ReadyFn ready_fn) {
    ready_ = ready;
    ready_fn_ = ready_fn;
    request_ = Request::kStep;
    fiber_->yield();
    // Picked by the scheduler: from here up to the next announce is this actor's step.
    request_ = Request::kNone;
    ready_ = nullptr;
    ready_fn_ = nullptr;
  }
  [[noreturn]] void stop();
  bool enabled() const { return ready_fn_ == nullptr || ready_fn_(ready_); }

  Execution* exec_;
  ActorId id_;
  std::string name_;
  ObjectId lifecycle_;
  ActorFn fn_;
  std::optional<Fiber> fiber_;  // in place: no allocation per actor
  Request request_ = Request::kNone;
  Op pending_;             // the announced operation (valid while request_ == kStep)
  void* ready_ = nullptr;  // the blocking condition of the announced operation, if any
  ReadyFn ready_fn_ = nullptr;
  ActorId joining_ = kNoActor;  // the actor a pending join waits for
  std::uint32_t choice_n_ = 0;
  std::uint32_t choice_value_ = 0;
  std::int32_t spawn_event_ = -1;  // the step in which this actor was spawned, -1 if at setup
  std::int32_t last_event_ = -1;   // this actor's most recent step
  std::optional<Duration> default_work_;  // lasts_by_default()
  std::uint64_t generation_ = 0;   // the execution (ExecutionBuffers::generation) it last ran in
  const void* locals_ = nullptr;   // declare_locals
  void (*locals_fingerprint_)(const void*, StateHasher&) = nullptr;  // null: nothing declared
};

}  // namespace interleave
