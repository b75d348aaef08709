#include "reports/analysis/causal_slice.hpp"

#include "reports/analysis/happens_before.hpp"
#include "reports/trace/trace_view.hpp"

#include <algorithm>
#include <map>

namespace interleave::reports {

std::size_t CausalSlice::involved_count() const {
  std::size_t n = 0;
  for (bool b : involved)
    n += b ? 1 : 0;
  return n;
}

CausalSlice causal_slice(const TraceDocument& doc) {
  return causal_slice(doc.counterexample, doc.race, doc.not_involved);
}

CausalSlice causal_slice(const Counterexample& c, const std::optional<Race>& race,
                         const std::vector<std::size_t>& not_involved) {
  const std::size_t n = c.steps.size();
  CausalSlice slice;
  slice.involved.assign(n, false);
  slice.violating = violating_position(c);

  std::vector<std::size_t> sinks;
  if (slice.violating) {
    sinks.push_back(*slice.violating);
  } else {
    std::map<std::string, std::size_t> last;  // each actor's last step
    for (std::size_t s = 0; s < n; ++s)
      last[c.steps[s].actor] = s;
    for (const auto& [actor, s] : last)
      sinks.push_back(s);
  }
  if (race) {
    for (std::size_t s = 0; s < n; ++s)
      if (c.steps[s].index == race->first || c.steps[s].index == race->second) sinks.push_back(s);
  }

  std::vector<bool> excluded(n, false);
  for (std::size_t s = 0; s < n; ++s)
    excluded[s] = std::binary_search(not_involved.begin(), not_involved.end(), c.steps[s].index);
  std::vector<HbEdge> edges = happens_before_edges(c.steps);
  std::erase_if(edges, [&](const HbEdge& e) { return excluded[e.from] || excluded[e.to]; });
  const std::vector<std::vector<bool>> past = happens_before_closure(n, edges);
  for (std::size_t sink : sinks)
    for (std::size_t q = 0; q < n; ++q)
      if (past[sink][q] && (!excluded[q] || q == sink)) slice.involved[q] = true;

  for (const std::string& actor : actors_in_order(c)) {
    std::size_t folded = 0;
    for (std::size_t s = 0; s < n; ++s)
      if (c.steps[s].actor == actor && !slice.involved[s]) ++folded;
    if (folded > 0) slice.folded.push_back({actor, folded});
  }
  return slice;
}

}  // namespace interleave::reports
