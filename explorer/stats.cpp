#include "explorer/stats.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace interleave {

Stats& Stats::operator+=(const Stats& o) {
  executions += o.executions;
  completed += o.completed;
  blocked += o.blocked;
  deadlocked += o.deadlocked;
  cut_by_bound += o.cut_by_bound;
  infeasible += o.infeasible;
  failed += o.failed;
  timing_infeasible += o.timing_infeasible;
  steps += o.steps;
  max_depth = std::max(max_depth, o.max_depth);
  for (const auto& [name, n] : o.violations)
    violations[name] += n;
  elapsed_seconds += o.elapsed_seconds;
  return *this;
}

nlohmann::json to_json(const Stats& s, bool with_timing) {
  nlohmann::json j{
      {"executions", s.executions}, {"completed", s.completed},       {"blocked", s.blocked},
      {"deadlocked", s.deadlocked}, {"cut_by_bound", s.cut_by_bound}, {"failed", s.failed},
      {"steps", s.steps},           {"max_depth", s.max_depth},       {"violations", s.violations}};
  // Only when there were some: scenarios without ordering constraints never have any.
  if (s.infeasible > 0) j["infeasible"] = s.infeasible;
  // Likewise: untimed programs never have any.
  if (s.timing_infeasible > 0) j["timing_infeasible"] = s.timing_infeasible;
  if (with_timing) j["elapsed_seconds"] = s.elapsed_seconds;
  return j;
}

}  // namespace interleave
