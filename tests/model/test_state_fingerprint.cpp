// The StarRocks world's state fingerprints (World::fingerprint, the actors' declared locals): the
// same schedule gives the same fingerprints, independent steps in either order reach the same
// state, a cleaner drop is seen, every actor of every shipped scenario declares its locals, and
// (an audit of soundness on small worlds) two points of an exhaustive search with the same
// fingerprint have the same futures.
#include "helpers.hpp"

#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/factory.hpp"
#include "explorer/strategies/random.hpp"
#include "model/starrocks/program.hpp"
#include "model/starrocks/scenario.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace interleave::model::test {
namespace {

/// Runs `inner` and records the state fingerprint at every scheduling point of every execution.
class Recording final : public Strategy {
 public:
  explicit Recording(Strategy& inner) : inner_(inner) {}
  std::string name() const override { return "recording(" + inner_.name() + ")"; }
  bool begin_execution() override {
    if (!inner_.begin_execution()) return false;
    executions.emplace_back();
    return true;
  }
  ActorId next_actor(const SchedulingPoint& point) override {
    executions.back().push_back(point.state->state_fingerprint());
    return inner_.next_actor(point);
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override {
    return inner_.next_choice(point);
  }
  void end_execution(const ExecutionRecord& record) override { inner_.end_execution(record); }
  Coverage coverage() const override { return inner_.coverage(); }

  std::vector<std::vector<Fingerprint>> executions;

 private:
  Strategy& inner_;
};

/// One execution that runs the actors named in `script`, in order (a name ending in '*' runs
/// that actor until it finishes or blocks; choices are 0), then records the fingerprint and
/// abandons the execution.
class Scripted final : public Strategy {
 public:
  explicit Scripted(std::vector<std::string> script) : script_(std::move(script)) {}
  std::string name() const override { return "scripted"; }
  bool begin_execution() override { return !started_ && (started_ = true); }
  ActorId next_actor(const SchedulingPoint& point) override {
    while (next_ < script_.size()) {
      std::string name = script_[next_];
      const bool run = !name.empty() && name.back() == '*';
      if (run) name.pop_back();
      ActorId id = kNoActor;
      for (std::size_t a = 0; a < point.names.size(); ++a)
        if (point.names[a] == name) id = static_cast<ActorId>(a);
      if (id == kNoActor) FAIL("no actor " << name);
      if (!run) {
        ++next_;
        if (!point.enabled.contains(id)) FAIL(name << " is not enabled at step " << point.step);
        ++steps;
        return id;
      }
      if (point.enabled.contains(id)) {
        ++steps;
        return id;
      }
      ++next_;  // finished or blocked: the next entry
    }
    fingerprint = point.state->state_fingerprint();
    return kNoActor;
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint&) override { return 0; }
  void end_execution(const ExecutionRecord&) override {}
  Coverage coverage() const override { return {false, "a script"}; }

  std::optional<Fingerprint> fingerprint;  // at the point after the script
  std::size_t steps = 0;

 private:
  std::vector<std::string> script_;
  std::size_t next_ = 0;
  bool started_ = false;
};

/// An audit of soundness under a DFS (every interleaving and choice): per point of the tree (its
/// decisions so far), its fingerprint and the set of its futures (the steps that follow, as actor
/// names and labels, the choices, the outcome). A point's futures are all known once the DFS has
/// left its subtree: every point not on the last execution's path when the budget stops it.
class Audit final : public Strategy {
 public:
  explicit Audit(Strategy& inner) : inner_(inner) {}
  std::string name() const override { return "audit(" + inner_.name() + ")"; }
  bool begin_execution() override {
    if (!inner_.begin_execution()) {
      complete = true;
      return false;
    }
    tokens_.clear();
    points_.clear();
    return true;
  }
  ActorId next_actor(const SchedulingPoint& point) override {
    points_.push_back({point.state->state_fingerprint(), tokens_.size()});
    const ActorId id = inner_.next_actor(point);
    if (id != kNoActor) {
      StateHasher h;
      h << point.names[id] << std::string_view(point.pending[id]->label);
      tokens_.push_back(h.digest());
    }
    return id;
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override {
    const std::optional<std::uint32_t> v = inner_.next_choice(point);
    StateHasher h;
    h << std::string_view("choice") << v.value_or(~0U);
    tokens_.push_back(h.digest());
    return v;
  }
  void end_execution(const ExecutionRecord& record) override {
    inner_.end_execution(record);
    last_path_.clear();
    for (const Point& p : points_) {
      StateHasher prefix, future;
      for (std::size_t i = 0; i < p.tokens; ++i)
        prefix << tokens_[i];
      for (std::size_t i = p.tokens; i < tokens_.size(); ++i)
        future << tokens_[i];
      future << record.outcome;
      const Key key{prefix.digest().hi, prefix.digest().lo};
      Node& n = nodes_[key];
      if (n.futures.empty()) n.state = p.state;
      if (!(n.state == p.state)) ++nondeterministic;
      n.futures.insert({future.digest().hi, future.digest().lo});
      last_path_.insert(key);
    }
  }
  Coverage coverage() const override { return inner_.coverage(); }

  /// Points with a fingerprint met at another point first whose futures differ (unsound merges),
  /// and points with a fingerprint met at another point first with the same futures (merges).
  std::pair<std::size_t, std::size_t> check() const {
    std::map<Key, const Node*> first;  // by fingerprint
    std::size_t unsound = 0, merged = 0;
    for (const auto& [key, n] : nodes_) {
      if (!complete && last_path_.count(key) != 0) continue;  // its subtree is not done
      auto [it, fresh] = first.try_emplace(Key{n.state.hi, n.state.lo}, &n);
      if (fresh) continue;
      ++(it->second->futures == n.futures ? merged : unsound);
    }
    return {unsound, merged};
  }

  bool complete = false;
  std::size_t nondeterministic = 0;  // a point whose fingerprint differs from run to run

 private:
  using Key = std::pair<std::uint64_t, std::uint64_t>;
  struct Point {
    Fingerprint state;
    std::size_t tokens;  // tokens_ before it
  };
  struct Node {
    Fingerprint state;
    std::set<Key> futures;
  };
  Strategy& inner_;
  std::vector<Fingerprint> tokens_;  // this execution's steps and choices
  std::vector<Point> points_;        // this execution's points
  std::map<Key, Node> nodes_;        // by the decisions before the point
  std::set<Key> last_path_;
};

ExploreOptions quiet() {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.minimize = false;
  return o;
}

/// The fingerprint after running `script` in world `w`.
Fingerprint after(const WorldConfig& w, std::vector<std::string> script, std::size_t steps) {
  Explorer ex(make_program(w), quiet());
  Scripted s(std::move(script));
  ex.explore(s);
  REQUIRE(s.fingerprint.has_value());
  REQUIRE(s.steps == steps);
  return *s.fingerprint;
}

/// Two leader clients, the second ending abnormally, and one cleaner pass.
WorldConfig two_clients() {
  WorldConfig w = world("starrocks-4.1.1");
  w.actors.clients = {client("c1"), client("c2")};
  w.actors.clients[1].end = ClientEnd::kAbnormal;
  w.actors.cleaner.passes = 1;
  return w;
}

/// The seed's world: an async task run, a client on the leader, two cleaner passes.
WorldConfig seed_like() {
  WorldConfig w = world("starrocks-4.1.1");
  w.actors.task_runs = {task_run("t1")};
  w.actors.task_runs[0].iterations = 1;
  w.actors.clients = {client("c1")};
  w.actors.cleaner.passes = 2;
  return w;
}

}  // namespace

TEST_CASE("fingerprint: the same schedule gives the same fingerprints at every point",
          "[fingerprint]") {
  const WorldConfig w = seed_like();
  auto record = [&w] {
    Explorer ex(make_program(w), quiet());
    RandomStrategy random(7, 5);
    Recording rec(random);
    ex.explore(rec);
    return rec.executions;
  };
  const auto first = record();
  const auto second = record();
  REQUIRE(first.size() == 5);
  CHECK(first == second);
  // The state changes along an execution, and different executions differ somewhere.
  for (const auto& e : first) {
    REQUIRE(e.size() > 10);
    CHECK(std::count(e.begin(), e.end(), e.front()) == 1);
    CHECK(e.front() == first.front().front());  // every execution starts in the same state
  }
  CHECK(first[0] != first[1]);
}

TEST_CASE("fingerprint: independent steps in either order reach the same state", "[fingerprint]") {
  const WorldConfig w = two_clients();
  const std::string c1 = "Session:c1@fe1", c2 = "Session:c2@fe1";
  // U1 (a new ConnectContext) and U2 (CS_fe1[c], one row per client) of two clients commute.
  const Fingerprint a = after(w, {c1, c1, c2, c2}, 4);
  const Fingerprint b = after(w, {c2, c1, c2, c1}, 4);
  const Fingerprint c = after(w, {c2, c2, c1, c1}, 4);
  CHECK(a == b);
  CHECK(a == c);
  // ... and the state after them is not the initial one, nor the one after c1's steps alone.
  CHECK(a != after(w, {}, 0));
  CHECK(a != after(w, {c1, c1}, 2));
}

TEST_CASE("fingerprint: a cleaner drop changes the state", "[fingerprint]") {
  // The abnormal client c2 creates its table and disconnects; c1 has not started. With the
  // cleaner's pass after c2's end the pass drops c2's table; before c2's start it drops nothing.
  // Both end with c2 and the cleaner finished and c1 at U1: only the shared state differs.
  const WorldConfig w = two_clients();
  const std::string c2 = "Session:c2@fe1*", cleaner = "TemporaryTableCleaner*";
  // c2: U1 U2 U3 E2a E2b E2c U4a; the cleaner: C1 C2 C4, then D1 D2 D3 D4 if c2's entry is there.
  const Fingerprint dropped = after(w, {c2, cleaner}, 7 + 7);
  const Fingerprint kept = after(w, {cleaner, c2}, 3 + 7);
  CHECK(dropped != kept);
}

TEST_CASE("fingerprint: every actor of every shipped scenario declares its locals",
          "[fingerprint][scenario]") {
  const std::filesystem::path dir = std::filesystem::path(INTERLEAVE_SOURCE_DIR) / "scenarios";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  for (const auto& file : files) {
    INFO(file.filename().string());
    std::ifstream in(file);
    REQUIRE(in);
    const WorldConfig w = parse_world(nlohmann::json::parse(in), file.string());
    ExploreOptions o = quiet();
    o.max_steps = 3000;
    Explorer ex(make_program(w), o);
    RandomStrategy random(3, 3);
    Recording rec(random);
    REQUIRE_NOTHROW(ex.explore(rec));
    REQUIRE(rec.executions.size() == 3);
    for (const auto& e : rec.executions)
      CHECK(!e.empty());
  }
}

TEST_CASE("fingerprint: points with the same fingerprint have the same futures (DFS audit)",
          "[fingerprint][audit]") {
  struct Case {
    std::string name;
    WorldConfig w;
  };
  std::vector<Case> cases;
  {
    WorldConfig w = two_clients();
    w.actors.clients[1].temp_tables = 2;
    cases.push_back({"two leader clients, one pass", w});
  }
  {
    WorldConfig w = world("starrocks-4.1.1");
    w.cluster.frontends = 2;
    w.actors.clients = {client("c1", 1)};
    w.actors.clients[0].end = ClientEnd::kAbnormal;
    w.actors.cleaner.passes = 2;
    cases.push_back({"a follower client, its replayer, two passes", w});
  }
  {
    WorldConfig w = world("pr-79339");
    w.actors.task_runs = {task_run("t1", true)};
    w.actors.cleaner.passes = 1;
    cases.push_back({"a sync task run, pr-79339", w});
  }
  {
    WorldConfig w = world("starrocks-4.1.1");
    w.actors.task_runs = {task_run("t1", false, TabletRows::kExplore)};
    w.actors.task_runs[0].kill = KillMode::kForce;
    w.actors.task_runs[0].retries = 1;
    w.actors.cleaner.passes = 1;
    w.actors.cleaner.sweep = true;
    cases.push_back({"a killed async task run with a retry, the sweep", w});
  }
  for (const Case& c : cases) {
    INFO(c.name);
    ExploreOptions o = quiet();
    o.max_executions = 10'000;
    Explorer ex(make_program(c.w), o);
    auto dfs = make_strategy(StrategySpec{"dfs"});
    Audit audit(*dfs);
    ex.explore(audit);
    const auto [unsound, merged] = audit.check();
    INFO("merged points " << merged << ", complete " << audit.complete);
    CHECK(audit.nondeterministic == 0);
    CHECK(unsound == 0);
    CHECK(merged > 0);
  }
}

}  // namespace interleave::model::test
