#include "explorer/strategies/pct.hpp"

#include <stdexcept>

namespace interleave {

namespace {
// Initial priorities are above every lowered one: the high bit set, then random bits.
constexpr std::uint64_t kInitial = std::uint64_t{1} << 63;
}  // namespace

PctStrategy::PctStrategy(Options options) : options_(options), steps_(options.steps) {
  if (options_.depth == 0) throw std::invalid_argument("pct: depth must be at least 1");
  if (options_.executions == 0 && options_.only_seed == 0)
    throw std::invalid_argument("pct: executions must be at least 1");
}

bool PctStrategy::begin_execution() {
  if (options_.only_seed != 0) {
    if (started_ > 0) return false;
    execution_seed_ = options_.only_seed;
  } else {
    if (started_ >= options_.executions) return false;
    execution_seed_ = Rng::derive(options_.seed, started_);
  }
  ++started_;
  rng_ = Rng(execution_seed_);
  priority_.assign(kMaxActors, 0);
  change_points_.clear();
  // Change points: d - 1 steps drawn uniformly from [1, k] (none while k is still unknown).
  if (steps_ > 0)
    for (std::uint32_t i = 0; i + 1 < options_.depth; ++i)
      change_points_.push_back(1 + static_cast<std::uint32_t>(rng_.below(steps_)));
  return true;
}

ActorId PctStrategy::next_actor(const SchedulingPoint& point) {
  // Actors get their random priority when first seen (spawned actors too).
  point.alive.for_each([&](ActorId a) {
    if (priority_[a] == 0) priority_[a] = kInitial | (rng_.next() >> 1);
  });
  if (point.alive.size() > max_actors_) max_actors_ = point.alive.size();
  auto highest = [&] {
    ActorId best = kNoActor;
    point.enabled.for_each([&](ActorId a) {
      if (best == kNoActor || priority_[a] > priority_[best]) best = a;
    });
    return best;
  };
  ActorId a = highest();
  // Step number point.step + 1 is about to run: at the i-th change point, the actor about to run
  // drops to priority d - 1 - i.
  for (std::size_t i = 0; i < change_points_.size(); ++i) {
    if (change_points_[i] == point.step + 1) {
      priority_[a] = options_.depth - 1 - i;
      a = highest();
    }
  }
  return a;
}

std::optional<std::uint32_t> PctStrategy::next_choice(const ChoicePoint& point) {
  return static_cast<std::uint32_t>(rng_.below(point.n));
}

void PctStrategy::end_execution(const ExecutionRecord& record) {
  if (steps_ == 0)
    steps_ = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(record.trace.size()));
}

Coverage PctStrategy::coverage() const {
  return {false, std::to_string(started_) + " PCT executions (depth " +
                     std::to_string(options_.depth) + ", change points among the first " +
                     std::to_string(steps_) + " steps, seed " + std::to_string(options_.seed) +
                     "); a random search never proves that a property holds"};
}

}  // namespace interleave
