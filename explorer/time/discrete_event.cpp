#include "explorer/time/discrete_event.hpp"

#include <boost/random/exponential_distribution.hpp>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace interleave {

namespace {

// Rng as a Boost.Random engine.
struct Engine {
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() { return rng.next(); }
  Rng& rng;
};

Micros clamp_to(double x, const Duration& d) {
  if (std::isnan(x)) return d.min;
  const double hi = d.max == kForever ? 9.0e18 : static_cast<double>(d.max);
  const double v = std::clamp(std::round(x), static_cast<double>(d.min), hi);
  return static_cast<Micros>(v);
}

// A draw from a law truncated to [min, max]: redrawn while outside (at most 64 times), then
// clamped.
template <class Dist>
Micros truncated(Dist dist, Engine& e, const Duration& d) {
  double x = 0;
  for (int i = 0; i < 64; ++i) {
    x = dist(e);
    if (x >= static_cast<double>(d.min) && (d.max == kForever || x <= static_cast<double>(d.max)))
      break;
  }
  return clamp_to(x, d);
}

}  // namespace

Micros draw(const Duration& d, Rng& rng) {
  Engine e{rng};
  switch (d.law.kind) {
    case Law::Kind::kNone:
      if (d.max == kForever || d.max == d.min) return d.min;
      return d.min + static_cast<Micros>(rng.below(static_cast<std::uint64_t>(d.max - d.min) + 1));
    case Law::Kind::kFixed:
      return clamp_to(d.law.a, d);
    case Law::Kind::kUniform:
      return clamp_to(boost::random::uniform_real_distribution<double>(d.law.a, d.law.b)(e), d);
    case Law::Kind::kNormal:
      if (!(d.law.b > 0)) return clamp_to(d.law.a, d);  // no spread: the mean
      return truncated(boost::random::normal_distribution<double>(d.law.a, d.law.b), e, d);
    case Law::Kind::kLognormal:
      // Boost's lognormal takes the mean and deviation of the logarithm (m, s).
      if (!(d.law.b > 0)) return clamp_to(std::exp(d.law.a), d);
      return truncated(boost::random::lognormal_distribution<double>(d.law.a, d.law.b), e, d);
    case Law::Kind::kExponential:
      if (!(d.law.a > 0)) return d.min;  // a mean of 0
      return truncated(boost::random::exponential_distribution<double>(1.0 / d.law.a), e, d);
  }
  return d.min;
}

bool DiscreteEventStrategy::begin_execution() {
  rng_ = Rng(Rng::derive(seed_, run_));
  now_ = 0;
  due_.clear();
  pending_.clear();
  known_.clear();
  times_.clear();
  return true;
}

void DiscreteEventStrategy::lasts(ActorId actor, const Duration& d) {
  if (pending_.size() <= actor) pending_.resize(actor + 1, 0);
  const Micros x = draw(d, rng_);
  pending_[actor] = x > kForever - pending_[actor] ? kForever : pending_[actor] + x;
}

ActorId DiscreteEventStrategy::next_actor(const SchedulingPoint& point) {
  const std::size_t n = point.names.size();
  if (due_.size() < n) {
    due_.resize(n, 0);
    known_.resize(n, 0);
  }
  if (pending_.size() < n) pending_.resize(n, 0);
  auto after = [](Micros t, Micros w) { return w > kForever - t ? kForever : t + w; };
  if (point.step > 0) {
    // The previous step ran at now_: its actor's next step is due when its work ends.
    const ActorId p = point.trace.back().actor;
    due_[p] = after(now_, pending_[p]);
    pending_[p] = 0;
    known_[p] = 1;
  }
  // An actor seen for the first time was spawned by the previous step (or at set-up).
  for (ActorId a = 0; a < n; ++a)
    if (!known_[a] && point.alive.contains(a)) {
      due_[a] = after(now_, pending_[a]);
      pending_[a] = 0;
      known_[a] = 1;
    }
  Micros first = kForever;
  ties_.clear();
  for (ActorId a = 0; a < n; ++a) {
    if (!point.enabled.contains(a)) continue;
    const Micros t = std::max(now_, due_[a]);
    if (t < first) {
      first = t;
      ties_.clear();
    }
    if (t == first) ties_.push_back(a);
  }
  const ActorId chosen = ties_.size() == 1 ? ties_.front() : ties_[rng_.below(ties_.size())];
  now_ = first;
  times_.push_back(now_);
  return chosen;
}

std::optional<std::uint32_t> DiscreteEventStrategy::next_choice(const ChoicePoint& point) {
  return static_cast<std::uint32_t>(rng_.below(point.n));
}

Coverage DiscreteEventStrategy::coverage() const {
  return Coverage{false, "sampled runs in time order (never exhaustive)"};
}

}  // namespace interleave
