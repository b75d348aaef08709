// The properties and coverage goals of the StarRocks temporary-table world, in one table: each is
// written once, as the constant that names it in the code (inv::..., goal::...), with its kind,
// its description and when and how it is checked. invariant_names(), coverage_goal_names(), the
// catalog of `interleave list`, the reporting (Properties) and the docs tables (checked by
// tests/model/test_tables.cpp) derive from it.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace interleave::model {

/// How a property is checked and reported, or that a fact is a coverage goal.
enum class FactKind : std::uint8_t {
  kAtStep,       ///< checked at a step; reported at once (the execution ends there)
  kFoundAtStep,  ///< found at a step, reported when the execution ends (the trace shows what
                 ///< followed: the sink's failure, the FAILED run, as the seed's log does)
  kAtEnd,        ///< checked once every actor has finished
  kEngine,       ///< checked by the engine (deadlock, actor_failure)
  kGoal,         ///< a coverage goal (Execution::cover): a situation a "holds" must have explored
};

/// A property or a coverage goal. Converts to its name, so it is passed where a name is wanted
/// (Actor::cover, a counterexample's invariant).
struct Fact {
  std::string_view name;
  FactKind kind;
  std::string_view description;  ///< what it says (as `list` shows it)
  std::string_view checked;      ///< when and how it is checked
  constexpr operator std::string_view() const { return name; }  // implicit: a fact is a name
  friend constexpr bool operator==(const Fact& f, std::string_view s) { return f.name == s; }
};

// ---------------------------------------------------------------- the table

/// The properties the model reports (the engine's "deadlock" and "actor_failure" below).
namespace inv {
inline constexpr Fact kLiveOwnerTableDropped{
    "live_owner_table_dropped", FactKind::kFoundAtStep,
    "the cleaner removed a temp table from CAT while its owner is live (a TaskRun attempt between "
    "E1 and E7 not killed; a client session between U2 and U4a)",
    "found at the cleaner's D2, reported at the end; the owner's liveness is observed through "
    "future(t) and runCtx(t), or CS_f[c]"};
inline constexpr Fact kSinkTableNotFound{
    "sink_table_not_found", FactKind::kFoundAtStep,
    "a CN sink's schema lookup (N2/N3) answered TABLE_NOT_EXIST for a table whose owner is live",
    "found at N2/N3, reported at the end; the owner observed as at D2"};
inline constexpr Fact kManagerNullPointer{
    "manager_null_pointer", FactKind::kAtStep,
    "the unlocked get of E2b found no entry (the NullPointerException of the check-then-act)",
    "at E2b (a D4 ran after the E2a)"};
inline constexpr Fact kUntrackedTempTable{
    "untracked_temp_table", FactKind::kAtStep,
    "a temp table is in CAT but tracked by no TTM_L entry after its creation finished",
    "at E2c (adding to an entry D4 removed) or at D4 (which reads CAT[k] of every table the "
    "session can hold)"};
inline constexpr Fact kTempTableLeak{
    "temp_table_leak", FactKind::kAtEnd,
    "at the end, after every owner ended and a full sweep pass ran after that, a temp table "
    "remains in CAT",
    "at the end, with cleaner.sweep"};
inline constexpr Fact kUnreachableFrontendLeak{
    "unreachable_frontend_leak", FactKind::kAtEnd,
    "at the end, after every owner ended, the sweep pass aborted at a failed listSessions RPC "
    "(a down FE) while a temp table remains in CAT: no pass completes while the FE is down, so "
    "no dead session's table is cleaned",
    "at the end, with cleaner.sweep and cluster.down_frontends"};
inline constexpr Fact kDeadSessionTableLeft{
    "dead_session_table_left", FactKind::kFoundAtStep,
    "a cleaner pass cleaned a session it found dead and old enough (not alive at C2/C3, "
    "createTime < startTime) and a table of that session is still in CAT after the pass's D4 "
    "for it (the cleaner did not do its job: testNormal's assertion)",
    "found at the cleaner's D4 (which reads CAT[k] of every table the session can hold), "
    "reported at the end"};
inline constexpr Fact kKilledRunCommits{
    "killed_run_commits", FactKind::kFoundAtStep,
    "a killed TaskRun's outer statement ran to its commit after the kill: the kill completed the "
    "run's future (FAILED) but reached no executor of the recursive CTE",
    "found at E5 (the kill observed through runCtx(t)), reported at the end"};
}  // namespace inv

/// The engine's properties, as this model describes them.
inline constexpr Fact kDeadlockFact{kDeadlock, FactKind::kEngine,
                                    "no actor can run while some actor is unfinished (engine)",
                                    "by the engine"};
inline constexpr Fact kActorFailureFact{
    kActorFailure, FactKind::kEngine, "an internal check of the model failed (engine)",
    "by the engine; the model's own check: at most one DropInfo per table (D2, E6b)"};

/// Coverage goals (Execution::cover): the situations a "holds" verdict must have explored.
namespace goal {
inline constexpr Fact kTaskSessionCandidate{
    "task_session_candidate", FactKind::kGoal,
    "a pass's C4 snapshot held the session of a TaskRun attempt between E2 and E6, old enough "
    "to be cleaned",
    "at C4 (createTime < startTime; the run's progress read through progress(t)): the dangerous "
    "overlap"};
inline constexpr Fact kTaskSessionSpared{"task_session_spared", FactKind::kGoal,
                                         "... and the pass found it alive",
                                         "at C4, a task_session_candidate in the alive set"};
inline constexpr Fact kTaskRunSeenByC3{
    "task_run_seen_by_c3", FactKind::kGoal,
    "a C3 read found the runCtx session of a run between E2 and E6",
    "at C3's read of runCtx(t) and progress(t)"};
inline constexpr Fact kClientSessionCandidate{
    "client_session_candidate", FactKind::kGoal,
    "a pass's C4 snapshot held a live client session old enough to be cleaned",
    "at C4 (a client between U2 and U4a, read through CS_f[c]; createTime < startTime)"};
inline constexpr Fact kClientSessionSpared{"client_session_spared", FactKind::kGoal,
                                           "... and the pass found it alive",
                                           "at C4, a client_session_candidate in the alive set"};
inline constexpr Fact kSparedByCreateTimeGuard{
    "spared_by_create_time_guard", FactKind::kGoal,
    "a session not alive was kept only by the createTime guard", "at C4"};
inline constexpr Fact kDroppedTableCreatedAfterStart{
    "dropped_table_created_after_start", FactKind::kGoal,
    "a pass dropped a table whose session entry was created after the pass's C1",
    "at the cleaner's D2 (true time: the E2a's step against C1's; the guard did not protect it)"};
inline constexpr Fact kListSessionsFailed{"list_sessions_failed", FactKind::kGoal,
                                          "a listSessions RPC failed",
                                          "at C2 on an unreachable FE (an explored choice) or "
                                          "a down one (always)"};
inline constexpr Fact kKilledRunTableDropped{
    "killed_run_table_dropped", FactKind::kGoal,
    "the cleaner dropped the staging table of a killed run before its E6", "at the cleaner's D2"};
inline constexpr Fact kFinalizeNoop{
    "finalize_noop", FactKind::kGoal, "E6a or E6b found the staging table already gone",
    "at E6a (not in the entry) or E6b (not in CAT): DROP TEMPORARY TABLE IF EXISTS does nothing"};
inline constexpr Fact kFollowerOmittedSession{
    "follower_omitted_session", FactKind::kGoal,
    "a follower answered listSessions before replaying a CreateTableInfo of its session",
    "at C2 on a follower (the session is in TTM_L, not yet in TTM_f)"};
inline constexpr Fact kCatalogDropFailed{
    "catalog_drop_failed", FactKind::kGoal,
    "a catalog drop of cleanTemporaryTables threw: logged, the table left in CAT and in the entry",
    "at D2, with catalog_drop = may_fail (an explored choice while the table is in CAT)"};
inline constexpr Fact kLaterTableUnguarded{
    "later_table_unguarded", FactKind::kGoal,
    "a pass dropped a table created after its C1 in a session whose entry (and createTime) came "
    "from an earlier table: the createTime guard does not protect a session's later tables",
    "at the cleaner's D2 (true time: the table's own E2a after C1, its session's first E2a "
    "before)"};
inline constexpr Fact kFinalizeSkipped{
    "finalize_skipped", FactKind::kGoal,
    "a TaskRun attempt ended without its finalize drop (recursive_cte_finalize_temporal_table "
    "false): its staging tables stay for the cleaner",
    "at the run's E7, with finalize_temporal_table false"};
inline constexpr Fact kSweepPassCompleted{"sweep_pass_completed", FactKind::kGoal,
                                          "the sweep pass ran after every owner had ended",
                                          "at the end of the sweep pass"};
inline constexpr Fact kDeadSessionCleaned{
    "dead_session_cleaned", FactKind::kGoal,
    "a cleaner pass removed every table of a session it found dead",
    "at the cleaner's D4 of a session whose D1 copy held a table, none of its tables left in "
    "CAT"};
}  // namespace goal

/// Every fact, properties first: the order of invariant_names(), coverage_goal_names(), `list`
/// and the docs tables.
inline constexpr std::array<const Fact*, 26> kFacts = {&inv::kLiveOwnerTableDropped,
                                                       &inv::kSinkTableNotFound,
                                                       &inv::kManagerNullPointer,
                                                       &inv::kUntrackedTempTable,
                                                       &inv::kTempTableLeak,
                                                       &kDeadlockFact,
                                                       &kActorFailureFact,
                                                       &inv::kUnreachableFrontendLeak,
                                                       &inv::kDeadSessionTableLeft,
                                                       &inv::kKilledRunCommits,
                                                       &goal::kTaskSessionCandidate,
                                                       &goal::kTaskSessionSpared,
                                                       &goal::kTaskRunSeenByC3,
                                                       &goal::kClientSessionCandidate,
                                                       &goal::kClientSessionSpared,
                                                       &goal::kSparedByCreateTimeGuard,
                                                       &goal::kDroppedTableCreatedAfterStart,
                                                       &goal::kListSessionsFailed,
                                                       &goal::kKilledRunTableDropped,
                                                       &goal::kFinalizeNoop,
                                                       &goal::kFollowerOmittedSession,
                                                       &goal::kCatalogDropFailed,
&goal::kLaterTableUnguarded,
                                                       &goal::kFinalizeSkipped,
                                                       &goal::kSweepPassCompleted,
                                                       &goal::kDeadSessionCleaned};
/// The properties checked when an execution ends, in the order they are checked; every one that
/// fails is reported, in this order (the first is the execution's Execution::violation): the
/// sink's failure (what the seed's log shows) before the drop that caused it, then the leaks.
inline constexpr std::array<const Fact*, 6> kEndOfExecutionOrder = {
    &inv::kSinkTableNotFound,         &inv::kLiveOwnerTableDropped, &inv::kTempTableLeak,
    &inv::kUnreachableFrontendLeak,   &inv::kDeadSessionTableLeft,  &inv::kKilledRunCommits};

// ---------------------------------------------------------------- derived

/// The properties of kFacts (every kind but kGoal), in its order.
std::vector<const Fact*> properties();
/// The coverage goals of kFacts, in its order.
std::vector<const Fact*> coverage_goals();
/// Every property name the model can report, including the engine's.
std::vector<std::string> invariant_names();
/// Every coverage goal name.
std::vector<std::string> coverage_goal_names();
/// The catalog's "invariants" or "coverage_goals": name, description, checked.
nlohmann::json fact_catalog(const std::vector<const Fact*>& facts);

/// One execution's reporting of the properties: a step reports what it found with found(); the
/// end-of-execution checks are registered once, by install().
class Properties {
 public:
  /// Registers the end-of-execution checks in kEndOfExecutionOrder: a kFoundAtStep property
  /// fails with the first message found(); a kAtEnd one runs its entry of `at_end`.
  void install(Execution& ex, std::vector<std::pair<const Fact*, std::function<Check()>>> at_end);
  /// The current step of `a` violates `property`: a kAtStep property ends the execution here
  /// (found() does not return); a kFoundAtStep one is reported when the execution ends.
  /// `subject`: what of the state decides the message (which table, pass, session...), without
  /// its step numbers: the state fingerprint writes it instead of the message (a kAtStep
  /// property ends the execution: it needs none).
  void found(Actor& a, const Fact& property, std::string message, std::string subject = {});

  /// The state fingerprint's part: per kFoundAtStep property, in kEndOfExecutionOrder, whether
  /// it was found and the subject of its first finding (the one reported). Not the step that
  /// found it nor the message's step numbers (history): executions that found the same violation
  /// at different steps merge, and the first explored reports it.
  void fingerprint(StateHasher& h) const;

 private:
  struct Found {
    const Fact* property;
    std::string message;
    std::string subject;  // what of the state decides the message (found())
    std::size_t step;     // the step that found it (reported as the violation's found_at)
  };
  std::vector<Found> found_;
};

}  // namespace interleave::model
