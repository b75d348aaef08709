#include "reports/cli/text.hpp"

#include "reports/analysis/causal_slice.hpp"
#include "reports/render/text_util.hpp"
#include "reports/trace/trace_view.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

using reports::Wording;

namespace {

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string plural(std::uint64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string format_steps(const std::vector<TraceStep>& steps, const std::string& indent,
                         std::optional<std::size_t> marked, const std::string& mark) {
  std::size_t index_w = 2, actor_w = 0, label_w = 0;
  for (const auto& s : steps) {
    index_w = std::max(index_w, std::to_string(s.index).size() + 1);
    actor_w = std::max(actor_w, s.actor.size());
    label_w = std::max(label_w, s.label.size());
  }
  std::string out;
  for (const auto& s : steps) {
    const std::string index = "#" + std::to_string(s.index);
    std::string line = indent + std::string(index_w - index.size(), ' ') + index + "  " +
                       (s.time ? "t+" + interleave::format_seconds(*s.time) + "  " : "") +
                       pad(s.actor, actor_w) + "  " + pad(s.label, label_w);
    const std::string what = reports::describe_what(s, Wording::kConsole);
    if (!what.empty()) line += "  " + what;
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    if (marked && *marked == s.index) line += "  <-- " + mark;
    out += line + "\n";
  }
  return out;
}

std::string format_counterexample(const reports::TraceDocument& doc, const std::string& indent,
                                  bool full) {
  const Counterexample& c = doc.counterexample;
  const reports::CausalSlice slice = reports::causal_slice(doc);
  std::string out = indent + reports::describe_violation(c, Wording::kConsole) + "\n";
  if (doc.race)
    out += indent + "the race: " + reports::describe_race(c, *doc.race) + "\n";
  else if (!c.steps.empty())
    out += indent +
           "the race: none found (no swap of two dependent steps of the slice makes every "
           "property hold)\n";
  // The steps shown, each with its marks.
  std::vector<TraceStep> shown;
  std::map<std::size_t, std::string> marks;
  for (std::size_t p = 0; p < c.steps.size(); ++p) {
    if (!full && !slice.involved[p]) continue;
    const std::size_t index = c.steps[p].index;
    shown.push_back(c.steps[p]);
    std::string mark;
    if (slice.violating == p) mark = "violation";
    if (doc.race && (doc.race->first == index || doc.race->second == index))
      mark += std::string(mark.empty() ? "" : ", ") + "the race";
    if (!mark.empty()) marks[index] = mark;
  }
  std::string steps = format_steps(shown, indent + "  ");
  // Marks after the lines of their steps (format_steps marks one step only).
  std::string marked;
  std::size_t line_start = 0;
  for (const TraceStep& st : shown) {
    const std::size_t end = steps.find('\n', line_start);
    std::string line = steps.substr(line_start, end - line_start);
    line_start = end + 1;
    if (const auto it = marks.find(st.index); it != marks.end()) line += "  <-- " + it->second;
    marked += line + "\n";
  }
  out += marked;
  if (!full)
    for (const reports::CausalSlice::Folded& f : slice.folded)
      out += indent + "  " + reports::describe_folded(f) + "\n";
  return out;
}

std::string format_states(const reports::TraceDocument& doc) {
  const Counterexample& c = doc.counterexample;
  std::string out = reports::describe_violation(c, Wording::kConsole) + "\n";
  if (doc.race) out += "the race: " + reports::describe_race(c, *doc.race) + "\n";
  if (c.states.empty()) return out + "(the model records no state: the trace has no states)\n";
  const std::optional<std::size_t> violating = reports::violating_position(c);
  const auto value = [](const nlohmann::json& v) {
    return reports::text::printable(
        v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  };
  const std::string lines = format_steps(c.steps, "");  // aligned, one line per step
  std::size_t line_start = 0;
  nlohmann::json before;  // the state before the step (null before the first)
  for (std::size_t p = 0; p < c.steps.size(); ++p) {
    const std::size_t end = lines.find('\n', line_start);
    std::string line = lines.substr(line_start, end - line_start);
    line_start = end + 1;
    if (violating == p) line += "  <-- violation";
    if (doc.race && (doc.race->first == c.steps[p].index || doc.race->second == c.steps[p].index))
      line += "  <-- the race";
    out += line + "\n";
    const nlohmann::json& after = c.states[p];
    if (!after.is_object()) {
      if (after != before) out += "      = " + value(after) + "\n";
    } else {
      for (const auto& [key, v] : after.items())
        if (!before.is_object() || !before.contains(key) || before[key] != v)
          out += "      " + key + " = " + value(v) + "\n";
      if (before.is_object())
        for (const auto& [key, v] : before.items())
          if (!after.contains(key)) out += "      " + key + " removed\n";
    }
    before = after;
  }
  out += "State at the violation:\n";
  if (c.state.is_object())
    for (const auto& [key, v] : c.state.items())
      out += "  " + key + " = " + value(v) + "\n";
  else
    out += "  " + value(c.state) + "\n";
  return out;
}

std::string describe_search(const ExplorationResult& r) {
  // Infeasible executions (held by the scenario's ordering constraints) are named only when some
  // were: scenarios without constraints never have any.
  const std::string infeasible =
      r.stats.infeasible == 0
          ? std::string()
          : " (" + std::to_string(r.stats.infeasible) + " infeasible under the constraints)";
  return plural(r.stats.executions, "execution") + infeasible + ", " +
         plural(r.stats.steps, "step") + "; " + r.detail;
}

std::string format_coverage(const ExplorationResult& result, const std::vector<std::string>& goals,
                            const std::string& indent) {
  std::vector<std::string> order = goals;
  for (const auto& [g, n] : result.covered)  // an ordered map: the others come sorted
    if (std::find(goals.begin(), goals.end(), g) == goals.end()) order.push_back(g);
  std::string out;
  for (const auto& g : order) {
    const auto it = result.covered.find(g);
    const std::uint64_t n = it == result.covered.end() ? 0 : it->second;
    out += indent + "'" + g + "' " +
           (n == 0 ? std::string("never reached") : "reached in " + plural(n, "execution")) + "\n";
  }
  return out;
}

std::string format_decomposition(const ExplorationResult& r, const DecomposedRun& d,
                                 const std::string& indent) {
  std::string out = indent + "the verdict came by owner decomposition (" + d.argument +
                    "): one slice per owner kind, each the scenario with that owner alone\n";
  for (const DecomposedRun::Slice& s : d.slices) {
    const std::string who = s.owner.empty() ? std::string("(no owner)") : s.owner;
    out += indent + "  slice " + who + " (" + s.kind_text + "): ";
    if (!s.same_as.empty()) {
      out += "= slice " + s.same_as + " up to names\n";
      continue;
    }
    if (!s.explored) {
      out += "not explored (the search stops at the first violation)\n";
      continue;
    }
    out += std::string(to_string(s.verdict));
    if (!s.violated.empty()) {
      std::string names;
      for (const auto& v : s.violated)
        names += (names.empty() ? "" : ", ") + v;
      out += " (" + names + ")";
    }
    out += ", " + plural(s.stats.executions, "execution") + "\n";
  }
  for (const DecomposedRun::Unlifted& u : d.unlifted)
    out += indent + "'" + u.invariant + "' (slice " + u.owner +
           ") is not lifted to this scenario: " + u.reason + "; its counterexample is the " +
           "slice's own" +
           (u.trace_file.empty() ? std::string(", not written")
                                 : ", which replays on the slice's scenario " + u.scenario_file) +
           "\n";
  if (r.verdict == Verdict::kHolds)
    out += indent + "holds for every cluster with any number of " + d.owners_plural +
           " of these kinds (the same cluster, cleaner passes and policy)\n";
  else if (r.verdict == Verdict::kViolation && r.counterexamples.size() > d.unlifted.size())
    out += indent + "each counterexample above" +
           (d.unlifted.empty() ? std::string() : " but a slice's own") +
           " is lifted to this scenario (the other owners' steps after it, or where a shared "
           "actor waits for them) and replays there\n";
  return out;
}

std::string format_run(const Scenario& scenario, const ScenarioRun& run, bool quiet) {
  const ExplorationResult& r = run.result;
  std::string out = scenario.name + ": " + std::string(to_string(r.verdict));
  if (r.verdict == Verdict::kViolation) {
    std::string names;
    for (const auto& c : r.counterexamples)
      names += (names.empty() ? "" : ", ") + c.invariant;
    out += " (" + names + ")";
  }
  out += "\n";
  if (quiet) return out;
  if (!scenario.overrides.empty()) {
    std::string with;
    for (const std::string& o : scenario.overrides)
      with += " " + o;
    out += "  with" + with + "\n";
  }
  if (!scenario.description.empty())
    for (const std::string& line :
         reports::text::wrap(reports::text::printable(scenario.description), 96))
      out += "  " + line + "\n";
  for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
    if (i < run.traces.size()) {
      out += format_counterexample(run.traces[i], "  ");
    } else {  // not written (no trace document): every step
      const Counterexample& c = r.counterexamples[i];
      out += "  " + reports::describe_violation(c, Wording::kConsole) + "\n";
      out +=
          format_steps(c.steps, "    ",
                       c.step < c.steps.size() ? std::optional<std::size_t>(c.step) : std::nullopt);
    }
    if (i < run.trace_files.size()) out += "  counterexample: " + run.trace_files[i] + "\n";
  }
  out += "  searched: " + describe_search(r) + "\n";
  if (r.timed)  // a timed scenario: only the executions that fit its durations count
    out += "  timed: the verdict is over the executions whose steps fit the durations (" +
           std::to_string(r.stats.timing_infeasible) + " explored fit none)\n";
  for (const auto& [name, b] : r.windows)
    out += "  window " + name + ": " + interleave::describe(b) + "\n";
  if (run.split) {
    const SplitRun& sp = *run.split;
    out += "  split: at depth " + std::to_string(sp.depth) + ", " + std::to_string(sp.prefixes) +
           " prefixes";
    if (sp.split_off_prefixes != 0)
      out += " (" + std::to_string(sp.split_off_prefixes) + " more split off large ones)";
    if (sp.shard_count > 1)
      out += "; shard " + std::to_string(sp.shard_index + 1) + "/" +
             std::to_string(sp.shard_count) + ": " + std::to_string(sp.searched_prefixes) +
             " of its " + std::to_string(sp.shard_prefixes) + " searched to the end";
    if (sp.shard_count > 1 && sp.shard_index < sp.shard_shares.size()) {
      char share[48];
      std::snprintf(share, sizeof share, " (%.1f%% of the estimated executions)",
                    100 * sp.shard_shares[sp.shard_index]);
      out += share;
    }
    out += "\n";
  }
  if (run.portfolio) {
    const PortfolioRun& pf = *run.portfolio;
    out += "  portfolio: " + plural(pf.rounds, "round") + ";";
    for (std::size_t i = 0; i < pf.members.size(); ++i)
      out += std::string(i == 0 ? " " : ", ") + pf.members[i].label + " " +
             std::to_string(pf.members[i].stats.executions);
    if (pf.handed_over) out += "; then dpor alone, split";
    out += "\n";
    for (std::size_t i = 0; i < pf.found_by.size() && i < r.counterexamples.size(); ++i)
      out += "    " + r.counterexamples[i].invariant + " found by " + pf.found_by[i] +
             " in round " + std::to_string(pf.found_in_round[i]) + "\n";
  }
  if (run.decomposition) out += format_decomposition(r, *run.decomposition, "  ");
  const std::string coverage = format_coverage(r, scenario.instance.coverage_goals, "    ");
  if (!coverage.empty()) out += "  coverage:\n" + coverage;
  return out;
}

}  // namespace interleave::cli
