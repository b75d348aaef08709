// Registration of the models of model/ (one folder each) with the CLI: main.cpp calls
// register_models().
#pragma once

#include "explorer/model_api/model_driver.hpp"

namespace interleave {

/// Adds the driver of every model: "starrocks-temp-tables" (model/starrocks/) and "lease-lock"
/// (model/lease_lock/).
void register_models(ModelRegistry& registry);

}  // namespace interleave
