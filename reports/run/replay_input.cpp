#include "reports/run/replay_input.hpp"

#include "explorer/core/input_error.hpp"
#include "explorer/core/json_reader.hpp"

namespace interleave::run {

namespace {

// The embedded scenario, with errors located inside the trace file ("/scenario/...").
Scenario embedded_scenario(const reports::TraceDocument& doc, const std::string& trace_file,
                           const ModelRegistry& models) {
  try {
    return parse_scenario(doc.scenario, trace_file, models);
  } catch (const InputError& e) {
    throw InputError(e.file(), "/scenario" + (e.path() == "/" ? std::string() : e.path()),
                     e.message() + " (in the scenario embedded in the trace)");
  }
}

}  // namespace

ReplayInput replay_input(reports::TraceDocument doc, const std::string& trace,
                         const std::string& scenario_file, const ModelRegistry& models) {
  Scenario scenario = scenario_file.empty() ? embedded_scenario(doc, trace, models)
                                            : load_scenario(scenario_file, models);
  ExplorationSettings settings = exploration_from_json(JsonReader(doc.options, trace, "/options"));
  return {std::move(doc), std::move(scenario), std::move(settings)};
}

ReplayInput read_replay_input(const std::string& trace, const std::string& scenario_file,
                              const ModelRegistry& models) {
  return replay_input(reports::read_trace_file(trace), trace, scenario_file, models);
}

}  // namespace interleave::run
