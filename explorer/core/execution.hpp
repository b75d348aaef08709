// One execution of a program: its shared objects, its actors (each on its own fiber) and the
// scheduler loop that runs them step by step under a strategy.
//
// A program is a function that, given a fresh Execution, creates the shared state, spawns the
// actors and registers the invariants. Stateless exploration runs it again for every execution,
// so the program must be deterministic: the same decisions must give the same behaviour.
//
// The actor's handle is explorer/core/actor.hpp (its members that need the Execution are at the
// bottom of this file); virtual time is reached through explorer/core/time_hook.hpp.
#pragma once

#include "explorer/core/actor.hpp"
#include "explorer/core/constraints.hpp"
#include "explorer/core/duration.hpp"
#include "explorer/core/fiber.hpp"
#include "explorer/core/strategy.hpp"
#include "explorer/core/time_hook.hpp"
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

class Execution;

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
  /// The clock of timed executions (explorer/core/time_hook.hpp), installed by the owner of these
  /// buffers (explorer/time/virtual_time.hpp: VirtualTime keeps the durations the last execution's
  /// actors gave, its constraint graph and its earliest times). nullptr: a timed program is a
  /// ProgramError.
  TimeHook* clock = nullptr;
  std::vector<std::int32_t> spawned_at;  // a timed execution's, at its end: per actor
  std::vector<char> decisive;            // a timed execution's, at its end: per step
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
  /// does (reports/render/wall_clock.hpp) besides their offsets.
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
  bool timed() const { return timed_; }
  bool timing_feasible() const { return timing_feasible_; }
  /// After run() of a traced, timed-feasible execution: the earliest feasible time of each step
  /// (-1 for a step that does not decide the outcome; TimeHook::times); empty otherwise.
  std::span<const Micros> times() const {
    return timed_ ? buffers_.clock->times() : std::span<const Micros>();
  }
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
  bool timed_ = false;  // an actor gave a duration: buffers_.clock is started
  bool timing_feasible_ = true;
  std::vector<TimingWindow> windows_;
  std::optional<WallClock> wall_clock_;
  // The clock, started at the first duration `a` gives; nullptr (the execution is stopped with a
  // ProgramError) when none is installed.
  TimeHook* clock_for(const Actor& a);
  // Timed: hands the clock the steps that decide the outcome, and takes its verdict.
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
