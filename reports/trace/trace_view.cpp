#include "reports/trace/trace_view.hpp"

#include <algorithm>

namespace interleave::reports {

std::vector<std::string> actors_in_order(const Counterexample& c) {
  std::vector<std::string> actors;
  auto add = [&](const std::string& name) {
    if (std::find(actors.begin(), actors.end(), name) == actors.end()) actors.push_back(name);
  };
  for (const TraceStep& s : c.steps)
    add(s.actor);
  if (!c.actor.empty()) add(c.actor);
  return actors;
}

std::optional<std::size_t> violating_position(const Counterexample& c) {
  const std::size_t step = c.found_at.value_or(c.step);
  for (std::size_t i = 0; i < c.steps.size(); ++i)
    if (c.steps[i].index == step) return i;
  return std::nullopt;
}

}  // namespace interleave::reports
