// TemporaryTableCleaner (fe-core server/TemporaryTableCleaner): the leader's fixed-delay daemon.
// A pass: C1 startTime := now (the leader's clock); C2 listSessions(temporary_table_only) of every
// FE, each answering ids(CS_f) ∩ keys(TTM_f) (a failed RPC aborts the pass, or with the
// ignore_frontend policy skips that FE); C3 (the proposed fix, PR 79339) the runCtx sessions of
// the TaskRuns in PEND/RUN/SYNC, after or before C1 as the policy says; C4 the snapshot of TTM_L's
// sessions and createTimes; then, for each session not alive and (with the guard) older than the
// pass, MetadataMgr.cleanTemporaryTables: D1..D4 (metadata_mgr.cpp). After its ordinary passes,
// with `sweep`, it waits for every owner to end and runs one more pass, whose RPCs all answer
// but those to a down FE (cluster.down_frontends), which fail in every pass.
// Promises: C3 reads each map in one step and each run's runCtx in its own step (a weakly
// consistent iteration); C4's goals observe owners only through progress(t) and CS_f[c].
// Locals (state fingerprints): the pass and whether it is the sweep, and within a pass its
// startTime, the alive set, the positions of C2, C3 and the dead-session loop, and the order of
// the E2a's against its C1 (not the C1's step index: history).
#include "model/starrocks/actors.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <utility>
#include <vector>

namespace interleave::model {

namespace {

// What a pass keeps from one step to the next.
struct PassLocals {
  bool started = false;        // C1 ran: start and start_step are set
  Tick start = 0;              // startTime (C1)
  std::size_t start_step = 0;  // C1's step (written as the order of the E2a's against it)
  std::set<std::string> alive;
  int fe = 0;                     // C2: the FE asked
  std::size_t c3_source = 0;      // C3: the map read (PEND, RUN, SYNC)
  std::vector<int> c3_runs;       // C3: the runs in that map
  std::size_t c3_next = 0;        // C3: the run whose runCtx is read
  std::vector<std::string> dead;  // C4: the sessions to clean
  std::size_t next_dead = 0;      // the one being cleaned (D1..D4)
  CleanLocals clean;
};

struct CleanerLocals {
  explicit CleanerLocals(const World& world) : w(world) {}
  const World& w;  // for the E2a's order (not written)
  int pass = 0;  // 1, 2, ... (the sweep pass: passes + 1)
  bool sweep = false;
  PassLocals p;  // of the current pass (reset between passes)
  // The sweep's joins need nothing: each names the actor it waits for.
  void fingerprint(StateHasher& h) const {
    h << pass << sweep << p.started << p.start << p.alive << p.fe << p.c3_source << p.c3_runs
      << p.c3_next << p.dead << p.next_dead << p.clean;
    // D2's coverage goals compare the E2a's steps with C1's.
    if (p.started) w.write_created_after(h, p.start_step);
  }
};

// C3: adds the runCtx sessions of the runs in the maps the policy names to `alive`.
void c3_task_runs(Actor& a, World& w, PassLocals& pl) {
  std::set<std::string>& alive = pl.alive;
  const Liveness& l = w.cfg.policy.liveness;
  struct Source {
    bool on;
    TaskRunMap map;
    const char* name;
  };
  const Source sources[] = {{l.pending_task_runs, TaskRunMap::kPending, "PEND"},
                            {l.async_task_runs, TaskRunMap::kRunning, "RUN"},
                            {l.sync_task_runs, TaskRunMap::kSync, "SYNC"}};
  for (pl.c3_source = 0; pl.c3_source < std::size(sources); ++pl.c3_source) {
    const Source& src = sources[pl.c3_source];
    if (!src.on) continue;
    pl.c3_runs.clear();
    a.step("C3", {w.scheduler.read_map(src.map)});
    pl.c3_runs = w.scheduler.runs_in(src.map);
    const std::vector<int>& runs = pl.c3_runs;
    World::note(a, [&] {
      std::string s = std::string("task runs in ") + src.name + ": [";
      for (std::size_t i = 0; i < runs.size(); ++i)
        s += (i ? ", " : "") + w.task_cfg(runs[i]).name;
      return s + "]";
    });
    for (pl.c3_next = 0; pl.c3_next < runs.size(); ++pl.c3_next) {
      const int t = runs[pl.c3_next];
      a.step("C3", {w.scheduler.read_runctx(t), w.scheduler.read_progress(t)});
      const std::string& s = w.scheduler.task(t).session;
      if (s.empty()) {
        World::note(
            a, [&] { return "runCtx of " + w.task_cfg(t).name + " is null: no session added"; });
        continue;
      }
      alive.insert(s);
      const Owner& o = w.owners.at(s);
      if (o.live && o.staged && !o.finalized) a.cover(goal::kTaskRunSeenByC3);
      World::note(a, [&] {
        return "alive session " + s + " of task run " + w.task_cfg(t).name + " (from " + src.name +
               ")";
      });
    }
  }
  pl.c3_source = 0;
  pl.c3_runs.clear();
  pl.c3_next = 0;
}

// C2 on every FE: adds the sessions each answers to `alive`. False when the pass aborts, with
// `failed` the FE whose RPC failed.
bool c2_list_sessions(Actor& a, World& w, bool sweep, PassLocals& pl, int& failed) {
  const Policy& pol = w.cfg.policy;
  std::set<std::string>& alive = pl.alive;
  for (pl.fe = 0; pl.fe < w.cfg.cluster.frontends; ++pl.fe) {
    const int f = pl.fe;
    // listSessions(f) reads CS_f (the rows of the clients of f, the only sessions it can hold)
    // and, for each of its sessions, whether TTM_f has it; on a follower also whether TTM_L has
    // it (a coverage goal). With many clients on one FE that is more than an Op holds inline: a
    // wide step, as C4.
    std::vector<Access> c2;
    if (f != 0) add(c2, w.ttm.read_replayed(f));
    for (std::size_t c = 0; c < w.cfg.actors.clients.size(); ++c)
      if (w.client_cfg(static_cast<int>(c)).frontend == f) {
        add(c2, w.cs.read_registration(static_cast<int>(c)));
        add(c2, w.ttm.read_row(w.client_cfg(static_cast<int>(c)).name));
      }
    a.step("C2", c2);
    w.lasts(a, Work::kListSessionsRpc);
    const auto& unreachable = w.cfg.cluster.unreachable_frontends;
    const auto& down_fes = w.cfg.cluster.down_frontends;
    const bool may_fail =
        !sweep && std::find(unreachable.begin(), unreachable.end(), f) != unreachable.end();
    // A down FE is still listed by getFrontends(null): its RPC fails in every pass, the sweep
    // pass too, with no choice.
    const bool down = std::find(down_fes.begin(), down_fes.end(), f) != down_fes.end();
    if (down || (may_fail && a.choose(2) == 1)) {
      a.cover(goal::kListSessionsFailed);
      if (pol.failed_list_sessions == FailedListSessions::kAbortPass) {
        World::note(a, [&] {
          return std::string(down ? frontend_name(f) + " is down: " : "") +
                 "listSessions return error from " + frontend_name(f) +
                 ", skip clean temporary tables";
        });
        failed = f;
        return false;
      }
      World::note(a, [&] {
        return std::string(down ? frontend_name(f) + " is down: " : "") +
               "listSessions return error from " + frontend_name(f) +
               ", its sessions are ignored (the pass goes on)";
      });
      continue;
    }
    std::vector<std::string> answer;
    for (const std::string& s : w.cs.sessions(f)) {
      const bool tracked = f == 0 ? w.ttm.contains(s) : w.ttm.replayed_contains(f, s);
      if (tracked) {
        answer.push_back(s);
        alive.insert(s);
      } else if (f != 0 && w.ttm.contains(s)) {
        a.cover(goal::kFollowerOmittedSession);
      }
    }
    World::note(a, [&] {
      std::string s = "listSessions(temporary_table_only) on " + frontend_name(f) + ": [";
      for (std::size_t i = 0; i < answer.size(); ++i)
        s += (i ? ", " : "") + answer[i];
      return s + "]";
    });
  }
  pl.fe = 0;
  return true;
}

// One pass; `l` (the cleaner's PassLocals) starts afresh.
void pass(Actor& a, World& w, int pass, bool sweep, PassLocals& l) {
  const Policy& pol = w.cfg.policy;
  const std::string pass_name = sweep ? "sweep pass" : "pass " + std::to_string(pass);
  const Tick& start = l.start;
  const std::size_t& start_step = l.start_step;
  std::set<std::string>& alive = l.alive;

  if (pol.has_task_liveness() && pol.task_run_snapshot == TaskRunSnapshot::kBeforeStartTime)
    c3_task_runs(a, w, l);
  a.step("C1", {w.clocks.update_clock(0)});
  l.start = w.clocks.tick(0);
  l.start_step = w.now_step();
  l.started = true;
  if (sweep) w.sweep_start = start_step;
  World::note(a, [&] {
    return "TemporaryTableCleaner " + pass_name + " starts: startTime = " + std::to_string(start);
  });
  int failed = -1;
  if (pol.liveness.client_sessions && !c2_list_sessions(a, w, sweep, l, failed)) {
    if (sweep) w.sweep_aborted_at = failed;
    return;
  }
  ++w.passes_completed;
  if (pol.has_task_liveness() && pol.task_run_snapshot == TaskRunSnapshot::kAfterStartTime)
    c3_task_runs(a, w, l);

  // The snapshot reads TTM_L's keys and their createTimes (fixed when a key is added): the row
  // of every session. The coverage goals below also observe the owners of the snapshotted
  // sessions. A snapshotted session's E2a came before (TTM_L[s]), hence its owner's E1, E2 and
  // U2; what can still change is a run's E6a or K (progress(t); E7 and a retry's E1 follow its
  // E6c) and a client's U4a (CS_f). With many sessions that is more than an Op holds inline: a
  // wide step.
  std::vector<Access> c4;
  w.ttm.add_snapshot_reads(c4);
  w.scheduler.add_every_progress_read(c4);
  w.cs.add_every_registration_read(c4);
  a.step("C4", c4);
  const std::vector<std::pair<std::string, Tick>> snapshot = w.ttm.snapshot();
  World::note(a, [&] {
    std::string s = "TemporaryTableMgr sessions: [";
    for (std::size_t i = 0; i < snapshot.size(); ++i)
      s += (i ? ", " : "") + snapshot[i].first + " (createTime " +
           std::to_string(snapshot[i].second) + ")";
    return s + "]";
  });
  // The snapshot is used in C4's step only; the sessions to clean outlive it.
  std::vector<std::string>& dead = l.dead;
  for (const auto& [s, create_time] : snapshot) {
    const Owner& o = w.owners.at(s);
    const bool old_enough = create_time < start;
    const bool is_alive = alive.count(s) != 0;
    if (o.kind == Owner::Kind::kTaskRun && o.live && o.staged && !o.finalized && old_enough) {
      a.cover(goal::kTaskSessionCandidate);
      if (is_alive) a.cover(goal::kTaskSessionSpared);
    }
    if (o.kind == Owner::Kind::kClient && o.live && old_enough) {
      a.cover(goal::kClientSessionCandidate);
      if (is_alive) a.cover(goal::kClientSessionSpared);
    }
    if (is_alive) continue;
    if (pol.create_time_guard && !old_enough) {
      a.cover(goal::kSparedByCreateTimeGuard);
      continue;
    }
    dead.push_back(s);
  }
  for (l.next_dead = 0; l.next_dead < dead.size(); ++l.next_dead)
    clean_temporary_tables(a, w, dead[l.next_dead], true, start_step, pass, l.clean);
  if (sweep) {
    w.sweep_completed = true;
    a.cover(goal::kSweepPassCompleted);
  }
}

}  // namespace

void temporary_table_cleaner(Actor& a, World& w) {
  const CleanerConfig& cc = w.cfg.actors.cleaner;
  CleanerLocals l(w);
  a.declare_locals(l);
  // Timed: the first pass starts at the daemon's phase (given, or free in [0, interval)), each
  // next one an interval after the previous pass ends (Daemon: a fixed delay); the pass's own
  // steps are the leader's memory but for the RPCs of C2 and the drops.
  const TimingConfig& tc = w.cfg.timing;
  w.lasts(a, tc.cleaner_phase ? Duration::exactly(*tc.cleaner_phase)
                              : Duration::free_phase(tc.cleaner_interval));
  w.lasts_by_default(a, Work::kCleanerLocal);
  for (l.pass = 1; l.pass <= cc.passes; ++l.pass) {
    pass(a, w, l.pass, false, l.p);
    l.p = PassLocals{};
    if (l.pass < cc.passes || cc.sweep) w.lasts(a, Duration::exactly(tc.cleaner_interval));
  }
  if (!cc.sweep) return;
  // The daemon keeps running: its next pass after every owner has ended is the sweep pass. The
  // waits are the fixed delay of the daemon (labelled C1: they lead to the sweep pass's C1).
  for (ActorId c : w.clients)
    a.join("C1", c);
  for (ActorId y : w.sync_callers)
    a.join("C1", y);
  if (w.dispatcher != kNoActor) {
    a.join("C1", w.dispatcher);
    for (const TaskRun& t : w.scheduler.tasks())
      if (t.executor != kNoActor) a.join("C1", t.executor);
  }
  l.pass = cc.passes + 1;
  l.sweep = true;
  pass(a, w, l.pass, true, l.p);
}

}  // namespace interleave::model
