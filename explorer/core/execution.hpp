// One execution of a program: its shared objects, its actors (each on its own fiber) and the
// scheduler loop that runs them step by step under a strategy.
//
// A program is a function that, given a fresh Execution, creates the shared state, spawns the
// actors and registers the invariants. Stateless exploration runs it again for every execution,
// so the program must be deterministic: the same decisions must give the same behaviour.
#pragma once

#include "explorer/core/constraints.hpp"
#include "explorer/core/fiber.hpp"
#include "explorer/core/strategy.hpp"
#include "explorer/time/timing.hpp"
#include "explorer/core/types.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace interleave {

class Actor;
class Execution;

using ActorFn = std::function<void(Actor&)>;
using Program = std::function<void(Execution&)>;
/// The result of a check: nullopt when it holds, otherwise the violation message.
using Check = std::optional<std::string>;

/// The program misbehaved in a way that is a bug of the program or of a strategy, not a finding:
/// e.g. it behaved differently under the same decisions (it is not deterministic), two actors
/// share a name, or a strategy picked an actor that cannot run.
class ProgramError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// The built-in property names used for engine-detected failures.
inline constexpr std::string_view kDeadlock = "deadlock";
inline constexpr std::string_view kActorFailure = "actor_failure";

/// A failed property: which one, the message, and where.
struct Violation {
  std::string invariant;  ///< the invariant's name, or "deadlock" / "actor_failure"
  std::string message;
  /// Index of the step during or after which it was detected; equal to the number of steps when
  /// detected at the end (deadlock, end-of-execution checks, failure before any step).
  std::size_t step = 0;
  ActorId actor = kNoActor;  ///< the actor whose step failed, if any
  /// For a property found at a step and reported when the execution ends (deferred_check): the
  /// step that found it, the violating step. nullopt for every other violation.
  std::optional<std::size_t> found_at;
};

/// What a deferred check (Execution::deferred_check) found: the message, and the step at which
/// the program found the property violated (Execution::current_step() then).
struct Finding {
  std::string message;
  std::size_t step = 0;
};

namespace detail {
/// A shared object registered with Execution::object.
struct ObjectInfo {
  std::string name;  // for an actor's lifecycle object: written when first asked for
  std::function<std::string()> describe;
  ActorId lifecycle_of = kNoActor;  // the actor whose lifecycle object this is, if any
  bool named = true;                // false: `name` is still to be written (lifecycle objects)
};
/// Objects declared together by Execution::objects: ids first .. first + count - 1, named
/// name[0] .. name[count - 1] only when asked for.
struct ObjectArray {
  std::string name;
  std::size_t first = 0;
  std::size_t count = 0;
};
}  // namespace detail

/// Buffers reused from one execution to the next (so that a run allocates nothing per step once
/// warm, and setting up an execution does not regrow its tables). The trace and decisions of the
/// last execution stay readable here after it ends; the other tables are the storage of the
/// current Execution and are emptied when it ends.
struct ExecutionBuffers {
  std::vector<Event> trace;
  std::vector<Decision> decisions;
  std::vector<std::string> notes;                  // per step, only when tracing
  std::vector<nlohmann::json> states;  // the state dump after each step, only when tracing
  std::vector<detail::ObjectInfo> objects;         // the first Execution::object_count() are in use
  std::vector<detail::ObjectArray> object_arrays;  // the first Execution's array_count_ in use
  std::vector<std::unique_ptr<Actor>> actors;
  std::vector<std::unique_ptr<Actor>> spare_actors;  // of earlier executions, reused by spawn
  std::vector<std::string_view> actor_names;
  std::vector<std::size_t> actor_name_hashes;  // to find a repeated name without comparing all
  std::uint64_t generation = 0;                // executions set up with these buffers
  std::vector<const Op*> pending;
  std::vector<InvariantReads> invariant_reads;  // the current Execution's, while it runs
  /// Labels made from runtime strings (Execution::label): kept for every execution, so that the
  /// same text is the same label wherever it is compared.
  LabelStore labels;
  /// The access lists of wide operations (more than Op::kMaxAccesses), kept likewise.
  AccessListStore access_lists;
  /// The durations the last execution's actors gave (Actor::lasts; explorer/time/timing.hpp), its
  /// constraint graph, and (tracing a timed execution) the earliest feasible time of each step.
  TimingRecord timing;
  TimingGraph timing_graph;
  std::vector<Micros> times;
};

/// The steps an execution may run before it is cut, unless a scenario or a caller says otherwise:
/// the default of every max_steps of the engine (ExploreOptions, MinimizeOptions, ...).
inline constexpr std::size_t kDefaultMaxSteps = 10'000;

struct ExecutionOptions {
  std::size_t max_steps = kDefaultMaxSteps;  ///< steps per execution before it is cut (kStepBound)
  /// Record notes, the state dump after every step and at the end, for a readable trace.
  bool tracing = false;
  /// The strategy the execution will run under (run() must be given the same one): it decides
  /// the set-up choices (Execution::choose) too. nullptr: the program makes none.
  Strategy* strategy = nullptr;
  /// Told every duration Actor::lasts is given (a simulation's sampling run); nullptr: none.
  DurationSampler* sampler = nullptr;
  /// The checked mode: Actor::check_access (and so every Checked<T>, explorer/core/checked.hpp) fails
  /// when a step uses state it did not declare. Off, the checks cost one test of this flag.
  bool check_accesses = false;
};

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
  detail::Work start_work_;        // lasts() before the first step
  std::optional<Duration> default_work_;  // lasts_by_default()
  std::uint64_t generation_ = 0;   // the execution (ExecutionBuffers::generation) it last ran in
  const void* locals_ = nullptr;   // declare_locals
  void (*locals_fingerprint_)(const void*, StateHasher&) = nullptr;  // null: nothing declared
};

/// One run of a program. Setup methods (object, make, spawn, invariant...) are called by the
/// program; run() is called once by the Explorer.
class Execution final : public StateSource {
 public:
  Execution(StackPool& pool, ExecutionBuffers& buffers, ExecutionOptions options);
  ~Execution();
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  // ---- set-up (from the program, or from actors while running) ----

  /// Registers a shared object for declared accesses; the name appears in traces. (The name is
  /// copied into a table reused from one execution to the next: once warm, no allocation.)
  ObjectId object(std::string_view name);
  /// Registers `count` shared objects at once (an array of cells: a hash table's slots, say) and
  /// returns the first id; element i is that id + i and is named `name[i]` in traces. Costs the
  /// same for any count: the elements' names are written only when a report asks for them.
  ObjectId objects(std::string_view name, std::size_t count);
  /// Attaches a description of the object's state used in deadlock reports (e.g. "held by A").
  void describe_object(ObjectId id, std::function<std::string()> describe);
  /// Constructs a T owned by this execution (destroyed after every actor has been unwound).
  template <class T, class... Args>
  T& make(Args&&... args) {
    auto holder = std::make_unique<Holder<T>>(std::forward<Args>(args)...);
    T& ref = holder->value;
    owned_.push_back(std::move(holder));
    return ref;
  }
  /// Spawns a top-level actor. Names must be unique within the execution.
  ActorId spawn(std::string_view name, ActorFn fn);
  /// A property of shared state, checked after every step, that may read any shared object.
  /// DPOR can then check it soundly only by ordering every two steps that change state (as the
  /// strategy dpor-all-writes does), which costs most of its reduction: declare what it reads
  /// instead (below) when you can.
  void invariant(std::string name, std::function<Check()> check);
  /// A property of shared state, checked after every step, that reads only the shared objects
  /// `reads` (registered ones). DPOR orders every two steps that change one of them, which is
  /// what makes checking it between steps sound; steps that change none of them still commute.
  /// The list must be complete: state the invariant reads but does not declare is not ordered,
  /// and a violation visible only in an interleaving DPOR treats as equivalent is missed. (An
  /// empty list declares that it reads no shared state: nothing is ordered for it.)
  void invariant(std::string name, std::vector<ObjectId> reads, std::function<Check()> check);
  /// A label for a runtime string, copied once into storage the Explorer keeps for all its
  /// executions (the same text gives the same label). A string literal needs no call.
  Label label(std::string_view text) { return buffers_.labels.intern(text); }
  /// A property checked once when every actor has finished.
  void final_check(std::string name, std::function<Check()> check);
  /// A property found violated at some step but reported when every actor has finished (so that
  /// the trace shows what followed), checked in order with the final checks. Its violation names
  /// the step that found it (Violation::found_at): the violating step of a report, the one whose
  /// state is the state at the violation.
  void deferred_check(std::string name, std::function<std::optional<Finding>()> check);
  /// The step being executed, while an actor runs one (nullopt outside steps): what a deferred
  /// check's Finding records.
  std::optional<std::size_t> current_step() const {
    if (current_event_ < 0) return std::nullopt;
    return static_cast<std::size_t>(current_event_);
  }
  /// Registers the function that writes the program's shared state into a state fingerprint
  /// (explorer/core/fingerprint.hpp): everything that decides what can happen next, no history. Needed
  /// by the stateful strategies only.
  void fingerprint(std::function<void(StateHasher&)> write) { fingerprint_ = std::move(write); }
  /// The fingerprint of the state now: the engine's part (per actor: name, finished or not, the
  /// announced operation, the declared locals), the ordering constraints' gates and the program's
  /// part. Throws ProgramError if there is no fingerprint function or an unfinished actor
  /// declared no locals.
  Fingerprint state_fingerprint() const override;
  /// A snapshot of the shared state, recorded with a counterexample (tracing only): after every
  /// step (ExecutionBuffers::states) and at the end (final_state()).
  void state_dump(std::function<nlohmann::json()> dump);
  /// The state dump now (null if the program registered none), tracing or not.
  nlohmann::json dump_state() const { return state_dump_ ? state_dump_() : nlohmann::json(); }
  /// A choice made while the program sets the execution up, before any step: a value the
  /// execution starts from (data, such as whether a tablet gets rows), in [0, n), decided by the
  /// strategy (ExecutionOptions::strategy) and recorded in the schedule before every step.
  /// Every strategy enumerates it as it does Actor::choose; unlike that one it belongs to no
  /// step, so DPOR explores the traces of each value as it would a program without the choice
  /// (a choice inside a step ends the wakeup sequences through that step). Call only from the
  /// program, before run(); n must be at least 1.
  std::uint32_t choose(std::uint32_t n);
  /// Records that a coverage goal (a named situation, e.g. "cleaner pass overlapped a running
  /// task") was reached in this execution. The Explorer reports, per goal, how many explored
  /// executions reached it: a "holds" verdict is only meaningful if the dangerous situation was
  /// actually explored.
  void cover(std::string_view goal);
  /// Ordering constraints between labelled steps of named actors (explorer/core/constraints.hpp): a
  /// step that must come after a step that has not run is held (not enabled) until it has; an
  /// execution that cannot go on because of a held step ends as Outcome::kInfeasible. Call once,
  /// from the program, after it has set up its own objects and actors (one object per
  /// constraint, "constraint[k]", is registered here; actors spawned later are named at spawn).
  void order(std::vector<OrderConstraint> constraints);
  /// A timed program's named window (explorer/time/timing.hpp), measured in every violating execution
  /// and always reported with the verdict. Call from the program, the same in every execution.
  void window(TimingWindow w) { windows_.push_back(std::move(w)); }
  const std::vector<TimingWindow>& windows() const { return windows_; }
  /// The wall-clock time of a timed program's origin: its traces then print times as a log
  /// does (format_wall_clock) besides their offsets.
  void wall_clock(WallClock origin) { wall_clock_ = origin; }
  const std::optional<WallClock>& wall_clock() const { return wall_clock_; }
  /// The checked mode's test (ExecutionOptions::check_accesses) for state a model keeps itself
  /// (a component that registers its objects and changes its fields in its operations): called
  /// while an actor runs, it is that actor's Actor::check_access; called between steps (set-up,
  /// invariants, checks, state dumps, wait conditions) it checks nothing. Does nothing when the
  /// mode is off.
  inline void check_access(ObjectId object, bool write);
  /// Whether the checked mode is on (ExecutionOptions::check_accesses): a model that must look
  /// an object up before it can call check_access tests this first, so that the look-up costs
  /// nothing when the mode is off.
  bool checks_accesses() const { return options_.check_accesses; }
  /// Goals reached in this execution, each once, in the order first reached.
  const std::vector<std::string>& covered() const { return covered_; }

  // ---- queries ----
  const std::string& object_name(ObjectId id) const { return object_info(id).name; }
  std::size_t object_count() const { return object_count_; }
  std::size_t actor_count() const { return actors_.size(); }
  const Actor& actor(ActorId id) const { return *actors_.at(id); }
  /// Steps executed so far.
  std::size_t step_count() const { return buffers_.trace.size(); }
  bool tracing() const { return tracing_; }
  /// Records no more notes and state dumps in this run (ExecutionOptions::tracing), from the step
  /// after the current one: an execution whose trace no longer matters runs on untraced, as a
  /// search that must still see its steps needs (explorer/evidence/explain.cpp: a cut execution under
  /// DPOR). The trace of events, the outcome and the timing are recorded as before.
  void stop_tracing() { tracing_ = false; }

  // ---- running (Explorer) ----

  /// Runs every actor to completion (or until a violation, deadlock, bound or abandon) under
  /// `strategy`. Calls strategy.end_execution() before returning. Call once.
  Outcome run(Strategy& strategy);
  /// The property that failed first (nullopt if none): the one that ended the execution, or the
  /// first failing final or deferred check in the order registered.
  const std::optional<Violation>& violation() const { return violation_; }
  /// Every property that failed: when every actor finished, each final and deferred check that
  /// fails, in the order registered (all are run, not only up to the first failure); otherwise
  /// violation() alone, or nothing.
  std::vector<Violation> violations() const;
  const std::string& abandon_reason() const { return abandon_reason_; }
  /// Why the execution was infeasible under its ordering constraints (Outcome::kInfeasible).
  const std::string& infeasible_reason() const { return infeasible_reason_; }
  /// Whether an actor gave a duration (Actor::lasts), and, after run(), whether the execution is
  /// timed-feasible (always true for an untimed one; explorer/time/timing.hpp).
  bool timed() const { return buffers_.timing.timed; }
  bool timing_feasible() const { return timing_feasible_; }
  /// The state dump at the end of the run (tracing only; null if none registered).
  const nlohmann::json& final_state() const { return final_state_; }

 private:
  friend class Actor;
  struct HolderBase {
    virtual ~HolderBase() = default;
  };
  template <class T>
  struct Holder : HolderBase {
    template <class... Args>
    explicit Holder(Args&&... args) : value(std::forward<Args>(args)...) {}
    T value;
  };
  using ObjectInfo = detail::ObjectInfo;
  struct NamedCheck {
    std::string name;
    std::function<Check()> check;
    std::function<std::optional<Finding>()> deferred;  // instead of check, for deferred_check
  };
  struct Invariant : NamedCheck {
    bool declared = false;        // false: it may read any object
    std::vector<ObjectId> reads;  // when declared
  };

  ActorId add_actor(std::string_view name, ActorFn&& fn, std::int32_t spawn_event);
  // A new entry of the object table named `name`, or the lifecycle object of `actor` (named
  // "actor:<name>" when first asked for: most executions never need the name).
  ObjectId add_object(std::string_view name, ActorId actor = kNoActor);
  const ObjectInfo& object_info(ObjectId id) const;
  void start_new_actors();
  void resume(Actor& a);
  void settle(Actor& a);
  // Adds the accesses of the ordering constraints to the step `a` has just announced.
  void gate(Actor& a);
  bool stopped() const { return violation_.has_value() || !abandon_reason_.empty(); }
  void record_stop(Actor& a);
  void record_state();  // tracing: the state dump after the step just taken
  std::string deadlock_message(ActorSet blocked) const;
  std::string actor_list(ActorSet set) const;

  StackPool& pool_;
  ExecutionBuffers& buffers_;
  ExecutionOptions options_;
  bool tracing_ = false;  // options_.tracing until stop_tracing()
  Strategy* strategy_ = nullptr;
  // The tables live in buffers_ (their capacity is reused by the next execution).
  // Entries past object_count_ are spare (names reused); names of lifecycle objects are written
  // lazily by object_info() (a const method: the table is reached through a reference).
  std::vector<ObjectInfo>& objects_;
  std::size_t object_count_ = 0;
  std::size_t array_count_ = 0;   // in buffers_.object_arrays
  std::uint64_t generation_ = 0;  // this execution's number (buffers_.generation)
  // Every actor so far was spawned under the name of the previous execution's actor with the same
  // index (whose names were found distinct then): the next one needs no check if it is too.
  bool names_as_before_ = true;
  std::vector<std::unique_ptr<HolderBase>> owned_;
  std::vector<std::unique_ptr<Actor>>& actors_;  // emptied before owned_ (see ~Execution)
  std::vector<std::string_view>& actor_names_;
  std::vector<const Op*>& pending_;  // pending_[a] = &actors_[a]->pending_
  ActorSet alive_;
  ActorSet waiting_;         // actors whose announced operation has a condition (wait_until, join)
  std::size_t started_ = 0;  // actors whose fiber has been started
  std::int32_t current_event_ = -1;  // the step being executed, -1 outside steps
  ActorId running_actor_ = kNoActor;  // the actor whose fiber runs now, kNoActor: the scheduler
  std::vector<Invariant> invariants_;
  std::vector<NamedCheck> final_checks_;
  std::function<nlohmann::json()> state_dump_;
  std::function<void(StateHasher&)> fingerprint_;
  std::vector<std::string> covered_;
  std::optional<Violation> violation_;
  std::vector<Violation> also_;  // the final and deferred checks that failed after violation_
  std::string abandon_reason_;
  std::unique_ptr<OrderGates> gates_;  // only when the program states ordering constraints
  std::vector<Access> gate_accesses_;
  std::string infeasible_reason_;
  // A misuse found inside an actor: its message is in abandon_reason_ (which stops the execution)
  // and run() throws it as a ProgramError.
  bool program_error_ = false;
  nlohmann::json final_state_;
  bool running_ = false;
  bool timing_feasible_ = true;
  std::vector<TimingWindow> windows_;
  std::optional<WallClock> wall_clock_;
  // Timed: the constraint graph of the steps that decide the outcome, and its verdict.
  void settle_timing();
};

inline bool Actor::tracing() const {
  return exec_->tracing();
}

inline void Actor::check_access(ObjectId object, bool write) {
  if (exec_->options_.check_accesses) [[unlikely]]
    check_access_checked(object, write);
}

inline void Execution::check_access(ObjectId object, bool write) {
  if (options_.check_accesses && running_actor_ != kNoActor) [[unlikely]]
    actors_[running_actor_]->check_access_checked(object, write);
}

inline Label Actor::label(std::string_view text) {
  return exec_->label(text);
}

inline void Actor::set_pending(Label label, const Access* accesses, std::size_t n) {
  if (n > Op::kMaxAccesses) [[unlikely]] {
    set_pending_wide(label, accesses, n);
    return;
  }
  pending_.label = label;
  // The count is kept in a local: stored through pending_ it would be reloaded after every access
  // copied (an std::uint8_t may alias the accesses).
  const std::size_t registered = exec_->object_count_;
  bool unregistered = false;
  std::uint8_t count = 0;
  for (const Access* acc = accesses; acc != accesses + n; ++acc) {
    unregistered |= acc->object >= registered;
    pending_.accesses[count++] = *acc;
  }
  pending_.count = count;
  if (unregistered) [[unlikely]]
    unregistered_access();
}

inline void Actor::step(const Op& op) {
  pending_ = op;
  const std::size_t registered = exec_->object_count_;
  for (const Access& acc : op)
    if (acc.object >= registered) [[unlikely]]
      unregistered_access();
  announce(nullptr, nullptr);
}

}  // namespace interleave
