// Owner decomposition: a model whose properties each concern one *owner* (for the StarRocks model
// a TaskRun or a client session) declares its owners, the *slice* of each (the program with that
// owner alone among the owners, every shared actor kept) and which actors and objects of the full
// program belong to which owner. A caller (the command line's `check --decompose`) explores one
// slice per distinct owner kind instead of the full program, and lifts each slice counterexample
// back onto the full program with lift_counterexample(). Whether a model may be decomposed at all
// is the model's argument to make (the StarRocks one: docs/model.md#owner-decomposition); this
// header only gives it a shape, and the lift checks each lifted schedule by a strict replay.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/search/explorer.hpp"
#include "explorer/core/schedule.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace interleave {

/// One owner of the full program and its slice.
struct OwnerSlice {
  std::string owner;  ///< the owner's name in the full program, e.g. "t2" or "c1"
  /// A canonical key: two slices with the same kind are the same program up to the owner's name
  /// (so the same verdict, violated properties and coverage), and only one of them is explored.
  std::string kind;
  std::string kind_text;  ///< the kind as a reader says it, e.g. "sync TaskRun, 2 iterations"
  Program program;        ///< the slice: the full program with this owner alone
  /// The slice as a scenario: the full scenario's document with the model's sections narrowed to
  /// this owner, so that `program` is what it builds (null when the model gives none). A slice
  /// counterexample that cannot be lifted is written as a trace of it.
  nlohmann::json document;
};

/// What a model declares to be decomposed by owners.
struct OwnerDecomposition {
  /// One per owner, in the order the scenario lists them. A program with no owner has one slice:
  /// the program itself (owner "", nothing to lift).
  std::vector<OwnerSlice> slices;
  /// The owner of an actor of the full program, by its name ("" for a shared actor).
  std::function<std::string(std::string_view actor)> actor_owner;
  /// The owner of a shared object of the full program, by its name ("" for a shared object).
  std::function<std::string(std::string_view object)> object_owner;
  /// Where the argument that makes the decomposition sound is written, for the summary.
  std::string argument;
  /// The owners a "holds" extends to, in the plural: "TaskRuns and clients".
  std::string owners_plural;
};

/// A model's answer to "decompose this program by owners": the decomposition, or why this
/// configuration cannot be decomposed (a coupling between owners that does more than delay).
struct DecompositionOffer {
  std::optional<OwnerDecomposition> decomposition;
  std::string refusal;       ///< when no decomposition: the reason, one sentence
  std::string refusal_path;  ///< the scenario's JSON path the reason is about, e.g. "/policy"
};

/// The outcome of lifting one slice counterexample onto the full program.
struct LiftResult {
  /// The full program's counterexample (built by a strict replay of the lifted schedule, so it
  /// replays), violating the same property. nullopt when no lift was found.
  std::optional<Counterexample> counterexample;
  std::string failure;     ///< why not, when counterexample is nullopt
  std::size_t extra_steps = 0;  ///< steps of the lift not in the slice's schedule
};

/// Lifts `slice_counterexample`, found in the slice of `owner`, onto `full`: the slice's steps in
/// their order, each on the full program's actor of the same name; before a shared actor's step,
/// its steps for other owners (a dispatch of an earlier run, a read of another run's runCtx, the
/// D-steps of another session); where the slice's next actor cannot run (a shared actor waits for
/// another owner), steps the projection onto the slice drops: another owner's actors' steps, and
/// a shared actor's steps that are not its next ones in the slice (those it takes for another
/// owner, e.g. the dispatch and the reaping of another run that the sweep's join waits for); then
/// every remaining actor to the end (the owner's and the shared ones first). The result is
/// replayed strictly and must violate the same property, else the lift failed (`failure` says
/// where). `options` gives the step bound and the stack size.
LiftResult lift_counterexample(const Program& full, const OwnerDecomposition& decomposition,
                               const std::string& owner,
                               const Counterexample& slice_counterexample,
                               const ExploreOptions& options);

/// The outcome of lifting one slice execution (any, violating or not) onto the full program.
struct ExecutionLift {
  /// The full program's schedule: the lift's walk (lift_counterexample), then every remaining
  /// actor to the end of the execution. nullopt when no lift was found.
  std::optional<Schedule> schedule;
  std::string failure;          ///< why not, when schedule is nullopt
  std::size_t extra_steps = 0;  ///< steps of the lift not in the slice's schedule
};

/// Lifts the slice execution `slice_schedule` (its readable steps `slice_steps`, as a strict
/// replay on the slice gives them) of `owner` onto `full`, as lift_counterexample does, without
/// asking what the lifted execution violates: the caller checks what it needs of it (an
/// incident's explanation, explorer/evidence/explain.hpp, runs it with ExplainOptions::only).
ExecutionLift lift_execution(const Program& full, const OwnerDecomposition& decomposition,
                             const std::string& owner, const Schedule& slice_schedule,
                             const std::vector<TraceStep>& slice_steps,
                             const ExploreOptions& options);

/// A property a decomposed search found violated, as it is reported: every property a slice
/// violates is reported, lifted where a lift is found.
struct ReportedViolation {
  std::string owner;  ///< the slice it was found in ("" for a program without owners)
  /// The full program's counterexample when `lifted`; else the slice's own, which replays on the
  /// slice's program (OwnerSlice::program of `owner`), not on the full one.
  Counterexample counterexample;
  bool lifted = false;
  std::string failure;  ///< when not lifted: why this counterexample did not lift
};

/// The violations to report from the counterexamples the slices found (`found`: the owner of the
/// slice and its counterexample, in the order found): one per property, in the order its first
/// counterexample was found; the first of its counterexamples that lifts to `full`, else the first
/// one itself, not lifted. A program without owners (the slice "") is its own slice: its
/// counterexamples are reported as they are.
std::vector<ReportedViolation> report_violations(
    const Program& full, const OwnerDecomposition& decomposition,
    const std::vector<std::pair<std::string, Counterexample>>& found,
    const ExploreOptions& options);

/// Whether `text` mentions `name` as a word (not inside a longer name: "t1" is in "t1#2" and in
/// "tmp_t1_1", not in "t10").
bool mentions_name(std::string_view text, std::string_view name);

}  // namespace interleave
