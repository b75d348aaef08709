// The spawn plan of a configuration (spawn_plan.hpp): the names, in spawn order.
#include "model/starrocks/spawn_plan.hpp"

namespace interleave::model {

SpawnPlan::SpawnPlan(const WorldConfig& cfg) {
  const auto& runs = cfg.actors.task_runs;
  for (std::size_t c = 0; c < cfg.actors.clients.size(); ++c) {
    const ClientConfig& cc = cfg.actors.clients[c];
    if (!cc.has_actor()) continue;  // it runs no step in the scenario
    top_level_.push_back({ActorKind::kClientSession, static_cast<int>(c),
                          "Session:" + cc.name + "@" + frontend_name(cc.frontend)});
  }
  // A follower's replayer is needed only when some client lives on it and creates its tables in
  // the scenario (docs/model.md, "Journal"): the creations before it were replayed already.
  for (int f = 1; f < cfg.cluster.frontends; ++f) {
    bool needed = false;
    for (const auto& cc : cfg.actors.clients)
      needed = needed || (cc.frontend == f && cc.existing == ClientStart::kInScenario);
    if (needed)
      top_level_.push_back({ActorKind::kJournalReplayer, f, "Replayer:" + frontend_name(f)});
  }
  for (std::size_t t = 0; t < runs.size(); ++t) {
    if (runs[t].sync)
      top_level_.push_back(
          {ActorKind::kSyncSubmit, static_cast<int>(t), "SyncSubmit:" + runs[t].name});
    if (runs[t].kill != KillMode::kNone)
      top_level_.push_back({ActorKind::kKillTaskRun, static_cast<int>(t), "Kill:" + runs[t].name});
  }
  if (!runs.empty()) top_level_.push_back({ActorKind::kTaskRunScheduler, -1, "TaskRunScheduler"});
  if (cfg.actors.cleaner.passes > 0 || cfg.actors.cleaner.sweep)
    top_level_.push_back({ActorKind::kTemporaryTableCleaner, -1, "TemporaryTableCleaner"});

  for (const TaskRunConfig& tc : runs) {
    task_runs_.push_back("TaskRun:" + tc.name);
    RunSinks s;
    s.inserts = tc.staging_tables * (1 + tc.iteration_inserts());
    s.compute_nodes = cfg.cluster.compute_nodes;
    for (int attempt = 1; attempt <= 1 + tc.retries; ++attempt)
      for (int g = 1; g <= tc.staging_tables; ++g)
        for (int level = 0; level <= tc.iteration_inserts(); ++level)
          for (int cn = 0; cn < s.compute_nodes; ++cn)
            s.names.push_back("TabletSink:" + task_run_session(tc.name, attempt) +
                              (g == 1 ? std::string() : "/" + std::to_string(g)) + "/" +
                              (level == 0 ? std::string("E3") : "E4." + std::to_string(level)) +
                              "/" + compute_node_name(cn));
    sinks_ += s.names.size();
    sink_names_.push_back(std::move(s));
  }
}

const std::string& SpawnPlan::tablet_sink(int t, int attempt, int level, int cn) const {
  const RunSinks& s = sink_names_.at(static_cast<std::size_t>(t));
  return s.names.at(
      static_cast<std::size_t>(((attempt - 1) * s.inserts + level) * s.compute_nodes + cn));
}

std::vector<std::string> SpawnPlan::names() const {
  std::vector<std::string> out;
  for (const PlannedActor& a : top_level_)
    out.push_back(a.name);
  out.insert(out.end(), task_runs_.begin(), task_runs_.end());
  for (const RunSinks& s : sink_names_)
    out.insert(out.end(), s.names.begin(), s.names.end());
  return out;
}

std::size_t actor_bound(const WorldConfig& config) {
  return SpawnPlan(config).actor_bound();
}

}  // namespace interleave::model
