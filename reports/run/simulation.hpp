// A scenario's simulation (explorer/search/simulate.hpp) in the run layer, beside check's runs: the
// scenario loaded once per value of a varied key, every value checked before the first run, one
// simulation per value, and its result as JSON. `interleave simulate` adds the text, the SVG plot
// and the progress line (reports/cli/simulate.cpp).
#pragma once

#include "explorer/search/simulate.hpp"
#include "reports/run/scenario.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace interleave::run {

/// What is to be simulated: the scenario, or one scenario per value of `vary_path`.
struct SimulationPlan {
  std::string vary_path;            ///< "" : no varied key
  std::vector<std::string> values;  ///< {""} without a varied key
  std::vector<Scenario> scenarios;  ///< one per value
};

/// Loads `file` under `preset` and `sets` (reports/run/scenario_overrides.hpp), once per value of
/// `vary_path` (set as `--set vary_path=value` would, after `sets`); throws InputError or
/// UsageError for any of them before anything runs.
SimulationPlan plan_simulation(const std::string& file, const ModelRegistry& models,
                               const std::string& preset, const std::vector<std::string>& sets,
                               const std::string& vary_path,
                               const std::vector<std::string>& values);

/// One simulation of one scenario.
struct SimulationPoint {
  std::string value;  ///< the varied key's value ("" : none)
  std::string scenario_name;
  double runs_per_hour = 0;             ///< ModelInstance::runs_per_hour
  std::vector<std::string> invariants;  ///< every property the scenario can report
  SimulationResult result;
};

/// Simulates `scenario` (its max_steps; the runs, seed, threads, stop flag and progress of
/// `options`).
SimulationPoint simulate_scenario(const Scenario& scenario, const std::string& value,
                                  SimulateOptions options);

/// {"scenario", "runs", "seed", "timed", "completed", "deadlocked", "cut_by_bound",
/// "timing_infeasible", "properties": {NAME: {"violations", "probability": {"estimate", "low",
/// "high"}, "per_hour"}}, "runs_per_hour", "interrupted"}: every property the scenario can report,
/// those never seen with 0 and their bound. `interruption`: the text of an interrupted run.
nlohmann::json to_json(const SimulationPoint& point, std::uint64_t seed,
                       const std::string& interruption);

}  // namespace interleave::run
