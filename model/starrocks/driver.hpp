// The StarRocks temporary-table world behind the generic CLI: the ModelDriver named
// "starrocks-temp-tables", owning the scenario sections "cluster", "actors" and "policy".
#pragma once

#include "explorer/model_api/model_driver.hpp"

#include <memory>

namespace interleave::model {

std::unique_ptr<ModelDriver> make_starrocks_driver();

}  // namespace interleave::model
