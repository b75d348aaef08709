#include "explorer/search/stats.hpp"

#include "explorer/core/json_reader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

namespace interleave {

const std::vector<StatsField>& stats_fields() {
  using C = StatsField::Combine;
  static const std::vector<StatsField> fields = {
      {.key = "executions", .member = &Stats::executions},
      {.key = "completed", .member = &Stats::completed},
      {.key = "blocked", .member = &Stats::blocked},
      {.key = "deadlocked", .member = &Stats::deadlocked},
      {.key = "cut_by_bound", .member = &Stats::cut_by_bound},
      // Only when there were some: scenarios without ordering constraints never have any.
      {.key = "infeasible", .member = &Stats::infeasible, .only_when_nonzero = true},
      {.key = "failed", .member = &Stats::failed},
      // Likewise: untimed programs never have any.
      {.key = "timing_infeasible", .member = &Stats::timing_infeasible, .only_when_nonzero = true},
      {.key = "steps", .member = &Stats::steps},
      {.key = "max_depth", .member = &Stats::max_depth, .combine = C::kMax},
  };
  return fields;
}

std::vector<std::string> stats_keys() {
  std::vector<std::string> keys;
  for (const StatsField& f : stats_fields())
    keys.emplace_back(f.key);
  keys.insert(keys.end(), {"violations", "elapsed_seconds", "worker_executions"});
  return keys;
}

Stats& Stats::operator+=(const Stats& o) {
  for (const StatsField& f : stats_fields()) {
    std::uint64_t& mine = this->*f.member;
    const std::uint64_t theirs = o.*f.member;
    mine = f.combine == StatsField::Combine::kMax ? std::max(mine, theirs) : mine + theirs;
  }
  for (const auto& [name, n] : o.violations)
    violations[name] += n;
  elapsed_seconds += o.elapsed_seconds;
  worker_executions.insert(worker_executions.end(), o.worker_executions.begin(),
                           o.worker_executions.end());
  audited += o.audited;
  return *this;
}

nlohmann::json to_json(const Stats& s, bool with_timing) {
  nlohmann::json j = nlohmann::json::object();
  for (const StatsField& f : stats_fields())
    if (!f.only_when_nonzero || s.*f.member > 0) j[std::string(f.key)] = s.*f.member;
  j["violations"] = s.violations;
  if (with_timing) j["elapsed_seconds"] = s.elapsed_seconds;
  if (with_timing && !s.worker_executions.empty()) j["worker_executions"] = s.worker_executions;
  return j;
}

Stats stats_from_json(const JsonReader& r) {
  constexpr std::uint64_t kMaxCount = std::numeric_limits<std::uint64_t>::max();
  r.expect_keys(stats_keys());
  Stats s;
  for (const StatsField& f : stats_fields()) {
    const std::string key(f.key);
    s.*f.member = f.only_when_nonzero ? r.uint_or(key, 0, 0, kMaxCount)
                                      : r.at(key).as_uint(0, kMaxCount);
  }
  const JsonReader violations = r.at("violations");
  if (!violations.json().is_object())
    violations.fail("expected an object, got " + json_type_name(violations.json()));
  for (const auto& [name, _] : violations.json().items())
    s.violations[name] = violations.at(name).as_uint(1, kMaxCount);
  s.elapsed_seconds = r.number_or("elapsed_seconds", 0, 0, std::numeric_limits<double>::max());
  for (const JsonReader& w : r.items_or_empty("worker_executions"))
    s.worker_executions.push_back(w.as_uint(0, kMaxCount));
  return s;
}

}  // namespace interleave
