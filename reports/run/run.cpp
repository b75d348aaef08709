#include "reports/run/run.hpp"

#include "explorer/search/portfolio.hpp"
#include "explorer/search/split.hpp"
#include "reports/run/errors.hpp"
#include "reports/analysis/counterfactual.hpp"
#include "reports/render/render.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace interleave::run {

namespace {

// --jobs on a strategy that cannot be split runs it on one thread; --shard refuses it. True when
// the search is to be split at a depth chosen for it (choose_split_depth).
bool settle_split(const ExplorationSettings& settings, unsigned jobs, const Shard& shard,
                  const Scenario& scenario) {
  const bool given = shard.count > 1 || settings.split_depth > 0;  // a split asked for by name
  if (settings.decompose) {
    if (!given) return false;  // --jobs alone: the slices run on one thread
    throw UsageError(scenario.name + ": a decomposed search is not split (--shard and "
                                     "split_depth are for a whole search)");
  }
  if (!split_options_for(settings)) {
    if (shard.count <= 1) return false;  // it ignores split_depth and runs on one thread
    throw UsageError(scenario.name + ": strategy " + settings.strategy +
                     " cannot be split into shards: --shard splits a DPOR search (dpor, "
                     "dpor-all-writes)");
  }
  return settings.split_depth == 0 && (given || jobs > 1);
}

}  // namespace

ExplorationResult explore_result(const Scenario& scenario, const ExplorationSettings& settings) {
  if (settings.decompose) return run_decomposed(scenario, settings, RunContext{}).result;
  std::unique_ptr<Strategy> strategy = make_strategy_for(settings);
  Explorer explorer(scenario.instance.program, explore_options_for(settings));
  return explorer.explore(*strategy);
}

RunPlan plan_run(const Scenario& scenario, const ExplorationOverrides& overrides,
                 const Shard& shard, unsigned split_jobs) {
  RunPlan plan;
  plan.settings = apply_overrides(scenario.exploration, overrides);
  // A shard is a share of a DPOR search: the portfolio's DPOR member runs alone (and the
  // options the output records say so).
  if (shard.count > 1) plan.settings = single_strategy(plan.settings);
  make_strategy_for(plan.settings);  // impossible parameters fail before anything runs
  check_decomposable(scenario, plan.settings);  // so does a decomposition the model refuses
  plan.choose_depth = settle_split(plan.settings, split_jobs, shard, scenario);  // a bad split
  return plan;
}

void settle_split_depth(const Scenario& scenario, RunPlan& plan, const std::atomic<bool>* stop) {
  if (!plan.choose_depth) return;
  // Recorded in the settings: the output says which depth it was.
  ExploreOptions o = explore_options_for(plan.settings);
  o.stop = stop;
  plan.settings.split_depth = choose_split_depth(scenario.instance.program, o,
                                                 *split_options_for(plan.settings));
  plan.choose_depth = false;
}

reports::TraceDocument make_trace_document(const Scenario& scenario,
                                           const ExplorationSettings& settings,
                                           const std::string& strategy_name,
                                           const Counterexample& counterexample,
                                           const Stats& stats_so_far,
                                           const std::string& tool_version) {
  reports::TraceDocument doc;
  doc.tool_version = tool_version;
  doc.scenario_file = scenario.file;
  doc.scenario = scenario.document;
  doc.scenario_hash = reports::scenario_hash(scenario.document);
  doc.strategy = strategy_name;
  doc.options = to_json(settings);
  doc.counterexample = counterexample;
  doc.stats = stats_so_far;
  doc.overrides = scenario.overrides;
  reports::explain(doc, scenario.instance.program, explore_options_for(settings));
  return doc;
}

std::string slug(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (keep)
      out += c;
    else if (!out.empty() && out.back() != '-')
      out += '-';
    if (out.size() >= 64) break;
  }
  while (!out.empty() && out.back() == '-')
    out.pop_back();
  return out.empty() ? "violation" : out;
}

std::string trace_file_name(const std::string& scenario_name, const std::string& invariant,
                            const std::vector<std::string>& taken) {
  const std::string base = scenario_name + "." + slug(invariant);
  std::string name = base + ".trace.json";
  for (int n = 2; std::find(taken.begin(), taken.end(), name) != taken.end(); ++n)
    name = base + "-" + std::to_string(n) + ".trace.json";
  return name;
}

namespace {

ScenarioRun run_search(const Scenario& scenario, const ExplorationSettings& settings,
                       const RunContext& context) {
  ScenarioRun run;
  run.settings = settings;
  std::unique_ptr<Strategy> strategy = make_strategy_for(settings);
  const std::string strategy_name = strategy->name();
  ExploreOptions options = explore_options_for(settings);
  options.windows = context.windows;
  options.check_accesses = context.check_accesses;
  options.audit = context.audit;
  std::vector<std::string> names;  // file names used so far
  auto write_trace = [&](const Counterexample& c, const Stats& stats, const std::string& found_by) {
    const std::string name = trace_file_name(scenario.name, c.invariant, names);
    names.push_back(name);
    const std::filesystem::path path = context.out_dir / name;
    reports::TraceDocument doc =
        make_trace_document(scenario, settings, found_by, c, stats, context.tool_version);
    write_file_atomically(path, reports::render_json(doc));
    run.trace_files.push_back(path.string());
    run.traces.push_back(std::move(doc));
  };
  options.on_counterexample = [&](const Counterexample& c, const Stats& stats) {
    write_trace(c, stats, strategy_name);
  };
  if (context.on_progress) {
    options.on_progress = context.on_progress;
    options.progress_interval = std::max<std::uint64_t>(1, context.progress_interval);
  }
  options.stop = context.stop;
  const std::optional<DporStrategy::Options> dpor = split_options_for(settings);
  // The split search of the settings' DPOR (split_depth > 0), under `o`; records how it went.
  auto split_search = [&](const ExploreOptions& o) {
    SplitOptions split;
    split.depth = static_cast<std::size_t>(settings.split_depth);
    split.jobs = std::max(1u, context.jobs);
    split.shard_index = context.shard_index;
    split.shard_count = context.shard_count;
    split.split_after = settings.split_after;
    SplitResult r = explore_split(scenario.instance.program, o, *dpor, split);
    SplitRun& sr = run.split.emplace();
    sr.depth = split.depth;
    sr.shard_index = split.shard_index;
    sr.shard_count = split.shard_count;
    sr.prefixes = r.prefixes;
    sr.shard_prefixes = r.shard_prefixes;
    sr.searched_prefixes = r.searched_prefixes;
    sr.enumeration_executions = r.enumeration_executions;
    sr.part_complete = r.part_complete;
    sr.coverage = r.coverage;
    sr.counterexample_prefix = std::move(r.counterexample_prefix);
    sr.split_off_prefixes = r.split_off_prefixes;
    sr.assignment = r.assignment;
    sr.shard_shares = r.shard_shares;
    return std::move(r.result);
  };
  if (is_portfolio(settings)) {
    PortfolioOptions p;
    p.seed = settings.seed;
    p.jobs = std::max(1u, context.jobs);
    for (PortfolioMember& m : p.members)
      if (m.executions != 0) m.executions = settings.portfolio_executions;
    if (dpor && settings.split_depth > 0) p.hand_over = split_search;
    p.on_counterexample = [&](const Counterexample& c, const Stats& stats,
                              const std::string& found_by) {
      write_trace(c, stats, std::string(kPortfolioName) + ": " + found_by);
    };
    PortfolioResult r = explore_portfolio(scenario.instance.program, options, p);
    PortfolioRun& pr = run.portfolio.emplace();
    for (const PortfolioResult::Member& m : r.members)
      pr.members.push_back({m.label, m.stats, m.detail});
    for (std::size_t i = 0; i < r.counterexample_member.size(); ++i) {
      const std::size_t who = r.counterexample_member[i];
      pr.found_by.push_back(who < r.members.size() ? r.members[who].label
                                                   : r.members.front().label + ", handed over");
      pr.found_in_round.push_back(r.counterexample_round[i]);
    }
    pr.rounds = r.rounds;
    pr.handed_over = r.handed_over;
    // The split's counterexample prefixes are of its own list, not the portfolio's.
    if (run.split) run.split->counterexample_prefix.clear();
    run.result = std::move(r.result);
    return run;
  }
  if (dpor && settings.split_depth > 0) {
    run.result = split_search(options);
    return run;
  }
  Explorer explorer(scenario.instance.program, std::move(options));
  run.result = explorer.explore(*strategy);
  return run;
}

}  // namespace

ScenarioRun run_scenario(const Scenario& scenario, const ExplorationSettings& settings,
                         const RunContext& context) {
  ScenarioRun run = settings.decompose ? run_decomposed(scenario, settings, context)
                                       : run_search(scenario, settings, context);
  if (context.check_accesses && context.audit.sample)
    run.result.detail += "; " + context.audit.reach(run.result.stats.audited);
  return run;
}

nlohmann::json to_json(const Scenario& scenario, const ScenarioRun& run) {
  const ExplorationResult& r = run.result;
  nlohmann::json cex = nlohmann::json::array();
  for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
    nlohmann::json c = to_json(r.counterexamples[i]);
    c["trace"] = i < run.trace_files.size() ? run.trace_files[i] : std::string();
    cex.push_back(std::move(c));
  }
  std::map<std::string, std::uint64_t> coverage;
  for (const auto& g : scenario.instance.coverage_goals)
    coverage[g] = 0;
  for (const auto& [g, n] : r.covered)
    coverage[g] = n;
  nlohmann::json j{{"name", scenario.name},
                   {"file", scenario.file},
                   {"model", scenario.model},
                   {"verdict", to_string(r.verdict)},
                   {"detail", r.detail},
                   {"strategy", r.strategy},
                   {"options", to_json(run.settings)},
                   {"counterexamples", cex},
                   {"coverage", coverage},
                   {"stats", to_json(r.stats, /*with_timing=*/true)}};
  if (!scenario.overrides.empty()) j["overrides"] = scenario.overrides;
  if (r.timed) j["timed"] = true;  // only for a timed scenario: untimed summaries are unchanged
  if (!r.windows.empty()) j["windows"] = windows_to_json(r.windows);
  if (run.split) {
    const SplitRun& sp = *run.split;
    // What `interleave merge` checks and combines (reports/cli/merge.cpp).
    j["split"] = {{"scenario_hash", reports::scenario_hash(scenario.document)},
                  {"depth", sp.depth},
                  {"prefixes", sp.prefixes},
                  {"shard", {{"index", sp.shard_index + 1}, {"count", sp.shard_count}}},
                  {"shard_prefixes", sp.shard_prefixes},
                  {"searched_prefixes", sp.searched_prefixes},
                  {"part_complete", sp.part_complete},
                  {"coverage", sp.coverage},
                  {"enumeration_executions", sp.enumeration_executions},
                  {"split_off_prefixes", sp.split_off_prefixes},
                  {"counterexample_prefixes", sp.counterexample_prefix}};
    if (sp.shard_count > 1) {
      // Which shard searches each prefix (by estimated size): merge checks every shard agrees.
      nlohmann::json assignment = nlohmann::json::array();
      for (const std::uint32_t s : sp.assignment)
        assignment.push_back(s + 1);
      j["split"]["assignment"] = assignment;
      j["split"]["estimated_share"] =
          sp.shard_index < sp.shard_shares.size() ? sp.shard_shares[sp.shard_index] : 0.0;
    }
  }
  if (run.portfolio) {
    const PortfolioRun& pf = *run.portfolio;
    nlohmann::json members = nlohmann::json::array();
    for (const PortfolioRun::Member& m : pf.members)
      members.push_back({{"label", m.label},
                         {"stats", to_json(m.stats, /*with_timing=*/false)},
                         {"detail", m.detail}});
    nlohmann::json found = nlohmann::json::array();
    for (std::size_t i = 0; i < pf.found_by.size() && i < r.counterexamples.size(); ++i)
      found.push_back({{"invariant", r.counterexamples[i].invariant},
                       {"member", pf.found_by[i]},
                       {"round", pf.found_in_round[i]}});
    j["portfolio"] = {{"rounds", pf.rounds},
                      {"members", members},
                      {"found_by", found},
                      {"handed_over", pf.handed_over}};
  }
  if (run.decomposition) {
    nlohmann::json slices = nlohmann::json::array();
    for (const DecomposedRun::Slice& s : run.decomposition->slices) {
      nlohmann::json sj{{"owner", s.owner}, {"kind", s.kind_text}, {"explored", s.explored}};
      if (!s.same_as.empty()) sj["same_as"] = s.same_as;
      if (s.explored) {
        sj["verdict"] = to_string(s.verdict);
        sj["violated"] = s.violated;
        sj["stats"] = to_json(s.stats, /*with_timing=*/true);
      }
      slices.push_back(std::move(sj));
    }
    nlohmann::json unlifted = nlohmann::json::array();
    for (const auto& u : run.decomposition->unlifted)
      unlifted.push_back({{"invariant", u.invariant},
                          {"owner", u.owner},
                          {"reason", u.reason},
                          {"scenario", u.scenario_file},
                          {"trace", u.trace_file}});
    j["decomposition"] = {{"argument", run.decomposition->argument},
                          {"slices", slices},
                          {"unlifted", unlifted}};
    if (r.verdict == Verdict::kHolds)
      j["decomposition"]["holds_for"] = "every cluster with any number of " +
                                        run.decomposition->owners_plural + " of these kinds";
  }
  return j;
}

}  // namespace interleave::run
