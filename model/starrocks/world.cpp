// The world's set-up: the shared objects registered in a fixed order, the actors spawned as the
// plan says, the end-of-execution checks and the state dump. The order of registration and of
// spawning fixes object and actor ids, hence DPOR's exploration order and the minimised
// counterexamples: change it only knowing that.
#include "model/starrocks/world.hpp"

#include "model/starrocks/actors.hpp"
#include "model/starrocks/program.hpp"

#include <memory>

namespace interleave::model {

World::World(Execution& e, const WorldConfig& c, const SpawnPlan& p) : ex(e), cfg(c), plan(p) {
  const int fes = cfg.cluster.frontends;
  // The objects are fine-grained so that DPOR's dependency relation is precise (docs/model.md,
  // "Declared objects"): one CAT object per table and one TTM_L row per session, each known
  // from the config and registered here.
  for (const TaskRunConfig& tc : cfg.actors.task_runs)
    for (int attempt = 1; attempt <= 1 + tc.retries; ++attempt) {
      const std::string session = task_run_session(tc.name, attempt);
      ttm.declare_session(ex, session);
      ttm.declare_session_tables(ex, session);
      for (int g = 1; g <= tc.staging_tables; ++g)
        cat.declare_staging_table(ex, session, g);
    }
  for (const ClientConfig& cc : cfg.actors.clients) {
    ttm.declare_session(ex, cc.name);
    cs.declare_client(ex, cc);
    ttm.declare_session_tables(ex, cc.name);
    for (int k = 1; k <= cc.temp_tables; ++k)
      cat.declare_client_table(ex, cc.name, client_table_name(cc.name, k));
  }
  journal.declare(ex, cfg);
  for (int f = 0; f < fes; ++f) {
    ttm.declare_frontend(ex, f);
    auto it = cfg.cluster.clock_offsets.find(f);
    clocks.declare(ex, f, it == cfg.cluster.clock_offsets.end() ? 0 : it->second);
  }
  cs.declare_frontends(fes);
  scheduler.declare(ex, cfg.actors.task_runs);
  sch.declare(ex, cfg.cluster.compute_nodes, cat.keys());
}

std::string World::owner_text(const std::string& session) const {
  const Owner& o = owners.at(session);
  if (o.kind == Owner::Kind::kTaskRun)
    return "TaskRun " + task_cfg(o.index).name + " (attempt " + std::to_string(o.attempt) + ")";
  const ClientConfig& c = client_cfg(o.index);
  return "client session " + c.name + " on " + frontend_name(c.frontend);
}

std::string World::table_text(int table) const {
  const TableInfo& t = cat.info(table);
  return "temporary table " + t.name + " (id " + std::to_string(t.id) + ") of session " +
         t.session + ", owner " + owner_text(t.session);
}

void World::fingerprint(StateHasher& h) const {
  h << cat << ttm << cs << scheduler << journal << sch << clocks << owners << properties;
  h << tablet_rows << sweep_completed << sweep_aborted_at << passes_completed;
}

void World::write_created_after(StateHasher& h, std::size_t c1_step) const {
  for (const auto& [id, t] : cat.tables())
    h << id << (t.e2a_step > c1_step) << (t.own_e2a_step > c1_step);
  for (const TtmEntry& e : ttm.entries())
    h << (e.created_step > c1_step);
}

void World::observe_owner(Op& op, const std::string& session) const {
  const Owner& o = owners.at(session);
  if (o.kind == Owner::Kind::kTaskRun) {
    add(op, scheduler.read_future(o.index));
    add(op, scheduler.read_runctx(o.index));
  } else {
    add(op, cs.read_registration(o.index));
  }
}

void World::setup() {
  // Whether a run's tablets get rows: fixed, or with `explore` chosen in the run's first insert
  // that spawns sinks (task_run.cpp), one choice per run and no scheduling point of its own. One
  // choice for all of a run's sinks loses nothing: with rows or without, a sink makes the same
  // accesses (one schema lookup, at N2 or at N3), so mixing them only mixes labels (docs/model.md,
  // "Two artefacts removed").
  for (const TaskRunConfig& tc : cfg.actors.task_runs)
    tablet_rows.push_back(tc.tablet_rows == TabletRows::kExplore ? -1
                          : tc.tablet_rows == TabletRows::kSome  ? 1
                                                                 : 0);
  // Sessions that began before the scenario: their U1..U3 happened (docs/model.md, "Sessions
  // before the first pass"). Their tables are in CAT and in the leader's manager, and in their
  // follower's replayed copy, with the createTime of the FE's clock at the start (older than any
  // pass: C1 advances the clock first). An alive one is registered in CS_f.
  for (std::size_t c = 0; c < cfg.actors.clients.size(); ++c) {
    const ClientConfig& cc = cfg.actors.clients[c];
    if (cc.existing == ClientStart::kInScenario) continue;
    Owner o;
    o.kind = Owner::Kind::kClient;
    o.index = static_cast<int>(c);
    o.live = cc.existing == ClientStart::kAlive;
    owners.add(cc.name, o);
    if (o.live) cs.register_session(cc.frontend, cc.name);
    const int clock_fe =
        cfg.policy.create_time_clock == CreateTimeClock::kSessionFrontend ? cc.frontend : 0;
    const std::size_t entry = ttm.create(cc.name, clocks.now(clock_fe), 0);
    for (int k = 1; k <= cc.temp_tables; ++k) {
      const int id = cat.add(cc.name, client_table_name(cc.name, k)).id;
      ttm.entry(entry).tables.insert(id);
      if (cc.frontend != 0) ttm.replay_create(cc.frontend, cc.name, id, clocks);
    }
  }
  if (cfg.timing.wall_clock) ex.wall_clock(*cfg.timing.wall_clock);
  // Async task runs were submitted before the scenario starts: they wait in PEND.
  for (std::size_t t = 0; t < cfg.actors.task_runs.size(); ++t)
    if (!cfg.actors.task_runs[t].sync) scheduler.pending().push_back(static_cast<int>(t));

  for (const PlannedActor& p : plan.top_level()) {
    const int i = p.index;
    switch (p.kind) {
      case ActorKind::kClientSession:
        clients.push_back(ex.spawn(p.name, [this, i](Actor& a) { client_session(a, *this, i); }));
        break;
      case ActorKind::kJournalReplayer:
        ex.spawn(p.name, [this, i](Actor& a) { journal_replayer(a, *this, i); });
        break;
      case ActorKind::kSyncSubmit:
        sync_callers.push_back(ex.spawn(p.name, [this, i](Actor& a) { sync_submit(a, *this, i); }));
        break;
      case ActorKind::kKillTaskRun:
        ex.spawn(p.name, [this, i](Actor& a) { kill_task_run(a, *this, i); });
        break;
      case ActorKind::kTaskRunScheduler:
        dispatcher = ex.spawn(p.name, [this](Actor& a) { task_run_scheduler(a, *this); });
        break;
      case ActorKind::kTemporaryTableCleaner:
        ex.spawn(p.name, [this](Actor& a) { temporary_table_cleaner(a, *this); });
        break;
    }
  }

  properties.install(
      ex, {{&inv::kTempTableLeak,
            [this]() -> Check {
              if (!sweep_completed) return std::nullopt;
              for (int id : cat.present())
                // A session that never ends (end: never) keeps its tables: only ended owners'.
                if (!owners.live(cat.info(id).session))
                  return table_text(id) + " is still in CAT after the sweep pass (C1 at step " +
                         std::to_string(sweep_start) +
                         ", after every owner had ended): no cleaner will ever drop it";
              return std::nullopt;
            }},
           {&inv::kUnreachableFrontendLeak, [this]() -> Check {
              if (sweep_aborted_at < 0) return std::nullopt;
              const std::string fe = frontend_name(sweep_aborted_at);
              for (int id : cat.present())
                if (!owners.live(cat.info(id).session))
                  return table_text(id) +
                       " is still in CAT: every owner had ended, and the sweep "
                       "pass (C1 at step " +
                       std::to_string(sweep_start) + ") aborted at the listSessions RPC to " + fe +
                       ", which is down; " + std::to_string(passes_completed) + " of " +
                       std::to_string(cfg.actors.cleaner.passes + 1) +
                       " passes got past C2: while " + fe +
                       " is down no pass completes and the table is never "
                       "cleaned";
              return std::nullopt;
            }}});
  // Timed: the windows every timed verdict reports (explorer/time/timing.hpp), over its violating
  // executions: the dispatcher's start-then-register window and the cleaner's, which the proposed
  // fix needs to overlap (S2a..S3 against C1..C3).
  if (cfg.timing.on) {
    ex.window({"S2a..S3", {"TaskRunScheduler", "S2a", 1}, {"TaskRunScheduler", "S3", 1}});
    ex.window({"C1..C3", {"TemporaryTableCleaner", "C1", 1}, {"TemporaryTableCleaner", "C3", 1}});
  }
  ex.fingerprint([this](StateHasher& h) { fingerprint(h); });
  ex.state_dump([this]() {
    nlohmann::json j;
    nlohmann::json tables = nlohmann::json::array();
    for (int id : cat.present())
      tables.push_back(
          {{"id", id}, {"name", cat.info(id).name}, {"session", cat.info(id).session}});
    j["CAT"] = tables;
    ttm.dump(j);
    cs.dump(j);
    scheduler.dump(j, cfg.actors.task_runs);
    j["J"] = journal.entries().size();
    return j;
  });
}

Program make_program(const WorldConfig& config) {
  struct Prepared {
    explicit Prepared(const WorldConfig& c) : cfg(c), plan(c) {}
    WorldConfig cfg;
    SpawnPlan plan;
  };
  auto prepared = std::make_shared<const Prepared>(config);
  return [prepared](Execution& ex) {
    World& w = ex.make<World>(ex, prepared->cfg, prepared->plan);
    w.setup();
  };
}

ModelInstance make_instance(const WorldConfig& config) {
  ModelInstance m{make_program(config), invariant_names(), coverage_goal_names()};
  m.runs_per_hour = config.timing.task_runs_per_hour;
  return m;
}

}  // namespace interleave::model
