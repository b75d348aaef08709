#include "explorer/search/estimate.hpp"

#include "explorer/core/rng.hpp"
#include "explorer/strategies/dpor/dependency.hpp"
#include "explorer/core/strategy.hpp"
#include "explorer/search/runner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <vector>

namespace interleave {

namespace {

// One random descent of the tree: picks uniformly among the branches the search would explore
// and multiplies their numbers into `weight`.
class Probe final : public Strategy {
 public:
  explicit Probe(const EstimateOptions& options)
      : sleep_sets_(options.tree == EstimateOptions::Tree::kSleepSets),
        dependency_(options.all_writes, /*order_invariants=*/true),
        prefix_(options.prefix),
        prefix_sleep_(options.prefix_sleep) {}

  /// After the warm-up, a child whose sleep set holds an actor that no other actor can wake up
  /// (by the footprints seen so far) is known to hold only blocked leaves: it is not a branch.
  bool prune = false;

  void start(std::uint64_t seed) {
    rng_ = Rng(seed);
    weight = 1;
    sleep_ = prefix_sleep_;
    replayed_ = 0;
    configured_ = false;
  }

  std::string name() const override { return "estimate"; }
  bool begin_execution() override { return true; }

  ActorId next_actor(const SchedulingPoint& point) override {
    if (!configured_) {
      configured_ = true;
      if (!dependency_.configure(point.invariants))
        throw ProgramError(
            "the program is not deterministic: its invariants differ between executions");
    }
    if (sleep_sets_) learn(point);
    if (replayed_ < prefix_.size()) return static_cast<ActorId>(prefix_[replayed_++]);
    const ActorSet branches = sleep_sets_ ? point.enabled.minus(sleep_) : point.enabled;
    if (branches.empty()) return kNoActor;  // sleep-set blocked: a leaf that is not a trace
    std::array<ActorId, kMaxActors> list{};
    std::size_t n = 0;
    branches.for_each([&](ActorId a) { list[n++] = a; });
    if (!sleep_sets_) {
      weight *= static_cast<double>(n);
      return list[static_cast<std::size_t>(rng_.below(n))];
    }
    // The order in which the search explores the siblings (any order gives one leaf per trace,
    // the order only changes the blocked leaves): the actors whose next step conflicts with the
    // most pending steps of others first, so that an actor nothing will wake up is put to sleep
    // by few siblings. A function of the node alone, as the estimator requires.
    {
      std::array<std::size_t, kMaxActors> conflicts{};
      for (std::size_t i = 0; i < n; ++i)
        point.alive.for_each([&](ActorId b) {
          if (b != list[i] && dependency_.dependent(*point.pending[list[i]], *point.pending[b]))
            ++conflicts[list[i]];
        });
      std::stable_sort(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(n),
                       [&](ActorId x, ActorId y) { return conflicts[x] > conflicts[y]; });
    }
    // Child i's sleep set: the actors asleep here and the siblings a depth-first search explores
    // before it, less those whose next step depends on the step it takes.
    std::array<ActorSet, kMaxActors> child{};
    std::array<double, kMaxActors> bias{};
    double total = 0;
    std::size_t live = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ActorSet asleep = sleep_;
      for (std::size_t j = 0; j < i; ++j)
        asleep.insert(list[j]);
      const Op& taken = *point.pending[list[i]];
      asleep.for_each([&](ActorId a) {
        if (point.alive.contains(a) && !dependency_.dependent(*point.pending[a], taken))
          child[i].insert(a);
      });
      // Importance sampling: a child with fewer actors asleep is likelier to lead to an
      // execution that is not sleep-set blocked, so it is probed more often (and weighs less):
      // its probability halves per actor asleep in it. A child that holds an actor nothing can
      // wake up holds only blocked leaves: it is not probed at all.
      bias[i] = std::ldexp(1.0, -static_cast<int>(child[i].size()));
      if (prune && doomed(point, child[i])) bias[i] = 0;
      if (bias[i] > 0) ++live;
      total += bias[i];
    }
    if (live == 0) return kNoActor;  // every branch holds only blocked leaves
    const double u = static_cast<double>(rng_.next() >> 11) * 0x1.0p-53 * total;
    std::size_t pick = 0;
    for (double acc = bias[0]; pick + 1 < n && (u >= acc || bias[pick] == 0); acc += bias[++pick]) {
    }
    weight *= total / bias[pick];
    sleep_ = child[pick];
    const ActorId chosen = list[pick];
    return chosen;
  }

  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override {
    if (replayed_ < prefix_.size()) return prefix_[replayed_++];
    weight *= static_cast<double>(point.n);
    return static_cast<std::uint32_t>(rng_.below(point.n));
  }

  void end_execution(const ExecutionRecord& record) override { outcome = record.outcome; }

  // What each actor (by name) was seen to access, over every probe so far.
  void learn(const SchedulingPoint& point) {
    point.alive.for_each([&](ActorId a) {
      auto& fp = footprints_[std::string(point.names[a])];
      for (const Access& x : *point.pending[a])
        if (std::find(fp.begin(), fp.end(), x) == fp.end()) fp.push_back(x);
    });
  }

  // Some actor of `asleep` has a next step that no access seen of any other actor still to run
  // (alive, or not yet spawned) depends on: nothing will wake it up.
  bool doomed(const SchedulingPoint& point, ActorSet asleep) const {
    bool any = false;
    asleep.for_each([&](ActorId s) {
      if (any) return;
      const Op& op = *point.pending[s];
      const std::string_view name = point.names[s];
      bool wakeable = false;
      for (const auto& [other, fp] : footprints_) {
        if (other == name) continue;
        bool finished = false;  // spawned in this execution and no longer alive
        for (std::size_t b = 0; b < point.names.size(); ++b)
          if (point.names[b] == other && !point.alive.contains(static_cast<ActorId>(b)))
            finished = true;
        if (finished) continue;
        for (const Access& x : fp) {
          Op single;
          single.accesses[0] = x;
          single.count = 1;
          if (dependency_.dependent(op, single)) {
            wakeable = true;
            break;
          }
        }
        if (wakeable) break;
      }
      if (!wakeable) any = true;
    });
    return any;
  }

  std::map<std::string, std::vector<Access>, std::less<>> footprints_;


  Coverage coverage() const override { return {}; }
  std::string abandon_reason() const override { return "sleep-set blocked"; }

  double weight = 1;
  Outcome outcome = Outcome::kCompleted;

 private:
  bool sleep_sets_;
  detail::dpor::Dependency dependency_;
  Rng rng_{0};
  ActorSet sleep_;
  std::vector<std::uint32_t> prefix_;
  ActorSet prefix_sleep_;
  std::size_t replayed_ = 0;
  bool configured_ = false;
};

// Mean and standard error of the mean, from sums in long double (the weights span many orders
// of magnitude).
struct Moments {
  long double sum = 0;
  long double squares = 0;
  void add(double x) {
    sum += x;
    squares += static_cast<long double>(x) * x;
  }
  double mean(std::uint64_t n) const { return n == 0 ? 0 : static_cast<double>(sum / n); }
  double error(std::uint64_t n) const {
    if (n < 2) return 0;
    const long double m = sum / n;
    const long double var = (squares - n * m * m) / (n - 1);
    return var <= 0 ? 0 : static_cast<double>(std::sqrt(var / n));
  }
};


// The estimate's look at its probes: probe i descends from Rng::derive(seed, i); the first tenth
// of the probes learn the actors' footprints, the others prune with them.
class Probes final : public LoopObserver {
 public:
  Probes(const EstimateOptions& options, Probe& probe, const ExecutionBuffers& buffers)
      : options_(options), probe_(probe), buffers_(buffers), warmup_(options.probes / 10) {}

  bool next() override {
    if (i_ == options_.probes) return false;
    probe_.prune = i_ >= warmup_;
    probe_.start(Rng::derive(options_.seed, i_));
    ++i_;
    return true;
  }
  void ended(Execution&, Outcome) override {
    ++e.probes;
    e.max_depth = std::max<std::uint64_t>(e.max_depth, buffers_.trace.size());
    const bool blocked = probe_.outcome == Outcome::kAbandoned;
    if (blocked) ++e.blocked_probes;
    if (probe_.outcome == Outcome::kStepBound) ++e.cut_probes;
    all.add(probe_.weight);
    traces.add(blocked ? 0.0 : probe_.weight);
  }

  TreeEstimate e;
  Moments all;
  Moments traces;

 private:
  const EstimateOptions& options_;
  Probe& probe_;
  const ExecutionBuffers& buffers_;
  const std::uint64_t warmup_;
  std::uint64_t i_ = 0;
};

}  // namespace

TreeEstimate estimate_tree(const Program& program, const EstimateOptions& options) {
  RunLimits limits = options;
  limits.max_executions = 0;  // `probes` says how many
  limits.progress_interval = 0;
  Runner runner(program, limits);
  Probe probe(options);
  Probes probes(options, probe, runner.buffers());
  LoopObserver* const observers[] = {&probes};
  runner.loop(probe, ExecutionOptions{}, observers);
  TreeEstimate e = probes.e;
  e.executions = probes.all.mean(e.probes);
  e.executions_error = probes.all.error(e.probes);
  e.traces = probes.traces.mean(e.probes);
  e.traces_error = probes.traces.error(e.probes);
  return e;
}

}  // namespace interleave
