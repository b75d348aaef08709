// Reading the model's scenario sections ("cluster", "actors", "policy", "timing") into a
// WorldConfig, with exact errors (file + JSON path), and the model's catalog (presets, knobs,
// properties, goals, the timing keys and durations).
// The JSON format is documented in docs/model.md and
// model/starrocks/starrocks-temp-tables.schema.json; the "policy" section is read by the knob table
// (policy.hpp).
#pragma once

#include "explorer/model_api/model_catalog.hpp"
#include "model/starrocks/config.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace interleave::model {

/// Reads the sections "cluster", "actors" and "policy" of `scenario` (other top-level keys are
/// the CLI's and are ignored here). Throws InputError naming `file` and the JSON path.
WorldConfig parse_world(const nlohmann::json& scenario, const std::string& file);

/// The model's catalog (explorer/model_api/model_catalog.hpp): the knobs of "policy", the presets, the
/// properties and goals, and the timing keys and durations `list` shows besides.
ModelCatalog model_catalog();

}  // namespace interleave::model
