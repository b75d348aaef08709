// The "starrocks-temp-tables" driver: the scenario sections read by scenario.cpp, the program by
// world.cpp, the catalog by scenario.cpp.
#include "model/starrocks/log_patterns.hpp"
#include "model/starrocks/driver.hpp"

#include "model/starrocks/decomposition.hpp"
#include "model/starrocks/program.hpp"
#include "model/starrocks/scenario.hpp"
#include "model/starrocks/spawn_plan.hpp"

namespace interleave::model {

namespace {

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
  ModelInstance instantiate(const nlohmann::json& scenario,
                            const std::string& file) const override {
    return make_instance(parse_world(scenario, file));
  }
  DecompositionOffer decompose(const nlohmann::json& scenario,
                               const std::string& file) const override {
    return decompose_by_owners(parse_world(scenario, file), scenario);
  }
  ConstraintVocabulary constraint_vocabulary(const nlohmann::json& scenario,
                                             const std::string& file) const override {
    ConstraintVocabulary v;
    v.actors = SpawnPlan(parse_world(scenario, file)).names();
    return v;
  }
  const LogPatternTable& log_patterns() const override { return starrocks_log_patterns(); }
  ModelCatalog catalog() const override { return model_catalog(); }
};

}  // namespace

std::unique_ptr<ModelDriver> make_starrocks_driver() {
  return std::make_unique<StarRocksTempTablesDriver>();
}

}  // namespace interleave::model
