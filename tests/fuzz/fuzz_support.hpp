// What the fuzz targets share: the models they read scenarios for (the shipped ones and the
// counter model of the CLI tests), and the rule of a finding. An input the readers reject must be
// rejected with InputError (exit 2 in the CLI); any other exception escapes
// LLVMFuzzerTestOneInput, which libFuzzer reports as a crash (an uncaught exception aborts), as it
// does an abort or a sanitizer report.
#pragma once

#include "explorer/model_api/model_driver.hpp"
#include "model/register.hpp"
#include "tests/cli/counter_model.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace interleave::fuzz {

inline const ModelRegistry& models() {
  static const ModelRegistry registry = [] {
    ModelRegistry r;
    register_models(r);
    r.add(std::make_unique<test::CounterDriver>());
    return r;
  }();
  return registry;
}

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace interleave::fuzz
