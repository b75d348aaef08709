// The sentences that describe a counterexample (reports/trace/trace.hpp): the one place that puts a
// violation or a step into words, for the renderers (Wording::kReport) and for the commands'
// output (Wording::kConsole).
#include "reports/analysis/causal_slice.hpp"
#include "reports/render/text_util.hpp"
#include "reports/trace/trace.hpp"
#include "reports/trace/trace_view.hpp"

#include <algorithm>

namespace interleave::reports {

namespace {

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string describe_violation(const Counterexample& c, Wording wording) {
  std::string where;
  if (wording == Wording::kReport) {
    // The step is found by its index, and named by the actor that took it.
    if (const auto pos = violating_position(c)) {
      where = "at step " + std::to_string(c.steps[*pos].index) + " (" + c.steps[*pos].actor + ")";
      if (c.found_at) where += ", reported after the last step";
    } else if (c.steps.empty())
      where = "before any step";
    else
      where = "after the last step";
    return c.invariant + " violated " + where + ": " + c.message;
  }
  // Console: "by" names the actor whose step raised it (none for an invariant checked between
  // steps); the end of the execution names the last step, as the step list printed with it does.
  const std::size_t count = c.steps.size();
  if (c.found_at && *c.found_at < count)
    where = "at step #" + std::to_string(*c.found_at) + " by " + c.steps[*c.found_at].actor +
            " (reported at the end of the execution, after step #" + std::to_string(count - 1) +
            ")";
  else if (c.step < count)
    where = "at step #" + std::to_string(c.step) + (c.actor.empty() ? "" : " by " + c.actor);
  else if (count == 0)
    where = "before any step";
  else
    where = "at the end of the execution (after step #" + std::to_string(count - 1) + ")";
  return "'" + c.invariant + "' violated " + where + ": " + c.message;
}

std::string counterexample_headline(const Counterexample& c) {
  return "Counterexample: " + c.invariant + " (" + plural(c.steps.size(), "step", "steps") + ", " +
         plural(actors_in_order(c).size(), "actor", "actors") + ", " +
         plural(c.preemptions, "preemption", "preemptions") + ")";
}

std::string step_label(const TraceStep& step) {
  return step.label.empty() ? std::string("(unlabelled)") : step.label;
}

std::string describe_accesses(const TraceStep& step, Wording wording) {
  std::string s;
  for (const TraceAccess& a : step.accesses) {
    if (!s.empty()) s += ", ";
    s += wording == Wording::kReport ? std::string(to_string(a.kind)) + " " + a.object
                                     : a.object + " " + std::string(to_string(a.kind));
  }
  if (wording == Wording::kConsole && !s.empty()) s = "[" + s + "]";
  return s;
}

std::string describe_what(const TraceStep& step, Wording wording) {
  if (wording == Wording::kConsole && step.what.empty()) return describe_accesses(step, wording);
  return step.what;
}

std::string describe_step(const TraceStep& step, Wording wording) {
  const std::string what = describe_what(step, wording);
  // A timed program's step: its time first, as an offset from the origin.
  const std::string at = step.time ? "t+" + interleave::format_seconds(*step.time) + " " : "";
  if (wording == Wording::kReport)
    return at + step_label(step) + (what.empty() ? "" : ": " + what);
  return at + step.actor + " " + step.label + (what.empty() ? "" : ": " + what);
}

std::string shortened(std::string_view s, std::size_t max) {
  const std::string t = text::printable(s);
  if (text::display_width(t) <= max) return t;
  const std::vector<std::string> lines = text::wrap(t, max > 1 ? max - 1 : 1);
  return lines.front() + "\xE2\x80\xA6";  // "…"
}

std::string describe_race_step(const Counterexample& c, std::size_t index, const Race& race) {
  const TraceStep& step = c.steps.at(index);
  // The label names the step when no other actor's step has it; else the actor is named too.
  const bool shared = std::any_of(c.steps.begin(), c.steps.end(), [&](const TraceStep& o) {
    return o.actor != step.actor && o.label == step.label;
  });
  const std::string out = "#" + std::to_string(step.index) + " " +
                          (shared ? step.actor + " " + step_label(step) : step_label(step));
  const std::string sep = shared ? ": " : " ";
  // An observation of a raced object whose value the state dump shows: "reads RUN = []".
  for (const TraceAccess& a : step.accesses) {
    if (!observes(a.kind) ||
        std::find(race.objects.begin(), race.objects.end(), a.object) == race.objects.end())
      continue;
    if (index < c.states.size() && c.states[index].is_object() &&
        c.states[index].contains(a.object))
      return out + " reads " + a.object + " = " +
             shortened(c.states[index][a.object].dump(-1, ' ', false,
                                                      nlohmann::json::error_handler_t::replace),
                       40);
  }
  if (!step.what.empty()) return out + sep + shortened(step.what, 72);
  const std::string accesses = describe_accesses(step, Wording::kReport);
  return accesses.empty() ? out : out + sep + accesses;
}

std::string describe_race(const Counterexample& c, const Race& race) {
  return describe_race_step(c, race.first, race) + " before " +
         describe_race_step(c, race.second, race);
}

std::string describe_folded(const CausalSlice::Folded& f) {
  return f.actor + ": " + plural(f.steps, "step", "steps") + " not involved";
}

}  // namespace interleave::reports
