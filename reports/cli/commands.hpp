// The subcommands: each has an argument struct, a function that declares it on the CLI11 app,
// and a function that runs it. cli.cpp wires them; a new subcommand adds one more pair.
#pragma once

#include "explorer/search/estimate.hpp"
#include "reports/cli/cli.hpp"
#include "reports/cli/exploration_options.hpp"
#include "reports/cli/progress.hpp"
#include "reports/run/replay_input.hpp"
#include "reports/run/run.hpp"
#include "reports/run/search_estimate.hpp"
#include "reports/trace/trace.hpp"

#include <CLI/CLI.hpp>

#include <atomic>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace interleave::cli {

// The run layer's types this header speaks of.
using run::ExplorationOverrides;
using run::ExplorationSettings;
using run::RunContext;
using run::Scenario;
using run::ScenarioRun;


struct Context {
  const ModelRegistry& models;
  const CliEnvironment& env;
  std::ostream& out;
  std::ostream& err;
};

/// The checked mode and the commutation audit's reach, as check and gate take them.
struct CheckAccessesArgs {
  /// --check-accesses: the checks and the sampled audit. Without it the checks run (their cost
  /// is within 10 %: bench_checks) and only counterexamples are audited.
  bool on = false;
  bool off = false;  ///< --no-check-accesses: no checks
  std::size_t audit_distance = AuditOptions{}.max_distance;  ///< --audit-distance N
  std::uint64_t audit_every = AuditOptions{}.every;          ///< --audit-every N
  /// Sets `run_ctx`'s check_accesses and audit.
  void apply(RunContext& run_ctx) const;
};
/// Declares --check-accesses, --no-check-accesses, --audit-distance and --audit-every.
void add_check_accesses_options(CLI::App& command, CheckAccessesArgs& args);

struct CheckArgs {
  std::vector<std::string> scenarios;
  ExplorationOverrides overrides;
  std::string preset;             ///< --preset NAME (reports/run/scenario_overrides.hpp)
  std::vector<std::string> sets;  ///< --set PATH=VALUE, in order
  std::string out_dir = "out";
  bool json = false;
  bool html = false;  ///< --html: each counterexample's page beside its trace
  bool quiet = false;
  /// --jobs N (0: one per core): threads of the portfolio's rounds and of a split search; not
  /// given: the portfolio's rounds on every core, DPOR not split.
  std::optional<unsigned> jobs;
  std::string shard;  ///< --shard K/N ("" : the whole search)
  std::vector<std::string> windows;  ///< --window [ACTOR:]LABEL..[ACTOR:]LABEL, repeatable
  CheckAccessesArgs checks;          ///< the checked mode (ExploreOptions::check_accesses)
};
CLI::App* add_check(CLI::App& app, CheckArgs& args);
/// Declares --jobs/-j N on `command` (check and gate).
void add_jobs_option(CLI::App& command, std::optional<unsigned>& jobs);
/// The threads --jobs asks for: N, or one per core for 0 or when not given.
unsigned jobs_of(std::optional<unsigned> jobs);
/// run_scenario with the progress line on ctx.err (redrawn on a terminal, a line every 10 s
/// otherwise) unless `quiet` or the environment shows none: what check and gate run.
ScenarioRun run_with_progress(const Scenario& scenario, const ExplorationSettings& settings,
                              RunContext run_ctx, const Context& ctx, bool quiet);
int run_check(const CheckArgs& args, const Context& ctx);

struct ReplayArgs {
  std::string trace;
  std::string scenario;  ///< "" : the scenario embedded in the trace
  bool quiet = false;
  std::string html;  ///< --html FILE: the trace's page ("" : none)
};
CLI::App* add_replay(CLI::App& app, ReplayArgs& args);
int run_replay(const ReplayArgs& args, const Context& ctx);

/// The HTML page of `doc` (reports::render_html) with the log line each step printed, from the
/// log patterns of the trace's model (none when the registry lacks it). show, replay and gate.
std::string render_page(const reports::TraceDocument& doc, const ModelRegistry& models);
/// Where the page of the trace `trace` goes: the same path with .html for .trace.json
/// ("out/NAME.PROPERTY.trace.json" -> "out/NAME.PROPERTY.html").
std::string page_path(const std::string& trace);

struct ShowArgs {
  std::string trace;
  std::string format;
  bool state = false;  ///< --state: every step with the state it left (text)
  bool full = false;   ///< --full: the diagrams draw every step, not only the causal slice
};
CLI::App* add_show(CLI::App& app, ShowArgs& args);
int run_show(const ShowArgs& args, const Context& ctx);

struct ValidateArgs {
  std::vector<std::string> scenarios;
};
CLI::App* add_validate(CLI::App& app, ValidateArgs& args);
int run_validate(const ValidateArgs& args, const Context& ctx);

struct ListArgs {
  bool json = false;
  bool formats = false;  ///< the output formats only
};
CLI::App* add_list(CLI::App& app, ListArgs& args);
int run_list(const ListArgs& args, const Context& ctx);

struct GateArgs {
  std::vector<std::string> scenarios;
  std::string out_dir;     ///< "" : the --report directory, else "out"
  std::string junit;       ///< "" : no JUnit XML
  std::string report_dir;  ///< "" : no Markdown report
  std::string sarif;       ///< "" : no SARIF log
  std::string summary;     ///< "" : no summary
  bool github = false;     ///< print GitHub workflow annotations for the failures
  bool quiet = false;
  std::optional<unsigned> jobs;  ///< --jobs N: as check's
  CheckAccessesArgs checks;      ///< as check's
};
CLI::App* add_gate(CLI::App& app, GateArgs& args);
int run_gate(const GateArgs& args, const Context& ctx);

struct MatrixArgs {
  std::vector<std::string> scenarios;
  std::vector<std::string> vary;  ///< --vary PATH=A,B,...
  std::string presets;            ///< --presets all|NAME,NAME ("" : none)
  std::string base;               ///< --base PRESET ("" : see reports/cli/matrix.cpp)
  std::string format = "text";    ///< text, markdown, json
  ExplorationOverrides overrides;
};
CLI::App* add_matrix(CLI::App& app, MatrixArgs& args);
int run_matrix(const MatrixArgs& args, const Context& ctx);

struct EstimateArgs {
  std::vector<std::string> scenarios;
  std::uint64_t probes = EstimateOptions::kDefaultProbes;
  std::uint64_t seed = 0;
  std::string strategy;  ///< "" : the scenario's
  bool json = false;
};
CLI::App* add_estimate(CLI::App& app, EstimateArgs& args);

struct MergeArgs {
  std::vector<std::string> summaries;
  bool json = false;
};
CLI::App* add_merge(CLI::App& app, MergeArgs& args);
int run_merge(const MergeArgs& args, const Context& ctx);
int run_estimate(const EstimateArgs& args, const Context& ctx);

struct SimulateArgs {
  std::string scenario;
  std::uint64_t runs = 10'000;
  std::uint64_t seed = 0;
  std::optional<unsigned> jobs;
  std::string preset;
  std::vector<std::string> sets;
  std::string vary;  ///< --vary PATH=A,B,... ("" : none)
  std::string svg;   ///< --svg FILE: the curve of --vary, drawn ("" : none)
  bool check_accesses = false;  ///< --check-accesses: the checked mode (SimulateOptions)
  bool json = false;
  bool quiet = false;
};
CLI::App* add_simulate(CLI::App& app, SimulateArgs& args);
int run_simulate(const SimulateArgs& args, const Context& ctx);
struct ExplainArgs {
  std::string scenario;
  std::vector<std::string> logs;
  double clock_skew_ms = 1000;        ///< --clock-skew MS
  std::vector<std::string> complete;  ///< --complete LOGGER, repeatable
  std::vector<std::string> focus;     ///< --focus NAME=VALUE, repeatable
  std::string strategy = "dpor";      ///< dpor or dfs
  std::uint64_t max_executions = 0;
  std::string preset;
  std::vector<std::string> sets;
  std::string presets;  ///< --presets A,B,...: under which of them the incident is possible
  std::string out_dir = "out";
  bool check_accesses = false;  ///< --check-accesses: the checked mode (ExplainOptions)
  bool json = false;
  bool quiet = false;
};
CLI::App* add_explain(CLI::App& app, ExplainArgs& args);
int run_explain(const ExplainArgs& args, const Context& ctx);

/// The values of --vary PATH=A,B,...: split at the commas outside JSON brackets and quotes.
std::vector<std::string> split_vary_values(const std::string& text);

/// The estimate the progress line asks for once a search has run a while (nullopt for a
/// bounded search). Keeps a reference to `scenario`.
std::function<std::optional<ProgressEstimate>()> progress_estimator(
    const Scenario& scenario, const ExplorationSettings& settings, const std::atomic<bool>* stop);

/// The exit code of a verdict (holds 0, violation 1, incomplete 3).
int exit_code_of(Verdict v);

}  // namespace interleave::cli
