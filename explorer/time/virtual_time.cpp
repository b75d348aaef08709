#include "explorer/time/virtual_time.hpp"

namespace interleave {

void VirtualTime::start(bool tracing, DurationSampler* sampler) {
  record_.clear();
  record_.timed = true;
  times_.clear();
  tracing_ = tracing;
  sampler_ = sampler;
}

void VirtualTime::lasts(ActorId actor, std::int32_t step, const Duration& d) {
  if (sampler_ != nullptr) sampler_->lasts(actor, d);
  if (step < 0) {
    if (record_.start.size() <= actor) record_.start.resize(actor + 1u);
    record_.start[actor].add(d);
    return;
  }
  const auto i = static_cast<std::size_t>(step);
  if (record_.work.size() <= i) record_.work.resize(i + 1);
  record_.work[i].add(d);
}

void VirtualTime::ended_step(ActorId actor, std::size_t step, const Duration* default_work) {
  if (default_work == nullptr) return;
  // The step gave no duration of its own: it lasts the actor's default.
  std::vector<detail::Work>& work = record_.work;
  if (work.size() <= step) work.resize(step + 1);
  if (!work[step].given) {
    work[step].add(*default_work);
    if (sampler_ != nullptr) sampler_->lasts(actor, *default_work);
  }
}

bool VirtualTime::settle(std::span<const Event> trace, std::span<const std::int32_t> spawned_at,
                         std::span<const char> decisive) {
  record_.start.resize(spawned_at.size());
  record_.spawned_at.assign(spawned_at.begin(), spawned_at.end());
  graph_.build(trace, record_, decisive);
  const bool feasible = graph_.feasible();
  if (tracing_ && feasible) times_ = graph_.earliest();
  return feasible;
}

}  // namespace interleave
