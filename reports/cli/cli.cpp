#include "reports/cli/cli.hpp"

#include "reports/cli/commands.hpp"
#include "reports/run/errors.hpp"
#include "reports/cli/interrupt.hpp"
#include "explorer/core/execution.hpp"
#include "explorer/core/json_reader.hpp"
#include "explorer/core/schedule.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <exception>
#include <optional>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

constexpr int kBadInput = static_cast<int>(ExitCode::kBadInput);
constexpr int kInternal = static_cast<int>(ExitCode::kInternalError);

const char* const kFooter =
    "Exit codes:\n"
    "  0  holds: every scenario holds (complete search); other commands: success\n"
    "  1  violation: some property is violated (a counterexample was written)\n"
    "  2  bad input or usage (one message naming the file and JSON path; nothing written)\n"
    "  3  incomplete: no violation found, but a bound or budget cut the search, or SIGINT or\n"
    "     SIGTERM interrupted it (the summary is printed, the files written are whole)\n"
    "  4  internal error\n\n"
    "A counterexample is written to out/NAME.PROPERTY.trace.json (the scenario's name, the\n"
    "violated property).\n\n"
    "Examples:\n"
    "  interleave check scenario.json\n"
    "  interleave replay out/NAME.PROPERTY.trace.json\n"
    "  interleave show out/NAME.PROPERTY.trace.json --format mermaid\n"
    "  interleave list\n"
    "  interleave gate scenarios/ --junit gate.xml --report gate-report\n"
    "  interleave estimate scenario.json\n"
    "  interleave simulate scenario.json --runs 20000\n"
    "  interleave explain scenario.json app.log other.log\n"
    "  interleave merge shard-*.json\n\n"
    "Run 'interleave COMMAND --help' for the options of a command.";

int dispatch(const std::vector<std::string>& args, const Context& ctx) {
  CLI::App app{"interleave: a deterministic interleaving explorer (stateless model checker)",
               "interleave"};
  app.set_version_flag("--version", ctx.env.tool_version);
  app.require_subcommand(1);
  app.footer(kFooter);
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    std::string command = "interleave";
    const auto selected = a->get_subcommands();
    if (!selected.empty()) command += " " + selected.front()->get_name();
    return "error: " + std::string(e.what()) + "\nRun '" + command + " --help' for usage.\n";
  });

  CheckArgs check;
  ReplayArgs replay;
  ShowArgs show;
  ValidateArgs validate;
  ListArgs list;
  GateArgs gate;
  MatrixArgs matrix;
  EstimateArgs estimate;
  MergeArgs merge;
  SimulateArgs simulate;
  ExplainArgs explain;
  CLI::App* check_cmd = add_check(app, check);
  CLI::App* replay_cmd = add_replay(app, replay);
  CLI::App* show_cmd = add_show(app, show);
  CLI::App* validate_cmd = add_validate(app, validate);
  CLI::App* list_cmd = add_list(app, list);
  CLI::App* gate_cmd = add_gate(app, gate);
  CLI::App* matrix_cmd = add_matrix(app, matrix);
  CLI::App* estimate_cmd = add_estimate(app, estimate);
  CLI::App* merge_cmd = add_merge(app, merge);
  CLI::App* simulate_cmd = add_simulate(app, simulate);
  CLI::App* explain_cmd = add_explain(app, explain);

  // An unknown command gets a did-you-mean rather than CLI11's "argument was not expected".
  if (!args.empty() && !args.front().empty() && args.front()[0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App* sub : {check_cmd, replay_cmd, show_cmd, validate_cmd, list_cmd, gate_cmd,
                                matrix_cmd, estimate_cmd, merge_cmd, simulate_cmd, explain_cmd})
      names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), args.front()) == names.end()) {
      ctx.err << "error: unknown command '" << args.front() << "'"
              << did_you_mean(args.front(), names) << "\nRun 'interleave --help' for usage.\n";
      return kBadInput;
    }
  }

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, ctx.out, ctx.err) == 0 ? 0 : kBadInput;
  }
  // The commands that search stop cleanly on SIGINT and SIGTERM (reports/cli/interrupt.hpp);
  // the others keep the default action.
  std::optional<InterruptHandlers> interrupts;
  if (ctx.env.handle_interrupts && (*check_cmd || *gate_cmd || *estimate_cmd || *simulate_cmd ||
                                 *explain_cmd))
    interrupts.emplace();
  if (*check_cmd) return run_check(check, ctx);
  if (*replay_cmd) return run_replay(replay, ctx);
  if (*show_cmd) return run_show(show, ctx);
  if (*validate_cmd) return run_validate(validate, ctx);
  if (*list_cmd) return run_list(list, ctx);
  if (*gate_cmd) return run_gate(gate, ctx);
  if (*matrix_cmd) return run_matrix(matrix, ctx);
  if (*estimate_cmd) return run_estimate(estimate, ctx);
  if (*merge_cmd) return run_merge(merge, ctx);
  if (*simulate_cmd) return run_simulate(simulate, ctx);
  if (*explain_cmd) return run_explain(explain, ctx);
  throw std::logic_error("no subcommand selected");
}

}  // namespace

int run_cli(const std::vector<std::string>& args, const ModelRegistry& models,
            const CliEnvironment& env, std::ostream& out, std::ostream& err) {
  const Context ctx{models, env, out, err};
  try {
    try {
      return dispatch(args, ctx);
    } catch (const InputError& e) {
      err << "error: " << e.what() << "\n";
      return kBadInput;
    } catch (const UsageError& e) {
      err << "error: " << e.what() << "\n";
      return kBadInput;
    } catch (const OutputError& e) {
      err << "error: " << e.what() << "\n";
      return kBadInput;
    } catch (const ProgramError& e) {
      err << "internal error: the model misbehaved: " << e.what() << "\n";
      return kInternal;
    } catch (const std::exception& e) {
      err << "internal error: " << e.what() << "\n";
      return kInternal;
    } catch (...) {
      err << "internal error: an unknown exception\n";
      return kInternal;
    }
  } catch (...) {
    // Writing the message itself failed (e.g. a closed stream that throws): still no crash.
    return kInternal;
  }
}

}  // namespace interleave::cli
