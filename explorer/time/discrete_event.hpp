// A sampling run in time order (interleave simulate): every duration an actor gives
// (Actor::lasts) is drawn from its law (explorer/time/timing.hpp: Law) as the actor gives it, and at
// each scheduling point the enabled actor whose next step is due first runs, at
// max(now, its due time): a discrete-event scheduler over virtual time.
//
// An actor's next step is due when the work after its previous step ends (the step's time plus
// the durations drawn for that work); an actor's first step is due when the work before it ends,
// counted from the step that spawned it (the origin for an actor spawned at set-up). An actor
// blocked at its due time runs as soon as it is enabled again (its wait is not bounded). Actors
// due at the same instant are ordered at random (the same law for every such tie), as are the
// choices (Execution::choose). Run `i` of a simulation seeded with `s` draws from
// Rng::derive(s, i) alone: the same runs, whatever thread runs them.
#pragma once

#include "explorer/core/rng.hpp"
#include "explorer/core/strategy.hpp"
#include "explorer/time/timing.hpp"

#include <cstdint>
#include <vector>

namespace interleave {

/// A value of `d` drawn with `rng` (Law says how), within [d.min, d.max].
Micros draw(const Duration& d, Rng& rng);

class DiscreteEventStrategy final : public Strategy, public DurationSampler {
 public:
  explicit DiscreteEventStrategy(std::uint64_t seed) : seed_(seed) {}

  /// The next execution is run `index` of the simulation.
  void set_run(std::uint64_t index) { run_ = index; }

  std::string name() const override { return "simulate"; }
  bool begin_execution() override;
  ActorId next_actor(const SchedulingPoint& point) override;
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override;
  void end_execution(const ExecutionRecord&) override {}
  Coverage coverage() const override;
  std::uint64_t execution_seed() const override { return Rng::derive(seed_, run_); }

  void lasts(ActorId actor, const Duration& d) override;

  /// The time of each step of the last execution, in order (virtual microseconds).
  const std::vector<Micros>& times() const { return times_; }

 private:
  std::uint64_t seed_;
  std::uint64_t run_ = 0;
  Rng rng_{0};
  Micros now_ = 0;
  std::vector<Micros> due_;      // per actor: when its next step is due
  std::vector<Micros> pending_;  // per actor: drawn for the work it is declaring now
  std::vector<char> known_;      // per actor: due_ is set
  std::vector<Micros> times_;
  std::vector<ActorId> ties_;
};

}  // namespace interleave
