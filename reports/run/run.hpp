// Running a scenario: settings (the scenario's, overridden from the command line), the strategy,
// the exploration, each counterexample written as a trace file the moment it is found, and the
// run as JSON (what `check --json` prints of a scenario).
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/core/strategy.hpp"
#include "reports/run/output_files.hpp"  // write_file_atomically
#include "reports/run/scenario.hpp"
#include "reports/trace/trace.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace interleave::run {

/// A share of a split search (explorer/search/split.hpp): shard `index` (0-based) of `count`.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
};

/// How one scenario is to run, settled before anything runs.
struct RunPlan {
  ExplorationSettings settings;
  /// The search is to be split at a depth chosen for the scenario (settle_split_depth).
  bool choose_depth = false;
};

/// The settings `scenario` runs with: its own with `overrides` applied (for a shard of a split
/// search, the portfolio's DPOR member alone), checked before anything runs: impossible strategy
/// parameters and a split that cannot be are UsageErrors, a decomposition the model refuses an
/// InputError. `split_jobs`: the threads a split search would run on (1: a DPOR search is split
/// only when a split is asked for by name, split_depth or a shard); a strategy that cannot be
/// split then runs on one thread.
RunPlan plan_run(const Scenario& scenario, const ExplorationOverrides& overrides,
                 const Shard& shard, unsigned split_jobs);
/// When plan.choose_depth: sets plan.settings.split_depth to the smallest depth at which the
/// scenario's program has enough prefixes (explorer/search/split.hpp: choose_split_depth); the output
/// records it.
void settle_split_depth(const Scenario& scenario, RunPlan& plan, const std::atomic<bool>* stop);

struct RunContext {
  std::string tool_version;       ///< recorded in traces, e.g. "interleave 0.1.0"
  std::filesystem::path out_dir;  ///< where traces go (created when the first one is written)
  /// Called every `progress_interval` executions (may be empty).
  std::function<void(const Stats&)> on_progress;
  std::uint64_t progress_interval = 1024;
  /// Polled before every execution (ExploreOptions::stop); null: never stop from outside.
  const std::atomic<bool>* stop = nullptr;
  /// A split search (ExplorationSettings::split_depth > 0): worker threads, and the shard this
  /// process searches (0-based index of shard_count).
  unsigned jobs = 1;
  std::size_t shard_index = 0;
  std::size_t shard_count = 1;
  /// Windows to measure in a timed scenario's violating executions (check --window).
  std::vector<TimingWindow> windows;
  /// The checked mode (ExploreOptions::check_accesses; check and gate turn it on unless
  /// --no-check-accesses). With the sampled audit (AuditOptions::sample; --check-accesses) the
  /// verdict's detail ends with the audit's reach
  /// (AuditOptions::reach: "audit: 12 executions (...), steps moved up to 4 places").
  bool check_accesses = false;
  /// The commutation audit's reach (ExploreOptions::audit; --audit-distance, --audit-every).
  AuditOptions audit;
};

/// How a split search went (explorer/search/split.hpp).
struct SplitRun {
  std::size_t depth = 0;
  std::size_t shard_index = 0, shard_count = 1;
  std::size_t prefixes = 0, shard_prefixes = 0, searched_prefixes = 0;
  std::uint64_t enumeration_executions = 0;
  bool part_complete = false;
  /// What the search below the prefixes covered (e.g. "... one execution per Mazurkiewicz trace
  /// (optimal DPOR), split at depth 8 into 40 prefixes"), the verdict's detail when it holds.
  std::string coverage;
  /// Per counterexample: the prefix it was found below (explorer/search/split.hpp: SplitResult).
  std::vector<std::vector<std::uint32_t>> counterexample_prefix;
  std::size_t split_off_prefixes = 0;  ///< split off large prefixes while they ran
  /// With several shards: each prefix's shard (0-based) and each shard's estimated share.
  std::vector<std::uint32_t> assignment;
  std::vector<double> shard_shares;
};

/// How a decomposed run went (ExplorationSettings::decompose): one entry per owner.
struct DecomposedRun {
  struct Slice {
    std::string owner;      ///< "" for a program without owners (explored whole)
    std::string kind_text;  ///< e.g. "async TaskRun, 2 iterations"
    /// The owner whose slice is the same up to names and was explored instead; "" if this one
    /// was explored. (An owner after the first violation, without all_violations: "" and
    /// explored = false.)
    std::string same_as;
    bool explored = false;
    Verdict verdict = Verdict::kHolds;
    std::vector<std::string> violated;  ///< the properties this slice violates
    Stats stats;
    std::string detail;
  };
  std::vector<Slice> slices;
  std::string argument;       ///< where the argument is, e.g. "docs/model.md#owner-decomposition"
  std::string owners_plural;  ///< "TaskRuns and clients"
  /// A slice counterexample that could not be lifted to the full scenario: the property, the
  /// owner and why. It is reported all the same (in ExplorationResult::counterexamples), and
  /// written as a trace of the slice's scenario, never as one of the scenario: the slice's
  /// scenario file and the trace (both "" when not written).
  struct Unlifted {
    std::string invariant, owner, reason;
    std::string scenario_file, trace_file;
  };
  std::vector<Unlifted> unlifted;
};

/// How a portfolio search went (explorer/search/portfolio.hpp).
struct PortfolioRun {
  struct Member {
    std::string label;
    Stats stats;
    std::string detail;  ///< how its search ended ("" if it was still running)
  };
  std::vector<Member> members;
  /// found_by[i]: the member that found result.counterexamples[i] (its label; "dpor, handed over" for
  /// the split search the exhaustive member was handed over to).
  std::vector<std::string> found_by;
  std::vector<std::uint64_t> found_in_round;
  std::uint64_t rounds = 0;
  bool handed_over = false;  ///< dpor went on as a split search once the bug finders were over
};

struct ScenarioRun {
  ExplorationSettings settings;  ///< as used
  ExplorationResult result;
  /// trace_files[i]: the trace of result.counterexamples[i], as a path under out_dir.
  std::vector<std::string> trace_files;
  /// traces[i]: the document written to trace_files[i].
  std::vector<reports::TraceDocument> traces;
  /// Set when the verdict came by decomposition by owners.
  std::optional<DecomposedRun> decomposition;
  /// Set when the search was split (ExplorationSettings::split_depth).
  std::optional<SplitRun> split;
  /// Set when the portfolio ran (ExplorationSettings::strategy "portfolio").
  std::optional<PortfolioRun> portfolio;
};

/// One scenario's run as JSON, an element of `check --json`'s "scenarios": name, file, model,
/// verdict, detail, strategy, options, counterexamples, coverage (every goal of the model
/// instance, 0 if never reached), stats (with wall time), and when they apply overrides, timed,
/// windows, split (what `interleave merge` checks and combines), portfolio and decomposition. Each
/// of its "counterexamples" is the counterexample's one JSON shape (reports/trace/trace.hpp) plus
/// "trace", the path of its trace file.
nlohmann::json to_json(const Scenario& scenario, const ScenarioRun& run);

/// Explores `scenario` with `settings`. Every counterexample is written atomically to
/// RunContext::out_dir as soon as it is found (see trace_file_name). Throws OutputError when a
/// trace cannot be written and ProgramError when the model misbehaves (e.g. nondeterminism).
ScenarioRun run_scenario(const Scenario& scenario, const ExplorationSettings& settings,
                         const RunContext& context);

/// The result of `scenario` under `settings`, with no trace written and no progress: by owners
/// when the settings say so (as run_scenario), else by the one strategy that stands for the
/// settings (single_strategy: for the portfolio, its DPOR member). What a matrix cell runs.
ExplorationResult explore_result(const Scenario& scenario, const ExplorationSettings& settings);

/// Explores `scenario` by owners (ExplorationSettings::decompose): one slice per owner kind,
/// one verdict (violation if a slice violates, holds only if every slice holds exhaustively,
/// incomplete otherwise), coverage the union, one counterexample per violated property, lifted to
/// the scenario and written as its trace, or, where no lift is found, the slice's own, written as a
/// trace of the slice's scenario next to that scenario's file (DecomposedRun::unlifted); none is
/// written when context.out_dir is empty. Called by run_scenario when
/// settings.decompose is set.
ScenarioRun run_decomposed(const Scenario& scenario, const ExplorationSettings& settings,
                           const RunContext& context);
/// The model's decomposition of `scenario` by owners. Throws InputError (the scenario's file and
/// the JSON path) when the model offers none or refuses it for this scenario.
OwnerDecomposition decomposition_of(const Scenario& scenario);

/// The loop over a decomposition's slices that `check` and `explain` by owners share: each kind
/// (OwnerSlice::kind) searched once. In the order of d.slices, a slice of a kind already searched
/// gets same(slice, first), `first` the index in d.slices of the slice searched for its kind; any
/// other gets search(slice), which returns whether it searched it (false: left out, e.g. because
/// the search stopped; a later slice of that kind is then offered to search again). A caller
/// keeping one record per slice, in order, finds the searched slice's record at `first`.
template <class Same, class Search>
void for_each_owner_slice(const OwnerDecomposition& d, Same&& same, Search&& search) {
  std::map<std::string, std::size_t> searched;  // kind -> index in d.slices
  for (std::size_t i = 0; i < d.slices.size(); ++i) {
    const OwnerSlice& slice = d.slices[i];
    if (const auto it = searched.find(slice.kind); it != searched.end())
      same(slice, it->second);
    else if (search(slice))
      searched.emplace(slice.kind, i);
  }
}

/// Throws InputError (the scenario's file and the JSON path) if `settings` ask for decomposition
/// and the model refuses it for this scenario; nothing otherwise. Before any work.
void check_decomposable(const Scenario& scenario, const ExplorationSettings& settings);

/// The self-contained trace document of one counterexample, explained (reports/analysis/counterfactual.hpp:
/// the steps not involved and the race, by what-if runs of the scenario's program).
reports::TraceDocument make_trace_document(const Scenario& scenario,
                                           const ExplorationSettings& settings,
                                           const std::string& strategy_name,
                                           const Counterexample& counterexample,
                                           const Stats& stats_so_far,
                                           const std::string& tool_version);

/// A file-name-safe form of an invariant name: lowercase letters, digits and '-'.
std::string slug(std::string_view text);
/// "<scenario>.<slug(invariant)>.trace.json"; a slug already in `taken` gets "-2", "-3"...
std::string trace_file_name(const std::string& scenario_name, const std::string& invariant,
                            const std::vector<std::string>& taken);

}  // namespace interleave::run
