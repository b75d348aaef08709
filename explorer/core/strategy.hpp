// The strategy interface: what decides, at each scheduling point, which actor runs next and which
// value a choose(n) returns. One strategy per file under explorer/strategies/, each depending only
// on this header. The engine asks a strategy from exactly one place (Execution::run).
#pragma once

#include "explorer/core/fingerprint.hpp"
#include "explorer/core/types.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace interleave {

/// One executed step, as the strategies see it after the fact.
struct Event {
  ActorId actor = kNoActor;
  Op op;
  /// An event that must happen before this one besides program order and conflicts: the step in
  /// which this actor was spawned (for its first event) or the last step of a joined actor (for a
  /// join). -1 when none.
  std::int32_t hb_pred = -1;
  /// The step was announced with a condition (wait_until, join, a lock): it may have waited.
  bool may_wait = false;
};

/// One decision of an execution, in order: the actor that took a step, or a choice value.
struct Decision {
  enum class Kind : std::uint8_t { kActor, kChoice };
  Kind kind = Kind::kActor;
  std::uint32_t value = 0;  // kActor: the ActorId; kChoice: the value
  friend bool operator==(const Decision&, const Decision&) = default;
};

/// What an invariant checked between steps reads (Execution::invariant), for the strategies that
/// must know it to check it soundly (DPOR orders the steps that change it).
struct InvariantReads {
  std::string_view name;
  /// false: the invariant declared no reads, so it may read any shared object.
  bool declared = false;
  std::span<const ObjectId> objects;  ///< when declared: the objects it reads
};

/// The state of the execution at a scheduling point, for the stateful strategies
/// (explorer/core/fingerprint.hpp says what a fingerprint holds).
class StateSource {
 public:
  /// The fingerprint of the current state. Throws ProgramError when the program registered no
  /// fingerprint of its shared state (Execution::fingerprint) or an unfinished actor declared no
  /// local state (Actor::declare_locals, Actor::declare_no_locals).
  virtual Fingerprint state_fingerprint() const = 0;

 protected:
  ~StateSource() = default;
};

/// What the scheduler knows at a scheduling point.
struct SchedulingPoint {
  std::size_t step = 0;         ///< steps already executed in this execution
  ActorSet enabled;             ///< actors whose pending operation can run now (never empty)
  ActorSet alive;               ///< actors not finished (enabled is a subset)
  ActorId previous = kNoActor;  ///< actor that took the previous step
  /// pending[a]: actor a's announced next operation (meaningful for a in alive). The span and its
  /// pointers stay valid until the execution ends (end_execution included); each pointer shows
  /// the actor's operation as announced now (it changes when the actor announces the next one).
  std::span<const Op* const> pending;
  std::span<const Event> trace;             ///< steps executed so far in this execution
  std::span<const std::string_view> names;  ///< names[a]: actor a's name
  /// The invariants of the execution and what they read: the same at every point of it.
  std::span<const InvariantReads> invariants;
  /// The execution's state, asked for only by the stateful strategies (computing a fingerprint
  /// costs a walk of the whole state). Never null at a point of Execution::run.
  const StateSource* state = nullptr;
};

/// A choose(n) call: actor `actor`, during step `step`, asks for a value in [0, n).
struct ChoicePoint {
  std::size_t step = 0;
  ActorId actor = kNoActor;
  std::uint32_t n = 0;
};

enum class Outcome : std::uint8_t {
  kCompleted,     ///< every actor finished and every check held
  kViolation,     ///< an invariant or a step-local check failed
  kDeadlock,      ///< nothing enabled while some actor is unfinished
  kActorFailure,  ///< an exception or failed assertion inside an actor
  kStepBound,     ///< the step bound cut the execution (makes the verdict incomplete)
  kAbandoned,     ///< the strategy stopped it (sleep-set blocked, replay ended or diverged)
  /// nothing enabled while a step is held by an ordering constraint (explorer/core/constraints.hpp):
  /// the execution cannot satisfy the constraints; neither a deadlock nor a violation
  kInfeasible,
};

std::string_view to_string(Outcome o);

/// Everything a strategy may learn about a finished execution.
struct ExecutionRecord {
  Outcome outcome = Outcome::kCompleted;
  std::span<const Event> trace;
  std::span<const Decision> decisions;
  /// The property the execution violated ("deadlock", "actor_failure" or an invariant's name),
  /// empty if none.
  std::string_view property{};
  /// The final state (for a completed execution, whose actors have all finished), for the
  /// stateful strategies; null otherwise.
  const StateSource* state = nullptr;
  /// False when the program is timed and no times fit the execution's durations
  /// (explorer/time/timing.hpp): it is not a behaviour of the timed program.
  bool timing_feasible = true;
};

/// How much of the behaviour space a finished search covered.
struct Coverage {
  /// True only if every behaviour of the program was explored (up to equivalence): the only case in
  /// which "no violation" may be reported as "holds".
  bool complete = false;
  /// Human-readable statement of what was covered, e.g. "all interleavings" or
  /// "no violation with at most 2 preemptions".
  std::string description;
};

class Strategy {
 public:
  virtual ~Strategy() = default;

  virtual std::string name() const = 0;
  /// Prepares the next execution; false when the search is over.
  virtual bool begin_execution() = 0;
  /// Picks the next actor among point.enabled. kNoActor abandons the execution (then
  /// abandon_reason() says why).
  virtual ActorId next_actor(const SchedulingPoint& point) = 0;
  /// Picks a value in [0, point.n); nullopt abandons the execution.
  virtual std::optional<std::uint32_t> next_choice(const ChoicePoint& point) = 0;
  /// Called once per execution, after it ends, whatever the outcome.
  virtual void end_execution(const ExecutionRecord& record) = 0;
  /// What the search covered (meaningful once begin_execution() returned false).
  virtual Coverage coverage() const = 0;
  /// The seed that reproduces the current execution with this strategy (0 if not seeded).
  virtual std::uint64_t execution_seed() const { return 0; }
  virtual std::string abandon_reason() const { return "abandoned by the strategy"; }
};

/// Whether running `chosen` at `point` is a preemption (CHESS): a switch away from an actor that
/// could have gone on. Switching when the previous actor blocked or finished is free.
inline bool is_preemption(const SchedulingPoint& point, ActorId chosen) {
  return chosen != kNoActor && point.previous != kNoActor && chosen != point.previous &&
         point.enabled.contains(point.previous);
}

/// Runs `inner` unchanged and counts the preemptions of the current execution (reset by
/// begin_execution()).
class PreemptionCounter final : public Strategy {
 public:
  explicit PreemptionCounter(Strategy& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  bool begin_execution() override {
    preemptions_ = 0;
    return inner_.begin_execution();
  }
  ActorId next_actor(const SchedulingPoint& point) override {
    const ActorId a = inner_.next_actor(point);
    if (is_preemption(point, a)) ++preemptions_;
    return a;
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override {
    return inner_.next_choice(point);
  }
  void end_execution(const ExecutionRecord& record) override { inner_.end_execution(record); }
  Coverage coverage() const override { return inner_.coverage(); }
  std::uint64_t execution_seed() const override { return inner_.execution_seed(); }
  std::string abandon_reason() const override { return inner_.abandon_reason(); }

  std::uint64_t preemptions() const { return preemptions_; }

 private:
  Strategy& inner_;
  std::uint64_t preemptions_ = 0;
};

}  // namespace interleave
