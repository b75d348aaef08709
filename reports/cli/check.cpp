// `interleave check SCENARIO...`: explore each scenario, print its verdict, write counterexamples.
#include "explorer/core/json_reader.hpp"
#include "reports/cli/commands.hpp"
#include "reports/run/errors.hpp"
#include "reports/cli/interrupt.hpp"
#include "reports/cli/progress.hpp"
#include "reports/cli/text.hpp"

#include "explorer/search/split.hpp"
#include "explorer/strategies/factory.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdio>
#include <filesystem>
#include <limits>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

constexpr unsigned kMaxJobs = 256;

}  // namespace

int exit_code_of(Verdict v) {
  switch (v) {
    case Verdict::kHolds:
      return static_cast<int>(ExitCode::kHolds);
    case Verdict::kViolation:
      return static_cast<int>(ExitCode::kViolation);
    case Verdict::kIncomplete:
      return static_cast<int>(ExitCode::kIncomplete);
  }
  return static_cast<int>(ExitCode::kInternalError);
}

ScenarioRun run_with_progress(const Scenario& scenario, const ExplorationSettings& settings,
                              RunContext run_ctx, const Context& ctx, bool quiet) {
  std::optional<ProgressLine> progress;
  if ((ctx.env.progress || ctx.env.progress_lines) && !quiet) {
    // A decomposed run explores slices, not the scenario's program: an estimate of the whole
    // program's tree says nothing about it, and on a large world costs minutes (no estimate).
    // Nor has a stateful search one: what it prunes depends on the states, not on the tree.
    const StrategyDescriptor* d = find_strategy(settings.strategy);
    progress.emplace(ctx.err, scenario.name,
                     ctx.env.progress ? ProgressLine::Mode::kTerminal : ProgressLine::Mode::kLines,
                     settings.decompose || (d != nullptr && d->stateful)
                         ? std::function<std::optional<ProgressEstimate>()>()
                         : progress_estimator(scenario, settings, &interrupt_requested()));
    run_ctx.on_progress = [&progress](const Stats& s) { progress->update(s); };
  }
  return run_scenario(scenario, settings, run_ctx);
}

CLI::App* add_check(CLI::App& app, CheckArgs& a) {
  CLI::App* c = app.add_subcommand(
      "check", "Explore scenarios and print a verdict for each (holds, violation, incomplete)");
  c->add_option("scenarios", a.scenarios, "Scenario files, or directories searched for *.json")
      ->required()
      ->type_name("SCENARIO");
  add_exploration_options(*c, a.overrides);
  c->add_option("--preset", a.preset,
                "Run under this policy preset: the scenario's policy becomes {\"preset\": NAME} "
                "(see 'interleave list')")
      ->type_name("NAME");
  c->add_option("--set", a.sets,
                "Set a scenario key before validation, e.g. exploration.max_preemptions=3 or "
                "policy.KNOB=VALUE (any key of the file; VALUE is JSON, else text; repeatable, "
                "applied in order after --preset)")
      ->type_name("PATH=VALUE")
      ->take_all()
      ->allow_extra_args(false);
  c->add_option("--window", a.windows,
                "In a timed scenario, measure the least and greatest time from the first step "
                "to the second over the violating executions (a step: LABEL, ACTOR:LABEL, "
                "either with #N for its Nth occurrence; repeatable)")
      ->type_name("FROM..TO");
  c->add_option("--out", a.out_dir, "Directory for counterexample traces (default: out)")
      ->type_name("DIR");
  add_check_accesses_options(*c, a.checks);
  c->add_flag("--html", a.html,
              "Also write each counterexample as a self-contained HTML page, NAME.PROPERTY.html "
              "beside its trace (as 'show --format html' renders it)");
  c->add_flag("--json", a.json, "Print a machine-readable summary (JSON) on stdout");
  c->add_flag("--quiet,-q", a.quiet, "Print only the verdict line of each scenario");
  add_jobs_option(*c, a.jobs);
  c->add_option("--shard", a.shard,
                "Search only shard K of N of the split search (1 <= K <= N); 'interleave merge' "
                "combines the --json summaries of the N shards")
      ->type_name("K/N");
  c->footer(
      "A counterexample is written to DIR/NAME.PROPERTY.trace.json (the scenario's name, the\n"
      "violated property) the moment it is found. Progress goes to stderr: a line redrawn in\n"
      "place on a terminal, else a line every 10 s of a long search.\n\n"
      "SIGINT or SIGTERM (Ctrl-C) stops the search at the next execution: the summary is\n"
      "printed with the verdict incomplete (interrupted), the counterexamples found are on\n"
      "disk, and the exit code is 3 (1 if a violation was found); a second signal ends it at\n"
      "once.\n\n"
      "Exit codes: 0 every scenario holds, 1 some violation, 3 some incomplete (and none "
      "violated),\n            2 bad input or usage, 4 internal error.\n\n"
      "Examples:\n"
      "  interleave check scenario.json\n"
      "  interleave check scenarios/ --out build/traces --quiet\n"
      "  interleave check scenario.json --strategy random --seed 7 --max-executions 10000\n"
      "  interleave check scenario.json --set exploration.max_preemptions=3\n"
      "  interleave check scenario.json --all-violations --json > summary.json\n"
      "  interleave check scenario.json --jobs 0\n"
      "  interleave check scenario.json --strategy dpor --shard 3/16 --json > shard-3.json");
  return c;
}

namespace {

Shard parse_shard(const std::string& text) {
  Shard s;
  if (text.empty()) return s;
  const auto slash = text.find('/');
  auto number = [&](const std::string& part, std::size_t& v) {
    if (part.empty() || part.size() > 6 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      return false;
    v = std::stoul(part);
    return true;
  };
  if (slash == std::string::npos || !number(text.substr(0, slash), s.index) ||
      !number(text.substr(slash + 1), s.count) || s.count == 0 || s.index == 0 ||
      s.index > s.count)
    throw UsageError("--shard: expected K/N with 1 <= K <= N <= 999999, got '" + text + "'");
  --s.index;
  return s;
}

// "[ACTOR:]LABEL[#N]". An actor's name may hold ':' and '#' (TaskRun:t1, TabletSink:t1#1/E3/cn1);
// a label holds neither: the actor ends at the last ':', the occurrence follows the label's '#'.
StepSelector parse_window_step(const std::string& text, const std::string& whole) {
  StepSelector s;
  std::string rest = text;
  if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
    s.actor = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
  }
  if (const auto hash = rest.rfind('#'); hash != std::string::npos) {
    const std::string n = rest.substr(hash + 1);
    if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(n) == 0)
      throw UsageError("--window: expected an occurrence from 1 after '#' in '" + whole + "'");
    s.occurrence = static_cast<std::uint32_t>(std::stoul(n));
    rest.resize(hash);
  }
  if (rest.empty()) throw UsageError("--window: a step without a label in '" + whole + "'");
  s.label = rest;
  return s;
}

std::vector<TimingWindow> parse_windows(const std::vector<std::string>& texts) {
  std::vector<TimingWindow> out;
  for (const std::string& t : texts) {
    const auto dots = t.find("..");
    if (dots == std::string::npos)
      throw UsageError("--window: expected FROM..TO (e.g. Writer:create..Dropper:drop), got '" +
                       t + "'");
    out.push_back({t, parse_window_step(t.substr(0, dots), t), parse_window_step(t.substr(dots + 2), t)});
  }
  return out;
}

}  // namespace

unsigned jobs_of(std::optional<unsigned> jobs) {
  if (jobs && *jobs != 0) return *jobs;
  return std::max(1u, std::thread::hardware_concurrency());
}

void CheckAccessesArgs::apply(RunContext& run_ctx) const {
  run_ctx.check_accesses = !off;
  run_ctx.audit.sample = on;
  run_ctx.audit.max_distance = audit_distance;
  run_ctx.audit.every = audit_every;
}

void add_check_accesses_options(CLI::App& command, CheckAccessesArgs& args) {
  CLI::Option* on =
      command.add_flag("--check-accesses", args.on,
                       "The checked mode with the sampled audit: besides the checks (on by "
                       "default), sampled executions get the commutation audit, whose reach the "
                       "verdict's detail states (slower; the verdict is the same for a correct "
                       "model)");
  command
      .add_flag("--no-check-accesses", args.off,
                "No checked mode: by default a step that uses Checked state it did not declare "
                "stops the search naming the object, the actor and the step")
      ->excludes(on);
  command
      .add_option("--audit-distance", args.audit_distance,
                  "The checked mode's commutation audit moves a step up to N places past the "
                  "steps declared independent of it, each way (default 4)")
      ->type_name("N")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  command
      .add_option("--audit-every", args.audit_every,
                  "The executions the checked mode audits: 0, the 1st, 2nd, 4th, 8th, ... "
                  "(default); N, the 1st and every Nth")
      ->type_name("N")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1'000'000'000}));
}

void add_jobs_option(CLI::App& command, std::optional<unsigned>& jobs) {
  command
      .add_option("--jobs,-j", jobs,
                  "Threads (0 or not given: one per core). The portfolio runs its members side "
                  "by side on them; for check, a --jobs given also splits a DPOR search (at "
                  "split_depth, else at the smallest depth with 8 prefixes, which the output "
                  "records). The output is the same for every N > 1")
      ->type_name("N")
      ->check(CLI::Range(0u, kMaxJobs));
}

int run_check(const CheckArgs& args, const Context& ctx) {
  const Shard shard = parse_shard(args.shard);
  const std::vector<TimingWindow> windows = parse_windows(args.windows);
  const unsigned jobs = jobs_of(args.jobs);
  // Only a --jobs given splits a DPOR search (the depth it chooses is part of the output); the
  // portfolio's rounds use every core either way, which changes nothing in the output.
  const unsigned split_jobs = args.jobs ? jobs : 1;
  const std::vector<Scenario> scenarios = load_scenarios(
      args.scenarios, ctx.models, parse_scenario_overrides(args.preset, args.sets));
  std::vector<RunPlan> plans;  // every one checked before anything runs
  for (const auto& s : scenarios)
    plans.push_back(plan_run(s, args.overrides, shard, split_jobs));
  check_output_directory("--out", args.out_dir);  // before anything runs

  Verdict overall = Verdict::kHolds;  // the worst of the scenarios' verdicts
  nlohmann::json summaries = nlohmann::json::array();
  std::vector<std::string> not_run;  // after an interruption
  std::string interrupted;           // "" or "interrupted by SIGINT"
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const Scenario& scenario = scenarios[i];
    if (!interrupted.empty()) {
      not_run.push_back(scenario.name);
      continue;
    }
    RunContext run_ctx;
    run_ctx.tool_version = ctx.env.tool_version;
    run_ctx.out_dir = args.out_dir;
    run_ctx.stop = &interrupt_requested();
    run_ctx.jobs = jobs;
    run_ctx.shard_index = shard.index;
    run_ctx.shard_count = shard.count;
    run_ctx.windows = windows;
    args.checks.apply(run_ctx);
    settle_split_depth(scenario, plans[i], &interrupt_requested());
    ScenarioRun run = run_with_progress(scenario, plans[i].settings, run_ctx, ctx, args.quiet);
    if (run.result.interrupted) {
      interrupted = interruption_text();
      if (run.result.verdict == Verdict::kIncomplete) run.result.detail = interrupted;
    }
    overall = worse(overall, run.result.verdict);
    if (args.html)
      for (const std::string& file : run.trace_files)
        write_file_atomically(page_path(file),
                              render_page(reports::read_trace_file(file), ctx.models));
    if (args.json)
      summaries.push_back(to_json(scenario, run));
    else
      ctx.out << format_run(scenario, run, args.quiet) << std::flush;
  }
  if (!interrupted.empty()) overall = worse(overall, Verdict::kIncomplete);
  const int exit_code = exit_code_of(overall);
  if (args.json) {
    nlohmann::json doc{{"tool_version", ctx.env.tool_version},
                       {"exit_code", exit_code},
                       {"scenarios", summaries}};
    if (!interrupted.empty()) {
      doc["interrupted"] = interrupted;
      doc["not_run"] = not_run;
    }
    ctx.out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else if (!interrupted.empty()) {
    ctx.out << interrupted;
    if (!not_run.empty()) {
      ctx.out << ": " << not_run.size() << " scenario" << (not_run.size() == 1 ? "" : "s")
              << " not run:";
      for (const auto& n : not_run)
        ctx.out << " " << n;
    }
    ctx.out << "\n" << std::flush;
  }
  return exit_code;
}

}  // namespace interleave::cli
