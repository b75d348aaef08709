#include "reports/run/explanation.hpp"

#include "reports/render/render.hpp"
#include "reports/run/errors.hpp"
#include "reports/run/exploration.hpp"
#include "reports/run/output_files.hpp"
#include "reports/run/run.hpp"
#include "reports/run/scenario_overrides.hpp"

namespace interleave::run {

namespace {

ExplanationPlan plan_for(Scenario scenario, const ModelRegistry& models,
                         const std::vector<std::string>& logs, const IncidentOptions& options) {
  ExplanationPlan plan{std::move(scenario), {}, {}};
  const ModelDriver* driver = models.find(plan.scenario.model);
  if (driver == nullptr) throw UsageError("no model named '" + plan.scenario.model + "'");
  plan.patterns = driver->log_patterns().compiled();
  if (plan.patterns.empty())
    throw UsageError("the model '" + plan.scenario.model + "' declares no log patterns");
  std::vector<LogFile> files;
  for (const std::string& path : logs)
    files.push_back(read_log_file(path));
  IncidentOptions with_rules = options;
  with_rules.rules = driver->log_patterns().rules();
  plan.incident = read_incident(std::move(files), plan.patterns, with_rules);
  for (const auto& [name, value] : options.focus) {
    bool carried = false;
    for (const IncidentLine& l : plan.incident.lines)
      for (const LogBinding& b : l.values)
        if (b.first == name && b.second == value) carried = true;
    if (!carried)
      throw UsageError("--focus " + name + "=" + value + ": no line of the logs that a pattern " +
                       "matches carries it");
  }
  if (plan.scenario.exploration.decompose) {
    decomposition_of(plan.scenario);  // a refusal is bad input, as for check
    const auto groups = related_groups(plan.incident, plan.patterns);
    if (groups.size() > 1) {
      std::string where;
      for (const auto& g : groups)
        where += (where.empty() ? "" : ", ") + plan.incident.where(plan.incident.related[g[0]]);
      throw UsageError(
          "the scenario is explored by owners (exploration.decompose), but the incident's " +
          std::to_string(plan.incident.related.size()) + " related lines form " +
          std::to_string(groups.size()) + " groups that share no session, table, tablet or " +
          "other id (first lines: " + where + "), and one owner's slice produces one group; " +
          "name one group's id with --focus, or search the whole scenario with --set " +
          "exploration.decompose=false");
    }
  }
  return plan;
}

// The explanation by owners (DecomposedExplanation says how).
ExplainResult explain_by_owners(const ExplanationPlan& plan, const ExplainOptions& options,
                                DecomposedExplanation& de) {
  const OwnerDecomposition d = decomposition_of(plan.scenario);
  const Program& full = plan.scenario.instance.program;
  de.argument = d.argument;
  ExplainResult total;
  std::optional<ExplainResult> found;  // the first slice that explains
  std::string found_owner;
  const auto same_kind = [&](const OwnerSlice& slice, std::size_t first) {
    DecomposedExplanation::Slice out{slice.owner, slice.kind_text, "", false, 0, 0, true};
    out.same_as = de.slices[first].owner;
    out.explanations = de.slices[first].explanations;
    de.slices.push_back(std::move(out));
  };
  const auto search_slice = [&](const OwnerSlice& slice) {
    DecomposedExplanation::Slice out{slice.owner, slice.kind_text, "", false, 0, 0, true};
    if (total.interrupted || (options.max_executions != 0 &&
                              total.executions >= options.max_executions)) {
      total.complete = false;
      if (total.incomplete_why.empty())
        total.incomplete_why = "the budget of " + std::to_string(options.max_executions) +
                               " executions ran out";
      de.slices.push_back(std::move(out));
      return false;
    }
    ExplainOptions o = options;
    const std::uint64_t done = total.executions;
    if (options.on_progress)
      o.on_progress = [&options, done](std::uint64_t n) { options.on_progress(done + n); };
    if (options.max_executions != 0) o.max_executions = options.max_executions - done;
    ExplainResult r = explain_incident(slice.program, plan.incident, plan.patterns, o);
    out.searched = true;
    out.executions = r.executions;
    out.explanations = r.explanations;
    out.complete = r.complete;
    total.executions += r.executions;
    total.cut += r.cut;
    total.unknown += r.unknown;
    if (!r.complete) {
      total.complete = false;
      total.interrupted = total.interrupted || r.interrupted;
      if (total.incomplete_why.empty())
        total.incomplete_why = "the slice of " + slice.owner + ": " + r.incomplete_why;
    }
    if (r.explanations == 0 && r.closest &&
        (!total.closest || r.longest_prefix > total.longest_prefix)) {
      total.longest_prefix = r.longest_prefix;
      total.closest = r.closest;
      de.closest_in = slice.owner;
    }
    if (r.explanations > 0 && !found) {
      found = std::move(r);
      found_owner = slice.owner;
    }
    de.slices.push_back(std::move(out));
    return true;
  };
  for_each_owner_slice(d, same_kind, search_slice);
  if (!found) return total;
  // Lift the slice's first explanation and check it on the scenario alone.
  const ExecutionLift lift =
      lift_execution(full, d, found_owner, found->first->schedule, found->first->steps,
                     explore_options_for(plan.scenario.exploration));
  std::string failure = lift.failure;
  if (lift.schedule) {
    ExplainOptions only = options;
    only.only = *lift.schedule;
    only.on_progress = nullptr;
    only.max_executions = 0;
    ExplainResult check = explain_incident(full, plan.incident, plan.patterns, only);
    total.executions += check.executions;
    if (check.explanations > 0) {
      de.lifted_from = found_owner;
      de.lift_extra_steps = lift.extra_steps;
      total.first = std::move(check.first);
      total.explaining = found->explaining;
      total.explanations = found->explanations;
      total.inferred = std::move(found->inferred);
      total.longest_prefix = plan.incident.related.size();
      total.closest.reset();
      de.closest_in.clear();
      return total;
    }
    failure = "the lifted execution does not produce the incident in the scenario";
  }
  de.unlifted_owner = found_owner;
  de.lift_failure = failure;
  total.complete = false;
  total.incomplete_why = "the slice of " + found_owner +
                         " explains the incident, but its explanation did not lift to the "
                         "scenario (" + failure + ")";
  total.longest_prefix = found->longest_prefix;
  total.closest = std::move(found->first);
  de.closest_in = found_owner;
  return total;
}

}  // namespace

ExplanationPlan plan_explanation(const std::string& file, const ModelRegistry& models,
                                 const std::string& preset, const std::vector<std::string>& sets,
                                 const std::vector<std::string>& logs,
                                 const IncidentOptions& options) {
  return plan_for(load_scenario(file, models, parse_scenario_overrides(preset, sets)), models,
                  logs, options);
}

ExplanationPlan plan_incident(const Scenario& scenario, const IncidentSpec& incident,
                              const ModelRegistry& models) {
  for (std::size_t i = 0; i < incident.logs.size(); ++i)
    if (!std::filesystem::is_regular_file(incident.logs[i]))
      throw InputError(scenario.file, incident.path + "/logs/" + std::to_string(i),
                       "'" + incident.logs[i] + "' is not a readable file");
  return plan_for(scenario, models, incident.logs, incident.options);
}

ExplanationRun run_explanation(const ExplanationPlan& plan, ExplainOptions options,
                               const std::filesystem::path& out_dir,
                               const std::string& tool_version) {
  ExplanationRun run;
  if (plan.incident.related.empty()) return run;  // nothing to explain: no search
  options.max_steps = plan.scenario.exploration.max_steps;
  if (plan.scenario.exploration.decompose)
    run.result = explain_by_owners(plan, options, run.decomposition.emplace());
  else
    run.result = explain_incident(plan.scenario.instance.program, plan.incident, plan.patterns,
                                  options);
  const std::optional<Explanation>& first = run.result.first;
  if (first && first->violated) {
    const ExplorationSettings& settings = plan.scenario.exploration;
    Explorer explorer(plan.scenario.instance.program, explore_options_for(settings));
    const Counterexample c = explorer.make_counterexample(first->schedule, *first->violated);
    Stats stats;
    stats.executions = run.result.executions;
    stats.violations[*first->violated] = 1;
    run.trace = make_trace_document(plan.scenario, settings, options.dfs ? "dfs" : "dpor", c,
                                    stats, tool_version);
    if (!out_dir.empty()) {
      const std::filesystem::path path = out_dir / (plan.scenario.name + ".explanation.trace.json");
      write_file_atomically(path, reports::render_json(*run.trace));
      run.trace_file = path.string();
    }
  }
  return run;
}

namespace {

nlohmann::json steps_json(const ExplanationPlan& plan, const Explanation& e) {
  nlohmann::json steps = nlohmann::json::array();
  for (const TraceStep& s : e.steps) {
    nlohmann::json explains = nlohmann::json::array();
    for (std::size_t r = 0; r < e.step_of.size(); ++r)
      if (e.step_of[r] == s.index) explains.push_back(plan.incident.where(plan.incident.related[r]));
    steps.push_back({{"index", s.index},
                     {"actor", s.actor},
                     {"label", s.label},
                     {"what", s.what},
                     {"explains", std::move(explains)}});
  }
  return steps;
}

}  // namespace

nlohmann::json to_json(const ExplanationPlan& plan, const ExplanationRun& run) {
  using nlohmann::json;
  const Incident& inc = plan.incident;
  const ExplainResult& r = run.result;
  json files = json::array();
  for (const LogFile& f : inc.files) {
    json ignored = json::array();
    for (const IgnoredLogLine& l : f.ignored)
      ignored.push_back({{"line", l.line}, {"why", l.why}});
    files.push_back({{"path", f.path},
                     {"lines", f.lines},
                     {"records", f.records.size()},
                     {"ignored", std::move(ignored)}});
  }
  json lines = json::array();
  for (std::size_t i = 0; i < inc.lines.size(); ++i) {
    json values = json::object();
    for (const auto& [name, value] : inc.lines[i].values)
      values[name] = value;
    lines.push_back({{"where", inc.where(i)},
                     {"pattern", plan.patterns[inc.lines[i].pattern].pattern().id},
                     {"values", std::move(values)},
                     {"related", inc.lines[i].related},
                     {"text", inc.record(i).text}});
  }
  json unmatched = json::array();
  for (const auto& [f, rec] : inc.unmatched)
    unmatched.push_back(std::filesystem::path(inc.files[f].path).filename().string() + ":" +
                        std::to_string(inc.files[f].records[rec].line));
  json order = json::array();
  for (const std::size_t l : inc.related)
    order.push_back(inc.where(l));
  const bool explained = r.explanations > 0;
  json out{{"scenario", plan.scenario.name},
           {"files", std::move(files)},
           {"lines", std::move(lines)},
           {"unmatched", std::move(unmatched)},
           {"related", std::move(order)},
           {"explained", explained},
           {"complete", r.complete},
           {"executions", r.executions},
           {"cut", r.cut},
           {"explanations", r.explanations},
           {"at_least", !r.complete}};
  if (r.timed) out["timed"] = {{"time_rejected", r.time_rejected}};
  if (!r.complete) out["incomplete"] = r.incomplete_why;
  if (inc.related.empty()) out["nothing_to_explain"] = true;
  if (run.decomposition) {
    const DecomposedExplanation& de = *run.decomposition;
    json slices = json::array();
    for (const DecomposedExplanation::Slice& s : de.slices) {
      json j{{"owner", s.owner}, {"kind", s.kind_text}, {"searched", s.searched}};
      if (!s.same_as.empty()) j["same_as"] = s.same_as;
      if (s.searched)
        j.update({{"executions", s.executions},
                  {"explanations", s.explanations},
                  {"complete", s.complete}});
      slices.push_back(std::move(j));
    }
    json d{{"argument", de.argument}, {"slices", std::move(slices)}};
    if (!de.lifted_from.empty()) {
      d["lifted_from"] = de.lifted_from;
      d["lift_extra_steps"] = de.lift_extra_steps;
    }
    if (!de.lift_failure.empty()) {
      d["unlifted_owner"] = de.unlifted_owner;
      d["lift_failure"] = de.lift_failure;
    }
    if (!de.closest_in.empty()) d["closest_in"] = de.closest_in;
    out["decomposition"] = std::move(d);
    // The count is the lifted slice's: the scenario has at least the lifted explanation.
    if (explained) out["at_least"] = true;
  }
  if (explained) {
    out["steps"] = steps_json(plan, *r.first);
    out["schedule"] = to_json(r.first->schedule);
    if (r.first->violated) out["violates"] = *r.first->violated;
    if (!run.trace_file.empty()) out["trace"] = run.trace_file;
    json inferred = json::array();
    for (const InferredStep& s : r.inferred)
      inferred.push_back({{"actor", s.actor},
                          {"label", s.label},
                          {"occurrence", s.occurrence},
                          {"what", s.what},
                          {"after", inc.where(inc.related[*s.after_line])},
                          {"before", inc.where(inc.related[*s.before_line])}});
    out["inferred"] = std::move(inferred);
  } else {
    out["longest_prefix"] = r.longest_prefix;
    if (r.longest_prefix < inc.related.size()) {
      const std::size_t l = inc.related[r.longest_prefix];
      out["first_unexplained"] = {{"where", inc.where(l)}, {"text", inc.record(l).text}};
    }
    if (r.closest) out["closest"] = steps_json(plan, *r.closest);
  }
  return out;
}

}  // namespace interleave::run
