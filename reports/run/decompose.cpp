// A scenario explored by owners (ExplorationSettings::decompose): the model's decomposition
// (explorer/decomposition.hpp), one exploration per distinct owner kind, one combined verdict,
// and every slice counterexample lifted to the scenario before it is written.
#include "explorer/input_error.hpp"
#include "reports/run/run.hpp"
#include "reports/render.hpp"

#include <map>
#include <set>

namespace interleave::cli {

namespace {

OwnerDecomposition decomposition_of(const Scenario& scenario) {
  if (!scenario.decompose)
    throw InputError(scenario.file, "/exploration/decompose",
                     "this scenario's model offers no decomposition by owners");
  DecompositionOffer offer = scenario.decompose();
  if (!offer.decomposition)
    throw InputError(scenario.file, offer.refusal_path.empty() ? "/" : offer.refusal_path,
                     offer.refusal + " (decomposition asked by exploration.decompose or "
                                     "--decompose)");
  return std::move(*offer.decomposition);
}

}  // namespace

void check_decomposable(const Scenario& scenario, const ExplorationSettings& settings) {
  if (settings.decompose) decomposition_of(scenario);
}

ScenarioRun run_decomposed(const Scenario& scenario, const ExplorationSettings& settings,
                           const RunContext& context) {
  const OwnerDecomposition d = decomposition_of(scenario);
  ScenarioRun run;
  run.settings = settings;
  DecomposedRun dr;
  dr.argument = d.argument;
  dr.owners_plural = d.owners_plural;
  ExplorationResult& total = run.result;
  std::vector<std::string> names;  // trace file names used so far
  std::set<std::string> lifted;    // properties with a written trace
  std::map<std::string, std::size_t> explored_kind;  // kind -> index into dr.slices
  bool any_violation = false, all_complete = true;
  std::string strategy_name;
  for (const OwnerSlice& slice : d.slices) {
    DecomposedRun::Slice out;
    out.owner = slice.owner;
    out.kind_text = slice.kind_text;
    if (const auto it = explored_kind.find(slice.kind); it != explored_kind.end()) {
      const DecomposedRun::Slice& same = dr.slices[it->second];
      out.same_as = same.owner;
      out.verdict = same.verdict;
      out.violated = same.violated;
      dr.slices.push_back(std::move(out));
      continue;
    }
    if (any_violation && !settings.all_violations) {
      all_complete = false;
      dr.slices.push_back(std::move(out));  // not explored: the search stops at a violation
      continue;
    }
    std::unique_ptr<Strategy> strategy = make_strategy_for(settings);
    strategy_name = strategy->name();
    ExploreOptions options = explore_options_for(settings);
    if (context.on_progress) {
      options.on_progress = context.on_progress;
      options.progress_interval = std::max<std::uint64_t>(1, context.progress_interval);
    }
    Explorer explorer(slice.program, options);
    ExplorationResult r = explorer.explore(*strategy);
    out.explored = true;
    out.verdict = r.verdict;
    out.stats = r.stats;
    out.detail = r.detail;
    for (const Counterexample& c : r.counterexamples)
      out.violated.push_back(c.invariant);
    total.stats += r.stats;
    for (const auto& [goal, n] : r.covered)
      total.covered[goal] += n;
    if (r.verdict == Verdict::kViolation) any_violation = true;
    if (r.verdict != Verdict::kHolds) all_complete = false;
    if (r.stopped_at_first_violation) total.stopped_at_first_violation = true;
    for (const Counterexample& c : r.counterexamples) {
      if (lifted.count(c.invariant) != 0) continue;
      if (slice.owner.empty()) {  // no owners: the slice is the scenario itself
        lifted.insert(c.invariant);
        total.counterexamples.push_back(c);
        continue;
      }
      LiftResult lr = lift_counterexample(scenario.instance.program, d, slice.owner, c, options);
      if (!lr.counterexample) {
        dr.unlifted.push_back({c.invariant, slice.owner, lr.failure});
        continue;
      }
      lifted.insert(c.invariant);
      total.counterexamples.push_back(std::move(*lr.counterexample));
    }
    explored_kind.emplace(slice.kind, dr.slices.size());
    dr.slices.push_back(std::move(out));
  }
  // Drop unlifted properties that another slice lifted after all.
  std::erase_if(dr.unlifted, [&](const DecomposedRun::Unlifted& u) {
    return lifted.count(u.invariant) != 0;
  });
  total.strategy = strategy_name;
  total.verdict = any_violation  ? Verdict::kViolation
                  : all_complete ? Verdict::kHolds
                                 : Verdict::kIncomplete;
  std::size_t explored = 0;
  for (const auto& s : dr.slices)
    explored += s.explored ? 1 : 0;
  total.detail = "by owner decomposition (" + d.argument + "): " + std::to_string(explored) +
                 " of " + std::to_string(dr.slices.size()) + " slices explored";
  if (total.verdict == Verdict::kIncomplete) {
    for (const auto& s : dr.slices)
      if (s.explored && s.verdict == Verdict::kIncomplete) {
        total.detail += "; slice " + s.owner + ": " + s.detail;
        break;
      }
  }
  // Write the lifted counterexamples: traces of the scenario the user wrote (not without an
  // output directory: the matrix only compares verdicts).
  for (const Counterexample& c : total.counterexamples) {
    if (context.out_dir.empty()) break;
    const std::string name = trace_file_name(scenario.name, c.invariant, names);
    names.push_back(name);
    const std::filesystem::path path = context.out_dir / name;
    reports::TraceDocument doc = make_trace_document(scenario, settings, strategy_name, c,
                                                     total.stats, context.tool_version);
    write_file_atomically(path, reports::render_json(doc));
    run.trace_files.push_back(path.string());
    run.traces.push_back(std::move(doc));
  }
  run.decomposition = std::move(dr);
  return run;
}

}  // namespace interleave::cli
