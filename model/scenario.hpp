// Reading the model's scenario sections ("cluster", "actors", "policy") into a WorldConfig, with
// exact errors (file + JSON path), and the model's catalog (presets, knobs, properties, goals).
// The JSON format is documented in docs/model.md and model/starrocks-temp-tables.schema.json.
#pragma once

#include "model/config.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace interleave::model {

/// Reads the sections "cluster", "actors" and "policy" of `scenario` (other top-level keys are
/// the CLI's and are ignored here). Throws InputError naming `file` and the JSON path.
WorldConfig parse_world(const nlohmann::json& scenario, const std::string& file);

/// The knobs of a policy as they are written in a scenario's "policy" section.
nlohmann::json policy_to_json(const Policy& p);

/// What `interleave list` shows for this model.
nlohmann::json model_catalog();

}  // namespace interleave::model
