// The Explorer runs a program's executions one after another under a strategy, collects the
// counterexamples and the stats, and states a verdict that never claims more than was explored.
//
//   Program program = [](Execution& ex) { ... ex.spawn("A", ...); ex.invariant(...); };
//   Explorer explorer(program);
//   DfsStrategy dfs;
//   ExplorationResult r = explorer.explore(dfs);
//   if (r.verdict == Verdict::kViolation) print(r.counterexamples.front());
//
// No globals: two Explorers in one process are independent.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/schedule.hpp"
#include "explorer/search/runner.hpp"
#include "explorer/search/stats.hpp"
#include "explorer/core/strategy.hpp"
#include "explorer/time/virtual_time.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace interleave {

enum class Verdict : std::uint8_t {
  kHolds,       ///< every behaviour was explored and no property failed
  kViolation,   ///< some property failed: see the counterexamples
  kIncomplete,  ///< no property failed in what was explored, but a bound or budget cut the search
};
std::string_view to_string(Verdict v);
/// The verdict named `name` ("holds", "violation", "incomplete"); nullopt for any other text.
std::optional<Verdict> verdict_from_string(std::string_view name);
/// The verdict of a question answered in parts (scenarios of one run, shards, slices): the worse
/// of the two, a violation before incomplete before holds.
Verdict worse(Verdict a, Verdict b);

/// One access of a readable step, with the object's name.
struct TraceAccess {
  std::string object;
  AccessKind kind = AccessKind::kRead;
};

/// A step of a trace as a person reads it.
struct TraceStep {
  std::size_t index = 0;
  std::string actor;
  std::string label;
  std::vector<TraceAccess> accesses;
  std::string what;  ///< what happened (the notes of the step), "" if the step noted nothing
  /// The step this one must follow besides program order and conflicts: the step that spawned
  /// its actor (for the actor's first step) or the last step of the actor it joins (a join).
  std::optional<std::size_t> after;
  /// A timed program's step: its earliest feasible time since the origin (explorer/time/timing.hpp).
  std::optional<Micros> time;
};

/// Which fields of two TraceSteps same_step compares.
enum class StepFields : std::uint8_t {
  /// What the program declares of a step: actor, label and accesses (objects and kinds, in
  /// order). The commutation audit (explorer/search/audit.hpp) compares these: a step moved past
  /// steps independent of it is still the same step, but its notes may legitimately differ (they
  /// may say when it ran, or count what ran before it) and so may its time, which follows from
  /// the steps before it. The audit judges what the moved steps computed by the end instead:
  /// outcome, property and final state.
  kDeclared,
  /// Everything a trace records of a step: the declared fields, the notes (`what`) and the time.
  /// A replay (`interleave replay`) compares these: the same schedule run again must show the same
  /// steps in every detail, or the program or its scenario changed.
  kAll,
};

/// Whether `a` and `b` are the same step as far as `fields` say; `index` and `after` are never
/// compared (where a step is, and what it follows, is the caller's concern).
bool same_step(const TraceStep& a, const TraceStep& b, StepFields fields);

/// A violating execution: the property, where it failed, the schedule that reproduces it exactly,
/// the readable steps and the shared state at the violation.
struct Counterexample {
  std::string invariant;
  std::string message;
  std::size_t step = 0;  ///< index of the violating step (== steps.size() if after the last)
  std::string actor;     ///< the actor whose step violated it ("" if none)
  /// A property found at a step and reported at the end (Execution::deferred_check): the step
  /// that found it. nullopt otherwise.
  std::optional<std::size_t> found_at;
  std::uint64_t preemptions = 0;  ///< context switches away from an actor that could still run
  Schedule schedule;
  std::vector<TraceStep> steps;
  /// The program's state dump at the violation: after the violating step (found_at, else step),
  /// or at the end for a violation detected after the last step. Null if the program has none.
  nlohmann::json state;
  /// states[i]: the state dump after step i (empty if the program has none).
  std::vector<nlohmann::json> states;
  /// A timed program's wall-clock origin (Execution::wall_clock), if it gave one.
  std::optional<WallClock> wall_clock;
};

/// The result of a strict replay with readable steps.
struct ReplayReport {
  Outcome outcome = Outcome::kCompleted;
  std::optional<Violation> violation;  ///< the first property that failed (Execution::violation)
  /// Every property that failed, the first being `violation` (Execution::violations).
  std::vector<Violation> violations;
  /// The failure of `invariant` among `violations`; null if it did not fail.
  const Violation* violation_of(std::string_view invariant) const;
  std::vector<TraceStep> steps;
  nlohmann::json state;               ///< at the end
  std::vector<nlohmann::json> states;  ///< after each step (empty if the program has no dump)
  std::uint64_t preemptions = 0;
  std::size_t consumed = 0;  ///< schedule entries used
  /// The program is timed and no times fit the execution (its steps then have no time).
  bool timing_infeasible = false;
  std::optional<WallClock> wall_clock;  ///< Execution::wall_clock
  bool diverged = false;     ///< the program did not follow the schedule (reason says where)
  bool exhausted = false;    ///< the schedule ended while actors could still run
  std::string reason;
};

struct ExplorationResult {
  Verdict verdict = Verdict::kHolds;
  std::string strategy;
  /// kHolds: what was covered; kIncomplete: what cut the search; kViolation: what was covered
  /// until the search stopped.
  std::string detail;
  /// One per violated property. A search stopped at its first violation reports that
  /// execution's: every property that failed at its end (or the one that ended it).
  std::vector<Counterexample> counterexamples;
  /// Coverage goals reached (Execution::cover): goal -> number of executions that reached it.
  std::map<std::string, std::uint64_t> covered;
  Stats stats;
  /// The search stopped at its first violation (ExploreOptions::stop_on_first_violation): the
  /// properties it did not violate were not searched for to the end.
  bool stopped_at_first_violation = false;
  /// The search was stopped from outside (ExploreOptions::stop) before it was over: the verdict
  /// is incomplete (detail "interrupted"), or a violation if one was found before.
  bool interrupted = false;
  /// Nothing but a requested stop at the first violation ended the search before its end: no
  /// budget, step bound, interruption or sampling. Then a violation's list of violated properties
  /// is every one the search looked for to the end; otherwise it may be partial.
  bool exhaustive = false;
  /// The program is timed (explorer/time/timing.hpp): the verdict is over its timed-feasible
  /// executions only (stats.timing_infeasible counts the others).
  bool timed = false;
  /// A timed program's windows (its own, Execution::window, and ExploreOptions::windows) by name:
  /// what its timed-feasible violating executions said about each.
  std::map<std::string, WindowBounds> windows;
};

/// The reach of the commutation audit (explorer/search/audit.hpp), which runs an execution again with
/// steps moved past the steps their declarations call independent of them and compares what the
/// program shows (each step's actor, label and accesses, how the execution ends, and the final
/// state dump, Execution::state_dump).
struct AuditOptions {
  /// How far a step is moved past independent steps, each way.
  std::size_t max_distance = 4;
  /// The moved orders run at most per audited execution (each is one execution).
  std::size_t max_moves = 128;
  /// Which executions of a search the checked mode audits (counterexamples are always audited):
  /// 0, the 1st, 2nd, 4th, 8th, ... (the 2^k-th); N > 0, the 1st and every N-th. An execution
  /// to audit that was abandoned (a strategy's blocked execution) hands its turn to the next.
  std::uint64_t every = 0;
  /// Whether the checked mode audits the executions `every` picks; false: it checks the accesses
  /// of every step, and only the counterexamples are audited (audit_counterexamples).
  bool sample = true;

  /// Whether execution `number` (1-based, in its search) is one to audit.
  bool wants(std::uint64_t number) const {
    if (number == 1) return true;
    return every == 0 ? (number & (number - 1)) == 0 : number % every == 0;
  }
  /// What the audit covered, for a verdict's detail: "audit: 37 executions (the 1st, 2nd, 4th,
  /// 8th, ...), steps moved up to 4 places".
  std::string reach(std::uint64_t audited) const;
};

/// The search's options: its limits (explorer/search/runner.hpp: steps, stack, budgets, the stop
/// request, the progress interval) and what the search adds.
struct ExploreOptions : RunLimits {
  bool stop_on_first_violation = true;  ///< false: keep one counterexample per property
  /// Called the moment a counterexample is ready (e.g. to write it to disk), with the stats of the
  /// search so far (the violating execution included, elapsed_seconds up to date).
  std::function<void(const Counterexample&, const Stats&)> on_counterexample;
  /// Called every `progress_interval` executions with the stats so far.
  std::function<void(const Stats&)> on_progress;
  /// Minimise each counterexample before it is reported (and before on_counterexample): the same
  /// property violated with the fewest preemptions, then the fewest steps (explorer/search/minimize.hpp).
  bool minimize = true;
  /// Executions minimisation may run per counterexample for its preemption-bounded searches.
  std::uint64_t minimize_budget = 20'000;
  // RunLimits::stop: a counterexample being minimised when it is set is finished (and
  // reported) first.
  /// Windows to measure in a timed program's violating executions, besides its own
  /// (Execution::window): e.g. asked for on the command line.
  std::vector<TimingWindow> windows;
  /// The checked mode: a step's use of Checked state it did not declare is a ProgramError
  /// (explorer/core/checked.hpp), and the commutation audit (explorer/search/audit.hpp) also runs on the
  /// executions `audit` samples (Stats::audited counts them).
  bool check_accesses = false;
  /// The commutation audit's reach: how far it moves steps, and which executions the checked
  /// mode audits.
  AuditOptions audit;
  /// At the end of the search, run the first execution and a sample of later ones again (the
  /// 2^k-th, the last few kept) and compare them step by step with what they did: a program whose
  /// behaviour changed meanwhile (a static counter, say) is a ProgramError, "not deterministic".
  bool check_determinism = true;
  /// Audit every counterexample (explorer/search/audit.hpp): move each step past its neighbours that
  /// its declared accesses call independent (up to audit.max_distance places), run again, and
  /// compare the steps, the end and the final state dumps; a pair that does not commute is a
  /// ProgramError (the declarations are wrong, so the search may have missed behaviours).
  bool audit_counterexamples = true;
};

/// Sets result.verdict and result.detail from what the search found (counterexamples, stats,
/// interruption), why it stopped early (`cut`, "" if it did not) and what its strategy covered:
/// the rules of Explorer::explore, shared with the searches made of several (explorer/search/split.hpp).
void settle_verdict(ExplorationResult& result, const std::string& cut, const Coverage& coverage,
                    std::size_t max_steps);

/// Adds what `from` says about time (timed, the windows) to `into`: for the searches made of
/// several (the portfolio, a split search), as their stats add up.
void merge_timing(ExplorationResult& into, const ExplorationResult& from);

class Exploration;
class DeterminismSamples;

class Explorer {
 public:
  explicit Explorer(Program program, ExploreOptions options = {});
  ~Explorer();
  Explorer(const Explorer&) = delete;
  Explorer& operator=(const Explorer&) = delete;

  /// Explores under `strategy` until it is exhausted, a violation stops it, or a budget runs out.
  ExplorationResult explore(Strategy& strategy);

  /// Re-executes `schedule` strictly, with readable steps.
  ReplayReport replay(const Schedule& schedule);

  /// What run_once reports besides the outcome, when asked.
  struct Once {
    std::vector<TraceStep> steps;  ///< the steps by name (without notes: no tracing)
    nlohmann::json final_state;    ///< the state dump at the end (null if none)
  };
  /// Runs one execution under `strategy` (which must have begun it: begin_execution() returned
  /// true), without tracing, and returns how it ended; the strategy's end_execution() sees it
  /// whole, and `once` (when given) gets its steps and its final state. For tools that drive
  /// executions one by one (explorer/search/audit.hpp).
  Outcome run_once(Strategy& strategy, Once* once = nullptr);

  /// Replays `schedule`, which must end in a violation, and builds its counterexample: of
  /// `expected_invariant`, which may be any of the properties the execution violates, or of the
  /// first when empty. Throws ProgramError if it does not reproduce that violation.
  Counterexample make_counterexample(const Schedule& schedule,
                                     const std::string& expected_invariant = {});

  const ExploreOptions& options() const { return options_; }

 private:
  friend class Exploration;
  Program program_;
  ExploreOptions options_;
  Runner runner_;  // the one loop, on program_ under options_'s limits
};

/// An exploration run in slices (Explorer::explore runs one to its end): run(n) runs at most n more
/// executions and returns whether the search can go on, finish() states the verdict of what was
/// explored. A slice ends only at an execution boundary, so a search run in slices of any sizes
/// explores exactly what one run to the end would (the portfolio, explorer/search/portfolio.hpp, runs
/// its members in rounds this way). The explorer and the strategy must outlive it; one
/// Exploration at a time per Explorer, run on one thread at a time (any thread).
class Exploration : private LoopObserver {
 public:
  Exploration(Explorer& explorer, Strategy& strategy);
  ~Exploration();
  Exploration(const Exploration&) = delete;
  Exploration& operator=(const Exploration&) = delete;

  /// Runs at most `executions` more executions; false once the search is over (the strategy is
  /// exhausted, a budget ran out, the first violation stopped it, or it was interrupted).
  bool run(std::uint64_t executions);
  bool over() const { return over_; }
  /// What was found so far: counterexamples, coverage goals and stats (elapsed time up to date
  /// at the end of the last slice); the verdict is settled by finish().
  const ExplorationResult& progress() const { return result_; }
  /// Settles the verdict of what was explored (incomplete, naming why, if it is not over) and
  /// hands the result over. The Exploration is spent afterwards.
  ExplorationResult finish();

 private:
  // The search's look at each execution of the loop (explorer/search/runner.hpp).
  void ended(Execution& ex, Outcome outcome) override;
  bool go_on() override;
  void progress(std::uint64_t executions) override;
  double elapsed() const;
  Explorer& explorer_;
  Strategy& strategy_;
  ExplorationResult result_;
  std::set<std::string> reported_;     // properties with a counterexample already
  // The executions the determinism check runs again at the end (explorer/search/audit.hpp).
  std::unique_ptr<DeterminismSamples> samples_;
  // An execution to audit was abandoned: the next one that ends is audited instead.
  bool audit_pending_ = false;
  std::string cut_;                    // why the search stopped early, if it did
  bool over_ = false;
  // What ended() saw of the execution that ran last, for go_on() (explorer.cpp).
  struct Last;
  std::unique_ptr<Last> last_;
};

}  // namespace interleave
