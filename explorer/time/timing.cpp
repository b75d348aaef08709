#include "explorer/time/timing.hpp"

#include <algorithm>
#include <array>

namespace interleave {

std::string format_seconds(Micros t) {
  if (t == kForever) return "forever";
  std::string sign;
  if (t < 0) {
    sign = "-";
    t = -t;
    if (t == kForever) return "-forever";
  }
  std::string frac = std::to_string(t % 1'000'000);
  frac.insert(0, 6 - frac.size(), '0');
  while (frac.size() > 3 && frac.back() == '0')
    frac.pop_back();
  return sign + std::to_string(t / 1'000'000) + "." + frac + "s";
}

void TimingGraph::build(std::span<const Event> trace, const TimingRecord& timing,
                        std::span<const char> keep) {
  const auto n = static_cast<std::int32_t>(trace.size());
  steps_ = n;
  nodes_ = n + 1;
  kept_.assign(keep.begin(), keep.end());
  kept_.resize(trace.size(), keep.empty() ? 1 : 0);
  edges_.clear();
  checked_ = false;
  for (auto& h : by_object_)
    h.clear();
  last_of_actor_.assign(timing.start.size(), -1);
  auto node = [](std::int32_t step) { return step + 1; };  // -1 (the origin) is node 0
  static const detail::Work kUntimed{};
  auto work_of_step = [&](std::int32_t i) -> const Duration& {
    return static_cast<std::size_t>(i) < timing.work.size()
               ? timing.work[static_cast<std::size_t>(i)].d
               : kUntimed.d;
  };

  for (std::int32_t j = 0; j < n; ++j) {
    const Event& e = trace[static_cast<std::size_t>(j)];
    // A step left out is constrained by nothing but the origin. (`keep` is closed under the
    // predecessors below, so the steps kept see only kept steps; each of them is at or after the
    // origin through its chain of program order and start, whose minima are never negative.)
    if (!kept_[static_cast<std::size_t>(j)]) {
      add(node(j), 0, 0);
      continue;
    }
    if (e.actor >= last_of_actor_.size()) last_of_actor_.resize(e.actor + 1u, -1);
    const std::int32_t prev = last_of_actor_[e.actor];
    // Program order, or the actor's start after its spawn.
    const std::int32_t from = prev >= 0                            ? prev
                              : e.actor < timing.spawned_at.size() ? timing.spawned_at[e.actor]
                                                                   : -1;
    const Duration& d = prev >= 0                       ? work_of_step(prev)
                        : e.actor < timing.start.size() ? timing.start[e.actor].d
                                                        : kUntimed.d;
    add(node(j), node(from), -d.min);
    if (d.max != kForever && !e.may_wait) add(node(from), node(j), d.max);
    // A join: after the joined actor's last step and its work.
    if (prev >= 0 && e.hb_pred >= 0) add(node(j), node(e.hb_pred), -work_of_step(e.hb_pred).min);
    last_of_actor_[e.actor] = j;
    // Conflicting steps of other actors, in execution order: per other actor only its latest
    // conflicting step (its earlier ones precede that one by program order, whose minima are
    // never negative). Each object keeps the latest step of each (actor, kind) that touched it.
    ActorSet linked;
    std::array<std::int32_t, kMaxActors> latest{};  // per actor in `linked`
    for (const Access& x : e.op) {
      if (x.object >= by_object_.size()) by_object_.resize(static_cast<std::size_t>(x.object) + 1);
      for (const Touch& t : by_object_[x.object]) {
        if (t.actor == e.actor || !kinds_conflict(t.kind, x.kind)) continue;
        if (!linked.contains(t.actor)) {
          linked.insert(t.actor);
          latest[t.actor] = t.step;
        } else if (latest[t.actor] < t.step) {
          latest[t.actor] = t.step;
        }
      }
    }
    linked.for_each([&](ActorId b) { add(node(j), node(latest[b]), 0); });
    for (const Access& x : e.op) {
      auto& touches = by_object_[x.object];
      auto it = std::find_if(touches.begin(), touches.end(), [&](const Touch& t) {
        return t.actor == e.actor && t.kind == x.kind;
      });
      if (it == touches.end())
        touches.push_back({e.actor, x.kind, j});
      else
        it->step = j;
    }
  }
}

bool TimingGraph::distances(std::int32_t target, bool to_target, std::vector<Micros>& d) const {
  d.assign(static_cast<std::size_t>(nodes_), kForever);
  d[static_cast<std::size_t>(target)] = 0;
  // Bellman-Ford: at most nodes_ - 1 rounds change something unless there is a negative cycle.
  // The edges are added step by step: an edge to an earlier step (a minimum) settles in a pass in
  // insertion order, one to a later step (a maximum) in a pass in reverse order, so the passes
  // alternate; any order per round keeps Bellman-Ford's bound.
  // A negative cycle is found early: after each round that changed something, the nodes' last
  // improving neighbours (the predecessor graph) are walked, and a cycle among them is a negative
  // cycle (a cycle of the predecessor graph of Bellman-Ford always has a negative weight), which
  // usually shows within a few rounds rather than after nodes_ of them.
  thread_local std::vector<std::int32_t> parent;
  thread_local std::vector<std::int32_t> seen;
  parent.assign(static_cast<std::size_t>(nodes_), -1);
  for (std::int32_t round = 0; round < nodes_; ++round) {
    bool changed = false;
    const bool reverse = round % 2 == 1;
    for (std::size_t k = 0; k < edges_.size(); ++k) {
      const Edge& e = edges_[reverse ? edges_.size() - 1 - k : k];
      // to_target: d[u] = dist(u -> target) relaxed along u -> v; else d[v] = dist(target -> v).
      const std::size_t u = static_cast<std::size_t>(to_target ? e.from : e.to);
      const std::size_t v = static_cast<std::size_t>(to_target ? e.to : e.from);
      if (d[v] == kForever) continue;
      const Micros cand = d[v] + e.w;
      if (cand < d[u]) {
        d[u] = cand;
        parent[u] = static_cast<std::int32_t>(v);
        changed = true;
      }
    }
    if (!changed) return true;
    // Walk the predecessor graph from every node; seen[x] is the walk that reached x first.
    seen.assign(static_cast<std::size_t>(nodes_), -1);
    for (std::int32_t start = 0; start < nodes_; ++start) {
      std::int32_t x = start;
      while (x >= 0 && seen[static_cast<std::size_t>(x)] < 0) {
        seen[static_cast<std::size_t>(x)] = start;
        x = parent[static_cast<std::size_t>(x)];
      }
      if (x >= 0 && seen[static_cast<std::size_t>(x)] == start) return false;
    }
  }
  return false;
}

bool TimingGraph::feasible() {
  if (!checked_) {
    // Every node reaches the origin (an edge to it from each step), so a cycle anywhere shows as
    // distances to the origin that keep shrinking.
    feasible_ = distances(0, true, dist_);
    checked_ = true;
  }
  return feasible_;
}

std::vector<Micros> TimingGraph::earliest() {
  std::vector<Micros> t;
  if (!feasible()) return t;
  for (std::int32_t v = 1; v <= steps_; ++v)
    t.push_back(kept_[static_cast<std::size_t>(v - 1)] ? -dist_[static_cast<std::size_t>(v)] : -1);
  return t;
}

std::pair<Micros, Micros> TimingGraph::window(std::size_t a, std::size_t b) {
  std::vector<Micros> from_a;
  std::vector<Micros> to_a;
  const auto na = static_cast<std::int32_t>(a + 1);
  const auto nb = static_cast<std::size_t>(b + 1);
  distances(na, false, from_a);  // dist(a -> v): the greatest t_v - t_a
  distances(na, true, to_a);     // dist(v -> a): minus the least t_v - t_a
  const Micros hi = from_a[nb];
  const Micros lo = to_a[nb] == kForever ? -kForever : -to_a[nb];
  return {lo, hi};
}

std::optional<std::size_t> find_step(std::span<const Event> trace,
                                     std::span<const std::string_view> actor_names,
                                     const StepSelector& selector) {
  std::uint32_t seen = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const Event& e = trace[i];
    if (std::string_view(e.op.label) != selector.label) continue;
    if (!selector.actor.empty() &&
        (e.actor >= actor_names.size() || actor_names[e.actor] != selector.actor))
      continue;
    if (++seen == selector.occurrence) return i;
  }
  return std::nullopt;
}

void measure_window(TimingGraph& graph, std::span<const Event> trace,
                    std::span<const std::string_view> actor_names, const TimingWindow& window,
                    WindowBounds& bounds) {
  const auto a = find_step(trace, actor_names, window.from);
  const auto b = find_step(trace, actor_names, window.to);
  if (!a || !b || !graph.feasible()) {
    ++bounds.missing;
    return;
  }
  const auto [lo, hi] = graph.window(*a, *b);
  bounds.least = std::min(bounds.least, lo);
  bounds.greatest = std::max(bounds.greatest, hi);
  ++bounds.executions;
}

std::string describe(const WindowBounds& b) {
  if (b.executions == 0)
    return "no violating execution ran both steps" +
           (b.missing > 0 ? " (" + std::to_string(b.missing) + " lacked one)" : std::string());
  std::string out =
      "at least " + format_seconds(b.least) + ", at most " +
      (b.greatest == kForever ? std::string("unbounded") : format_seconds(b.greatest)) + " over " +
      std::to_string(b.executions) + " violating execution(s)";
  if (b.missing > 0) out += " (" + std::to_string(b.missing) + " more lacked a step)";
  return out;
}

}  // namespace interleave
