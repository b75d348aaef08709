// Virtual time: how long the work between two scheduling points of an actor lasts, and whether an
// execution fits those durations.
//
// A program is timed when one of its actors gives a duration (Actor::lasts). Time is in integer
// microseconds (Micros: no floating point in a verdict). Each step happens at an instant; the work
// an actor does after a step, up to its next scheduling point, lasts a Duration [min, max]. A step
// that gives none lasts [0, forever): the untimed semantics, so a program without durations is
// explored, counted and reported exactly as before.
//
// An execution is timed-feasible when its steps can be given times that keep
//   - program order: an actor's next step comes [min, max] after its step (after its spawn, or
//     the origin for an actor spawned at set-up, for its first step: Actor::lasts before it);
//     for a next step that may wait (wait_until, join, a lock) only the min holds: the time it
//     waits for its condition is not bounded;
//   - a join: at or after the joined actor's last step plus that step's min;
//   - conflicting steps of different actors (the declared accesses, conflicts() in types.hpp) in
//     execution order (the later one at or after the earlier one);
// over the steps that decide the outcome: every step of an execution that ends without a violation
// or with one found at its end (a final check, a deadlock); for a violation in a step, the causal
// past of that step (what it saw: it and every step before it through program order, spawn/join
// and conflicts); for an invariant between steps, the causal past of the violating step and of
// every step that changed what the invariant reads. A step outside that set (one that happened to
// run before the violation, independent of it) and a step not yet taken are not constrained: a
// search that stops at a violation runs a different such set in each interleaving, the causal
// past is the same in all.
// These are difference constraints t_v - t_u <= w over one node per step and an origin; they are
// satisfiable iff their graph has no negative cycle (Bellman-Ford). The graph depends only on the
// partial order of the steps (program order, spawn/join, conflicts), and every relation DPOR
// commutes under contains the declared conflicts, so feasibility is a property of the
// Mazurkiewicz trace: filtering the explored executions keeps DPOR exact.
//
// The times reported with a timed counterexample are the earliest feasible ones: each step at the
// least time any feasible assignment gives it (the pointwise least solution of a difference system
// is itself a solution: it needs no choice and invents no idle time).
#pragma once

#include "explorer/core/constraints.hpp"
#include "explorer/core/duration.hpp"
#include "explorer/core/strategy.hpp"
#include "explorer/core/types.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace interleave {

/// What the timed-feasible violating executions said about a window: over those in which both
/// steps ran, the least and the greatest feasible t_to - t_from (each execution's own bounds,
/// exact from its constraint graph: `least` is the least any of them allows, `greatest` the
/// greatest, kForever when unbounded).
struct WindowBounds {
  Micros least = kForever;
  Micros greatest = -kForever;
  std::uint64_t executions = 0;  ///< violating executions in which both steps ran
  std::uint64_t missing = 0;     ///< violating executions in which one of them did not
  friend bool operator==(const WindowBounds&, const WindowBounds&) = default;
};

/// "20.004s", "0.000001s": a time or a duration in seconds, exact to the microsecond (trailing
/// zeros of the fraction dropped, at least three digits kept).
std::string format_seconds(Micros t);

/// The timing of one execution: what its actors declared (Actor::lasts). Kept in ExecutionBuffers;
/// `timed` is false (and the rest empty) for an untimed execution.
struct TimingRecord {
  bool timed = false;
  std::vector<detail::Work> work;        ///< per step (may be shorter than the trace: not given)
  std::vector<detail::Work> start;       ///< per actor: before its first step
  std::vector<std::int32_t> spawned_at;  ///< per actor: the step that spawned it, -1 at set-up

  void clear() {
    timed = false;
    work.clear();
    start.clear();
    spawned_at.clear();
  }
};

/// The constraint graph of a timed execution (see the top of this file). Node 0 is the origin,
/// node i + 1 step i.
class TimingGraph {
 public:
  /// Builds the graph of `trace` under `timing` (reusing this object's storage), over the steps
  /// `keep` marks (all when it is empty); the others are constrained by nothing but the origin.
  void build(std::span<const Event> trace, const TimingRecord& timing,
             std::span<const char> keep = {});
  /// A node of the caller's own, after the origin and the steps (explorer/evidence/explain.cpp: a log
  /// file's clock); returns its index. Only after build(); each must be constrained with a step
  /// both ways (so that it reaches the origin, as every step does).
  std::int32_t add_node() {
    checked_ = false;
    return nodes_++;
  }
  /// t_to - t_from <= w, between nodes: 0 the origin, i + 1 step i, then those add_node gave.
  void constrain(std::int32_t from, std::int32_t to, Micros w) {
    checked_ = false;
    add(from, to, w);
  }
  /// The node of step i.
  static std::int32_t step_node(std::size_t i) { return static_cast<std::int32_t>(i) + 1; }
  /// Whether times exist that keep every constraint.
  bool feasible();
  /// The earliest feasible time of each step (after feasible() returned true); -1 for a step
  /// `keep` left out.
  std::vector<Micros> earliest();
  /// The least and greatest feasible t_b - t_a over every feasible assignment (steps a, b;
  /// max may be kForever). Only after feasible() returned true.
  std::pair<Micros, Micros> window(std::size_t a, std::size_t b);

 private:
  struct Edge {
    std::int32_t from;
    std::int32_t to;
    Micros w;  // t_to - t_from <= w
  };
  void add(std::int32_t from, std::int32_t to, Micros w) { edges_.push_back({from, to, w}); }
  // Shortest distances from every node to `target` (to_target) or from `target` to every node;
  // false on a negative cycle.
  bool distances(std::int32_t target, bool to_target, std::vector<Micros>& d) const;

  std::int32_t steps_ = 0;
  std::int32_t nodes_ = 0;
  std::vector<Edge> edges_;
  std::vector<Micros> dist_;                          // to the origin, after feasible()
  struct Touch {
    ActorId actor;
    AccessKind kind;
    std::int32_t step;  // the latest step of `actor` with an access of `kind` to the object
  };
  std::vector<std::vector<Touch>> by_object_;  // build: per object, its latest touches
  std::vector<std::int32_t> last_of_actor_;           // build
  std::vector<char> kept_;                            // build: the steps constrained
  bool checked_ = false;
  bool feasible_ = true;
};

/// The step of `trace` that `selector` names (actor_names[a]: actor a's name), if it ran.
std::optional<std::size_t> find_step(std::span<const Event> trace,
                                     std::span<const std::string_view> actor_names,
                                     const StepSelector& selector);

/// Adds the bounds of `window` in one feasible execution (its graph built) to `bounds`.
void measure_window(TimingGraph& graph, std::span<const Event> trace,
                    std::span<const std::string_view> actor_names, const TimingWindow& window,
                    WindowBounds& bounds);

/// "least 0.020s, greatest 0.030s over 3 violating executions" (and those lacking a step).
std::string describe(const WindowBounds& b);

}  // namespace interleave
