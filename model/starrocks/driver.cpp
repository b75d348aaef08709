// The "starrocks-temp-tables" driver: the scenario sections read by scenario.cpp, the program by
// world.cpp, the catalog by scenario.cpp.
#include "model/starrocks/log_patterns.hpp"
#include "model/starrocks/driver.hpp"

#include "model/starrocks/decomposition.hpp"
#include "model/starrocks/program.hpp"
#include "model/starrocks/scenario.hpp"
#include "model/starrocks/spawn_plan.hpp"

#include <memory>
#include <utility>

namespace interleave::model {

namespace {

// A scenario's world, read once: the program, the decomposition by owners (whose slices are
// scenario documents of their own, made from this one) and the actor names of the spawn plan.
class StarRocksConfig final : public ModelConfig {
 public:
  StarRocksConfig(WorldConfig world, nlohmann::json scenario)
      : world_(std::move(world)), scenario_(std::move(scenario)) {}
  ModelInstance instantiate() const override { return make_instance(world_); }
  std::optional<DecompositionOffer> decompose() const override {
    return decompose_by_owners(world_, scenario_);
  }
  ConstraintVocabulary constraint_vocabulary() const override {
    ConstraintVocabulary v;
    v.actors = SpawnPlan(world_).names();
    return v;
  }

 private:
  WorldConfig world_;
  nlohmann::json scenario_;
};

class StarRocksTempTablesDriver final : public ModelDriver {
 public:
  std::string name() const override { return "starrocks-temp-tables"; }
  std::string description() const override {
    return "StarRocks TemporaryTableCleaner racing scheduler TaskRuns (issue 79294, PR 79339): "
           "cleaner, TaskRunScheduler, recursive-CTE TaskRuns, CN tablet sinks, client sessions, "
           "follower replay";
  }
  std::vector<std::string> sections() const override {
    return {"cluster", "actors", "policy", "timing"};
  }
  std::shared_ptr<const ModelConfig> parse(const nlohmann::json& scenario,
                                           const std::string& file) const override {
    return std::make_shared<StarRocksConfig>(parse_world(scenario, file), scenario);
  }
  const LogPatternTable& log_patterns() const override { return starrocks_log_patterns(); }
  ModelCatalog catalog() const override { return model_catalog(); }
};

}  // namespace

std::unique_ptr<ModelDriver> make_starrocks_driver() {
  return std::make_unique<StarRocksTempTablesDriver>();
}

}  // namespace interleave::model
