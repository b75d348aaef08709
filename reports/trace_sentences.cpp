// The sentences that describe a counterexample (reports/trace.hpp): the one place that puts a
// violation or a step into words, for the renderers (Wording::kReport) and for the commands'
// output (Wording::kConsole).
#include "reports/trace.hpp"
#include "reports/trace_view.hpp"

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
    if (const auto pos = violating_position(c))
      where = "at step " + std::to_string(c.steps[*pos].index) + " (" + c.steps[*pos].actor + ")";
    else if (c.steps.empty())
      where = "before any step";
    else
      where = "after the last step";
    return c.invariant + " violated " + where + ": " + c.message;
  }
  // Console: "by" names the actor whose step raised it (none for an invariant checked between
  // steps); the end of the execution names the last step, as the step list printed with it does.
  const std::size_t count = c.steps.size();
  if (c.step < count)
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
  if (wording == Wording::kReport) return step_label(step) + (what.empty() ? "" : ": " + what);
  return step.actor + " " + step.label + (what.empty() ? "" : ": " + what);
}

}  // namespace interleave::reports
