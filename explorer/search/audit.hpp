// Checks of what a program declares against what it does, by running its executions again:
//
//   - The commutation audit. DPOR explores one interleaving per Mazurkiewicz trace: it trusts
//     that two steps whose declared accesses do not conflict commute. The audit takes an
//     execution, moves each step past the neighbours (up to AuditOptions::max_distance steps of
//     other actors) that the declarations call independent of it (DPOR's own relation, the
//     invariants' reads included), runs the moved order with the rest of the execution as it
//     was, and compares everything the program shows: each step (actor, label, accesses), how
//     the execution ends (outcome, property) and the final state dump (Execution::state_dump).
//     A difference means a step touches state it does not declare (or declares a read for a
//     write): "X and Y are declared independent but do not commute". Steps that spawn actors are
//     not moved (the order of spawns decides the actors' ids). Run on every counterexample, and
//     in the checked mode on a sample of the search's executions (AuditOptions::every: by
//     default the 1st, 2nd, 4th, 8th, ...). Its reach is AuditOptions: a step `moved` farther
//     than max_distance, or in an execution that was not sampled, is never compared.
//   - The determinism check. The first execution of a search and a sample of later ones are run
//     again at its end and compared step by step with what they did then: a program whose
//     behaviour changed meanwhile (state kept across executions, such as a static counter) is
//     "not deterministic", at the first step that differs.
//
// Both report through ProgramError, as the engine does for every other misuse by a program.
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/core/schedule.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace interleave {

/// A move that changed the behaviour: step `moved` of the execution, moved past step `past`
/// (next to it in the moved order), which its declarations call independent of it.
struct CommutationFinding {
  std::size_t moved = 0;
  std::size_t past = 0;
  std::size_t distance = 1;  ///< the steps it was moved past (past is the farthest)
  std::string moved_step;  ///< e.g. "Reader's 'fill cache' (step 2)"
  std::string past_step;   ///< e.g. "Writer's 'invalidate' (step 4)"
  std::string how;         ///< e.g. "the state after both differs with the order"
  /// "Reader's 'fill cache' (step 2) and Writer's 'invalidate' (step 4) are declared
  /// independent but do not commute: ...".
  std::string message() const;
};

struct CommutationAudit {
  std::size_t moves = 0;  ///< moved orders run
  std::optional<CommutationFinding> finding;
  /// Why the execution could not be audited ("" if it was): the schedule does not run.
  std::string not_audited;
};

/// Audits the execution `schedule` leads to (see the top of this file), with `explorer`'s
/// program and options. Stops at the first finding.
CommutationAudit audit_commutation(Explorer& explorer, const Schedule& schedule,
                                   const AuditOptions& options = {});

/// What one step of an execution was, to compare two runs of it.
struct StepRecord {
  ActorId actor = kNoActor;
  std::string label;
  std::vector<Access> accesses;
  friend bool operator==(const StepRecord&, const StepRecord&) = default;
};

/// An execution recorded for the determinism check: its schedule and what it did.
struct RecordedExecution {
  std::uint64_t number = 0;  ///< 1-based, in the search
  Schedule schedule;
  std::vector<StepRecord> steps;
  Outcome outcome = Outcome::kCompleted;
  std::string property;  ///< the property it violated, "" if none
};

/// The executions of a search kept for the determinism check: the first and the 2^k-th (or the
/// next one that ran to its end, when that one was abandoned), the last `kKept` of them.
class DeterminismSamples {
 public:
  static constexpr std::size_t kKept = 8;
  /// Whether execution `number` (1-based) is to be recorded.
  bool wants(std::uint64_t number) const {
    return number == 1 || (number & (number - 1)) == 0 || pending_;
  }
  /// Records it (if it ran to an end: an abandoned execution is not, and the next one is asked
  /// for instead).
  void offer(RecordedExecution e);
  void skipped() { pending_ = true; }
  const std::vector<RecordedExecution>& kept() const { return kept_; }

 private:
  std::vector<RecordedExecution> kept_;  // the first, then the latest kKept - 1
  bool pending_ = false;
};

/// Runs each kept execution again under `explorer` and throws ProgramError ("the program is not
/// deterministic: ...") at the first one that does something else.
void check_determinism(Explorer& explorer, const DeterminismSamples& samples);

}  // namespace interleave
