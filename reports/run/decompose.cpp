// A scenario explored by owners (ExplorationSettings::decompose): the model's decomposition
// (explorer/search/decomposition.hpp), one exploration per distinct owner kind, one combined verdict,
// and every slice counterexample lifted to the scenario before it is written.
#include "explorer/core/input_error.hpp"
#include "reports/run/run.hpp"
#include "reports/render/render.hpp"

#include <algorithm>
#include <optional>

namespace interleave::run {

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

namespace {

// The scenario of `slice` (OwnerSlice::document), named "<scenario>.slice-<owner>", without an
// expectation and not decomposed: what a slice's own counterexample is a trace of.
Scenario scenario_of_slice(const Scenario& scenario, const OwnerSlice& slice) {
  Scenario s = scenario;
  s.name = scenario.name + ".slice-" + slice.owner;
  s.description = "The slice of owner " + slice.owner + " (" + slice.kind_text + ") of scenario " +
                  scenario.name + ": the scenario with that owner alone.";
  s.document = slice.document;
  s.document["name"] = s.name;
  s.document["description"] = s.description;
  s.document.erase("expect");
  if (s.document.contains("exploration") && s.document["exploration"].is_object())
    s.document["exploration"].erase("decompose");
  s.exploration.decompose = false;
  s.expect.reset();
  s.instance.program = slice.program;
  s.decompose = nullptr;
  return s;
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
  std::vector<std::pair<std::string, Counterexample>> found;  // (slice owner, counterexample)
  bool any_violation = false, all_complete = true;
  bool exhaustive = true;  // every slice explored was searched to its end (or stopped by request)
  std::string strategy_name;
  const auto slice_record = [](const OwnerSlice& slice) {
    DecomposedRun::Slice out;
    out.owner = slice.owner;
    out.kind_text = slice.kind_text;
    return out;
  };
  const auto same_kind = [&](const OwnerSlice& slice, std::size_t first) {
    DecomposedRun::Slice out = slice_record(slice);
    const DecomposedRun::Slice& same = dr.slices[first];
    out.same_as = same.owner;
    out.verdict = same.verdict;
    out.violated = same.violated;
    dr.slices.push_back(std::move(out));
  };
  const auto explore_slice = [&](const OwnerSlice& slice) {
    DecomposedRun::Slice out = slice_record(slice);
    if (any_violation && !settings.all_violations) {
      all_complete = false;
      dr.slices.push_back(std::move(out));  // not explored: the search stops at a violation
      return false;
    }
    std::unique_ptr<Strategy> strategy = make_strategy_for(settings);
    strategy_name = strategy->name();
    ExploreOptions options = explore_options_for(settings);
    options.check_accesses = context.check_accesses;
    options.audit = context.audit;
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
    exhaustive = exhaustive && r.exhaustive;
    for (Counterexample& c : r.counterexamples)
      found.emplace_back(slice.owner, std::move(c));
    dr.slices.push_back(std::move(out));
    return true;
  };
  for_each_owner_slice(d, same_kind, explore_slice);
  // Every property a slice violates is reported: lifted to the scenario, else the slice's own
  // counterexample (a trace of the slice's scenario, written next to it). One whose slice has no
  // scenario document cannot be written: it comes last, after those with a trace.
  std::vector<ReportedViolation> reported = report_violations(
      scenario.instance.program, d, found, explore_options_for(settings));
  auto slice_of = [&d](const std::string& owner) -> const OwnerSlice& {
    return *std::find_if(d.slices.begin(), d.slices.end(),
                         [&](const OwnerSlice& s) { return s.owner == owner; });
  };
  std::stable_partition(reported.begin(), reported.end(), [&](const ReportedViolation& v) {
    return v.lifted || !slice_of(v.owner).document.is_null();
  });
  for (ReportedViolation& v : reported) {
    if (!v.lifted) dr.unlifted.push_back({v.counterexample.invariant, v.owner, v.failure, "", ""});
    total.counterexamples.push_back(std::move(v.counterexample));
  }
  total.strategy = strategy_name;
  total.exhaustive = exhaustive;
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
  // Write the counterexamples (not without an output directory: the matrix only compares
  // verdicts): a lifted one as a trace of the scenario the user wrote; a slice's own as a trace
  // of the slice's scenario, whose file is written next to it.
  for (const Counterexample& c : total.counterexamples) {
    if (context.out_dir.empty()) break;
    const auto u = std::find_if(dr.unlifted.begin(), dr.unlifted.end(),
                                [&](const auto& x) { return x.invariant == c.invariant; });
    std::optional<Scenario> slice_scenario;
    if (u != dr.unlifted.end()) {
      const OwnerSlice& slice = slice_of(u->owner);
      if (slice.document.is_null()) break;  // these come last
      slice_scenario = scenario_of_slice(scenario, slice);
      const std::filesystem::path file = context.out_dir / (slice_scenario->name + ".json");
      slice_scenario->file = file.string();
      write_file_atomically(file, slice_scenario->document.dump(2) + "\n");
      u->scenario_file = file.string();
    }
    const Scenario& of = slice_scenario ? *slice_scenario : scenario;
    const std::string name = trace_file_name(of.name, c.invariant, names);
    names.push_back(name);
    const std::filesystem::path path = context.out_dir / name;
    ExplorationSettings used = settings;
    used.decompose = !slice_scenario;  // a slice's trace replays on the slice, not decomposed
    reports::TraceDocument doc = make_trace_document(of, used, strategy_name, c, total.stats,
                                                     context.tool_version);
    write_file_atomically(path, reports::render_json(doc));
    if (u != dr.unlifted.end()) u->trace_file = path.string();
    run.trace_files.push_back(path.string());
    run.traces.push_back(std::move(doc));
  }
  run.decomposition = std::move(dr);
  return run;
}

}  // namespace interleave::run
