// `interleave replay TRACE [--scenario FILE]`: re-execute a counterexample strictly, print it step
// by step, and say whether the recorded violation reproduces, or exactly where the run departs
// from the trace (a changed scenario or model).
#include "reports/cli/commands.hpp"
#include "reports/cli/text.hpp"
#include "reports/run/output_files.hpp"
#include "reports/trace/trace.hpp"

#include <algorithm>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

using reports::describe_accesses;
using reports::describe_step;
using reports::describe_violation;
using reports::Wording;

// The first step at which the replay departs from the trace, in words; "" if none.
std::string first_difference(const std::vector<TraceStep>& recorded,
                             const std::vector<TraceStep>& replayed) {
  const std::size_t n = std::min(recorded.size(), replayed.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!same_step(recorded[i], replayed[i], StepFields::kAll)) {
      std::string a = describe_step(recorded[i], Wording::kConsole);
      std::string b = describe_step(replayed[i], Wording::kConsole);
      if (a == b) {  // the same words: the steps differ in what they declare
        a += " " + describe_accesses(recorded[i], Wording::kConsole);
        b += " " + describe_accesses(replayed[i], Wording::kConsole);
      }
      return "step #" + std::to_string(i) + " differs: the trace has '" + a +
             "', the replay has '" + b + "'";
    }
  }
  if (replayed.size() < recorded.size())
    return "the replay stopped after " + std::to_string(replayed.size()) +
           " steps; the trace goes on with step #" + std::to_string(n) + " '" +
           describe_step(recorded[n], Wording::kConsole) + "'";
  if (replayed.size() > recorded.size())
    return "the replay goes on past the trace's " + std::to_string(recorded.size()) +
           " steps with step #" + std::to_string(n) + " '" +
           describe_step(replayed[n], Wording::kConsole) + "'";
  return "";
}

}  // namespace

CLI::App* add_replay(CLI::App& app, ReplayArgs& a) {
  CLI::App* c = app.add_subcommand(
      "replay", "Re-execute a counterexample trace step by step and confirm it reproduces");
  c->add_option("trace", a.trace, "A counterexample trace written by 'interleave check'")
      ->required()
      ->type_name("TRACE");
  c->add_option("--scenario", a.scenario,
                "Replay against this scenario file instead of the one embedded in the trace, "
                "and report where the run diverges from the trace")
      ->type_name("FILE");
  c->add_flag("--quiet,-q", a.quiet,
              "Print only the header and the result lines, not the replayed steps");
  c->add_option("--html", a.html,
                "Also write the trace as one self-contained HTML page to FILE (as 'show --format "
                "html' renders it), whole or not at all")
      ->type_name("FILE");
  c->footer(
      "Exit codes: 1 a violation occurs (the recorded one, or another: the output says which),\n"
      "            0 the schedule runs to completion and every property holds,\n"
      "            3 the replay diverges from the schedule or the schedule ends first,\n"
      "            2 bad input (e.g. a malformed or edited trace), 4 internal error.\n\n"
      "Examples:\n"
      "  interleave replay out/NAME.PROPERTY.trace.json\n"
      "  interleave replay out/NAME.PROPERTY.trace.json --scenario changed-scenario.json\n"
      "  interleave replay out/NAME.PROPERTY.trace.json --html trace.html");
  return c;
}

int run_replay(const ReplayArgs& args, const Context& ctx) {
  const ReplayInput input = read_replay_input(args.trace, args.scenario, ctx.models);
  if (!args.html.empty()) check_output_file("--html", args.html);  // before the replay runs
  const reports::TraceDocument& doc = input.doc;
  const Scenario& scenario = input.scenario;
  const ExplorationSettings& settings = input.settings;
  Explorer explorer(scenario.instance.program, explore_options_for(settings));
  const Counterexample& recorded = doc.counterexample;
  const ReplayReport rep = explorer.replay(recorded.schedule);

  std::string out;
  out += "replay of " + args.trace + "\n";
  if (args.scenario.empty()) {
    out += "  scenario: " + scenario.name + " (embedded in the trace)\n";
  } else {
    const std::string hash = reports::scenario_hash(scenario.document);
    out += "  scenario: " + scenario.name + " from " + args.scenario +
           (hash == doc.scenario_hash
                ? " (identical to the trace's)"
                : " (differs from the trace's: " + hash + " vs " + doc.scenario_hash + ")") +
           "\n";
  }
  out += "  recorded: " + describe_violation(recorded, Wording::kConsole) + "\n";
  const std::string difference = first_difference(recorded.steps, rep.steps);
  // The recorded property if the replay violates it (beside others at the end), else the first.
  const Violation* violated = rep.violation_of(recorded.invariant);
  if (violated == nullptr && rep.violation) violated = &*rep.violation;
  if (!args.quiet) {
    std::optional<std::size_t> marked;
    if (violated != nullptr && violated->step < rep.steps.size()) marked = violated->step;
    out += format_steps(rep.steps, "    ", marked);
  }

  int code = 0;
  std::string result;
  if (violated != nullptr) {
    code = static_cast<int>(ExitCode::kViolation);
    const Violation& v = *violated;
    Counterexample replayed;  // the violation as the replay ran it, to be said in the same words
    replayed.invariant = v.invariant;
    replayed.message = v.message;
    replayed.step = v.step;
    if (v.found_at && *v.found_at < rep.steps.size()) replayed.found_at = v.found_at;
    if (v.actor != kNoActor && v.step < rep.steps.size()) replayed.actor = rep.steps[v.step].actor;
    replayed.steps = rep.steps;
    const std::string described = describe_violation(replayed, Wording::kConsole);
    const bool same_violation = v.invariant == recorded.invariant &&
                                v.message == recorded.message && v.step == recorded.step;
    if (same_violation && difference.empty())
      result = "the violation reproduces: " + described;
    else if (same_violation)
      result = "the same violation occurs, but through different steps (below): " + described;
    else
      result = "a violation occurs, but not the recorded one: " + described;
  } else if (rep.outcome == Outcome::kCompleted) {
    code = static_cast<int>(ExitCode::kHolds);
    result =
        "the violation does not reproduce: the schedule runs to completion and every property "
        "holds";
  } else if (rep.diverged) {
    code = static_cast<int>(ExitCode::kIncomplete);
    result = "the replay diverges from the schedule at " + rep.reason;
  } else if (rep.exhausted) {
    code = static_cast<int>(ExitCode::kIncomplete);
    result = "the violation does not reproduce within the recorded schedule: " + rep.reason;
  } else if (rep.outcome == Outcome::kStepBound) {
    code = static_cast<int>(ExitCode::kIncomplete);
    result = "the step bound (" + std::to_string(settings.max_steps) + " steps) cut the replay";
  } else {
    code = static_cast<int>(ExitCode::kIncomplete);
    result = "the replay stopped: " + std::string(to_string(rep.outcome)) +
             (rep.reason.empty() ? "" : " (" + rep.reason + ")");
  }
  out += "result: " + result + "\n";
  if (!difference.empty()) out += "first difference from the trace: " + difference + "\n";
  ctx.out << out << std::flush;
  if (!args.html.empty()) write_file_atomically(args.html, render_page(doc, ctx.models));
  return code;
}

}  // namespace interleave::cli
