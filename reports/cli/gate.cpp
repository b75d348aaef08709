// `interleave gate DIR_OR_FILES...`: the CI invariant gate. Runs every scenario, compares each
// outcome with the scenario's expectation (verdict, exact set of violated invariants, coverage
// goals reached), prints a summary table, and optionally writes JUnit XML, a Markdown report
// with the counterexamples, a SARIF log and a summary for the CI run's page, and prints GitHub
// workflow annotations. Exits 0 only when every scenario meets its expectation.
#include "reports/cli/commands.hpp"
#include "reports/run/explanation.hpp"
#include "reports/run/errors.hpp"
#include "reports/run/expectation.hpp"
#include "reports/cli/interrupt.hpp"
#include "reports/render/formats.hpp"
#include "reports/gate/gate_report.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string_view>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fs", s);
  return buf;
}

// A plain-text table, columns padded to their widest cell.
std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], r[i].size());
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - r[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

// Where --report DIR puts the Markdown report.
std::filesystem::path report_file(const std::string& report_dir) {
  return std::filesystem::path(report_dir) /
         ("report" + std::string(reports::gate_format("markdown").extension));
}

// Where --report DIR puts the HTML index, and the page of a counterexample written to `trace`
// (its file name with .html for .trace.json).
std::filesystem::path index_file(const std::string& report_dir) {
  return std::filesystem::path(report_dir) / "index.html";
}
std::string page_name(const std::string& trace) {
  return std::filesystem::path(page_path(trace)).filename().string();
}

// Every property the scenarios can report, sorted, each once, described by its model's catalog
// (its properties, and the engine's built-in ones; a property it does not describe gets no
// description).
std::vector<reports::GateRule> gate_rules(const std::vector<Scenario>& scenarios,
                                          const ModelRegistry& models) {
  std::map<std::string, std::string> rules;
  for (const Scenario& s : scenarios) {
    std::map<std::string, std::string> described;
    for (const Property& p : builtin_properties())
      described[p.name] = p.description;
    if (const ModelDriver* driver = models.find(s.model))
      for (const Property& p : driver->catalog().properties)
        described[p.name] = p.description;
    for (const std::string& p : s.instance.invariants) {
      const auto d = described.find(p);
      rules.emplace(p, d != described.end() ? d->second : std::string());
    }
  }
  std::vector<reports::GateRule> out;
  for (auto& [id, description] : rules)
    out.push_back({id, description});
  return out;
}

// `path` relative to `base`, both taken from the working directory, without touching the file
// system (symbolic links are not resolved): the summary's links into the --report directory.
std::string relative_link(const std::string& path, const std::string& base) {
  namespace fs = std::filesystem;
  const fs::path p = fs::absolute(path).lexically_normal();
  const fs::path b = fs::absolute(base).lexically_normal();
  const fs::path r = p.lexically_relative(b);
  return r.empty() ? p.generic_string() : r.generic_string();
}

// A violation of a property the scenario does not expect to be violated: a failure of the
// expectation that no further search can undo.
bool unexpected_violation(const Scenario& scenario, const ExplorationResult& r) {
  for (const Counterexample& c : r.counterexamples) {
    if (!scenario.expect || scenario.expect->verdict != Verdict::kViolation) return true;
    const auto& expected = scenario.expect->invariants;
    if (std::find(expected.begin(), expected.end(), c.invariant) == expected.end()) return true;
  }
  return false;
}

}  // namespace

CLI::App* add_gate(CLI::App& app, GateArgs& a) {
  CLI::App* c = app.add_subcommand(
      "gate", "Run every scenario and fail unless each meets its expectation (the CI gate)");
  c->add_option("scenarios", a.scenarios, "Scenario files, or directories searched for *.json")
      ->required()
      ->type_name("DIR_OR_FILE");
  c->add_option("--out", a.out_dir,
                "Directory for counterexample traces (default: DIR of --report, else out)")
      ->type_name("DIR");
  c->add_option("--junit", a.junit, "Write JUnit XML (one test case per scenario) to FILE")
      ->type_name("FILE");
  c->add_option("--report", a.report_dir,
                "Write a Markdown report (summary, Mermaid sequence diagrams), an HTML index "
                "with a page per counterexample, and the counterexample traces to DIR")
      ->type_name("DIR");
  c->add_option("--sarif", a.sarif,
                "Write a SARIF 2.1.0 log (one result per counterexample) to FILE")
      ->type_name("FILE");
  c->add_option("--summary", a.summary,
                "Write a Markdown summary, failures first, to FILE (e.g. $GITHUB_STEP_SUMMARY)")
      ->type_name("FILE");
  c->add_flag("--github", a.github,
              "Print a GitHub workflow annotation (::error file=SCENARIO) per failed scenario");
  c->add_flag("--quiet,-q", a.quiet, "Print only the summary line (and --github's annotations)");
  add_jobs_option(*c, a.jobs);
  add_check_accesses_options(*c, a.checks);
  const reports::GateFormat& junit = reports::gate_format("junit");
  const reports::GateFormat& markdown = reports::gate_format("markdown");
  const reports::GateFormat& html = reports::gate_format("html");
  const reports::GateFormat& sarif = reports::gate_format("sarif");
  const reports::GateFormat& summary = reports::gate_format("summary");
  c->footer(
      "Each scenario runs with its own exploration settings. It passes when its verdict, the "
      "exact\n"
      "set of invariants it violates, and the coverage goals it must reach ('reached') all match\n"
      "its 'expect'. A scenario without 'expect', or a holds expectation naming no goal, fails.\n\n"
      "Reports:\n"
      "  --junit FILE    " +
      std::string(junit.description) + "\n  --report DIR    DIR/report" +
      std::string(markdown.extension) + ", " + std::string(markdown.description) +
      ";\n                  DIR/index" + std::string(html.extension) +
      ", the scenarios, failures first, each linking the HTML page\n"
      "                  of its counterexamples, DIR/NAME.PROPERTY.html\n  --sarif FILE    " +
      std::string(sarif.description) + "\n  --summary FILE  " + std::string(summary.description) +
      ";\n                  with --report DIR, its counterexamples are links relative to DIR\n"
      "  --github        '::error file=SCENARIO,title=...::REASON' per failed scenario on stdout,\n"
      "                  before the summary line (GitHub shows them on the scenario file)\n\n"
      "SIGINT or SIGTERM stops the gate at the next execution: the scenario under way and the\n"
      "ones not run are marked interrupted (JUnit: skipped) and every report is still written.\n\n"
      "Exit codes: 0 every scenario meets its expectation, 1 some does not,\n"
      "            2 bad input or usage (nothing is run), 3 interrupted (and none failed),\n"
      "            4 internal error.\n\n"
      "Examples:\n"
      "  interleave gate scenarios/\n"
      "  interleave gate scenarios/ --junit build/gate.xml --report build/gate-report\n"
      "  interleave gate scenarios/ --github --sarif gate.sarif --summary \"$GITHUB_STEP_SUMMARY\"");
  return c;
}

namespace {

// Before anything runs: impossible strategy parameters, a decomposition the model refuses, and
// the logs of every incident (read and checked). Returns the incidents' plans, per scenario.
std::vector<std::vector<ExplanationPlan>> check_runnable(const std::vector<Scenario>& scenarios,
                                                         const ModelRegistry& models) {
  for (const auto& s : scenarios)
    make_strategy_for(s.exploration);
  for (const auto& s : scenarios)  // a decomposition the model refuses fails before any work
    check_decomposable(s, s.exploration);
  std::vector<std::vector<ExplanationPlan>> plans(scenarios.size());
  for (std::size_t i = 0; i < scenarios.size(); ++i)
    for (const IncidentSpec& incident : scenarios[i].incidents)
      plans[i].push_back(plan_incident(scenarios[i], incident, models));
  return plans;
}

// An incident of a scenario explained and compared with its expectation: a case of its own,
// named SCENARIO/INCIDENT.
reports::GateCase incident_case(const Scenario& scenario, const IncidentSpec& incident,
                                const ExplanationPlan& plan, const std::filesystem::path& out_dir,
                                const Context& ctx) {
  reports::GateCase c;
  c.scenario = scenario.name + "/" + incident.name;
  c.file = scenario.file;
  c.expected = incident.expect_explained ? "incident explained" : "incident impossible";
  ExplainOptions o;
  o.stop = &interrupt_requested();
  const auto start = std::chrono::steady_clock::now();
  const ExplanationRun run = run_explanation(plan, o, out_dir, ctx.env.tool_version);
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const ExplainResult& r = run.result;
  c.executions = r.executions;
  if (plan.incident.related.empty())
    c.actual = "nothing to explain (no related line)";
  else if (r.explanations > 0)
    c.actual = "incident explained (" + std::string(r.complete ? "" : "at least ") +
               std::to_string(r.explanations) + " explanations)";
  else if (r.complete)
    c.actual = "incident impossible";
  else
    c.actual = "incident not explained, search incomplete: " + r.incomplete_why;
  if (r.interrupted && r.explanations == 0) {
    c.skipped = true;
    c.failure = "not decided: the search was " + interruption_text();
  } else if (plan.incident.related.empty()) {
    c.failure = "nothing to explain: no line of the logs is related (no WARN, ERROR or FATAL line "
                "matched a pattern, and no focus)";
  } else if (incident.expect_explained) {
    c.passed = r.explanations > 0;
    if (!c.passed && r.longest_prefix < plan.incident.related.size())
      c.failure = "no execution produces the incident: the first line none produces after the "
                  "longest prefix is " +
                  plan.incident.where(plan.incident.related[r.longest_prefix]);
    else if (!c.passed)
      c.failure = "no execution produces the incident";
  } else {
    c.passed = r.explanations == 0 && r.complete;
    if (r.explanations > 0)
      c.failure = "the incident is possible: " + run.trace_file;
    else if (!r.complete)
      c.failure = "the search is incomplete: " + r.incomplete_why;
  }
  if (!run.trace_file.empty()) {
    c.counterexample_paths.push_back(run.trace_file);
    c.traces.push_back(*run.trace);
  }
  return c;
}

// Where the traces go, and every report file with the option that names it.
struct GateOutputs {
  std::filesystem::path out_dir;
  std::vector<std::pair<std::string, std::filesystem::path>> files;  // option, file
};

// Every output checked before anything runs: an unwritable one fails now, not after the
// exploration (exit 2), and so do two options naming one file.
GateOutputs gate_outputs(const GateArgs& args) {
  GateOutputs o;
  o.out_dir = !args.out_dir.empty()      ? args.out_dir
              : !args.report_dir.empty() ? args.report_dir
                                         : "out";
  check_output_directory(!args.out_dir.empty()      ? "--out"
                         : !args.report_dir.empty() ? "--report"
                                                    : "--out",
                         o.out_dir);
  auto& files = o.files;
  if (!args.junit.empty()) files.emplace_back("--junit", args.junit);
  if (!args.sarif.empty()) files.emplace_back("--sarif", args.sarif);
  if (!args.summary.empty()) files.emplace_back("--summary", args.summary);
  for (const auto& [option, file] : files)
    check_output_file(option, file);
  if (!args.report_dir.empty()) {
    check_output_directory("--report", args.report_dir);
    check_output_file("--report", report_file(args.report_dir));
    check_output_file("--report", index_file(args.report_dir));
    files.emplace_back("--report", report_file(args.report_dir));
    files.emplace_back("--report", index_file(args.report_dir));
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)  // one report would overwrite the other
      if (std::filesystem::absolute(files[i].second).lexically_normal() ==
          std::filesystem::absolute(files[j].second).lexically_normal())
        throw UsageError(files[i].first + ": '" + files[i].second.string() +
                         "' is also the file of " + files[j].first);
  }
  return o;
}

// The gate's summary table: a header, then a line per scenario.
using SummaryRows = std::vector<std::vector<std::string>>;

// A scenario not run: the gate was interrupted before it.
reports::GateCase not_run_case(const Scenario& scenario, const std::string& interrupted) {
  reports::GateCase c;
  c.scenario = scenario.name;
  c.file = scenario.file;
  c.expected = describe_expectation(scenario.expect);
  c.skipped = true;
  c.actual = "not run";
  c.failure = "not run: the gate was " + interrupted;
  return c;
}

// A scenario's run compared with its expectation. `interrupted`: the gate's interruption text
// ("" when it was not interrupted).
reports::GateCase judged_case(const Scenario& scenario, const ScenarioRun& run, double seconds,
                              const std::string& interrupted, const GateArgs& args) {
  reports::GateCase c;
  c.scenario = scenario.name;
  c.file = scenario.file;
  c.expected = describe_expectation(scenario.expect);
  const ExpectationCheck check = check_expectation(scenario.expect, run.result);

  c.actual = describe_outcome(run.result);
  c.passed = check.met;
  // An interrupted search decides nothing, unless what it found already fails the
  // expectation (a violation that is not expected): it is neither passed nor failed.
  if (run.result.interrupted && !check.met && !unexpected_violation(scenario, run.result))
    c.skipped = true;
  if (scenario.expect && scenario.expect->verdict == Verdict::kViolation)
    c.expected_violations = scenario.expect->invariants;
  if (c.skipped)
    c.failure = "not decided: the search was " + interrupted + " after " +
                std::to_string(run.result.stats.executions) + " executions";
  else
    for (const auto& p : check.problems)
      c.failure += (c.failure.empty() ? "" : "; ") + p;
  c.executions = run.result.stats.executions;
  c.seconds = seconds;
  for (const auto& file : run.trace_files) {
    c.counterexample_paths.push_back(file);
    c.traces.push_back(reports::read_trace_file(file));
    if (!args.report_dir.empty())
      c.counterexample_links.push_back(relative_link(file, args.report_dir));
  }
  return c;
}

// Runs every scenario (until an interruption) and judges it: the report's cases and rows.
void run_cases(const std::vector<Scenario>& scenarios,
               const std::vector<std::vector<ExplanationPlan>>& incidents, const GateArgs& args,
               const Context& ctx, const std::filesystem::path& out_dir,
               reports::GateReport& report, SummaryRows& rows) {
  const unsigned jobs = jobs_of(args.jobs);  // the portfolio's rounds (a split only at split_depth)
  for (std::size_t index = 0; index < scenarios.size(); ++index) {
    const Scenario& scenario = scenarios[index];
    if (!report.interrupted.empty()) {  // stopped at the scenario boundary: not run
      reports::GateCase c = not_run_case(scenario, report.interrupted);
      rows.push_back({c.scenario, c.expected, c.actual, "0", seconds_text(0), "not run"});
      report.cases.push_back(std::move(c));
      continue;
    }
    RunContext run_ctx;
    run_ctx.tool_version = ctx.env.tool_version;
    run_ctx.out_dir = out_dir;
    run_ctx.stop = &interrupt_requested();
    run_ctx.jobs = jobs;
    args.checks.apply(run_ctx);
    const auto start = std::chrono::steady_clock::now();
    ScenarioRun run = run_with_progress(scenario, scenario.exploration, run_ctx, ctx, args.quiet);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (run.result.interrupted) {
      report.interrupted = interruption_text();
      if (run.result.verdict == Verdict::kIncomplete) run.result.detail = report.interrupted;
    }
    reports::GateCase c = judged_case(scenario, run, seconds, report.interrupted, args);
    rows.push_back({c.scenario, c.expected, c.actual, std::to_string(c.executions),
                    seconds_text(c.seconds),
                    c.skipped ? "interrupted" : c.passed ? "pass" : "FAIL"});
    report.cases.push_back(std::move(c));
    for (std::size_t k = 0; k < scenario.incidents.size() && report.interrupted.empty(); ++k) {
      reports::GateCase ic =
          incident_case(scenario, scenario.incidents[k], incidents[index][k], out_dir, ctx);
      if (ic.skipped) report.interrupted = interruption_text();
      rows.push_back({ic.scenario, ic.expected, ic.actual, std::to_string(ic.executions),
                      seconds_text(ic.seconds),
                      ic.skipped ? "interrupted" : ic.passed ? "pass" : "FAIL"});
      report.cases.push_back(std::move(ic));
    }
  }
}

void print_summary(const reports::GateReport& report, const SummaryRows& rows,
                   std::size_t failed, std::size_t skipped, const GateArgs& args,
                   const Context& ctx) {
  if (!args.quiet) {
    ctx.out << table(rows);
    for (const auto& c : report.cases) {
      if (c.passed || c.skipped) continue;
      ctx.out << "\nFAIL " << c.scenario << " (" << c.file << "): " << c.failure << "\n";
      for (const auto& path : c.counterexample_paths)
        ctx.out << "  counterexample: " << path << "\n";
    }
    ctx.out << "\n";
  }
  if (args.github) ctx.out << reports::render_github_annotations(report);
  ctx.out << "gate: " << (report.cases.size() - failed - skipped) << " of "
          << report.cases.size() << " scenarios meet their expectation"
          << (failed == 0 ? "" : ", " + std::to_string(failed) + " do not")
          << (report.interrupted.empty() ? ""
                                         : "; " + report.interrupted + ", " +
                                               std::to_string(skipped) + " not decided")
          << "\n"
          << std::flush;
}

// The reports, in formats of the table of reports/render/formats.hpp; with --report, each
// counterexample's HTML page too, before the index that links to them.
void write_reports(reports::GateReport& report, const GateArgs& args, const Context& ctx) {
  if (!args.junit.empty())
    write_file_atomically(args.junit, reports::gate_format("junit").render(report));
  if (!args.report_dir.empty()) {
    for (reports::GateCase& c : report.cases) {
      c.counterexample_pages.clear();
      for (std::size_t i = 0; i < c.traces.size() && i < c.counterexample_paths.size(); ++i) {
        const std::string page = page_name(c.counterexample_paths[i]);
        write_file_atomically(std::filesystem::path(args.report_dir) / page,
                              render_page(c.traces[i], ctx.models));
        c.counterexample_pages.push_back(page);
      }
    }
    write_file_atomically(report_file(args.report_dir),
                          reports::gate_format("markdown").render(report));
    write_file_atomically(index_file(args.report_dir), reports::gate_format("html").render(report));
  }
  if (!args.sarif.empty())
    write_file_atomically(args.sarif, reports::gate_format("sarif").render(report));
  if (!args.summary.empty())
    write_file_atomically(args.summary, reports::gate_format("summary").render(report));
}

}  // namespace

int run_gate(const GateArgs& args, const Context& ctx) {
  // Everything is read and checked before anything runs: bad input writes nothing (exit 2).
  const std::vector<Scenario> scenarios = load_scenarios(args.scenarios, ctx.models);
  const std::vector<std::vector<ExplanationPlan>> incidents = check_runnable(scenarios, ctx.models);
  const GateOutputs outputs = gate_outputs(args);

  reports::GateReport report;
  report.tool_version = ctx.env.tool_version;
  report.rules = gate_rules(scenarios, ctx.models);
  SummaryRows rows{{"scenario", "expected", "actual", "executions", "time", "result"}};
  run_cases(scenarios, incidents, args, ctx, outputs.out_dir, report, rows);
  std::size_t failed = 0;
  std::size_t skipped = 0;
  for (const reports::GateCase& c : report.cases) {
    if (c.skipped) ++skipped;
    else if (!c.passed) ++failed;
  }
  print_summary(report, rows, failed, skipped, args, ctx);
  write_reports(report, args, ctx);
  if (failed > 0) return static_cast<int>(ExitCode::kViolation);
  return report.interrupted.empty() ? static_cast<int>(ExitCode::kHolds)
                                    : static_cast<int>(ExitCode::kIncomplete);
}

}  // namespace interleave::cli
