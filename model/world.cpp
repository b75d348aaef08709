#include "model/world.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace interleave::model {

namespace {

using Tick = std::int64_t;

// Identifiers chosen so that a trace reads against the seed's CN log (db 16061, table 52300,
// schema 52301, shard 52305, txn 12920).
constexpr long long kDbId = 16061;
constexpr int kFirstTableId = 52300;        // staging tables of TaskRuns
constexpr int kFirstClientTableId = 62300;  // tables of client sessions
constexpr int kTableIdStride = 10;
constexpr long long kFirstTxnId = 12920;
constexpr long long kMillisBase = 1747372214000;  // the staging table's "<cte>_<millis>" suffix

// ---------------------------------------------------------------- state of the world

/// Who owns a session, and whether that owner is live (ghost bookkeeping for the properties: the
/// properties' observations of it are declared as reads of the owner's objects, see owner_reads).
struct Owner {
  enum class Kind : std::uint8_t { kTaskRun, kClient };
  Kind kind = Kind::kTaskRun;
  int index = 0;    // task run or client index in the config
  int attempt = 0;  // task runs: 1, 2, ...
  // Task run attempt: from its E1 until its E7 or the next attempt's E1, unless killed.
  // Client session: from U2 until U4a.
  bool live = false;
  bool staged = false;     // task run: its E2 created the staging table
  bool finalized = false;  // task run: its E6 ran
};

/// A temporary table ever created in this execution (its presence in CAT is `World::cat`).
struct TableInfo {
  int id = 0;
  std::string name;
  std::string session;
  std::string key;                // its CAT object's key (World::table_key)
  bool added_to_manager = false;  // its E2c (or atomic add) ran: its creation finished
  int drop_infos = 0;             // DropInfo entries journaled for it
  std::size_t e2a_step = 0;       // step of the E2a that made its session's entry (true time)
};

/// A TemporaryTableMgr entry of the leader (TTM_L): session -> {createTime, tables}. An entry
/// removed by D4 while someone still holds it (E2b..E2c) is `attached == false`.
struct TtmEntry {
  std::string session;
  Tick create_time = 0;
  std::size_t created_step = 0;  // true time of its creation (the execution's step index)
  std::set<int> tables;
  bool attached = true;
};

struct FollowerEntry {
  Tick create_time = 0;
  std::set<int> tables;
};

enum class JournalKind : std::uint8_t { kCreateTable, kDropTable, kTaskRunState };
struct JournalEntry {
  JournalKind kind = JournalKind::kCreateTable;
  int table = -1;
  std::string session;
  int follower = 0;  // the follower whose replayer applies it (its session's client's FE), or 0
};

enum class Future : std::uint8_t { kPending, kSucceeded, kFailed, kKilled };

/// Everything of one TaskRun (one config entry).
struct TaskRun {
  std::string session;  // runCtx(t): the current attempt's session id, "" while null
  bool killed = false;  // K ran (the runCtx is killed, the future completed exceptionally)
  Future future = Future::kPending;
  int attempt = 0;
  int reports = 0;      // coord(t): N4 reports of the current insert
  std::string failure;  // coord(t): the first sink failure of the current insert
  ActorId executor = kNoActor;
};

struct Deferred {
  std::string invariant;
  std::string message;
};

/// One execution's world: the shared objects (their ids and values) and the actors' code.
/// invariant: every value below is touched by a step only if that step declares an access to the
/// object holding it (the ghost bookkeeping of owners is observed through declared reads).
class World {
 public:
  World(Execution& ex, const WorldConfig& cfg) : ex_(ex), cfg_(cfg) {
    const int fes = cfg.cluster.frontends;
    // The objects are fine-grained so that DPOR's dependency relation is precise (docs/model.md,
    // "Declared objects"): one CAT object per table and one TTM_L row per session, each known
    // from the config and registered here, plus the key set of TTM_L.
    for (std::size_t t = 0; t < cfg.actors.task_runs.size(); ++t) {
      const TaskRunConfig& tc = cfg.actors.task_runs[t];
      for (int attempt = 1; attempt <= 1 + tc.retries; ++attempt) {
        const std::string session = tc.name + "#" + std::to_string(attempt);
        ttm_row_id_.emplace(session, ex.object("TTM_L[" + session + "]"));
        ttm_tables_id_.emplace(session, ex.object("TTM_L[" + session + "].tables"));
        cat_table_id_.emplace(session, ex.object("CAT[" + session + "]"));
        table_id_.emplace(session, kFirstTableId + kTableIdStride * static_cast<int>(
                                                       table_id_.size()));
        session_tables_[session].push_back(session);
      }
    }
    int client_tables = 0;
    std::size_t snapshot_reads = cfg.actors.task_runs.size();  // C4: progress(t) of every run
    for (const auto& cc : cfg.actors.clients) {
      ttm_row_id_.emplace(cc.name, ex.object("TTM_L[" + cc.name + "]"));
      ++snapshot_reads;  // C4: CS_f[c]
      cs_id_.push_back(ex.object("CS_" + frontend_name(cc.frontend) + "[" + cc.name + "]"));
      ttm_tables_id_.emplace(cc.name, ex.object("TTM_L[" + cc.name + "].tables"));
      for (int k = 1; k <= cc.temp_tables; ++k) {
        const std::string table = client_table_name(cc.name, k);
        cat_table_id_.emplace(table, ex.object("CAT[" + table + "]"));
        table_id_.emplace(table, kFirstClientTableId + kTableIdStride * client_tables++);
        session_tables_[cc.name].push_back(table);
      }
    }
    // J is read only by the replayers of followers with clients, and what a replayer applies is
    // observed only for its own clients' sessions (C2 answers ids(CS_f) ∩ keys(TTM_f), U4b asks
    // for its own session). So J is declared per follower, as J[f]: the entries of the sessions of
    // f's clients, appended in journal order and replayed in that order; the other entries are
    // read by no step, and their appends commute (docs/model.md, "Journal").
    journal_id_.assign(static_cast<std::size_t>(fes), kNoObject);
    for (const auto& cc : cfg.actors.clients)
      if (cc.frontend != 0) {
        auto& j = journal_id_[static_cast<std::size_t>(cc.frontend)];
        if (j == kNoObject) j = ex.object("J[" + frontend_name(cc.frontend) + "]");
        follower_session_fe_.emplace(cc.name, cc.frontend);
      }
    // C4 reads every session's row when they fit in one step's accesses; otherwise the key set
    // TTM_L.keys, written by every E2a and D4, stands for them (coarser, as sound).
    snapshot_reads += ttm_row_id_.size();
    if (snapshot_reads > Op::kMaxAccesses) ttm_keys_id_ = ex.object("TTM_L.keys");
    for (int f = 0; f < fes; ++f) {
      // A follower's replayed TTM_f: only its key set is observed by others (C2, U4b).
      ttm_id_.push_back(f == 0 ? kNoObject : ex.object("TTM_" + frontend_name(f)));
      clock_id_.push_back(ex.object("clock_" + frontend_name(f)));
      auto it = cfg.cluster.clock_offsets.find(f);
      clock_.push_back(it == cfg.cluster.clock_offsets.end() ? 0 : it->second);
    }
    cs_.resize(static_cast<std::size_t>(fes));
    ttm_f_.resize(static_cast<std::size_t>(fes));
    pend_id_ = ex.object("PEND");
    run_id_ = ex.object("RUN");
    sync_id_ = ex.object("SYNC");
    for (const auto& t : cfg.actors.task_runs) {
      runctx_id_.push_back(ex.object("runCtx(" + t.name + ")"));
      progress_id_.push_back(ex.object("progress(" + t.name + ")"));
      future_id_.push_back(ex.object("future(" + t.name + ")"));
      coord_id_.push_back(ex.object("coord(" + t.name + ")"));
      tasks_.emplace_back();
    }
    // A CN's schema cache, one object per table (a lookup reads and fills one table's entry).
    sch_id_.resize(static_cast<std::size_t>(cfg.cluster.compute_nodes));
    for (int c = 0; c < cfg.cluster.compute_nodes; ++c)
      for (const auto& [key, id] : cat_table_id_)
        sch_id_[static_cast<std::size_t>(c)].emplace(
            key, ex.object("SCH_" + compute_node_name(c) + "[" + key + "]"));
    sch_.resize(static_cast<std::size_t>(cfg.cluster.compute_nodes));
  }

  void setup();

 private:
  // ---- small helpers ----
  std::size_t now_step() const { return ex_.step_count() == 0 ? 0 : ex_.step_count() - 1; }
  template <class F>
  static void note(Actor& a, F&& text) {
    if (a.tracing()) a.note(text());
  }
  const TaskRunConfig& task_cfg(int t) const {
    return cfg_.actors.task_runs[static_cast<std::size_t>(t)];
  }
  const ClientConfig& client_cfg(int c) const {
    return cfg_.actors.clients[static_cast<std::size_t>(c)];
  }
  TaskRun& task(int t) { return tasks_[static_cast<std::size_t>(t)]; }
  bool has_task_liveness() const {
    const Liveness& l = cfg_.policy.liveness;
    return l.async_task_runs || l.sync_task_runs || l.pending_task_runs;
  }
  Tick tick(int fe) { return ++clock_[static_cast<std::size_t>(fe)]; }
  TtmEntry* ttm_entry(const std::string& session) {
    auto it = ttm_l_.find(session);
    return it == ttm_l_.end() ? nullptr : &entries_[it->second];
  }
  bool in_cat(int table) const { return cat_.count(table) != 0; }

  // ---- declared objects ----
  static std::string client_table_name(const std::string& client, int k) {
    return "tmp_" + client + "_" + std::to_string(k);
  }
  /// The table's key: its session for a staging table (one per attempt), its name for a client's.
  static std::string table_key(const std::string& session, const std::string& name) {
    return name.empty() ? session : name;
  }
  ObjectId cat_obj(const std::string& key) const { return cat_table_id_.at(key); }
  ObjectId cat_obj(int table) const { return cat_table_id_.at(tables_.at(table).key); }
  ObjectId ttm_row(const std::string& session) const { return ttm_row_id_.at(session); }
  ObjectId ttm_tables(const std::string& session) const { return ttm_tables_id_.at(session); }
  static void add(Op& op, Access acc) {
    if (op.count == Op::kMaxAccesses) throw std::logic_error("too many accesses in one step");
    op.accesses[op.count++] = acc;
  }
  /// An append to J of an entry of `session`: declared only when a follower's replayer applies
  /// it (the session is a client's on that follower).
  void append_journal(Op& op, const std::string& session) const {
    auto it = follower_session_fe_.find(session);
    if (it != follower_session_fe_.end())
      add(op, read_modify_write(journal_id_[static_cast<std::size_t>(it->second)]));
  }
  /// Appends an entry to J, with the follower whose replayer applies it (decided once, here).
  void journal(JournalKind kind, int table, const std::string& session) {
    auto it = follower_session_fe_.find(session);
    journal_.push_back(
        {kind, table, session, it == follower_session_fe_.end() ? 0 : it->second});
  }

  std::string owner_text(const std::string& session) const;
  std::string table_text(int table) const;
  bool owner_live(const std::string& session) const { return owners_.at(session).live; }
  /// Accesses by which a property observes the liveness of `session`'s owner.
  void owner_reads(Op& op, const std::string& session) const;
  void defer(std::string_view invariant, std::string message);

  // ---- the actors ----
  void cleaner(Actor& a);
  void cleaner_pass(Actor& a, int pass, bool sweep);
  void clean_session(Actor& a, const std::string& session, bool by_cleaner, std::size_t pass_start,
                     int pass);
  void dispatcher(Actor& a);
  void executor(Actor& a, int t);
  bool insert(Actor& a, int t, const std::string& session, int table, Label label, int level,
              std::string& error);
  void sink(Actor& a, int t, int table, int cn, long long txn, const std::string& name);
  bool schema_lookup(Actor& a, int t, int table, int cn, long long txn, Label label,
                     const std::string& sink_name);
  void sync_caller(Actor& a, int t);
  void killer(Actor& a, int t);
  void client(Actor& a, int c);
  void replayer(Actor& a, int fe);
  int create_table(Actor& a, Label label, const std::string& session, const std::string& name,
                   int session_fe);
  void add_temporary_table(Actor& a, const std::string& session, int table, int session_fe);

  Execution& ex_;
  const WorldConfig& cfg_;

  // object ids
  ObjectId pend_id_, run_id_, sync_id_;
  std::vector<ObjectId> journal_id_;  // J[f] per follower with clients, else kNoObject
  std::map<std::string, int> follower_session_fe_;  // a follower client's session -> its FE
  std::vector<ObjectId> ttm_id_, clock_id_, runctx_id_, future_id_, coord_id_;
  // CS_f[c]: client c is registered in the ConnectScheduler of its FE f (only c's U2 and U4a
  // change it; only clients of f are ever in CS_f).
  std::vector<ObjectId> cs_id_;
  // progress(t): the ghost progress of t's current attempt (staged at E2, finalized at E6, killed
  // at K), observed by the coverage goals of C3 and C4.
  std::vector<ObjectId> progress_id_;
  std::vector<std::map<std::string, ObjectId>> sch_id_;  // SCH_cn[k], per CN and table key
  std::map<std::string, ObjectId> ttm_row_id_;    // TTM_L[s]: the entry of session s (or none)
  std::map<std::string, ObjectId> ttm_tables_id_;  // TTM_L[s].tables: the tables of s's entries
  // TTM_L.keys: the sessions of TTM_L, only when C4 cannot read every row (kNoObject otherwise)
  ObjectId ttm_keys_id_ = kNoObject;
  std::map<std::string, ObjectId> cat_table_id_;  // CAT[k]: table k is in CAT (k: table key)
  std::map<std::string, std::vector<std::string>> session_tables_;  // keys of a session's tables

  // CAT: the leader's catalog (temporary tables only), by table id
  std::set<int> cat_;
  std::map<int, TableInfo> tables_;  // every table ever created (names, owners)
  // The id of each table, by key: fixed by the config (docs/model.md, "Declared objects").
  std::map<std::string, int> table_id_;
  long long next_txn_ = kFirstTxnId;
  // J
  std::vector<JournalEntry> journal_;
  // TTM_L and its entries (index into entries_); TTM_f of followers (index 0 unused)
  std::map<std::string, std::size_t> ttm_l_;
  std::vector<TtmEntry> entries_;
  std::vector<std::map<std::string, FollowerEntry>> ttm_f_;
  // CS_f
  std::vector<std::set<std::string>> cs_;
  // clocks
  std::vector<Tick> clock_;
  // TaskRunScheduler
  std::deque<int> pend_;
  std::set<int> run_;
  std::set<int> sync_;
  std::vector<TaskRun> tasks_;
  // CN schema caches: table ids whose schema is cached
  std::vector<std::set<int>> sch_;

  // ghost bookkeeping
  std::map<std::string, Owner> owners_;
  std::vector<Deferred> deferred_;
  std::vector<ActorId> clients_, sync_callers_;
  ActorId dispatcher_ = kNoActor;
  bool sweep_completed_ = false;
  std::size_t sweep_start_ = 0;
};

std::string World::owner_text(const std::string& session) const {
  const Owner& o = owners_.at(session);
  if (o.kind == Owner::Kind::kTaskRun)
    return "TaskRun " + task_cfg(o.index).name + " (attempt " + std::to_string(o.attempt) + ")";
  const ClientConfig& c = client_cfg(o.index);
  return "client session " + c.name + " on " + frontend_name(c.frontend);
}

std::string World::table_text(int table) const {
  const TableInfo& t = tables_.at(table);
  return "temporary table " + t.name + " (id " + std::to_string(t.id) + ") of session " +
         t.session + ", owner " + owner_text(t.session);
}

void World::owner_reads(Op& op, const std::string& session) const {
  const Owner& o = owners_.at(session);
  auto add = [&op](Access acc) { op.accesses[op.count++] = acc; };
  if (o.kind == Owner::Kind::kTaskRun) {
    add(read(future_id_[static_cast<std::size_t>(o.index)]));
    add(read(runctx_id_[static_cast<std::size_t>(o.index)]));
  } else {
    add(read(cs_id_[static_cast<std::size_t>(o.index)]));
  }
}

void World::defer(std::string_view invariant, std::string message) {
  deferred_.push_back({std::string(invariant), std::move(message)});
}

// ---------------------------------------------------------------- setup

void World::setup() {
  // Async task runs were submitted before the scenario starts: they wait in PEND.
  for (std::size_t t = 0; t < cfg_.actors.task_runs.size(); ++t)
    if (!cfg_.actors.task_runs[t].sync) pend_.push_back(static_cast<int>(t));

  for (std::size_t c = 0; c < cfg_.actors.clients.size(); ++c) {
    const ClientConfig& cc = cfg_.actors.clients[c];
    clients_.push_back(ex_.spawn("Session:" + cc.name + "@" + frontend_name(cc.frontend),
                                 [this, c](Actor& a) { client(a, static_cast<int>(c)); }));
  }
  for (int f = 1; f < cfg_.cluster.frontends; ++f) {
    bool needed = false;
    for (const auto& cc : cfg_.actors.clients)
      needed = needed || cc.frontend == f;
    if (needed) ex_.spawn("Replayer:" + frontend_name(f), [this, f](Actor& a) { replayer(a, f); });
  }
  for (std::size_t t = 0; t < cfg_.actors.task_runs.size(); ++t) {
    const TaskRunConfig& tc = cfg_.actors.task_runs[t];
    if (tc.sync)
      sync_callers_.push_back(ex_.spawn(
          "SyncSubmit:" + tc.name, [this, t](Actor& a) { sync_caller(a, static_cast<int>(t)); }));
    if (tc.kill)
      ex_.spawn("Kill:" + tc.name, [this, t](Actor& a) { killer(a, static_cast<int>(t)); });
  }
  if (!cfg_.actors.task_runs.empty())
    dispatcher_ = ex_.spawn("TaskRunScheduler", [this](Actor& a) { dispatcher(a); });
  if (cfg_.actors.cleaner.passes > 0 || cfg_.actors.cleaner.sweep)
    ex_.spawn("TemporaryTableCleaner", [this](Actor& a) { cleaner(a); });

  // Properties found at a step are reported at the end of the execution, so that the
  // counterexample shows what followed (the sink's failure, the FAILED run), as the seed's log.
  for (std::string_view name : {inv::kSinkTableNotFound, inv::kLiveOwnerTableDropped}) {
    ex_.final_check(std::string(name), [this, name]() -> Check {
      for (const Deferred& d : deferred_)
        if (d.invariant == name) return d.message;
      return std::nullopt;
    });
  }
  ex_.final_check(std::string(inv::kTempTableLeak), [this]() -> Check {
    if (!sweep_completed_) return std::nullopt;
    for (int id : cat_)
      return table_text(id) + " is still in CAT after the sweep pass (C1 at step " +
             std::to_string(sweep_start_) +
             ", after every owner had ended): no cleaner will ever drop it";
    return std::nullopt;
  });
  ex_.state_dump([this]() {
    nlohmann::json j;
    nlohmann::json cat = nlohmann::json::array();
    for (int id : cat_)
      cat.push_back(
          {{"id", id}, {"name", tables_.at(id).name}, {"session", tables_.at(id).session}});
    j["CAT"] = cat;
    nlohmann::json ttm = nlohmann::json::object();
    for (const auto& [s, e] : ttm_l_)
      ttm[s] = {{"createTime", entries_[e].create_time},
                {"tables", std::vector<int>(entries_[e].tables.begin(), entries_[e].tables.end())}};
    j["TTM_L"] = ttm;
    for (std::size_t f = 1; f < ttm_f_.size(); ++f) {
      nlohmann::json tf = nlohmann::json::object();
      for (const auto& [s, e] : ttm_f_[f])
        tf[s] = {{"createTime", e.create_time},
                 {"tables", std::vector<int>(e.tables.begin(), e.tables.end())}};
      j["TTM_" + frontend_name(static_cast<int>(f))] = tf;
    }
    for (std::size_t f = 0; f < cs_.size(); ++f)
      j["CS_" + frontend_name(static_cast<int>(f))] =
          std::vector<std::string>(cs_[f].begin(), cs_[f].end());
    std::vector<std::string> pend, run, sync;
    for (int t : pend_)
      pend.push_back(task_cfg(t).name);
    for (int t : run_)
      run.push_back(task_cfg(t).name);
    for (int t : sync_)
      sync.push_back(task_cfg(t).name);
    j["PEND"] = pend;
    j["RUN"] = run;
    j["SYNC"] = sync;
    j["J"] = journal_.size();
    return j;
  });
}

// ---------------------------------------------------------------- TemporaryTableCleaner

void World::cleaner(Actor& a) {
  for (int pass = 1; pass <= cfg_.actors.cleaner.passes; ++pass)
    cleaner_pass(a, pass, false);
  if (!cfg_.actors.cleaner.sweep) return;
  // The daemon keeps running: its next pass after every owner has ended is the sweep pass. The
  // waits are the fixed delay of the daemon (labelled C1: they lead to the sweep pass's C1).
  for (ActorId c : clients_)
    a.join("C1", c);
  for (ActorId y : sync_callers_)
    a.join("C1", y);
  if (dispatcher_ != kNoActor) {
    a.join("C1", dispatcher_);
    for (const TaskRun& t : tasks_)
      if (t.executor != kNoActor) a.join("C1", t.executor);
  }
  cleaner_pass(a, cfg_.actors.cleaner.passes + 1, true);
}

void World::cleaner_pass(Actor& a, int pass, bool sweep) {
  const Policy& pol = cfg_.policy;
  const std::string pass_name = sweep ? "sweep pass" : "pass " + std::to_string(pass);
  Tick start = 0;
  std::size_t start_step = 0;
  std::set<std::string> alive;

  auto c1 = [&] {
    a.step("C1", {read_modify_write(clock_id_[0])});
    start = tick(0);
    start_step = now_step();
    if (sweep) sweep_start_ = start_step;
    note(a, [&] {
      return "TemporaryTableCleaner " + pass_name + " starts: startTime = " + std::to_string(start);
    });
  };
  // C3 (the proposed fix): the runCtx sessions of the TaskRuns in PEND, RUN and SYNC. Each map is
  // read in one step, then each run's runCtx in its own step (a weakly consistent iteration).
  auto c3 = [&] {
    struct Source {
      bool on;
      ObjectId id;
      const char* name;
    };
    const Source sources[] = {{pol.liveness.pending_task_runs, pend_id_, "PEND"},
                              {pol.liveness.async_task_runs, run_id_, "RUN"},
                              {pol.liveness.sync_task_runs, sync_id_, "SYNC"}};
    for (const Source& src : sources) {
      if (!src.on) continue;
      a.step("C3", {read(src.id)});
      std::vector<int> runs;
      if (src.id == pend_id_) runs.assign(pend_.begin(), pend_.end());
      if (src.id == run_id_) runs.assign(run_.begin(), run_.end());
      if (src.id == sync_id_) runs.assign(sync_.begin(), sync_.end());
      note(a, [&] {
        std::string s = std::string("task runs in ") + src.name + ": [";
        for (std::size_t i = 0; i < runs.size(); ++i)
          s += (i ? ", " : "") + task_cfg(runs[i]).name;
        return s + "]";
      });
      for (int t : runs) {
        a.step("C3", {read(runctx_id_[static_cast<std::size_t>(t)]),
                      read(progress_id_[static_cast<std::size_t>(t)])});
        const std::string& s = task(t).session;
        if (s.empty()) {
          note(a, [&] { return "runCtx of " + task_cfg(t).name + " is null: no session added"; });
          continue;
        }
        alive.insert(s);
        const Owner& o = owners_.at(s);
        if (o.live && o.staged && !o.finalized) a.cover(goal::kTaskRunSeenByC3);
        note(a, [&] {
          return "alive session " + s + " of task run " + task_cfg(t).name + " (from " + src.name +
                 ")";
        });
      }
    }
  };

  if (has_task_liveness() && pol.task_run_snapshot == TaskRunSnapshot::kBeforeStartTime) c3();
  c1();
  if (pol.liveness.client_sessions) {
    for (int f = 0; f < cfg_.cluster.frontends; ++f) {
      const auto fi = static_cast<std::size_t>(f);
      // listSessions(f) reads CS_f (the rows of the clients of f, the only sessions it can hold)
      // and, for each of its sessions, whether TTM_f has it; on a follower also whether TTM_L has
      // it (a coverage goal).
      Op c2("C2", {});
      if (f != 0) add(c2, read(ttm_id_[fi]));
      for (std::size_t c = 0; c < cfg_.actors.clients.size(); ++c)
        if (client_cfg(static_cast<int>(c)).frontend == f) {
          add(c2, read(cs_id_[c]));
          add(c2, read(ttm_row(client_cfg(static_cast<int>(c)).name)));
        }
      a.step(c2);
      const bool may_fail = !sweep && std::find(cfg_.cluster.unreachable_frontends.begin(),
                                                cfg_.cluster.unreachable_frontends.end(),
                                                f) != cfg_.cluster.unreachable_frontends.end();
      if (may_fail && a.choose(2) == 1) {
        a.cover(goal::kListSessionsFailed);
        if (pol.failed_list_sessions == FailedListSessions::kAbortPass) {
          note(a, [&] {
            return "listSessions return error from " + frontend_name(f) +
                   ", skip clean temporary tables";
          });
          return;
        }
        note(a, [&] {
          return "listSessions return error from " + frontend_name(f) +
                 ", its sessions are ignored (the pass goes on)";
        });
        continue;
      }
      std::vector<std::string> answer;
      for (const std::string& s : cs_[fi]) {
        const bool tracked = f == 0 ? ttm_l_.count(s) != 0 : ttm_f_[fi].count(s) != 0;
        if (tracked) {
          answer.push_back(s);
          alive.insert(s);
        } else if (f != 0 && ttm_l_.count(s) != 0) {
          a.cover(goal::kFollowerOmittedSession);
        }
      }
      note(a, [&] {
        std::string s = "listSessions(temporary_table_only) on " + frontend_name(f) + ": [";
        for (std::size_t i = 0; i < answer.size(); ++i)
          s += (i ? ", " : "") + answer[i];
        return s + "]";
      });
    }
  }
  if (has_task_liveness() && pol.task_run_snapshot == TaskRunSnapshot::kAfterStartTime) c3();

  // The snapshot reads TTM_L's keys and their createTimes (fixed when a key is added). The
  // coverage goals below also observe the owners of the snapshotted sessions. A snapshotted
  // session's E2a came before (TTM_L.keys), hence its owner's E1, E2 and U2; what can still
  // change is a run's E6 or K (progress(t); E7 and a retry's E1 follow E6) and a client's U4a
  // (CS_f).
  Op c4("C4", {});
  if (ttm_keys_id_ != kNoObject) add(c4, read(ttm_keys_id_));
  for (const auto& [session, row] : ttm_row_id_)
    if (ttm_keys_id_ == kNoObject) add(c4, read(row));
  for (ObjectId id : progress_id_)
    add(c4, read(id));
  for (ObjectId id : cs_id_)
    add(c4, read(id));
  a.step(c4);
  std::vector<std::pair<std::string, Tick>> snapshot;
  for (const auto& [s, e] : ttm_l_)
    snapshot.emplace_back(s, entries_[e].create_time);
  note(a, [&] {
    std::string s = "TemporaryTableMgr sessions: [";
    for (std::size_t i = 0; i < snapshot.size(); ++i)
      s += (i ? ", " : "") + snapshot[i].first + " (createTime " +
           std::to_string(snapshot[i].second) + ")";
    return s + "]";
  });
  std::vector<std::string> dead;
  for (const auto& [s, create_time] : snapshot) {
    const Owner& o = owners_.at(s);
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
  for (const std::string& s : dead)
    clean_session(a, s, true, start_step, pass);
  if (sweep) {
    sweep_completed_ = true;
    a.cover(goal::kSweepPassCompleted);
  }
}

// D1..D4 for one session: by the cleaner, or by CLEAN TEMPORARY TABLE ON SESSION (U4b).
void World::clean_session(Actor& a, const std::string& session, bool by_cleaner,
                          std::size_t pass_start, int pass) {
  a.step("D1", {read(ttm_row(session)), read(ttm_tables(session))});
  std::vector<int> tables;
  if (TtmEntry* e = ttm_entry(session)) tables.assign(e->tables.begin(), e->tables.end());
  note(a, [&] {
    std::string s = by_cleaner ? "cannot find alive session " + session +
                                     ", should clean all temporary tables on it: ["
                               : "CLEAN TEMPORARY TABLE ON SESSION " + session + ": [";
    for (std::size_t i = 0; i < tables.size(); ++i)
      s += (i ? ", " : "") + tables_.at(tables[i]).name;
    return s + "]";
  });
  for (int id : tables) {
    Op d2("D2", {read_modify_write(cat_obj(id))});
    append_journal(d2, session);
    owner_reads(d2, session);
    a.step(d2);
    TableInfo& info = tables_.at(id);
    if (!in_cat(id)) {
      note(a, [&] { return "table " + info.name + " is already dropped (IF EXISTS): nothing"; });
    } else {
      cat_.erase(id);
      journal(JournalKind::kDropTable, id, session);
      if (++info.drop_infos > 1) a.fail("two DropInfo journaled for " + table_text(id));
      note(a, [&] {
        return "drop temporary table " + info.name + " (db id " + std::to_string(kDbId) +
               ", table id " + std::to_string(id) + ") of session " + session +
               ": DropInfo journaled";
      });
      if (by_cleaner) {
        const Owner& o = owners_.at(session);
        if (o.live) {
          defer(inv::kLiveOwnerTableDropped, "the TemporaryTableCleaner (pass " +
                                                 std::to_string(pass) + ", D2 at step " +
                                                 std::to_string(now_step()) + ") dropped " +
                                                 table_text(id) + " while its owner is live");
        }
        if (o.kind == Owner::Kind::kTaskRun && task(o.index).killed && !o.finalized)
          a.cover(goal::kKilledRunTableDropped);
        if (info.e2a_step > pass_start) a.cover(goal::kDroppedTableCreatedAfterStart);
      }
    }
    a.step("D3", {read(ttm_row(session)), read_modify_write(ttm_tables(session))});
    if (TtmEntry* e = ttm_entry(session)) e->tables.erase(id);
    note(a, [&] {
      return "drop temporary table, session[" + session + "], db id[" + std::to_string(kDbId) +
             "], table name[" + info.name + "]";
    });
  }
  // Removes the key; its check reads CAT for every table the entry may hold (the session's).
  Op d4("D4", {read_modify_write(ttm_row(session)), read(ttm_tables(session))});
  if (ttm_keys_id_ != kNoObject) add(d4, read_modify_write(ttm_keys_id_));
  for (const std::string& key : session_tables_.at(session))
    add(d4, read(cat_obj(key)));
  a.step(d4);
  auto it = ttm_l_.find(session);
  if (it != ttm_l_.end()) {
    TtmEntry& e = entries_[it->second];
    e.attached = false;
    ttm_l_.erase(it);
    note(a, [&] { return "remove all temporary tables in session[" + session + "]"; });
    for (int id : e.tables) {
      if (in_cat(id))
        a.violation(inv::kUntrackedTempTable,
                    "D4 at step " + std::to_string(now_step()) + " removed session " + session +
                        " from TemporaryTableMgr while its entry still held " + table_text(id) +
                        ", added after D1's copy: the table stays in CAT and no manager tracks "
                        "it");
    }
    return;
  }
  note(a, [&] { return "remove all temporary tables in session[" + session + "] (none left)"; });
}

// ---------------------------------------------------------------- TaskRunScheduler

void World::dispatcher(Actor& a) {
  const std::size_t n = cfg_.actors.task_runs.size();
  std::vector<int> dispatched;
  auto start = [&](int t) {
    const std::string name = "TaskRun:" + task_cfg(t).name;
    task(t).executor = a.spawn(name, [this, t](Actor& e) { executor(e, t); });
    note(a, [&] { return "start the executor of task run " + task_cfg(t).name; });
  };
  auto journal_running = [&](int t) {
    // A TaskRunState entry: no replayer reads those (it skips them), so J is not declared.
    a.step("S2b", {});
    journal(JournalKind::kTaskRunState, -1, "");
    note(a, [&] { return "journal task run " + task_cfg(t).name + ": PENDING -> RUNNING"; });
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (cfg_.policy.dispatch_order == DispatchOrder::kStartThenRegister) {
      a.wait_until("S2a", {read_modify_write(pend_id_)}, [this] { return !pend_.empty(); });
      const int t = pend_.front();
      pend_.pop_front();
      dispatched.push_back(t);
      note(a, [&] { return "poll PEND: task run " + task_cfg(t).name; });
      start(t);
      journal_running(t);
      a.step("S3", {read_modify_write(run_id_)});
      run_.insert(t);
      note(a, [&] { return "RUN.put(" + task_cfg(t).name + ")"; });
    } else {
      a.wait_until("S3", {read_modify_write(pend_id_), read_modify_write(run_id_)},
                   [this] { return !pend_.empty(); });
      const int t = pend_.front();
      pend_.pop_front();
      dispatched.push_back(t);
      run_.insert(t);
      note(a, [&] {
        return "poll PEND: task run " + task_cfg(t).name + "; RUN.put(" + task_cfg(t).name +
               ") before starting it";
      });
      a.step("S2a", {});
      start(t);
      journal_running(t);
    }
  }
  for (int t : dispatched) {
    const auto ti = static_cast<std::size_t>(t);
    a.wait_until("S1", {read(future_id_[ti]), read_modify_write(run_id_)},
                 [this, t] { return task(t).future != Future::kPending; });
    if (run_.erase(t) != 0) {
      journal(JournalKind::kTaskRunState, -1, "");
      note(a, [&] {
        return "task run " + task_cfg(t).name + " is done: removed from RUN, final state journaled";
      });
    } else {
      note(a, [&] { return "task run " + task_cfg(t).name + " is done (no longer in RUN)"; });
    }
  }
}

void World::killer(Actor& a, int t) {
  const auto ti = static_cast<std::size_t>(t);
  a.wait_until("K",
               {read_modify_write(run_id_), read_modify_write(future_id_[ti]),
                read_modify_write(runctx_id_[ti]), read_modify_write(progress_id_[ti])},
               [this, t] { return run_.count(t) != 0 || task(t).future != Future::kPending; });
  TaskRun& tr = task(t);
  if (tr.future != Future::kPending) {
    note(a, [&] { return "kill task run " + task_cfg(t).name + ": already finished, nothing"; });
    return;
  }
  tr.killed = true;
  tr.future = Future::kKilled;
  run_.erase(t);
  if (!tr.session.empty()) owners_.at(tr.session).live = false;
  note(a, [&] {
    return "kill task run " + task_cfg(t).name +
           " (KILL or timeout): FAILED, future completed exceptionally, runCtx " +
           (tr.session.empty() ? std::string("(null)") : tr.session) +
           " killed, removed from RUN; its executor may still be running";
  });
}

void World::sync_caller(Actor& a, int t) {
  a.step("Y1", {read_modify_write(pend_id_)});
  pend_.push_back(t);
  note(a, [&] { return "EXECUTE TASK " + task_cfg(t).name + " (sync): submitted into PEND"; });
  a.step("Y2", {read_modify_write(sync_id_)});
  sync_.insert(t);
  note(a, [&] { return "SYNC.put(" + task_cfg(t).name + ")"; });
  a.wait_until("Y3", {Access{future_id_[static_cast<std::size_t>(t)], AccessKind::kWait}},
               [this, t] { return task(t).future != Future::kPending; });
  note(a, [&] { return "the future of " + task_cfg(t).name + " is done"; });
  a.step("Y4", {read_modify_write(sync_id_)});
  sync_.erase(t);
  note(a, [&] { return "SYNC.remove(" + task_cfg(t).name + ")"; });
}

// ---------------------------------------------------------------- TaskRun executor

int World::create_table(Actor& a, Label label, const std::string& session, const std::string& name,
                        int session_fe) {
  Op op(label, {read_modify_write(cat_obj(table_key(session, name)))});
  append_journal(op, session);
  // A staging table: its owner's progress (staged) is observed through progress(t).
  if (name.empty())
    add(op, read_modify_write(progress_id_[static_cast<std::size_t>(owners_.at(session).index)]));
  a.step(op);
  const int id = table_id_.at(table_key(session, name));
  TableInfo info;
  info.id = id;
  info.name = name.empty() ? "hierarchy_" + std::to_string(kMillisBase + id) : name;
  info.session = session;
  info.key = table_key(session, name);
  tables_.emplace(id, info);
  cat_.insert(id);
  journal(JournalKind::kCreateTable, id, session);
  note(a, [&] {
    std::string s;
    if (session_fe != 0)
      s +=
          "CREATE TEMPORARY TABLE forwarded from " + frontend_name(session_fe) + " to the leader; ";
    for (int c = 0; c < cfg_.cluster.compute_nodes; ++c)
      s += compute_node_name(c) + ": Add shard id: " + std::to_string(id + 5 + c) +
           " file path: .../db" + std::to_string(kDbId) + "/" + std::to_string(id) + "/" +
           std::to_string(id + 2) + "; ";
    return s + "create temporary table " + tables_.at(id).name + " (db id " +
           std::to_string(kDbId) + ", table id " + std::to_string(id) + ") of session " + session +
           ": CAT.add, CreateTableInfo journaled";
  });
  return id;
}

void World::add_temporary_table(Actor& a, const std::string& session, int table, int session_fe) {
  const int clock_fe =
      cfg_.policy.create_time_clock == CreateTimeClock::kSessionFrontend ? session_fe : 0;
  const ObjectId clock = clock_id_[static_cast<std::size_t>(clock_fe)];
  const ObjectId row = ttm_row(session);
  TableInfo& info = tables_.at(table);
  // computeIfAbsent may add the session's key (declared whether or not it does). Its true time
  // (created_step) is compared with C1's by a coverage goal: with another FE's clock it also
  // reads the leader's, so that C1 and it stay ordered.
  // With the leader's clock, only C1 advances it (logical time: the passes started) and E2a reads
  // it: createTime < startTime iff the E2a came before the pass's C1, as with a real clock, and
  // the E2a's of different sessions commute. A follower's clock (session_frontend) is compared
  // across FEs with its offset, so there E2a ticks it as the FE's clock would advance.
  const bool ticks = cfg_.policy.create_time_clock == CreateTimeClock::kSessionFrontend;
  auto e2a = [&](Label label) {
    Op op(label, {read_modify_write(row), ticks ? read_modify_write(clock) : read(clock)});
    if (clock_fe != 0) add(op, read(clock_id_[0]));
    if (ttm_keys_id_ != kNoObject) add(op, read_modify_write(ttm_keys_id_));
    return op;
  };
  auto compute_if_absent = [&] {
    auto it = ttm_l_.find(session);
    if (it == ttm_l_.end()) {
      TtmEntry e;
      e.session = session;
      e.create_time = ticks ? tick(clock_fe) : clock_[0];
      e.created_step = now_step();
      entries_.push_back(std::move(e));
      it = ttm_l_.emplace(session, entries_.size() - 1).first;
      note(a, [&] {
        return "TemporaryTableMgr: new session " + session +
               ", createTime = " + std::to_string(entries_.back().create_time) + " (" +
               frontend_name(clock_fe) + " clock)";
      });
    }
    info.e2a_step = entries_[it->second].created_step;
    return it->second;
  };
  if (cfg_.policy.add_temporary_table == AddTemporaryTable::kAtomic) {
    Op op = e2a("E2a-E2c");
    add(op, read_modify_write(ttm_tables(session)));
    a.step(op);
    const std::size_t e = compute_if_absent();
    entries_[e].tables.insert(table);
    info.added_to_manager = true;
    note(a, [&] {
      return "add temporary table, session[" + session + "], db id[" + std::to_string(kDbId) +
             "], table name[" + info.name + "], table id[" + std::to_string(table) + "]";
    });
    return;
  }
  a.step(e2a("E2a"));
  compute_if_absent();
  a.step("E2b", {read(row)});
  TtmEntry* got = ttm_entry(session);
  note(a, [&] {
    return "TemporaryTableMgr.get(" + session + ") (unlocked): " +
           (got == nullptr ? std::string("null") : std::string("the session's entry"));
  });
  if (got == nullptr)
    a.violation(inv::kManagerNullPointer,
                "E2b at step " + std::to_string(now_step()) + ": TemporaryTableMgr.get(" + session +
                    ") returned null (D4 removed the session after E2a): NullPointerException "
                    "while adding " +
                    table_text(table) + ", which is already in CAT");
  const std::size_t held = static_cast<std::size_t>(got - entries_.data());
  // The held entry is the session's (attached or removed by D4 since): TTM_L[s] covers both.
  a.step("E2c", {read(row), read_modify_write(ttm_tables(session)), read(cat_obj(table))});
  TtmEntry& e = entries_[held];
  e.tables.insert(table);
  info.added_to_manager = true;
  note(a, [&] {
    return "add temporary table, session[" + session + "], db id[" + std::to_string(kDbId) +
           "], table name[" + info.name + "], table id[" + std::to_string(table) + "]" +
           (e.attached ? "" : " (to an entry no longer in the manager)");
  });
  if (!e.attached && in_cat(table))
    a.violation(inv::kUntrackedTempTable,
                "E2c at step " + std::to_string(now_step()) + " added " + table_text(table) +
                    " to the TemporaryTableMgr entry that D4 had removed: the table is in CAT "
                    "and no manager tracks it");
}

void World::executor(Actor& a, int t) {
  const TaskRunConfig& tc = task_cfg(t);
  const auto ti = static_cast<std::size_t>(t);
  TaskRun& tr = task(t);
  std::string error;
  bool ok = false;
  for (int attempt = 1; attempt <= 1 + tc.retries; ++attempt) {
    a.step("E1", {write(runctx_id_[ti])});
    if (!tr.session.empty()) owners_.at(tr.session).live = false;
    const std::string session = tc.name + "#" + std::to_string(attempt);
    tr.session = session;
    tr.attempt = attempt;
    Owner o;
    o.kind = Owner::Kind::kTaskRun;
    o.index = t;
    o.attempt = attempt;
    o.live = !tr.killed;
    owners_.emplace(session, o);
    note(a, [&] {
      return "task run " + tc.name + " attempt " + std::to_string(attempt) +
             ": runCtx := new ConnectContext, session " + session;
    });

    const int table = create_table(a, "E2", session, "", 0);
    owners_.at(session).staged = true;
    add_temporary_table(a, session, table, 0);

    error.clear();
    ok = insert(a, t, session, table, "E3", 0, error);
    if (!ok) error = "Error occurred during executing recursive CTE start statement: " + error;
    for (int i = 1; ok && i <= tc.iterations; ++i) {
      ok = insert(a, t, session, table, "E4", i, error);
      if (!ok)
        error = "Error occurred during executing recursive CTE iteration " + std::to_string(i) +
                ": " + error;
    }
    if (ok) {
      a.step("E5", {read(runctx_id_[ti]), read(ttm_row(session)), read(ttm_tables(session)),
                    read(cat_obj(table))});
      const TtmEntry* e = ttm_entry(session);
      if (tr.killed) {
        ok = false;
        error = "the task run was killed";
      } else if (e == nullptr || e->tables.count(table) == 0 || !in_cat(table)) {
        ok = false;
        error = "Unknown table '" + tables_.at(table).name + "'";
      }
      note(a, [&] {
        return ok ? "INSERT OVERWRITE target SELECT ... FROM " + tables_.at(table).name + ": done"
                  : "outer statement failed: " + error;
      });
    }

    // finalized is observed through progress(t) (the coverage goals of C3 and C4).
    Op e6("E6", {read(ttm_row(session)), read_modify_write(ttm_tables(session)),
                 read_modify_write(cat_obj(table)),
                 read_modify_write(progress_id_[ti])});
    append_journal(e6, session);
    a.step(e6);
    owners_.at(session).finalized = true;
    TtmEntry* e = ttm_entry(session);
    const bool tracked = e != nullptr && e->tables.count(table) != 0;
    if (!tracked || !in_cat(table)) a.cover(goal::kFinalizeNoop);
    const bool dropped = tracked && in_cat(table);
    if (dropped) {
      cat_.erase(table);
      journal(JournalKind::kDropTable, table, session);
      if (++tables_.at(table).drop_infos > 1)
        a.fail("two DropInfo journaled for " + table_text(table));
    }
    if (tracked) e->tables.erase(table);
    note(a, [&] {
      return "DROP TEMPORARY TABLE IF EXISTS " + tables_.at(table).name + ": " +
             (!tracked  ? std::string("the session does not track it, nothing to do")
              : dropped ? std::string("dropped, DropInfo journaled")
                        : std::string("already dropped from CAT, removed from the manager"));
    });
    if (ok || tr.killed) break;
  }
  a.step("E7", {read_modify_write(future_id_[ti])});
  if (!tr.session.empty()) owners_.at(tr.session).live = false;
  if (tr.future == Future::kPending) {
    tr.future = ok ? Future::kSucceeded : Future::kFailed;
    note(a, [&] {
      return "task run " + tc.name + (ok ? std::string(" SUCCESS") : " FAILED: " + error);
    });
  } else {
    note(a, [&] { return "task run " + tc.name + " was killed: it stays FAILED (" + error + ")"; });
  }
}

// One INSERT into the staging table (E3 anchor, E4 iteration): plan it, let a tablet sink on each
// CN write and finish, wait for their reports.
bool World::insert(Actor& a, int t, const std::string& session, int table, Label label, int level,
                   std::string& error) {
  const auto ti = static_cast<std::size_t>(t);
  TaskRun& tr = task(t);
  a.step(label, {read(runctx_id_[ti]), read(ttm_row(session)), read(ttm_tables(session)),
                 read(cat_obj(table))});
  const std::string& name = tables_.at(table).name;
  if (tr.killed) {
    error = "the task run was killed";
    note(a, [&] { return "statement cancelled: " + error; });
    return false;
  }
  const TtmEntry* e = ttm_entry(session);
  if (e == nullptr || e->tables.count(table) == 0 || !in_cat(table)) {
    error = "Unknown table '" + name + "'";
    note(a, [&] { return "planning failed: " + error; });
    return false;
  }
  const long long txn = next_txn_++;
  tr.reports = 0;
  tr.failure.clear();
  const std::string stmt = level == 0 ? "E3" : "E4." + std::to_string(level);
  for (int cn = 0; cn < cfg_.cluster.compute_nodes; ++cn) {
    std::string sink_name = "TabletSink:" + session + "/" + stmt + "/" + compute_node_name(cn);
    a.spawn(sink_name, [this, t, table, cn, txn, sink_name](Actor& s) {
      sink(s, t, table, cn, txn, sink_name);
    });
  }
  note(a, [&] {
    return (level == 0 ? "anchor INSERT INTO "
                       : "iteration " + std::to_string(level) + ": INSERT INTO ") +
           name + " (txn " + std::to_string(txn) + "): connector_scan -> chunk_accumulate -> " +
           "project -> olap_table_sink on " + std::to_string(cfg_.cluster.compute_nodes) + " CN(s)";
  });
  const int cns = cfg_.cluster.compute_nodes;
  a.wait_until(label, {Access{coord_id_[ti], AccessKind::kWait}},
               [this, t, cns] { return task(t).reports == cns; });
  if (!tr.failure.empty()) {
    error = tr.failure;
    note(a, [&] { return "the load failed: " + error; });
    return false;
  }
  note(a, [&] { return "the load of txn " + std::to_string(txn) + " finished"; });
  return true;
}

// The schema lookup of a tablet sink (N2 first chunk, N3 finish): the CN cache or an RPC to the
// leader, which reads CAT. TABLE_NOT_EXIST fails the load without retry.
bool World::schema_lookup(Actor& a, int t, int table, int cn, long long txn, Label label,
                          const std::string& sink_name) {
  const auto ci = static_cast<std::size_t>(cn);
  const TableInfo& info = tables_.at(table);
  Op op(label, {read_modify_write(sch_id_[ci].at(info.key)), read(cat_obj(table))});
  owner_reads(op, info.session);
  a.step(op);
  if (sch_[ci].count(table) != 0) {
    note(a, [&] { return "schema " + std::to_string(table + 1) + " from the CN cache"; });
    return true;
  }
  if (in_cat(table)) {
    sch_[ci].insert(table);
    note(a, [&] {
      return "schema " + std::to_string(table + 1) + " fetched from the leader, cached";
    });
    return true;
  }
  const std::string msg = "table not found, may be dropped, db id: " + std::to_string(kDbId) +
                          ", table id: " + std::to_string(table);
  if (task(t).failure.empty()) task(t).failure = compute_node_name(cn) + ": " + msg;
  note(a, [&] {
    return "table_schema_service.cpp: failed to get schema db_id: " + std::to_string(kDbId) +
           ", table_id: " + std::to_string(table) + ", schema_id: " + std::to_string(table + 1) +
           ", tablet_id: " + std::to_string(table + 5 + cn) + ", txn_id: " + std::to_string(txn) +
           ", error: Table not exist: " + msg + "; async_delta_writer.cpp: Fail to " +
           (label == Label("N3") ? "finish write" : "write") +
           "; lake_tablets_channel.cpp: Fail to finish tablet " + std::to_string(table + 5 + cn);
  });
  if (owner_live(info.session))
    defer(inv::kSinkTableNotFound,
          sink_name + " " + std::string(label) + " at step " + std::to_string(now_step()) +
              ": the schema lookup of " + table_text(table) +
              " answered TABLE_NOT_EXIST (table not found, may be dropped) while its owner is "
              "live");
  return false;
}

void World::sink(Actor& a, int t, int table, int cn, long long txn, const std::string& name) {
  a.step("N1", {});
  bool rows = true;
  switch (task_cfg(t).tablet_rows) {
    case TabletRows::kSome:
      rows = true;
      break;
    case TabletRows::kNone:
      rows = false;
      break;
    case TabletRows::kExplore:
      rows = a.choose(2) == 0;
      break;
  }
  note(a, [&] {
    return "open tablet " + std::to_string(table + 5 + cn) + " (no I/O); the tablet gets " +
           (rows ? "rows" : "no rows");
  });
  bool built = false;
  bool ok = true;
  if (rows) {
    ok = schema_lookup(a, t, table, cn, txn, "N2", name);
    built = ok;
  }
  if (ok) {
    if (built) {
      a.step("N3", {});
      note(a, [&] { return "finish: schema already built, segment written"; });
    } else {
      ok = schema_lookup(a, t, table, cn, txn, "N3", name);
    }
  }
  a.step("N4", {read_modify_write(coord_id_[static_cast<std::size_t>(t)])});
  ++task(t).reports;
  note(a, [&] { return std::string("report to the coordinator: ") + (ok ? "OK" : "FAILED"); });
}

// ---------------------------------------------------------------- client sessions

void World::client(Actor& a, int c) {
  const ClientConfig& cc = client_cfg(c);
  const auto f = static_cast<std::size_t>(cc.frontend);
  const std::string session = cc.name;
  a.step("U1", {});
  Owner o;
  o.kind = Owner::Kind::kClient;
  o.index = c;
  owners_.emplace(session, o);
  note(a, [&] {
    return "new ConnectContext on " + frontend_name(cc.frontend) + ": session " + session;
  });
  const ObjectId cs = cs_id_[static_cast<std::size_t>(c)];
  a.step("U2", {read_modify_write(cs)});
  cs_[f].insert(session);
  owners_.at(session).live = true;
  note(a, [&] {
    return "ConnectScheduler of " + frontend_name(cc.frontend) + ": register " + session;
  });
  for (int k = 1; k <= cc.temp_tables; ++k) {
    const int table =
        create_table(a, "U3", session, "tmp_" + cc.name + "_" + std::to_string(k), cc.frontend);
    add_temporary_table(a, session, table, cc.frontend);
  }
  a.step("U4a", {read_modify_write(cs)});
  cs_[f].erase(session);
  owners_.at(session).live = false;
  note(a, [&] {
    return "ConnectScheduler of " + frontend_name(cc.frontend) + ": unregister " + session;
  });
  a.step("U4b", {read(f == 0 ? ttm_row(session) : ttm_id_[f])});
  const bool known = f == 0 ? ttm_l_.count(session) != 0 : ttm_f_[f].count(session) != 0;
  if (!known) {
    note(a, [&] {
      return "TemporaryTableMgr of " + frontend_name(cc.frontend) + " has no session " + session +
             ": no CLEAN TEMPORARY TABLE issued";
    });
    return;
  }
  note(a, [&] { return "CLEAN TEMPORARY TABLE ON SESSION " + session + " sent to the leader"; });
  clean_session(a, session, false, 0, 0);
}

// ---------------------------------------------------------------- follower replay

// Replays J in order into TTM_f. It stops after the last CreateTableInfo of a session of its own
// clients: later entries change nothing the model observes (C2 and U4b read only TTM_f's keys).
void World::replayer(Actor& a, int fe) {
  const auto fi = static_cast<std::size_t>(fe);
  const ObjectId journal = journal_id_[fi];
  int expected = 0;
  for (const auto& cc : cfg_.actors.clients)
    if (cc.frontend == fe) expected += cc.temp_tables;
  // The replayer applies J in order; of it, only the entries of this FE's own clients' sessions
  // are ever observed (TTM_f's other sessions are read by no step), so those are the entries it
  // is modelled to apply, in their journal order (J[f]). Replaying the others earlier or later
  // changes nothing any step reads: an arbitrary lag of the real replayer covers both.
  std::size_t cursor = 0;
  int replayed = 0;
  auto apply = [&](const JournalEntry& je) {
    if (je.kind == JournalKind::kCreateTable) {
      auto [it, fresh] = ttm_f_[fi].try_emplace(je.session);
      if (fresh) it->second.create_time = tick(fe);
      it->second.tables.insert(je.table);
      ++replayed;
      note(a, [&] {
        return "replay CreateTableInfo of " + tables_.at(je.table).name + " (session " +
               je.session + ") on " + frontend_name(fe);
      });
    } else if (je.kind == JournalKind::kDropTable) {
      auto it = ttm_f_[fi].find(je.session);
      if (it != ttm_f_[fi].end()) it->second.tables.erase(je.table);
      note(a, [&] {
        return "replay DropInfo of " + tables_.at(je.table).name + " on " + frontend_name(fe);
      });
    }
  };
  auto next_own = [&]() -> std::optional<std::size_t> {
    for (std::size_t i = cursor; i < journal_.size(); ++i)
      if (journal_[i].follower == fe) return i;
    return std::nullopt;
  };
  while (replayed < expected) {
    // J[f] is append-only: an entry already present tells the kind of the next replay step.
    const std::optional<std::size_t> next = next_own();
    if (next && journal_[*next].kind == JournalKind::kDropTable) {
      // A DropInfo changes only the tables of a TTM_f entry, which no other actor observes.
      a.step("R2", {read(journal)});
      apply(journal_[*next]);
      cursor = *next + 1;
      continue;
    }
    // Caught up (or the next is a create): wait for the next CreateTableInfo and replay up to it.
    a.wait_until("R1",
                 {read(journal), read_modify_write(ttm_id_[fi]), read_modify_write(clock_id_[fi])},
                 [this, &cursor, fe] {
                   for (std::size_t i = cursor; i < journal_.size(); ++i)
                     if (journal_[i].follower == fe &&
                         journal_[i].kind == JournalKind::kCreateTable)
                       return true;
                   return false;
                 });
    for (; cursor < journal_.size();) {
      const JournalEntry& je = journal_[cursor++];
      if (je.follower != fe) continue;
      apply(je);
      if (je.kind == JournalKind::kCreateTable) break;
    }
  }
}

}  // namespace

std::size_t actor_bound(const WorldConfig& config) {
  std::size_t n = 1;  // the cleaner
  if (!config.actors.task_runs.empty()) ++n;
  for (const auto& t : config.actors.task_runs) {
    n += 1 + (t.sync ? 1u : 0u) + (t.kill ? 1u : 0u);
    n += static_cast<std::size_t>((1 + t.retries) * (1 + t.iterations) *
                                  config.cluster.compute_nodes);
  }
  n += config.actors.clients.size();
  n += static_cast<std::size_t>(config.cluster.frontends - 1);
  return n;
}

Program make_program(const WorldConfig& config) {
  auto cfg = std::make_shared<const WorldConfig>(config);
  return [cfg](Execution& ex) {
    World& w = ex.make<World>(ex, *cfg);
    w.setup();
  };
}

ModelInstance make_instance(const WorldConfig& config) {
  return ModelInstance{make_program(config), invariant_names(), coverage_goal_names()};
}

}  // namespace interleave::model
