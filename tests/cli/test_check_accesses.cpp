// The checked mode in check and gate: the checks on by default (their cost: bench_checks), off
// with --no-check-accesses; --check-accesses adds the sampled commutation audit, whose reach
// (--audit-distance, --audit-every) the verdict's detail states.
// The model: actor A bumps x and y in each of its steps, actor B reads y; "misdeclared" leaves
// y out of A's declaration, which DPOR and DFS alike take at its word without the checks.
#include "explorer/core/checked.hpp"
#include "explorer/core/json_reader.hpp"
#include "explorer/model_api/model_driver.hpp"
#include "tests/cli/helpers.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

using namespace interleave;
using namespace interleave::test;

namespace {

Program bumps(bool misdeclared) {
  return [misdeclared](Execution& ex) {
    auto& x = ex.make<Checked<int>>(ex, "x", 0);
    auto& y = ex.make<Checked<int>>(ex, "y", 0);
    ex.spawn("A", [&x, &y, misdeclared](Actor& a) {
      for (int i = 0; i < 2; ++i) {
        if (misdeclared)
          a.step("bump", {write(x.id())});
        else
          a.step("bump", {write(x.id()), write(y.id())});
        ++x.write(a);
        ++y.write(a);
      }
    });
    ex.spawn("B", [&y](Actor& a) {
      for (int i = 0; i < 2; ++i) {
        a.step("look", {read(y.id())});
        (void)y.read(a);
      }
      a.cover("B done");
    });
    ex.final_check("y == 2", [&y]() -> Check {
      if (y.peek() == 2) return std::nullopt;
      return "y is " + std::to_string(y.peek());
    });
    ex.state_dump([&x, &y]() -> nlohmann::json { return {{"x", x.peek()}, {"y", y.peek()}}; });
  };
}

class BumpsConfig final : public ModelConfig {
 public:
  explicit BumpsConfig(bool misdeclared) : misdeclared_(misdeclared) {}
  ModelInstance instantiate() const override {
    ModelInstance m;
    m.program = bumps(misdeclared_);
    m.invariants = {"y == 2", "deadlock", "actor_failure"};
    m.coverage_goals = {"B done"};
    return m;
  }

 private:
  bool misdeclared_;
};

class BumpsDriver final : public ModelDriver {
 public:
  std::string name() const override { return "bumps"; }
  std::string description() const override { return "two actors, one misdeclared or not"; }
  std::vector<std::string> sections() const override { return {"bumps"}; }
  std::shared_ptr<const ModelConfig> parse(const nlohmann::json& scenario,
                                           const std::string& file) const override {
    const JsonReader c = JsonReader(scenario, file).at("bumps");
    c.expect_keys({"misdeclared"});
    return std::make_shared<BumpsConfig>(c.bool_or("misdeclared", false));
  }
  ModelCatalog catalog() const override {
    ModelCatalog c;
    c.properties = {{"y == 2", "", ""}};
    c.goals = {{"B done", "", ""}};
    return c;
  }
};

ModelRegistry bumps_registry() {
  ModelRegistry r;
  r.add(std::make_unique<BumpsDriver>());
  return r;
}

// A scenario of the bumps model searched by `strategy`, expected to hold.
std::string bumps_scenario(const TempDir& tmp, bool misdeclared, const std::string& strategy) {
  const std::string name = std::string(misdeclared ? "misdeclared" : "declared") + "-" + strategy;
  const std::string path = tmp / (name + ".json");
  write_file(path, R"({"name": ")" + name + R"(", "model": "bumps", "bumps": {"misdeclared": )" +
                       (misdeclared ? "true" : "false") + R"(}, "exploration": {"strategy": ")" +
                       strategy + R"("}, "expect": {"verdict": "holds", "reached": ["B done"]}})");
  return path;
}

const char* const kMisdeclaredError =
    "internal error: the model misbehaved: actor 'A' writes 'y' in its step 'bump' (step 0), "
    "which declares no access that changes it (it declares write x)\n";

}  // namespace

TEST_CASE("checked mode: check --check-accesses catches a misdeclared access", "[check][checked]") {
  const ModelRegistry models = bumps_registry();
  TempDir tmp;
  for (const std::string strategy : {"dfs", "dpor"}) {
    INFO(strategy);
    const std::string misdeclared = bumps_scenario(tmp, true, strategy);
    // On by default, and with the sampled audit (--check-accesses).
    for (const std::vector<std::string>& on :
         {std::vector<std::string>{}, std::vector<std::string>{"--check-accesses"}}) {
      std::vector<std::string> args = {"check", misdeclared, "--out", tmp / "out"};
      args.insert(args.end(), on.begin(), on.end());
      const auto r = run_cli(args, models);
      CHECK(r.code == 4);
      CHECK(r.err == kMisdeclaredError);
    }
    // Turned off, the search believes the declaration: a silent holds.
    const auto holds =
        run_cli({"check", misdeclared, "--no-check-accesses", "--out", tmp / "out"}, models);
    CHECK(holds.code == 0);
    CHECK(holds.err.empty());
    CHECK(holds.out.find(": holds\n") != std::string::npos);
    CHECK(holds.out.find("audit:") == std::string::npos);
  }
}

TEST_CASE("checked mode: gate --check-accesses catches a misdeclared access", "[gate][checked]") {
  const ModelRegistry models = bumps_registry();
  TempDir tmp;
  const std::string misdeclared = bumps_scenario(tmp, true, "dpor");
  const auto r = run_cli(
      {"gate", misdeclared, "--check-accesses", "--out", tmp / "out", "--quiet"}, models);
  CHECK(r.code == 4);
  CHECK(r.err == kMisdeclaredError);
  const auto by_default =
      run_cli({"gate", misdeclared, "--out", tmp / "out", "--quiet"}, models);
  CHECK(by_default.code == 4);
  CHECK(by_default.err == kMisdeclaredError);
  const auto asked_off =
      run_cli({"gate", misdeclared, "--no-check-accesses", "--out", tmp / "out", "--quiet"}, models);
  CHECK(asked_off.code == 0);
}

TEST_CASE("checked mode: the verdict's detail states the audit's reach", "[check][checked]") {
  const ModelRegistry models = bumps_registry();
  TempDir tmp;
  // DFS runs the C(4, 2) = 6 interleavings of A's two steps and B's two, none abandoned.
  const std::string declared = bumps_scenario(tmp, false, "dfs");
  const auto detail = [&](std::vector<std::string> options) {
    std::vector<std::string> args = {"check", declared, "--out", tmp / "out", "--json",
                                     "--check-accesses"};
    args.insert(args.end(), options.begin(), options.end());
    const auto r = run_cli(args, models);
    REQUIRE(r.code == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    REQUIRE(j["scenarios"].size() == 1);
    CHECK(j["scenarios"][0]["stats"]["executions"] == 6);
    return j["scenarios"][0]["detail"].get<std::string>();
  };
  const std::string dfs = "every interleaving and every choice value (exhaustive DFS)";
  // The 1st, 2nd and 4th of the 6 executions.
  CHECK(detail({}) ==
        dfs + "; audit: 3 executions (the 1st, 2nd, 4th, 8th, ...), steps moved up to 4 places");
  CHECK(detail({"--audit-every", "1", "--audit-distance", "8"}) ==
        dfs + "; audit: 6 executions (every one), steps moved up to 8 places");
  // The 1st and the 5th.
  CHECK(detail({"--audit-every", "5", "--audit-distance", "1"}) ==
        dfs + "; audit: 2 executions (the 1st and every 5th), steps moved up to 1 place");
  // Without --check-accesses the checks run and nothing is sampled: the detail says nothing of it.
  {
    const auto r = run_cli({"check", declared, "--out", tmp / "out", "--json"}, models);
    REQUIRE(r.code == 0);
    CHECK(nlohmann::json::parse(r.out)["scenarios"][0]["detail"] == dfs);
  }
  // --check-accesses and --no-check-accesses together are refused.
  CHECK(run_cli({"check", declared, "--check-accesses", "--no-check-accesses"}, models).code ==
        2);
  // The text output states it on the search's line.
  const auto text = run_cli({"check", declared, "--check-accesses", "--out", tmp / "out"}, models);
  CHECK(text.code == 0);
  CHECK(text.out.find("6 executions, 24 steps; " + dfs +
                      "; audit: 3 executions (the 1st, 2nd, 4th, 8th, ...), steps moved up to 4 "
                      "places\n") != std::string::npos);
  // A reach of 0 places, or a negative sampling, is refused before any work.
  CHECK(run_cli({"check", declared, "--check-accesses", "--audit-distance", "0"}, models).code ==
        2);
  CHECK(run_cli({"check", declared, "--check-accesses", "--audit-every", "-1"}, models).code ==
        2);
}
