#include "reports/analysis/diagram_view.hpp"

#include "reports/analysis/causal_slice.hpp"
#include "reports/trace/trace_view.hpp"

#include <algorithm>

namespace interleave::reports {

std::string objects_text(const std::vector<std::string>& objects) {
  std::string t;
  for (auto it = objects.begin(); it != objects.end(); ++it)
    if (std::find(objects.begin(), it, *it) == it) t += (t.empty() ? "" : ", ") + *it;
  return t;
}

std::string objects_text(const std::vector<ConflictingAccess>& accesses) {
  std::vector<std::string> names;
  for (const ConflictingAccess& a : accesses)
    names.push_back(a.object);
  return objects_text(names);
}

DiagramView diagram_view(const TraceDocument& doc, bool full) {
  const Counterexample& c = doc.counterexample;
  const std::size_t n = c.steps.size();
  DiagramView v;
  v.drawn = full ? std::vector<bool>(n, true) : causal_slice(doc).involved;
  for (std::size_t s = 0; s < n; ++s) {
    if (!v.drawn[s]) {
      ++v.left_out;
      continue;
    }
    if (std::find(v.actors.begin(), v.actors.end(), c.steps[s].actor) == v.actors.end())
      v.actors.push_back(c.steps[s].actor);
  }
  v.edges = diagram_edges(c.steps, v.drawn);
  const std::optional<std::size_t> violating = violating_position(c);
  if (violating && v.drawn[*violating]) v.violating = violating;
  if (doc.race) {
    std::optional<std::size_t> first, second;
    for (std::size_t s = 0; s < n; ++s) {
      if (c.steps[s].index == doc.race->first) first = s;
      if (c.steps[s].index == doc.race->second) second = s;
    }
    if (first && second && v.drawn[*first] && v.drawn[*second]) {
      v.race_first = first;
      v.race_second = second;
      v.race_objects = doc.race->objects;
    }
  }
  return v;
}

}  // namespace interleave::reports
