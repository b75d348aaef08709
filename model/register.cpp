#include "model/register.hpp"

#include "model/scenario.hpp"
#include "model/world.hpp"

#include <memory>

namespace interleave {

namespace {

/// The StarRocks temporary-table world behind the generic CLI: owns the scenario sections
/// "cluster", "actors" and "policy".
class StarRocksTempTablesDriver final : public ModelDriver {
 public:
  std::string name() const override { return "starrocks-temp-tables"; }
  std::string description() const override {
    return "StarRocks TemporaryTableCleaner racing scheduler TaskRuns (issue 79294, PR 79339): "
           "cleaner, TaskRunScheduler, recursive-CTE TaskRuns, CN tablet sinks, client sessions, "
           "follower replay";
  }
  std::vector<std::string> sections() const override { return {"cluster", "actors", "policy"}; }
  ModelInstance instantiate(const nlohmann::json& scenario,
                            const std::string& file) const override {
    return model::make_instance(model::parse_world(scenario, file));
  }
  nlohmann::json catalog() const override { return model::model_catalog(); }
};

}  // namespace

void register_models(ModelRegistry& registry) {
  registry.add(std::make_unique<StarRocksTempTablesDriver>());
}

}  // namespace interleave
