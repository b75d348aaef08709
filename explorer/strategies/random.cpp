#include "explorer/strategies/random.hpp"

namespace interleave {

bool RandomStrategy::begin_execution() {
  if (started_ >= executions_) return false;
  execution_seed_ = Rng::derive(seed_, started_++);
  rng_ = Rng(execution_seed_);
  return true;
}

ActorId RandomStrategy::next_actor(const SchedulingPoint& point) {
  std::uint64_t k = rng_.below(point.enabled.size());
  ActorId a = point.enabled.first();
  while (k-- > 0)
    a = point.enabled.next_after(a);
  return a;
}

std::optional<std::uint32_t> RandomStrategy::next_choice(const ChoicePoint& point) {
  return static_cast<std::uint32_t>(rng_.below(point.n));
}

Coverage RandomStrategy::coverage() const {
  return {false, std::to_string(started_) + " random executions (seed " + std::to_string(seed_) +
                     "); a random search never proves that a property holds"};
}

}  // namespace interleave
