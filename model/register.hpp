// Registration of this directory's models with the CLI: main.cpp calls register_models().
#pragma once

#include "explorer/model_driver.hpp"

namespace interleave {

/// Adds the "starrocks-temp-tables" driver to `registry`.
void register_models(ModelRegistry& registry);

}  // namespace interleave
