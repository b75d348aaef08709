// The seam between the generic command line and a concrete model. A model (e.g. the StarRocks
// temporary-table world in model/) implements ModelDriver; the CLI reads a scenario file, checks
// its generic envelope (name, description, model, exploration, expect) and hands the document to
// the driver named by its "model" key, which reads its own sections and builds the program.
#pragma once

#include "explorer/core/constraints.hpp"
#include "explorer/search/decomposition.hpp"
#include "explorer/core/execution.hpp"
#include "explorer/core/input_error.hpp"
#include "explorer/evidence/log_pattern.hpp"
#include "explorer/model_api/model_catalog.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace interleave {

/// A program built from a scenario, with what the scenario's expectation may refer to.
struct ModelInstance {
  Program program;
  /// Every property this program can report: the model's, and the engine's built-in ones
  /// (builtin_properties(): instantiate() below adds them). An expectation naming anything else
  /// is an input error.
  std::vector<std::string> invariants;
  /// Every coverage goal this program can reach (Execution::cover).
  std::vector<std::string> coverage_goals;
  /// How many times an hour the situation the program models arises (e.g. task runs started an
  /// hour), when the scenario gives it: a simulation turns a probability per run into a rate.
  /// 0: not given.
  double runs_per_hour = 0;
};

/// A scenario's model sections, read and checked once (ModelDriver::parse). The program and the
/// rest of what a run asks about the scenario (its decomposition, the names its ordering
/// constraints may use) come from it, without reading the document again.
class ModelConfig {
 public:
  virtual ~ModelConfig() = default;
  /// Builds the program, with the model's own properties (the free instantiate() below adds the
  /// engine's).
  virtual ModelInstance instantiate() const = 0;
  /// The decomposition of the program by owners (explorer/search/decomposition.hpp); nullopt, the
  /// default, for a model that declares no owners.
  virtual std::optional<DecompositionOffer> decompose() const { return std::nullopt; }
  /// What a scenario's ordering constraints ("constraints", explorer/core/constraints.hpp) are checked
  /// against before anything runs: every actor name the program can create, every step label it
  /// can announce (either list empty: not known, not checked; the default). Asked only for a
  /// scenario that states constraints.
  virtual ConstraintVocabulary constraint_vocabulary() const { return {}; }
};

/// The config of a model that has nothing to offer but its program: the instance, built when
/// the scenario is read.
class InstanceConfig final : public ModelConfig {
 public:
  explicit InstanceConfig(ModelInstance instance) : instance_(std::move(instance)) {}
  ModelInstance instantiate() const override { return instance_; }

 private:
  ModelInstance instance_;
};

class ModelDriver {
 public:
  virtual ~ModelDriver() = default;
  /// The value of the scenario's "model" key, e.g. "starrocks-temp-tables".
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// Top-level scenario keys this model owns (e.g. "cluster", "actors", "policy").
  virtual std::vector<std::string> sections() const = 0;
  /// Reads the model's sections of the scenario document (only those) into its config. Throws
  /// InputError naming `file` and the JSON path for anything wrong: every check of the sections
  /// is made here, before anything runs.
  virtual std::shared_ptr<const ModelConfig> parse(const nlohmann::json& scenario,
                                                   const std::string& file) const = 0;
  /// The lines the model's steps log, as the modelled program formats them (explorer/evidence/log_pattern.hpp):
  /// the table the model renders those steps' notes from, and what `show --format log` renders
  /// a trace's notes as. A model that logs nothing keeps this default, an empty table.
  virtual const LogPatternTable& log_patterns() const {
    static const LogPatternTable none({});
    return none;
  }
  /// What the model declares about itself (explorer/model_api/model_catalog.hpp): its knobs and the
  /// scenario section that holds them, its presets, its properties and coverage goals. `list`
  /// shows it; `--preset`, `matrix` and the gate work from it.
  virtual ModelCatalog catalog() const = 0;
};

/// config.instantiate(), with the engine's built-in properties (builtin_properties()) added to
/// the instance's properties when the model does not list them.
inline ModelInstance instantiate(const ModelConfig& config) {
  ModelInstance m = config.instantiate();
  for (const Property& b : builtin_properties())
    if (std::find(m.invariants.begin(), m.invariants.end(), b.name) == m.invariants.end())
      m.invariants.push_back(b.name);
  return m;
}

/// The program of a scenario document, read by `driver` (parse, then instantiate above).
inline ModelInstance instantiate(const ModelDriver& driver, const nlohmann::json& scenario,
                                 const std::string& file) {
  return instantiate(*driver.parse(scenario, file));
}

/// config.decompose(), or a refusal naming the model when it declares no owners.
inline DecompositionOffer decompose(const ModelDriver& driver, const ModelConfig& config) {
  if (std::optional<DecompositionOffer> offer = config.decompose()) return std::move(*offer);
  DecompositionOffer none;
  none.refusal = "the model '" + driver.name() + "' declares no owners to decompose by";
  none.refusal_path = "/model";
  return none;
}

/// The models a CLI knows, in registration order.
class ModelRegistry {
 public:
  void add(std::unique_ptr<ModelDriver> driver) { drivers_.push_back(std::move(driver)); }
  const ModelDriver* find(const std::string& name) const {
    for (const auto& d : drivers_)
      if (d->name() == name) return d.get();
    return nullptr;
  }
  const std::vector<std::unique_ptr<ModelDriver>>& all() const { return drivers_; }

 private:
  std::vector<std::unique_ptr<ModelDriver>> drivers_;
};

}  // namespace interleave
