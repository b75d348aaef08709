// Ordering constraints between labelled steps of named actors: "c2's first U3 happens after the
// cleaner's first C2". A scenario states them; every strategy then explores only the executions
// that respect them, because the engine holds back (does not enable) a step that must come after
// a step that has not run yet.
//
// A step selector names the n-th step (n >= 1) with a given label that a given actor executes.
// A constraint {before, after} reads: if the `after` step runs, the `before` step ran earlier. An
// execution whose `after` step can never run (the `before` step never happens: its actor finished
// without it, or the constraints wait on each other) ends with nothing enabled while a held step
// waits: it is infeasible under the constraints (Outcome::kInfeasible), not a deadlock of the
// program and not a violation.
//
// For DPOR, each constraint is a shared object of its own ("constraint[k]"): the `before` step
// writes it and the `after` step waits on it (AccessKind::kWait), exactly as a wait_until declares
// the object its condition reads. The two steps are therefore dependent in every execution where
// both run, and a held step takes part in race detection as any blocked operation does.
#pragma once

#include "explorer/core/fingerprint.hpp"
#include "explorer/core/json_reader.hpp"
#include "explorer/core/types.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace interleave {

/// The `occurrence`-th step labelled `label` that the actor named `actor` executes.
struct StepSelector {
  std::string actor;
  std::string label;
  std::uint32_t occurrence = 1;  ///< from 1
  friend bool operator==(const StepSelector&, const StepSelector&) = default;
};

/// `before` happens before `after` in every explored execution in which `after` runs.
struct OrderConstraint {
  StepSelector before;
  StepSelector after;
};

/// "c2's 1st U3".
std::string to_string(const StepSelector& s);
/// "c2's 1st U3 after cleaner's 1st C2".
std::string to_string(const OrderConstraint& c);

/// What a scenario's "constraints" may be checked against before anything runs: the actor names
/// the program can create (empty: not known, not checked) and the step labels it can announce
/// (empty: not known, not checked).
struct ConstraintVocabulary {
  std::vector<std::string> actors;
  std::vector<std::string> labels;
};

/// Reads a "constraints" array (docs/scenario-format.md). Throws InputError naming the file and
/// the JSON path for a malformed entry, an actor or label outside `vocabulary`, an occurrence
/// below 1, a constraint whose two steps are the same step, and constraints that order steps in
/// a cycle (then no execution can satisfy them: the path is the constraint that closes it).
std::vector<OrderConstraint> order_constraints_from_json(const JsonReader& r,
                                                         const ConstraintVocabulary& vocabulary);

/// The run-time state of the constraints in one execution (owned by the Execution, made by
/// Execution::order): which constraints' `before` steps have run, how often each actor ran each
/// label a selector names, and what each actor's announced step fulfils or waits for.
class OrderGates {
 public:
  /// `first_object`: the object of constraint 0; constraint k's is first_object + k.
  OrderGates(std::vector<OrderConstraint> constraints, ObjectId first_object);

  const std::vector<OrderConstraint>& constraints() const { return constraints_; }
  /// An actor was created with this name (in id order).
  void actor_added(ActorId id, std::string_view name);
  /// Actor `id` announced a step labelled `label`: records what it fulfils and waits for, and
  /// appends the accesses that declare it (a write of each constraint it fulfils, a wait on each
  /// it waits for) to `extra`.
  void announced(ActorId id, std::string_view label, std::vector<Access>& extra);
  /// Whether actor `id`'s announced step names a constraint (fulfils or waits for one).
  bool gated(ActorId id) const {
    return id < actors_.size() && !actors_[id].awaits.empty();
  }
  /// Whether actor `id`'s announced step waits for a `before` step that has not run.
  bool held(ActorId id) const;
  /// Actor `id`'s announced step runs now.
  void executed(ActorId id);
  /// Why the execution cannot go on: the held steps of `actors` and what each waits for.
  std::string infeasible_message(ActorSet actors) const;
  /// Writes the state of the gates (which `before` steps have run, the watched counts) for a
  /// state fingerprint (explorer/core/fingerprint.hpp).
  void fingerprint(StateHasher& h) const {
    h << done_.size();
    for (bool d : done_)
      h << d;
    for (const ActorState& a : actors_)
      h << a.counts;
  }

 private:
  struct Watch {
    std::uint32_t constraint = 0;
    bool before = false;  // the selector is the constraint's `before` (else its `after`)
    std::uint32_t occurrence = 1;
    std::string label;
  };
  struct ActorState {
    std::string name;
    std::vector<Watch> watches;                                  // selectors naming this actor
    std::vector<std::pair<std::string, std::uint32_t>> counts;  // executed steps per watched label
    std::vector<std::uint32_t> fulfils;  // constraints whose `before` the announced step is
    std::vector<std::uint32_t> awaits;   // constraints whose `after` the announced step is
    std::uint32_t* pending_count = nullptr;  // the count of the announced step's label, if watched
  };

  std::vector<OrderConstraint> constraints_;
  ObjectId first_object_;
  std::vector<bool> done_;  // per constraint: its `before` step has run
  std::vector<ActorState> actors_;
};

}  // namespace interleave
