// Helpers shared by the model's tests: small worlds and explorations of them.
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/factory.hpp"
#include "explorer/strategies/random.hpp"
#include "model/starrocks/config.hpp"
#include "model/starrocks/program.hpp"

#include <string>

namespace interleave::model::test {

/// A world with the given policy preset and nothing else (add actors to it).
inline WorldConfig world(const std::string& preset) {
  WorldConfig w;
  w.policy = find_preset(preset).value().policy;
  w.preset = preset;
  return w;
}

inline TaskRunConfig task_run(const std::string& name, bool sync = false,
                              TabletRows rows = TabletRows::kSome) {
  TaskRunConfig t;
  t.name = name;
  t.sync = sync;
  t.tablet_rows = rows;
  return t;
}

inline ClientConfig client(const std::string& name, int frontend = 0, int tables = 1) {
  ClientConfig c;
  c.name = name;
  c.frontend = frontend;
  c.temp_tables = tables;
  return c;
}

/// Exhaustive exploration of the world under `strategy` (DPOR, the engine's default, unless told),
/// in the checked mode: the steps' uses of the clocks, the catalog and the temporary-table
/// manager are held to their declared accesses, and sampled executions are audited.
inline ExplorationResult explore(const WorldConfig& w, bool stop_on_first = true,
                                 std::uint64_t max_executions = 0,
                                 const std::string& strategy = StrategySpec{}.name) {
  ExploreOptions o;
  o.check_accesses = true;
  o.stop_on_first_violation = stop_on_first;
  o.max_executions = max_executions;
  Explorer ex(make_program(w), o);
  auto s = make_strategy(StrategySpec{strategy});
  return ex.explore(*s);
}

}  // namespace interleave::model::test

namespace interleave::model::test {

/// The counterexample reported for `invariant`, or nullptr.
inline const Counterexample* counterexample(const ExplorationResult& r,
                                            std::string_view invariant) {
  for (const auto& c : r.counterexamples)
    if (c.invariant == invariant) return &c;
  return nullptr;
}

/// Executions that reached `goal` (0 if none).
inline std::uint64_t covered(const ExplorationResult& r, std::string_view goal) {
  auto it = r.covered.find(std::string(goal));
  return it == r.covered.end() ? 0 : it->second;
}

/// Index of the first step by `actor` with `label` whose description contains `text`, or
/// steps.size().
inline std::size_t find_step(const std::vector<TraceStep>& steps, const std::string& actor,
                             const std::string& label, const std::string& text = "") {
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].actor == actor && steps[i].label == label &&
        steps[i].what.find(text) != std::string::npos)
      return i;
  return steps.size();
}

/// Every counterexample of `r` replays to the same violation.
inline bool all_replay(const WorldConfig& w, const ExplorationResult& r) {
  Explorer ex(make_program(w));
  for (const Counterexample& c : r.counterexamples) {
    const ReplayReport rep = ex.replay(c.schedule);
    const Violation* v = rep.violation_of(c.invariant);  // perhaps beside others at the end
    if (rep.diverged || v == nullptr || v->message != c.message ||
        rep.steps.size() != c.steps.size())
      return false;
  }
  return true;
}

}  // namespace interleave::model::test

namespace interleave::model::test {

/// A seeded random search past the first violation (one counterexample per property): a quick,
/// deterministic way to establish violations, which are definite. Never gives "holds".
inline ExplorationResult find_violations(const WorldConfig& w, std::uint64_t executions,
                                         std::uint64_t seed = 1) {
  ExploreOptions o;
  o.stop_on_first_violation = false;
  Explorer ex(make_program(w), o);
  RandomStrategy random(seed, executions);
  return ex.explore(random);
}

}  // namespace interleave::model::test
