#include "reports/run/simulation.hpp"

#include <set>

namespace interleave::run {

SimulationPlan plan_simulation(const std::string& file, const ModelRegistry& models,
                               const std::string& preset, const std::vector<std::string>& sets,
                               const std::string& vary_path,
                               const std::vector<std::string>& values) {
  SimulationPlan plan;
  plan.vary_path = vary_path;
  plan.values = vary_path.empty() ? std::vector<std::string>{""} : values;
  for (const std::string& v : plan.values) {
    std::vector<std::string> all = sets;
    if (!vary_path.empty()) all.push_back(vary_path + "=" + v);
    plan.scenarios.push_back(load_scenario(file, models, parse_scenario_overrides(preset, all)));
  }
  return plan;
}

SimulationPoint simulate_scenario(const Scenario& scenario, const std::string& value,
                                  SimulateOptions options) {
  options.max_steps = scenario.exploration.max_steps;
  SimulationPoint p;
  p.value = value;
  p.scenario_name = scenario.name;
  p.runs_per_hour = scenario.instance.runs_per_hour;
  p.invariants = scenario.instance.invariants;
  p.result = simulate(scenario.instance.program, options);
  return p;
}

nlohmann::json to_json(const SimulationPoint& p, std::uint64_t seed,
                       const std::string& interruption) {
  using nlohmann::json;
  json props = json::object();
  std::set<std::string> names(p.invariants.begin(), p.invariants.end());
  for (const auto& [k, n] : p.result.violations)
    names.insert(k);
  for (const std::string& name : names) {
    const auto it = p.result.violations.find(name);
    const std::uint64_t k = it == p.result.violations.end() ? 0 : it->second;
    const Proportion w = wilson(k, p.result.runs);
    json j{{"violations", k},
           {"probability", {{"estimate", w.estimate}, {"low", w.low}, {"high", w.high}}}};
    if (p.runs_per_hour > 0)
      j["per_hour"] = {{"estimate", w.estimate * p.runs_per_hour},
                       {"low", w.low * p.runs_per_hour},
                       {"high", w.high * p.runs_per_hour}};
    props[name] = std::move(j);
  }
  json out{{"scenario", p.scenario_name},
           {"runs", p.result.runs},
           {"seed", seed},
           {"timed", p.result.timed},
           {"completed", p.result.completed},
           {"deadlocked", p.result.deadlocked},
           {"cut_by_bound", p.result.cut_by_bound},
           {"timing_infeasible", p.result.timing_infeasible},
           {"properties", std::move(props)}};
  if (p.runs_per_hour > 0) out["runs_per_hour"] = p.runs_per_hour;
  if (p.result.interrupted) out["interrupted"] = interruption;
  return out;
}

}  // namespace interleave::run
