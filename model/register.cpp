// The composition root of the models: every model folder of model/ registers its driver here.
#include "model/register.hpp"

#include "model/starrocks/driver.hpp"

namespace interleave {

void register_models(ModelRegistry& registry) {
  registry.add(model::make_starrocks_driver());
}

}  // namespace interleave
