// The lease-lock model (model/lease_lock/): its verdicts under each knob, DPOR against plain DFS
// on it, the counterexample of Kleppmann's timeline, exact errors for bad input, its JSON Schema
// against its knobs table, and the model behind the generic CLI (alone, and beside StarRocks in
// the real executable).
#include "tests/cli/helpers.hpp"

#include "explorer/explorer.hpp"
#include "explorer/strategies/factory.hpp"
#include "model/lease_lock/lease_lock.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <string>

using namespace interleave;
using namespace interleave::test;
using json = nlohmann::json;

namespace {

const std::string kSource = INTERLEAVE_SOURCE_DIR;

// The scenario document with this "lease_lock" section.
// The scenario document with this "lease_lock" section (none if null: every default).
json scenario(const json& section) {
  json s = {{"name", "t"}, {"model", "lease-lock"}};
  if (!section.is_null()) s["lease_lock"] = section;
  return s;
}

ModelInstance instance(const json& section) {
  return lease_lock::make_lease_lock_driver()->instantiate(scenario(section), "s.json");
}

// Exhaustive exploration past every violation (one counterexample per property).
ExplorationResult explore(const json& section, const std::string& strategy = "dpor") {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  Explorer ex(instance(section).program, o);
  auto s = make_strategy(StrategySpec{strategy});
  return ex.explore(*s);
}

std::set<std::string> violated(const ExplorationResult& r) {
  std::set<std::string> out;
  for (const auto& c : r.counterexamples)
    out.insert(c.invariant);
  return out;
}

std::set<std::string> reached(const ExplorationResult& r) {
  std::set<std::string> out;
  for (const auto& [goal, count] : r.covered)
    if (count > 0) out.insert(goal);
  return out;
}

const std::string kStale(lease_lock::kStaleWriteOverwroteNewer.name);
const std::string kReleased(lease_lock::kReleasedAnotherClientsLock.name);
const std::string kOverlap(lease_lock::kTwoClientsHoldTheLock.name);
const std::string kStaleArrived(lease_lock::kStaleWriteAfterNewerWrite.name);

std::string error_of(const json& section) {
  try {
    instance(section);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("lease-lock: without fencing tokens the stale write lands, with them it is rejected",
          "[lease-lock]") {
  const ExplorationResult unfenced = explore({{"fencing_tokens", false}});
  CHECK(unfenced.verdict == Verdict::kViolation);
  CHECK(violated(unfenced) == std::set<std::string>{kStale});
  CHECK(reached(unfenced) == std::set<std::string>{kOverlap, kStaleArrived});
  CHECK(unfenced.stats.executions == 9);

  const ExplorationResult fenced = explore({{"fencing_tokens", true}});
  CHECK(fenced.verdict == Verdict::kHolds);
  CHECK(violated(fenced).empty());
  // Not vacuous: the overlap and the stale write that fencing rejects were explored.
  CHECK(reached(fenced) == std::set<std::string>{kOverlap, kStaleArrived});
  CHECK(fenced.stats.executions == 9);
}

TEST_CASE("lease-lock: each knob changes the verdict it should", "[lease-lock]") {
  // Checking the lease before writing is no fix: the pause falls between the check and the write.
  const ExplorationResult checked = explore({{"check_lease_before_write", true}});
  CHECK(checked.verdict == Verdict::kViolation);
  CHECK(violated(checked) == std::set<std::string>{kStale});
  // A lease that never expires: no overlap, no stale write, and the goals say so.
  const ExplorationResult no_expiry = explore({{"lease_expiries", 0}});
  CHECK(no_expiry.verdict == Verdict::kHolds);
  CHECK(reached(no_expiry).empty());
  // A plain DEL deletes the lock of the client that acquired it after the expiry.
  const ExplorationResult del = explore({{"fencing_tokens", true}, {"release", "delete"}});
  CHECK(del.verdict == Verdict::kViolation);
  CHECK(violated(del) == std::set<std::string>{kReleased});
  const ExplorationResult del_unfenced = explore({{"release", "delete"}});
  CHECK(violated(del_unfenced) == std::set<std::string>{kStale, kReleased});
  // Three clients, two expiries: fencing still holds.
  const ExplorationResult three =
      explore({{"clients", 3}, {"lease_expiries", 2}, {"fencing_tokens", true}});
  CHECK(three.verdict == Verdict::kHolds);
  CHECK(reached(three) == std::set<std::string>{kOverlap, kStaleArrived});
}

TEST_CASE("lease-lock: dpor and dfs agree on verdict, violated properties and goals",
          "[lease-lock][dpor-vs-dfs]") {
  struct Case {
    json section;
    std::uint64_t dfs_executions, dpor_executions;
  };
  const std::vector<Case> cases = {
      {{{"fencing_tokens", false}}, 32, 9},
      {{{"fencing_tokens", true}}, 34, 9},
      {{{"check_lease_before_write", true}}, 76, 20},
      {{{"fencing_tokens", true}, {"release", "delete"}}, 34, 9},
      {{{"clients", 3}, {"lease_expiries", 2}, {"fencing_tokens", true}}, 4776, 508},
      {{{"clients", 3}, {"lease_expiries", 2}, {"check_lease_before_write", true}}, 23382, 3908},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.section.dump()) {
      const ExplorationResult dfs = explore(c.section, "dfs");
      const ExplorationResult dpor = explore(c.section, "dpor");
      CHECK(dfs.stats.executions == c.dfs_executions);
      CHECK(dpor.stats.executions == c.dpor_executions);
      CHECK(dpor.verdict == dfs.verdict);
      CHECK(dpor.verdict != Verdict::kIncomplete);
      CHECK(violated(dpor) == violated(dfs));
      CHECK(reached(dpor) == reached(dfs));
      CHECK(dpor.stats.executions < dfs.stats.executions);
    }
  }
}

TEST_CASE("lease-lock: the counterexample is Kleppmann's timeline", "[lease-lock]") {
  const ExplorationResult r = explore({});
  REQUIRE(r.counterexamples.size() == 1);
  const Counterexample& c = r.counterexamples.front();
  CHECK(c.invariant == kStale);
  CHECK(c.message ==
        "the storage holds client1's data (lease 1), written after client2's under the newer "
        "lease 2");
  std::vector<std::string> steps;
  for (const TraceStep& s : c.steps)
    steps.push_back(s.actor + " " + s.label);
  CHECK(steps == std::vector<std::string>{"client1 acquire", "lock_service expire",
                                          "client2 acquire", "client2 write", "client2 release",
                                          "client1 write"});
  CHECK(c.step == 5);
}

TEST_CASE("lease-lock: bad input names the file and the JSON path", "[lease-lock][input]") {
  CHECK(error_of({{"fencing_token", true}}) ==
        "s.json: /lease_lock/fencing_token: unknown key 'fencing_token' (did you mean "
        "'fencing_tokens'?); known keys: 'clients', 'lease_expiries', 'fencing_tokens', "
        "'check_lease_before_write', 'release'");
  CHECK(error_of({{"clients", 4}}) ==
        "s.json: /lease_lock/clients: must be between 2 and 3, got 4");
  CHECK(error_of({{"fencing_tokens", "yes"}}) ==
        "s.json: /lease_lock/fencing_tokens: expected a boolean, got a string");
  CHECK(error_of({{"release", "del"}}) ==
        "s.json: /lease_lock/release: unknown value 'del'; expected one of 'compare_and_delete', "
        "'delete'");
  CHECK(error_of(json::array()) == "s.json: /lease_lock: expected an object, got an array");

  // Through the real executable: exit 2, one message, nothing explored.
  TempDir tmp;
  json s = scenario({{"lease_expiries", -1}});
  s["expect"] = {{"verdict", "holds"}, {"reached", {kOverlap}}};
  write_file(tmp / "bad.json", s.dump());
  const CliResult r = run_binary({"check", tmp / "bad.json", "--out", tmp / "out"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "error: " + tmp / "bad.json" +
                     ": /lease_lock/lease_expiries: must be between 0 and 2, got -1\n");
  CHECK_FALSE(std::filesystem::exists(tmp / "out"));
}

TEST_CASE("lease-lock: the JSON Schema lists exactly the knobs of the table",
          "[lease-lock][schema]") {
  std::ifstream in(kSource + "/model/lease_lock/lease-lock.schema.json");
  REQUIRE(in);
  const json schema = json::parse(in);
  const json& props = schema.at("properties").at("lease_lock").at("properties");
  CHECK(props.size() == lease_lock::knobs().size());
  for (const lease_lock::Knob& k : lease_lock::knobs()) {
    INFO(k.key);
    REQUIRE(props.contains(std::string(k.key)));
    const json& p = props.at(std::string(k.key));
    CHECK(p.at("default") == k.fallback);
    if (k.fallback.is_boolean()) CHECK(p.at("type") == "boolean");
    if (k.fallback.is_number()) {
      CHECK(p.at("type") == "integer");
      CHECK(p.at("minimum") == k.min);
      CHECK(p.at("maximum") == k.max);
    }
    if (k.fallback.is_string()) CHECK(p.at("enum") == json(k.values));
  }
}

TEST_CASE("lease-lock: behind the generic CLI, alone and beside StarRocks", "[lease-lock][cli]") {
  ModelRegistry models;
  models.add(lease_lock::make_lease_lock_driver());
  TempDir tmp;
  const CliResult fenced = run_cli(
      {"check", kSource + "/scenarios/lease-lock-fencing-tokens.json", "--out", tmp / "out"},
      models);
  INFO(fenced.out << fenced.err);
  CHECK(fenced.code == 0);
  CHECK_THAT(fenced.out, Catch::StartsWith("lease-lock-fencing-tokens: holds"));
  const CliResult unfenced = run_cli(
      {"check", kSource + "/scenarios/lease-lock-no-fencing.json", "--out", tmp / "out"}, models);
  CHECK(unfenced.code == 1);
  CHECK_THAT(unfenced.out, Catch::Contains("violation (stale_write_overwrote_newer)"));

  const CliResult list = run_binary({"list", "--json"});
  REQUIRE(list.code == 0);
  const json listed = json::parse(list.out);
  std::vector<std::string> names;
  for (const json& m : listed.at("models"))
    names.push_back(m.at("name"));
  CHECK(names == std::vector<std::string>{"starrocks-temp-tables", "lease-lock"});
}

TEST_CASE("lease-lock: the model stays under 300 lines of C++", "[lease-lock]") {
  std::size_t lines = 0, files = 0;
  for (const auto& e : std::filesystem::directory_iterator(kSource + "/model/lease_lock")) {
    const std::string ext = e.path().extension().string();
    if (ext != ".cpp" && ext != ".hpp") continue;
    ++files;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);)
      ++lines;
  }
  CHECK(files == 3);
  CHECK(lines < 300);
}
