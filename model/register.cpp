// The composition root of the models: every model folder of model/ registers its driver here.
#include "model/register.hpp"

#include "model/lease_lock/lease_lock.hpp"
#include "model/starrocks/driver.hpp"

namespace interleave {

void register_models(ModelRegistry& registry) {
  registry.add(model::make_starrocks_driver());
  registry.add(lease_lock::make_lease_lock_driver());
}

}  // namespace interleave
