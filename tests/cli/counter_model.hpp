// A toy model for the CLI tests: N workers each increment a shared counter K times (a read step
// then a write step), with or without a lock. Without the lock an update can be lost (a
// violation of "counter == total"); with it the scenario holds. The "deadlock" variant makes two
// workers take two locks in opposite orders; "fail_on" makes a worker fail when it reads a value.
//
// Scenario section "counter": {"workers": 2, "increments": 1, "lock": false,
//                              "deadlock": false, "fail_on": -1, "total": workers * increments}
// ("total" is what the final check expects: changing it changes no step, only the verdict.)
#pragma once

#include "explorer/core/json_reader.hpp"
#include "explorer/model_api/model_driver.hpp"
#include "explorer/core/primitives.hpp"

#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace interleave::test {

struct CounterConfig {
  int workers = 2;
  int increments = 1;
  bool lock = false;
  bool deadlock = false;
  int fail_on = -1;  // a worker that reads this value fails (-1: never)
  int total = -1;    // expected final value (-1: workers * increments)
};

inline Program counter_program(const CounterConfig& cfg) {
  return [cfg](Execution& ex) {
    auto& counter = ex.make<Shared<int>>(ex, "counter", 0);
    auto& lock = ex.make<Mutex>(ex, "lock");
    auto& other = ex.make<Mutex>(ex, "other");
    auto& inside = ex.make<int>(0);  // workers between their read and their write
    auto& done = ex.make<int>(0);
    for (int w = 0; w < cfg.workers; ++w) {
      const bool reversed = cfg.deadlock && w % 2 == 1;
      ex.spawn("W" + std::to_string(w), [&, cfg, reversed](Actor& a) {
        for (int i = 0; i < cfg.increments; ++i) {
          if (cfg.deadlock) {
            (reversed ? other : lock).lock(a, "L1");
            (reversed ? lock : other).lock(a, "L2");
          } else if (cfg.lock) {
            lock.lock(a, "L");
          }
          const int v = counter.read(a, "R");
          if (inside > 0) a.cover("both inside");
          ++inside;
          if (v == cfg.fail_on) a.fail("read the forbidden value " + std::to_string(v));
          counter.write(a, "W", v + 1);
          --inside;
          if (cfg.deadlock) {
            (reversed ? lock : other).unlock(a, "U2");
            (reversed ? other : lock).unlock(a, "U1");
          } else if (cfg.lock) {
            lock.unlock(a, "U");
          }
        }
        if (++done == cfg.workers) a.cover("all done");
      });
    }
    const int total = cfg.total >= 0 ? cfg.total : cfg.workers * cfg.increments;
    ex.invariant("counter <= total", {counter.id()}, [&counter, total]() -> Check {
      if (counter.peek() <= total) return std::nullopt;
      return "counter is " + std::to_string(counter.peek());
    });
    ex.final_check("counter == total", [&counter, total]() -> Check {
      if (counter.peek() == total) return std::nullopt;
      return "counter is " + std::to_string(counter.peek()) + ", expected " + std::to_string(total);
    });
    ex.state_dump([&counter, &lock]() -> nlohmann::json {
      return {{"counter", counter.peek()}, {"lock", lock.owner() == kNoActor ? "free" : "held"}};
    });
  };
}

// A scenario's counter section, read once.
class CounterModelConfig final : public ModelConfig {
 public:
  CounterModelConfig(CounterConfig cfg, nlohmann::json scenario)
      : cfg_(cfg), scenario_(std::move(scenario)) {}
  ModelInstance instantiate() const override {
    ModelInstance m;
    m.program = counter_program(cfg_);
    m.invariants = {"counter <= total", "counter == total", "deadlock", "actor_failure"};
    m.coverage_goals = {"all done", "both inside"};
    return m;
  }
  /// Owners: the workers, each slice one worker alone (no deadlock, no failing read).
  /// Deliberately unsound (a slice keeps the scenario's total, so a slice of "locked" violates
  /// "counter == total" where the scenario holds): a slice counterexample that does not lift,
  /// for the tests of that path.
  std::optional<DecompositionOffer> decompose() const override {
    CounterConfig one = cfg_;
    if (one.total < 0) one.total = cfg_.workers * cfg_.increments;
    one.workers = 1;
    one.deadlock = false;
    one.fail_on = -1;
    OwnerDecomposition d;
    nlohmann::json document = scenario_;
    document["counter"]["workers"] = 1;
    document["counter"]["total"] = one.total;
    for (int w = 0; w < cfg_.workers; ++w)
      d.slices.push_back({"W" + std::to_string(w), "worker", "one worker", counter_program(one),
                          document});
    d.actor_owner = [](std::string_view actor) { return std::string(actor); };
    d.object_owner = [](std::string_view) { return std::string(); };
    d.argument = "none: a test model";
    d.owners_plural = "workers";
    DecompositionOffer offer;
    offer.decomposition = std::move(d);
    return offer;
  }

 private:
  CounterConfig cfg_;
  nlohmann::json scenario_;
};

class CounterDriver final : public ModelDriver {
 public:
  std::string name() const override { return "counter"; }
  std::string description() const override {
    return "workers incrementing a shared counter, with or without a lock";
  }
  std::vector<std::string> sections() const override { return {"counter"}; }
  /// The note a worker's write step makes ("write counter = 2"), as a logged line.
  const LogPatternTable& log_patterns() const override {
    static const LogPatternTable table({LogPattern{
        "counter_written", "INFO", "Counter", "hypothetical: the note of the test model's write",
        "write counter = {value:int}", "write", 1}});
    return table;
  }
  std::shared_ptr<const ModelConfig> parse(const nlohmann::json& scenario,
                                           const std::string& file) const override {
    const JsonReader root(scenario, file);
    const JsonReader c = root.at("counter");
    c.expect_keys({"preset", "workers", "increments", "lock", "deadlock", "fail_on", "total"});
    CounterConfig cfg;
    cfg.workers = static_cast<int>(c.int_or("workers", 2, 1, 6));
    cfg.increments = static_cast<int>(c.int_or("increments", 1, 1, 5));
    // A preset sets the lock (the knob given beside it wins).
    const bool preset_lock = c.enum_or("preset", "racy", {"racy", "locked"}) == "locked";
    cfg.lock = c.bool_or("lock", preset_lock);
    cfg.deadlock = c.bool_or("deadlock", false);
    cfg.fail_on = static_cast<int>(c.int_or("fail_on", -1, -1, 100));
    cfg.total = static_cast<int>(c.int_or("total", -1, -1, 100));
    if (cfg.deadlock && cfg.workers < 2)
      c.at("deadlock").fail("a deadlock needs at least 2 workers (/counter/workers is 1)");
    return std::make_shared<CounterModelConfig>(cfg, scenario);
  }
  ModelCatalog catalog() const override {
    ModelCatalog c;
    c.knob_section = "counter";
    c.knobs = {{.name = "workers", .type = "integer", .default_value = 2, .min = 1, .max = 6},
               {.name = "increments", .type = "integer", .default_value = 1, .min = 1, .max = 5},
               {.name = "lock", .type = "boolean", .default_value = false}};
    c.presets = {{"racy", "no lock", false, nlohmann::json::array(), {{"lock", false}}},
                 {"locked", "a lock around each increment", false, nlohmann::json::array(),
                  {{"lock", true}}}};
    c.default_preset = "racy";
    c.properties = {{"counter <= total", "", ""}, {"counter == total", "", ""}};
    c.goals = {{"all done", "", ""}, {"both inside", "", ""}};
    return c;
  }
};

inline ModelRegistry counter_registry() {
  ModelRegistry r;
  r.add(std::make_unique<CounterDriver>());
  return r;
}

}  // namespace interleave::test
