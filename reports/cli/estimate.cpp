// `interleave estimate SCENARIO...`: how many executions the scenario's search would run, by
// Knuth's estimator (explorer/search/estimate.hpp), without searching. Also the estimate behind the
// progress line's total and ETA (progress_estimator).
#include "explorer/search/estimate.hpp"
#include "reports/cli/commands.hpp"
#include "reports/run/errors.hpp"
#include "reports/cli/interrupt.hpp"

#include <cstdio>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, x < 1e6 ? "%.0f" : "%.3g", x);
  return buf;
}

std::string percent(double error, double mean) {
  if (mean <= 0) return "0%";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100 * error / mean);
  return buf;
}

}  // namespace

std::function<std::optional<ProgressEstimate>()> progress_estimator(
    const Scenario& scenario, const ExplorationSettings& settings, const std::atomic<bool>* stop) {
  return [&scenario, settings, stop]() -> std::optional<ProgressEstimate> {
    const SearchEstimate e =
        estimate_search(scenario, settings, EstimateOptions::kDefaultProbes, 0, stop);
    ProgressEstimate p;
    switch (e.kind) {
      case SearchEstimate::Kind::kKnown:
        p.total = static_cast<double>(e.known);
        break;
      case SearchEstimate::Kind::kTree:
        p.total = e.tree.traces;
        p.standard_error = e.tree.traces_error;
        p.lower_bound = e.tree.blind();
        p.blocked_share = e.tree.blocked_share();
        break;
      case SearchEstimate::Kind::kUpperBound:
        return std::nullopt;
    }
    if (settings.max_executions != 0)
      p.total = std::min(p.total, static_cast<double>(settings.max_executions));
    return p;
  };
}

CLI::App* add_estimate(CLI::App& app, EstimateArgs& a) {
  CLI::App* c = app.add_subcommand(
      "estimate", "Estimate how many executions a scenario's search runs, without searching");
  c->add_option("scenarios", a.scenarios, "Scenario files, or directories searched for *.json")
      ->required()
      ->type_name("SCENARIO");
  c->add_option("--probes", a.probes,
                "Random probes of the search tree (default " +
                    std::to_string(EstimateOptions::kDefaultProbes) + ")")
      ->type_name("N")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100'000'000}));
  c->add_option("--seed", a.seed, "Seed of the probes (default 0): the same seed, the same estimate")
      ->type_name("S");
  c->add_option("--strategy", a.strategy,
                "Estimate the search of this strategy instead of the scenario's")
      ->type_name("NAME");
  c->add_flag("--json", a.json, "Print the estimates as JSON");
  c->footer(
      "Knuth's estimator: each probe is one execution that picks uniformly among the branches\n"
      "the search would explore at each node (for dpor: the enabled actors not in the sleep\n"
      "set) and multiplies their numbers; the mean over the probes estimates the number of\n"
      "executions, with its standard error. For dpor it is the number of Mazurkiewicz traces:\n"
      "DPOR's executions less its sleep-set-blocked ones. Deterministic for a given seed.\n\n"
      "Exit codes: 0 estimated, 2 bad input or usage, 3 interrupted, 4 internal error.\n\n"
      "Examples:\n"
      "  interleave estimate scenario.json\n"
      "  interleave estimate scenario.json --probes 100000 --seed 1\n"
      "  interleave estimate scenario.json --strategy dfs --json");
  return c;
}

int run_estimate(const EstimateArgs& args, const Context& ctx) {
  const std::vector<Scenario> scenarios = load_scenarios(args.scenarios, ctx.models);
  std::vector<ExplorationSettings> settings;
  for (const Scenario& s : scenarios) {
    ExplorationSettings x = s.exploration;
    if (!args.strategy.empty()) {
      if (find_strategy(args.strategy) == nullptr) {
        ExplorationOverrides o;
        o.values["strategy"] = args.strategy;
        x = apply_overrides(x, o);  // the registry's error for an unknown name
      }
      x.strategy = args.strategy;
    }
    make_strategy_for(x);  // impossible parameters fail before anything runs
    settings.push_back(std::move(x));
  }
  nlohmann::json all = nlohmann::json::array();
  bool interrupted = false;
  for (std::size_t i = 0; i < scenarios.size() && !interrupted; ++i) {
    const Scenario& s = scenarios[i];
    const SearchEstimate e =
        estimate_search(s, settings[i], args.probes, args.seed, &interrupt_requested());
    interrupted = interrupt_requested().load();
    nlohmann::json j{{"name", s.name}, {"file", s.file}, {"strategy", e.strategy}};
    std::string text = s.name + ": " + e.strategy + ": ";
    if (e.kind == SearchEstimate::Kind::kKnown) {
      j["executions"] = e.known;
      j["estimated"] = false;
      text += std::to_string(e.known) + " executions (the strategy's own count, not estimated)\n";
    } else {
      const TreeEstimate& t = e.tree;
      const bool sleep = e.tree_shape == EstimateOptions::Tree::kSleepSets;
      j["estimated"] = true;
      j["probes"] = t.probes;
      j["seed"] = args.seed;
      j["tree"] = sleep ? "sleep-sets" : "all-interleavings";
      j["executions"] = t.traces;
      j["standard_error"] = t.traces_error;
      j["blocked_probes"] = t.blocked_probes;
      j["lower_bound"] = sleep && t.blind();
      j["cut_probes"] = t.cut_probes;
      j["max_depth"] = t.max_depth;
      text += (e.kind == SearchEstimate::Kind::kUpperBound ? "at most ~" : "~") +
              number(t.traces) + " executions (standard error " + percent(t.traces_error, t.traces) +
              ", " + std::to_string(t.probes) + " probes, seed " + std::to_string(args.seed) + ")\n";
      if (sleep)
        text += "  Mazurkiewicz traces: what DPOR runs, besides its sleep-set-blocked executions (" +
                std::to_string(t.blocked_probes) + " of " + std::to_string(t.probes) +
                " probes blocked)\n";
      if (sleep && t.blind()) {
        char share[32];
        std::snprintf(share, sizeof share, "%.2f%%", 100 * t.blocked_share());
        text += "  " + std::string(share) +
                " of the probes ended sleep-set blocked: the estimate rests on the few that did "
                "not, and is a lower bound of unknown quality\n";
      }
      else if (e.kind == SearchEstimate::Kind::kUpperBound)
        text += "  every interleaving (what dfs runs): a bounded search runs fewer\n";
      text += "  deepest probe: " + std::to_string(t.max_depth) + " steps" +
              (t.cut_probes > 0 ? ", " + std::to_string(t.cut_probes) + " cut by the step bound"
                                : std::string()) +
              "\n";
    }
    if (args.json)
      all.push_back(std::move(j));
    else
      ctx.out << text;
  }
  if (args.json) {
    nlohmann::json doc{{"tool_version", ctx.env.tool_version}, {"estimates", all}};
    if (interrupted) doc["interrupted"] = interruption_text();
    ctx.out << doc.dump(2) << "\n";
  } else if (interrupted) {
    ctx.out << interruption_text() << ": the estimates above average the probes that ran\n";
  }
  ctx.out << std::flush;
  return interrupted ? static_cast<int>(ExitCode::kIncomplete) : static_cast<int>(ExitCode::kHolds);
}

}  // namespace interleave::cli
