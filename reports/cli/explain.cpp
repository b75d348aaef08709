// `interleave explain SCENARIO LOG...`: whether the scenario's program can produce an incident's
// logs, and how (explorer/evidence/explain.hpp says what explaining means; the run layer's
// reports/run/explanation.hpp loads, searches and writes the trace). Explained: the first
// explanation step by step, each step marked with the log line it produced or as inferred; the
// number of distinct explanations; the steps found between the same two lines in every
// explanation; the explanation's trace, which `interleave replay` runs. Not explained: the longest
// prefix of the related lines some execution produces, the first line none produces after it,
// and the execution that came closest. `--presets A,B` answers under which policies the incident
// is possible at all.
//
// Exit codes: 0 explained, 1 not explained (complete search), 2 bad input, 3 not explained and
// the search incomplete (a budget, an interruption).
#include "reports/cli/commands.hpp"
#include "reports/cli/interrupt.hpp"
#include "reports/cli/progress.hpp"
#include "reports/run/errors.hpp"
#include "reports/run/explanation.hpp"
#include "reports/run/output_files.hpp"
#include "reports/run/scenario_overrides.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

using nlohmann::json;

std::string clip(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  return text.substr(0, width - 3) + "...";
}

std::string plural(std::uint64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string incident_text(const ExplanationPlan& plan) {
  const Incident& inc = plan.incident;
  std::size_t records = 0, ignored = 0;
  for (const LogFile& f : inc.files) {
    records += f.records.size();
    ignored += f.ignored.size();
  }
  std::string out = plan.scenario.name + ": the incident in " +
                    plural(inc.files.size(), "file", "files") + ": " +
                    plural(records, "record", "records") + ", " +
                    std::to_string(inc.lines.size()) + " matched by the model's patterns, " +
                    std::to_string(inc.related.size()) + " related\n";
  out += "  related, in the incident's order (each must be explained):\n";
  std::size_t width = 0;
  for (const std::size_t l : inc.related)
    width = std::max(width, inc.where(l).size());
  for (const std::size_t l : inc.related)
    out += "    " + inc.where(l) + std::string(width - inc.where(l).size(), ' ') + "  " +
           clip(inc.record(l).full_message(), 100) + "\n";
  std::vector<std::string> unrelated;
  for (std::size_t i = 0; i < inc.lines.size(); ++i)
    if (!inc.lines[i].related) unrelated.push_back(inc.where(i));
  if (!unrelated.empty()) {
    out += "  unrelated (no session, table, tablet or other id shared with a related line), set "
           "aside:";
    for (const std::string& w : unrelated)
      out += " " + w;
    out += "\n";
  }
  if (!inc.unmatched.empty() || ignored > 0) {
    out += "  matched by no pattern, set aside:";
    for (const auto& [f, r] : inc.unmatched)
      out += " " + std::filesystem::path(inc.files[f].path).filename().string() + ":" +
             std::to_string(inc.files[f].records[r].line);
    for (const LogFile& f : inc.files)
      for (const IgnoredLogLine& l : f.ignored)
        out += " " + std::filesystem::path(f.path).filename().string() + ":" +
               std::to_string(l.line);
    out += "\n";
  }
  return out;
}

std::string steps_text(const ExplanationPlan& plan, const Explanation& e) {
  const Incident& inc = plan.incident;
  std::vector<std::string> marks(e.steps.size());
  for (std::size_t r = 0; r < e.step_of.size(); ++r) {
    std::string& m = marks[e.step_of[r]];
    m += (m.empty() ? "<- " : ", ") + inc.where(inc.related[r]);
  }
  std::size_t actor_w = 0, label_w = 0, mark_w = 0;
  for (std::size_t i = 0; i < e.steps.size(); ++i) {
    actor_w = std::max(actor_w, e.steps[i].actor.size());
    label_w = std::max(label_w, e.steps[i].label.size());
    mark_w = std::max(mark_w, marks[i].size());
  }
  std::string out;
  for (std::size_t i = 0; i < e.steps.size(); ++i) {
    const TraceStep& s = e.steps[i];
    std::string line = "    " + std::string(i < 10 ? " " : "") + std::to_string(i) + "  " +
                       s.actor + std::string(actor_w - s.actor.size(), ' ') + "  " + s.label +
                       std::string(label_w - s.label.size(), ' ') + "  " + marks[i] +
                       std::string(mark_w - marks[i].size(), ' ') + "  " + clip(s.what, 90);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string search_text(const ExplainResult& r, bool dfs) {
  std::string s = plural(r.executions, "execution", "executions") + ", " +
                  (dfs ? "exhaustive DFS" : "DPOR");
  if (r.timed) s += ", the times checked against the durations";
  if (r.cut > 0) s += ", " + std::to_string(r.cut) + " cut at a line the incident lacks";
  s += r.complete ? ", complete" : ", incomplete: " + r.incomplete_why;
  return s;
}

// The slices of an explanation by owners, one line each.
std::string slices_text(const DecomposedExplanation& de) {
  std::string out;
  for (const DecomposedExplanation::Slice& s : de.slices) {
    out += "    " + s.owner + " (" + s.kind_text + "): ";
    if (!s.same_as.empty())
      out += "the same slice as " + s.same_as + "'s\n";
    else if (!s.searched)
      out += "not searched\n";
    else
      out += plural(s.executions, "execution", "executions") + ", " +
             plural(s.explanations, "explanation", "explanations") +
             (s.complete ? "" : " (incomplete)") + "\n";
  }
  return out;
}

std::string result_text(const ExplanationPlan& plan, const ExplanationRun& run, bool dfs) {
  const Incident& inc = plan.incident;
  const ExplainResult& r = run.result;
  std::string out;
  if (inc.related.empty())
    return "nothing to explain: no matched line is related (no WARN, ERROR or FATAL line matched "
           "a pattern; --focus NAME=VALUE names an identity to start from)\n";
  if (run.decomposition) {
    const DecomposedExplanation& de = *run.decomposition;
    out += "by owner decomposition (" + de.argument + "): the related lines form one group, " +
           "which one owner's actors and the shared ones produce; one slice per owner kind, " +
           plural(r.executions, "execution", "executions") + " in all" +
           (r.cut > 0 ? ", " + std::to_string(r.cut) + " cut at a line the incident lacks" : "") +
           ":\n" + slices_text(de);
    if (r.explanations > 0) {
      const auto& slice = *std::find_if(de.slices.begin(), de.slices.end(), [&](const auto& s) {
        return s.owner == de.lifted_from;
      });
      out += "explained: " + plural(r.explanations, "distinct explanation", "distinct explanations") +
             " (Mazurkiewicz traces) in the slice of " + de.lifted_from + " (" + slice.kind_text +
             "); the first, lifted to the scenario (" +
             plural(de.lift_extra_steps, "step", "steps") +
             " for other owners) and run there alone, explains the incident: the scenario has at "
             "least that one\n";
    }
  }
  if (r.explanations > 0) {
    if (!run.decomposition)
      out += "explained: " + std::string(r.complete ? "" : "at least ") +
             plural(r.explanations, "distinct explanation", "distinct explanations") +
             " (Mazurkiewicz traces) in " + search_text(r, dfs) + "\n";
    out += "  the first explanation, step by step (<- the lines a step logged; the other steps "
           "are inferred):\n";
    out += steps_text(plan, *r.first);
    if (!r.inferred.empty()) {
      out += run.decomposition ? "  in every explanation of the slice of " +
                                     run.decomposition->lifted_from + ":\n"
                               : std::string("  in every explanation:\n");
      for (const InferredStep& s : r.inferred) {
        std::string what = s.what.substr(0, s.what.find("; "));
        out += "    " + s.actor + "'s " + s.label +
               (s.occurrence > 1 ? " (#" + std::to_string(s.occurrence) + ")" : "") +
               (what.empty() ? "" : " (" + clip(what, 80) + ")") + " falls between " +
               inc.where(inc.related[*s.after_line]) + " and " +
               inc.where(inc.related[*s.before_line]) + "\n";
      }
    }
    if (!run.trace_file.empty())
      out += "  trace: " + run.trace_file + " (it violates " + *r.first->violated +
             "); interleave replay " + run.trace_file + "\n";
    else if (!r.first->violated)
      out += "  the explanation violates no property (no trace file); its schedule is in --json\n";
    return out;
  }
  if (run.decomposition && !run.decomposition->lift_failure.empty())
    out += "not explained in the scenario: the slice of " + run.decomposition->unlifted_owner +
           " explains the incident, but " + run.decomposition->lift_failure + "\n";
  else if (run.decomposition)
    out += std::string(r.complete ? "not explained: no slice produces the incident, so no "
                                    "execution of the scenario does (by the argument above)"
                                  : "not explained so far: no slice searched produces the "
                                    "incident") +
           (r.complete ? "" : " (incomplete: " + r.incomplete_why + ")") + "\n";
  else
    out += std::string(r.complete ? "not explained: no execution" : "not explained so far: no "
                                                                    "execution searched") +
           " produces the incident (" + search_text(r, dfs) + ")\n";
  if (r.time_rejected > 0)
    out += "  " + plural(r.time_rejected, "execution produces", "executions produce") +
           " the related lines in the incident's order, but within durations that do not allow "
           "its times\n";
  out += "  the longest prefix some execution produces: " + std::to_string(r.longest_prefix) +
         " of " + std::to_string(inc.related.size()) + " related lines\n";
  if (r.longest_prefix < inc.related.size()) {
    const std::size_t l = inc.related[r.longest_prefix];
    out += "  the first line no execution produces after it: " + inc.where(l) + "  " +
           clip(inc.record(l).full_message(), 100) + "\n";
  }
  if (r.closest) {
    out += run.decomposition ? "  the closest execution, of the slice of " +
                                   run.decomposition->closest_in + ":\n"
                             : std::string("  the closest execution:\n");
    out += steps_text(plan, *r.closest);
  }
  return out;
}

IncidentOptions incident_options(const ExplainArgs& a) {
  IncidentOptions o;
  if (!(a.clock_skew_ms >= 0) || a.clock_skew_ms > 86'400'000)
    throw UsageError("--clock-skew: expected milliseconds from 0 to 86400000");
  o.clock_skew_micros = static_cast<std::int64_t>(std::llround(a.clock_skew_ms * 1000));
  o.complete = a.complete;
  for (const std::string& f : a.focus) {
    const std::size_t eq = f.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == f.size())
      throw UsageError("--focus " + f + ": expected NAME=VALUE (a pattern's hole and a value, "
                       "e.g. table=52300)");
    o.focus.emplace_back(f.substr(0, eq), f.substr(eq + 1));
  }
  return o;
}

}  // namespace

CLI::App* add_explain(CLI::App& app, ExplainArgs& a) {
  CLI::App* c = app.add_subcommand(
      "explain", "Find the executions of a scenario that produce an incident's log lines");
  c->add_option("scenario", a.scenario, "Scenario file")->required()->type_name("SCENARIO");
  c->add_option("logs", a.logs, "Log files of the incident")
      ->required()
      ->type_name("LOG ...");
  c->add_option("--clock-skew", a.clock_skew_ms,
                "Milliseconds two files' clocks may differ (default 1000): lines of different "
                "files closer than this may have happened in either order")
      ->type_name("MS");
  c->add_option("--complete", a.complete,
                "Every line of this logger (a class, a source file) is in the logs: an execution "
                "may log no other (repeatable)")
      ->type_name("LOGGER");
  c->add_option("--focus", a.focus,
                "Explain the lines related to this identity (a pattern's hole and a value) "
                "instead of the failure lines (repeatable)")
      ->type_name("NAME=VALUE");
  c->add_option("--strategy", a.strategy,
                "dpor (default: every execution filtered at its end) or dfs (exhaustive, cut at "
                "the first line a complete logger may not print)")
      ->type_name("NAME")
      ->check(CLI::IsMember({"dpor", "dfs"}));
  c->add_option("--max-executions", a.max_executions,
                "Stop after this many executions (0: unlimited); the answer is then incomplete")
      ->type_name("N");
  c->add_option("--preset", a.preset, "Run under this policy preset (see 'interleave list')")
      ->type_name("NAME");
  c->add_option("--set", a.sets, "Set a scenario key before validation (repeatable)")
      ->type_name("PATH=VALUE")
      ->take_all()
      ->allow_extra_args(false);
  c->add_option("--presets", a.presets,
                "Say under which of these presets the incident is possible (comma-separated)")
      ->type_name("A,B,...");
  c->add_option("--out", a.out_dir, "Directory for the explanation's trace (default: out)")
      ->type_name("DIR");
  c->add_flag("--check-accesses", a.check_accesses,
              "The checked mode: a step that uses state it did not declare is an internal error "
              "(exit 4) naming it");
  c->add_flag("--json", a.json, "Print the answer as JSON");
  c->add_flag("--quiet,-q", a.quiet, "No progress line");
  c->footer(
      "The logs are read line by line (log4j2's pattern and JSON layouts, glog, and bare\n"
      "'HH:MM:SS message' excerpts); each line the model's patterns match is matched, the\n"
      "others are set aside. The related lines (the failure's, and those sharing an id with\n"
      "them) must all be produced by one execution, lines of one file in file order, lines of\n"
      "different files in timestamp order beyond the clock skew; the execution may log more.\n\n"
      "SIGINT or SIGTERM stops the search at the next execution and prints what it found.\n\n"
      "Exit codes: 0 explained, 1 not explained (complete search), 2 bad input or usage,\n"
      "3 not explained and the search incomplete, 4 internal error.\n\n"
      "Examples:\n"
      "  interleave explain scenario.json app.log other.log\n"
      "  interleave explain scenario.json app.log other.log --clock-skew 200 --json\n"
      "  interleave explain scenario.json app.log --focus value=1");
  return c;
}

int run_explain(const ExplainArgs& args, const Context& ctx) {
  const IncidentOptions options = incident_options(args);
  if (!args.presets.empty() && !args.preset.empty())
    throw UsageError("--presets and --preset: give one");
  std::vector<std::string> presets;
  if (!args.presets.empty()) {
    presets = split_vary_values(args.presets);
    for (const std::string& p : presets)
      if (p.empty()) throw UsageError("--presets " + args.presets + ": an empty preset name");
  } else {
    presets.push_back(args.preset);
  }
  // Everything is read and checked before the first search: each preset's scenario too.
  std::vector<ExplanationPlan> plans;
  for (const std::string& p : presets)
    plans.push_back(
        plan_explanation(args.scenario, ctx.models, p, args.sets, args.logs, options));
  if (!args.out_dir.empty()) check_output_directory("--out", args.out_dir);

  std::vector<ExplanationRun> runs;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    ExplainOptions o;
    o.dfs = args.strategy == "dfs";
    o.check_accesses = args.check_accesses;
    o.max_executions = args.max_executions;
    o.stop = &interrupt_requested();
    std::optional<ProgressLine> progress;
    if ((ctx.env.progress || ctx.env.progress_lines) && !args.quiet) {
      progress.emplace(ctx.err, plans[i].scenario.name,
                       ctx.env.progress ? ProgressLine::Mode::kTerminal
                                        : ProgressLine::Mode::kLines,
                       []() -> std::optional<ProgressEstimate> { return std::nullopt; });
      const auto started = std::chrono::steady_clock::now();
      o.on_progress = [&progress, started](std::uint64_t executions) {
        Stats st;
        st.executions = executions;
        st.elapsed_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        progress->update(st);
      };
    }
    runs.push_back(run_explanation(plans[i], o,
                                   presets.size() == 1 ? std::filesystem::path(args.out_dir)
                                                       : std::filesystem::path(),
                                   ctx.env.tool_version));
    progress.reset();
    if (runs.back().result.interrupted) break;
  }
  const bool interrupted = runs.back().result.interrupted;
  const bool dfs = args.strategy == "dfs";
  if (args.presets.empty()) {
    const ExplanationRun& run = runs.front();
    if (args.json) {
      json doc{{"tool_version", ctx.env.tool_version}};
      doc.update(to_json(plans.front(), run));
      if (interrupted) doc["interrupted"] = interruption_text();
      ctx.out << doc.dump(2) << "\n" << std::flush;
    } else {
      ctx.out << incident_text(plans.front()) << result_text(plans.front(), run, dfs)
              << std::flush;
    }
    if (run.result.explanations > 0 || plans.front().incident.related.empty())
      return static_cast<int>(ExitCode::kHolds);
    return run.result.complete ? static_cast<int>(ExitCode::kViolation)
                               : static_cast<int>(ExitCode::kIncomplete);
  }
  bool all_complete = true;
  if (args.json) {
    json arr = json::array();
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const ExplainResult& r = runs[i].result;
      all_complete = all_complete && r.complete;
      arr.push_back({{"preset", presets[i]},
                     {"possible", r.explanations > 0 ? json(true)
                                                     : (r.complete ? json(false) : json())},
                     {"explanations", r.explanations},
                     {"executions", r.executions},
                     {"complete", r.complete}});
    }
    json doc{{"tool_version", ctx.env.tool_version},
             {"scenario", plans.front().scenario.name},
             {"presets", std::move(arr)}};
    if (interrupted) doc["interrupted"] = interruption_text();
    ctx.out << doc.dump(2) << "\n" << std::flush;
  } else {
    ctx.out << incident_text(plans.front());
    ctx.out << "under which presets the incident is possible:\n";
    std::size_t width = 0;
    for (const std::string& p : presets)
      width = std::max(width, p.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const ExplainResult& r = runs[i].result;
      all_complete = all_complete && r.complete;
      std::string verdict =
          runs[i].result.executions == 0 && plans[i].incident.related.empty()
              ? "nothing to explain: no matched line is related"
          : r.explanations > 0
              ? "possible: " + std::string(r.complete ? "" : "at least ") +
                    plural(r.explanations, "explanation", "explanations")
              : (r.complete ? "impossible: no execution produces it"
                            : "unknown: none found so far");
      ctx.out << "  " << presets[i] << std::string(width - presets[i].size(), ' ') << "  "
              << verdict << " (" << search_text(r, dfs) << ")\n";
    }
    if (runs.size() < presets.size())
      ctx.out << "  " << interruption_text() << ": the other presets were not searched\n";
    ctx.out << std::flush;
  }
  return all_complete && !interrupted ? static_cast<int>(ExitCode::kHolds)
                                      : static_cast<int>(ExitCode::kIncomplete);
}

}  // namespace interleave::cli
