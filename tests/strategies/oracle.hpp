// The brute-force oracle for the reduction strategies: plain DFS over every interleaving, each run
// canonicalised to its Mazurkiewicz trace (Foata normal form), plus a seeded generator of small
// random programs (reads, writes, read-modify-writes, mutexes, reader-writer locks, waits,
// choices, spawn and join, step-local checks, final states), optionally with random durations
// (Actor::lasts): then only the timed-feasible executions count (explorer/time/timing.hpp).
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/core/rng.hpp"
#include "explorer/strategies/dfs.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace interleave::test {

/// The dependency relation a canonical form is taken over: the declared conflicts, or every two
/// state-changing steps too (kAllWrites).
enum class Dep { kDeclared, kAllWrites };

/// A relation: Dep, plus, per invariant that declares its reads, the objects it reads (two steps
/// that both change objects of one such set are dependent: what DPOR's invariant ghosts give).
struct Relation {
  Relation(Dep d) : dep(d) {}  // NOLINT(google-explicit-constructor): a Dep is a Relation
  Relation(Dep d, std::vector<std::vector<ObjectId>> reads)
      : dep(d), invariant_reads(std::move(reads)) {}
  Dep dep;
  std::vector<std::vector<ObjectId>> invariant_reads;
};

inline bool state_changing(const Op& op) {
  for (const Access& a : op)
    if (a.kind != AccessKind::kRead && a.kind != AccessKind::kWait) return true;
  return false;
}

// Whether `op` changes one of `objects`.
inline bool changes_one_of(const Op& op, const std::vector<ObjectId>& objects) {
  for (const Access& a : op)
    if (a.kind != AccessKind::kRead && a.kind != AccessKind::kWait &&
        std::find(objects.begin(), objects.end(), a.object) != objects.end())
      return true;
  return false;
}

inline bool depends(const Op& a, const Op& b, const Relation& rel) {
  if (conflicts(a, b)) return true;
  if (rel.dep == Dep::kAllWrites && state_changing(a) && state_changing(b)) return true;
  for (const auto& reads : rel.invariant_reads)
    if (changes_one_of(a, reads) && changes_one_of(b, reads)) return true;
  return false;
}

/// Foata normal form of an execution: events are (actor name, position in the actor, choice values
/// made during the step; names, since actor ids depend on the order children were spawned in);
/// event i is at level 1 + the highest level of the events it depends on (its actor's previous
/// event, its spawn/join edge, and every earlier dependent event); each level is sorted. Two
/// interleavings have the same form iff they are the same Mazurkiewicz trace.
inline std::string foata(std::span<const Event> trace, std::span<const Decision> decisions,
                         std::span<const std::string_view> actor_names, const Relation& dep) {
  std::string setup;  // choices made before the first step (actors starting up)
  std::vector<std::string> names(trace.size());
  std::vector<int> level(trace.size(), 0);
  std::vector<int> per_actor(kMaxActors, 0);
  std::vector<int> last_of(kMaxActors, -1);
  std::size_t ev = 0;
  bool any = false;
  for (const Decision& d : decisions) {
    if (d.kind == Decision::Kind::kActor) {
      const Event& e = trace[ev];
      names[ev] = std::string(actor_names[e.actor]) + "." + std::to_string(++per_actor[e.actor]);
      int lv = 0;
      if (last_of[e.actor] >= 0)
        lv = std::max(lv, level[static_cast<std::size_t>(last_of[e.actor])]);
      if (e.hb_pred >= 0) lv = std::max(lv, level[static_cast<std::size_t>(e.hb_pred)]);
      for (std::size_t j = 0; j < ev; ++j)
        if (depends(trace[j].op, e.op, dep)) lv = std::max(lv, level[j]);
      level[ev] = lv + 1;
      last_of[e.actor] = static_cast<int>(ev);
      ++ev;
      any = true;
    } else if (!any) {
      setup += "c" + std::to_string(d.value);
    } else {
      names[ev - 1] += "c" + std::to_string(d.value);
    }
  }
  std::map<int, std::vector<std::string>> levels;
  for (std::size_t i = 0; i < ev; ++i)
    levels[level[i]].push_back(names[i]);
  std::string form = setup + "|";
  for (auto& [lv, list] : levels) {
    std::sort(list.begin(), list.end());
    for (const auto& n : list)
      form += n + " ";
    form += "|";
  }
  return form;
}

/// Wraps a strategy and canonicalises every completed execution.
struct Sink;

class Canonicalising final : public Strategy {
 public:
  Canonicalising(Strategy& inner, Relation dep) : inner_(inner), dep_(std::move(dep)) {}
  std::string name() const override { return inner_.name(); }
  bool begin_execution() override { return inner_.begin_execution(); }
  ActorId next_actor(const SchedulingPoint& p) override {
    names_.assign(p.names.begin(), p.names.end());  // views of names the actors own
    return inner_.next_actor(p);
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& p) override {
    return inner_.next_choice(p);
  }
  void end_execution(const ExecutionRecord& r) override;
  Coverage coverage() const override { return inner_.coverage(); }
  std::string abandon_reason() const override { return inner_.abandon_reason(); }
  std::uint64_t execution_seed() const override { return inner_.execution_seed(); }

  std::set<std::string> forms;  ///< distinct traces of the completed (timed-feasible) executions
  std::uint64_t completed = 0;
  /// Where the program records its final state (Sink::last_final), to keep those of the
  /// timed-feasible executions in timed_final_states. Null: none kept.
  const Sink* sink = nullptr;
  std::set<std::string> timed_final_states;

 private:
  Strategy& inner_;
  Relation dep_;
  std::vector<std::string_view> names_;
};

/// What an exploration of a random program observed.
struct Observed {
  std::set<std::string> final_states;  ///< of completed executions
  std::set<std::string> violated;      ///< properties violated in some execution
  std::set<std::string> traces;        ///< Foata forms of completed (timed-feasible) executions
  /// Final states of the completed timed-feasible executions (all completed ones if untimed).
  std::set<std::string> timed_final_states;
  std::uint64_t timing_infeasible = 0;
  std::uint64_t completed = 0;
  std::uint64_t blocked = 0;
  std::uint64_t executions = 0;
  Verdict verdict = Verdict::kHolds;
  bool exhaustive = true;  ///< false when the execution budget cut the search
};

/// Collects the final states the program records, and the property the current execution violated
/// (if the program raised it).
struct Sink {
  std::set<std::string> final_states;
  std::string last_final;  ///< the final state of the last execution that recorded one
  std::string violation;
};

inline void Canonicalising::end_execution(const ExecutionRecord& r) {
  if (r.outcome == Outcome::kCompleted && r.timing_feasible) {
    ++completed;
    forms.insert(foata(r.trace, r.decisions, names_, dep_));
    if (sink != nullptr) timed_final_states.insert(sink->last_final);
  }
  inner_.end_execution(r);
}

using ProgramFactory = std::function<Program(Sink*)>;

inline Observed observe(const ProgramFactory& make, Strategy& strategy, const Relation& dep,
                        std::uint64_t max_executions = 0) {
  Sink sink;
  Observed obs;
  ExploreOptions o;
  o.stop_on_first_violation = false;
  o.max_steps = 200;
  o.max_executions = max_executions;
  o.minimize = false;  // counterexamples are not compared here
  Explorer ex(make(&sink), o);
  Canonicalising canon(strategy, dep);
  canon.sink = &sink;
  ExplorationResult r = ex.explore(canon);
  obs.timed_final_states = canon.timed_final_states;
  obs.timing_infeasible = r.stats.timing_infeasible;
  obs.final_states = sink.final_states;
  for (const auto& [name, n] : r.stats.violations)
    obs.violated.insert(name);
  obs.traces = canon.forms;
  obs.completed = r.stats.completed;
  obs.blocked = r.stats.blocked;
  obs.executions = r.stats.executions;
  obs.verdict = r.verdict;
  obs.exhaustive = max_executions == 0 || r.stats.executions < max_executions;
  return obs;
}

// ---------------------------------------------------------------- random programs

/// A small random program, generated from a seed and interpreted by each actor.
class RandomProgram {
 public:
  enum class Kind : std::uint8_t {
    kRead,    // reg = var
    kWrite,   // var = reg + k
    kUpdate,  // var += k (read-modify-write)
    kAddReg,  // var += reg (read-modify-write)
    kLock,    // mutex m
    kUnlock,
    kRLock,  // rwlock, shared
    kRUnlock,
    kWLock,  // rwlock, exclusive
    kWUnlock,
    kWait,       // wait until var >= k, then reg += var
    kChoose,     // reg += choose(2) * k
    kSkipIf,     // if reg is odd, skip the next instruction (local)
    kCheck,      // step-local check: read var; violation "seen_<k>" if it equals k
    kSpawn,      // spawn child k
    kJoin,       // join child k
    kLocalStep,  // a step touching only the actor's own object
    kWideStep,   // var += k in a step of kPads + 1 accesses (a wide one): reads of the pads but
                 // pad[k - 1], which it updates, then var (past the accesses an Op holds inline)
  };
  struct Instr {
    Kind kind;
    int arg = 0;  // variable, lock or child index
    int k = 0;    // constant
    std::optional<Duration> work{};  // timed programs: the work after it (Actor::lasts)
  };
  struct Script {
    std::vector<Instr> code;
    std::optional<Duration> start{};  // timed programs: before the first step
  };

  static constexpr int kVars = 3;
  /// Objects only wide steps touch (registered only in programs that have wide steps).
  static constexpr int kPads = 9;

  /// kSmall: 2 or 3 actors of 1 to 3 instructions. kWide: 3 or 4 actors of 1 or 2 instructions
  /// (more actors, shorter scripts: more concurrency, more spawns). kPlain: 3 or 4 actors of 1 to
  /// 3 reads, writes and updates only (no blocking, no choice, no violation: the programs on which
  /// optimal DPOR never ends an execution sleep-set blocked).
  /// kLocks: 3 or 4 actors that each touch a shared variable and take the reader-writer lock
  /// (mostly shared) or a mutex: many readers around few writers.
  /// kInvariants: programs of the kPlain or the kSmall kind with one or two invariants over two
  /// variables each
  /// (v0 + v1 != 3; v1 != v2 unless both are 0), which declare what they read: states DPOR sees
  /// only if it orders the steps that change those variables.
  /// kWaits: 3 or 4 actors of 2 or 3 waits, writes, updates, checks and a mutex over two
  /// variables: operations that block and unblock again and again, each blocked at the same depth
  /// in many executions (what the lease-lock model needed to find a defect of DPOR's race checks
  /// for blocked operations, which no other shape reached).
  /// kWideOps: 3 actors of 1 to 3 (or 4 of 1 or 2) reads, writes, updates and wide steps (more
  /// accesses than an Op holds inline: Actor::step with a list), half of them with the invariant
  /// over v0: no blocking, no choice.
  enum class Shape : std::uint8_t { kSmall, kWide, kPlain, kLocks, kInvariants, kWaits, kWideOps };

  explicit RandomProgram(std::uint64_t seed, Shape shape = Shape::kSmall) { generate(seed, shape); }

  /// Gives random durations (drawn from `seed`) to most instructions and to some actors' starts:
  /// small integers of microseconds, some maxima unbounded, so that many orders do not fit.
  void add_durations(std::uint64_t seed) {
    Rng rng(seed ^ 0x7157ull);
    auto pick = [&rng]() -> std::optional<Duration> {
      if (rng.below(5) == 0) return std::nullopt;
      const Micros lo = static_cast<Micros>(rng.below(4));
      const auto r = rng.below(10);
      return Duration{lo, r < 3 ? kForever : lo + static_cast<Micros>(r % 3)};
    };
    for (auto* list : {&actors_, &children_})
      for (Script& sc : *list) {
        sc.start = pick();
        for (Instr& in : sc.code)
          in.work = pick();
      }
  }

  Program program(Sink* sink) const;
  const std::vector<Script>& actors() const { return actors_; }
  /// The objects each declared invariant of the program reads (variable i is object i), as
  /// Relation::invariant_reads.
  std::vector<std::vector<ObjectId>> invariant_reads() const {
    std::vector<std::vector<ObjectId>> reads;
    if (single_invariant_) reads.push_back({0});
    for (const auto& [a, b] : pair_invariants_)
      reads.push_back({static_cast<ObjectId>(a), static_cast<ObjectId>(b)});
    return reads;
  }
  std::string describe() const;

 private:
  void generate(std::uint64_t seed, Shape shape);
  Script make_script(Rng& rng, int length, int depth, bool plain = false);

  std::vector<Script> actors_;    // top-level actors
  std::vector<Script> children_;  // spawned by kSpawn (index = arg)
  bool single_invariant_ = false;
  bool wide_ops_ = false;                             // kWideOps: the pads are registered
  std::vector<std::pair<int, int>> pair_invariants_;  // kInvariants: the variables each reads
};

/// The share (percent) of a shape's programs small enough for brute force, which a test of many
/// seeds must check at least: lock-heavy programs often have too many interleavings, and so do a
/// quarter of the wait-heavy ones.
inline std::uint64_t brute_force_percent(RandomProgram::Shape shape) {
  return shape == RandomProgram::Shape::kLocks   ? 30
         : shape == RandomProgram::Shape::kWaits ? 70
                                                 : 90;
}

inline RandomProgram::Script RandomProgram::make_script(Rng& rng, int length, int depth,
                                                        bool plain) {
  Script s;
  std::vector<int> spawned;
  for (int i = 0; i < length; ++i) {
    const auto r = rng.below(100);
    const int var = static_cast<int>(rng.below(kVars));
    const int k = static_cast<int>(rng.below(3)) + 1;
    if (plain) {
      static constexpr Kind kinds[] = {Kind::kRead,   Kind::kWrite,  Kind::kUpdate,
                                       Kind::kAddReg, Kind::kSkipIf, Kind::kLocalStep};
      s.code.push_back({kinds[r % 6], var, k});
    } else if (r < 16) {
      s.code.push_back({Kind::kRead, var, 0});
    } else if (r < 30) {
      s.code.push_back({Kind::kWrite, var, k});
    } else if (r < 38) {
      s.code.push_back({Kind::kUpdate, var, k});
    } else if (r < 43) {
      s.code.push_back({Kind::kAddReg, var, 0});
    } else if (r < 53) {
      const int m = static_cast<int>(rng.below(2));
      s.code.push_back({Kind::kLock, m, 0});
      s.code.push_back({rng.below(2) ? Kind::kUpdate : Kind::kRead, var, k});
      if (rng.below(4) == 0) {
        // occasionally nest the other mutex (lock-order inversions deadlock)
        s.code.push_back({Kind::kLock, 1 - m, 0});
        s.code.push_back({Kind::kWrite, static_cast<int>(rng.below(kVars)), k});
        s.code.push_back({Kind::kUnlock, 1 - m, 0});
      }
      s.code.push_back({Kind::kUnlock, m, 0});
    } else if (r < 60) {
      const bool shared = rng.below(2) == 0;
      s.code.push_back({shared ? Kind::kRLock : Kind::kWLock, 0, 0});
      s.code.push_back({shared ? Kind::kRead : Kind::kUpdate, var, k});
      s.code.push_back({shared ? Kind::kRUnlock : Kind::kWUnlock, 0, 0});
    } else if (r < 67) {
      s.code.push_back({Kind::kWait, var, static_cast<int>(rng.below(2)) + 1});
    } else if (r < 74) {
      s.code.push_back({Kind::kChoose, 0, k});
    } else if (r < 79) {
      s.code.push_back({Kind::kSkipIf, 0, 0});
    } else if (r < 86) {
      s.code.push_back({Kind::kCheck, var, static_cast<int>(rng.below(4))});
    } else if (r < 93 && depth == 0 && children_.size() < 2) {
      const int child = static_cast<int>(children_.size());
      children_.push_back({});
      children_[static_cast<std::size_t>(child)] =
          make_script(rng, 1 + static_cast<int>(rng.below(2)), depth + 1);
      s.code.push_back({Kind::kSpawn, child, 0});
      spawned.push_back(child);
    } else if (r < 97 && !spawned.empty()) {
      s.code.push_back({Kind::kJoin, spawned.back(), 0});
      spawned.pop_back();
    } else {
      s.code.push_back({Kind::kLocalStep, 0, 0});
    }
  }
  return s;
}

inline void RandomProgram::generate(std::uint64_t seed, Shape shape) {
  Rng rng(seed);
  if (shape == Shape::kLocks) {
    const int actors = 3 + static_cast<int>(rng.below(2));
    for (int a = 0; a < actors; ++a) {
      Script sc;
      const int var = static_cast<int>(rng.below(2));
      const auto r = rng.below(6);
      if (r < 4) sc.code.push_back({r < 2 ? Kind::kWrite : Kind::kRead, var, 1});
      const auto lock = rng.below(8);
      if (lock < 5) {
        sc.code.push_back({Kind::kRLock, 0, 0});
        if (rng.below(2) == 0) sc.code.push_back({Kind::kRead, 2, 0});
        sc.code.push_back({Kind::kRUnlock, 0, 0});
      } else if (lock < 7) {
        sc.code.push_back({Kind::kWLock, 0, 0});
        if (rng.below(2) == 0) sc.code.push_back({Kind::kUpdate, 2, 1});
        sc.code.push_back({Kind::kWUnlock, 0, 0});
      } else {
        sc.code.push_back({Kind::kLock, 0, 0});
        sc.code.push_back({Kind::kUpdate, var, 1});
        sc.code.push_back({Kind::kUnlock, 0, 0});
      }
      if (rng.below(3) == 0) sc.code.push_back({Kind::kUpdate, 1 - var, 2});
      actors_.push_back(sc);
    }
    return;
  }
  if (shape == Shape::kWaits) {
    const int actors = 3 + static_cast<int>(rng.below(2));
    for (int a = 0; a < actors; ++a) {
      Script sc;
      const int length = 2 + static_cast<int>(rng.below(2));
      for (int i = 0; i < length; ++i) {
        const int var = static_cast<int>(rng.below(2));
        const int k = static_cast<int>(rng.below(2)) + 1;
        const auto r = rng.below(10);
        if (r < 4) {
          sc.code.push_back({Kind::kWait, var, k});
        } else if (r < 6) {
          sc.code.push_back({Kind::kWrite, var, static_cast<int>(rng.below(3))});  // may lower it
        } else if (r < 8) {
          sc.code.push_back({Kind::kUpdate, var, k});
        } else if (r < 9) {
          sc.code.push_back({Kind::kCheck, var, static_cast<int>(rng.below(3)) + 1});
        } else {
          sc.code.push_back({Kind::kLock, 0, 0});
          sc.code.push_back({Kind::kUpdate, var, k});
          sc.code.push_back({Kind::kUnlock, 0, 0});
        }
      }
      actors_.push_back(sc);
    }
    return;
  }
  if (shape == Shape::kWideOps) {
    wide_ops_ = true;
    const int actors = 3 + static_cast<int>(rng.below(2));
    for (int a = 0; a < actors; ++a) {
      Script sc;
      const int length = 1 + static_cast<int>(rng.below(actors == 3 ? 3 : 2));
      for (int i = 0; i < length; ++i) {
        static constexpr Kind kinds[] = {Kind::kRead, Kind::kWrite, Kind::kUpdate,
                                         Kind::kWideStep, Kind::kWideStep};
        sc.code.push_back({kinds[rng.below(5)], static_cast<int>(rng.below(kVars)),
                           static_cast<int>(rng.below(3)) + 1});
      }
      actors_.push_back(sc);
    }
    single_invariant_ = rng.below(2) == 0;
    return;
  }
  if (shape == Shape::kInvariants) {
    // Half of them plain (reads, writes, updates: many states in between), half of the kSmall mix.
    const bool only_data = rng.below(2) == 0;
    const int actors = (only_data ? 3 : 2) + static_cast<int>(rng.below(2));
    for (int a = 0; a < actors; ++a)
      actors_.push_back(make_script(
          rng, 1 + static_cast<int>(rng.below(actors == 2 || only_data ? 3 : 2)), 0, only_data));
    pair_invariants_.push_back({0, 1});
    if (rng.below(2) == 0) pair_invariants_.push_back({1, 2});
    return;
  }
  const bool wide = shape == Shape::kWide;
  const bool plain = shape == Shape::kPlain;
  const int actors = (wide || plain ? 3 : 2) + static_cast<int>(rng.below(2));
  for (int a = 0; a < actors; ++a) {
    const int longest = wide ? 2 : (actors == 2 || plain ? 3 : 2);
    actors_.push_back(make_script(rng, 1 + static_cast<int>(rng.below(longest)), 0, plain));
  }
  single_invariant_ = !plain && rng.below(2) == 0;
}

inline std::string RandomProgram::describe() const {
  static const char* names[] = {"read",   "write",   "update", "addreg",  "lock", "unlock",
                                "rlock",  "runlock", "wlock",  "wunlock", "wait", "choose",
                                "skipif", "check",   "spawn",  "join",    "local",   "wide"};
  std::string s;
  auto duration = [](const std::optional<Duration>& d) {
    if (!d) return std::string();
    return "[" + std::to_string(d->min) + "," +
           (d->max == kForever ? std::string("inf") : std::to_string(d->max)) + "]";
  };
  for (const auto& [x, y] : pair_invariants_)
    s += "invariant over v" + std::to_string(x) + ", v" + std::to_string(y) + "\n";
  auto script = [&](const Script& sc) {
    if (sc.start) s += "start" + duration(sc.start) + " ";
    for (const Instr& in : sc.code)
      s += std::string(names[static_cast<int>(in.kind)]) + "(" + std::to_string(in.arg) + "," +
           std::to_string(in.k) + ")" + duration(in.work) + " ";
  };
  for (std::size_t a = 0; a < actors_.size(); ++a) {
    s += "A" + std::to_string(a) + ": ";
    script(actors_[a]);
    s += "\n";
  }
  for (std::size_t c = 0; c < children_.size(); ++c) {
    s += "child" + std::to_string(c) + ": ";
    script(children_[c]);
    s += "\n";
  }
  return s;
}

namespace detail {

struct World {
  std::vector<std::unique_ptr<Shared<int>>> vars;
  std::unique_ptr<Mutex> m[2];
  std::unique_ptr<RwLock> rw;
  ObjectId pads = kNoObject;  // the first of RandomProgram::kPads, when the program has wide steps
  std::vector<int> regs;      // per actor id
};

}  // namespace detail

inline Program RandomProgram::program(Sink* sink) const {
  return [this, sink](Execution& ex) {
    sink->violation.clear();
    auto& w = ex.make<detail::World>();
    for (int v = 0; v < kVars; ++v)
      w.vars.push_back(std::make_unique<Shared<int>>(ex, "v" + std::to_string(v), 0));
    w.m[0] = std::make_unique<Mutex>(ex, "m0");
    w.m[1] = std::make_unique<Mutex>(ex, "m1");
    w.rw = std::make_unique<RwLock>(ex, "rw");
    if (wide_ops_) w.pads = ex.objects("pad", kPads);
    w.regs.assign(kMaxActors, 0);

    using Run = std::function<void(Actor&, const Script&)>;
    Run* run = &ex.make<Run>();
    *run = [this, &w, &ex, run, sink](Actor& a, const Script& sc) {
      const ObjectId own = ex.object("own_" + a.name());
      int& reg = w.regs[a.id()];
      // What the actor's next steps depend on, for the stateful search: its program counter, its
      // register and its children (the script is fixed by its name).
      struct Locals {
        std::size_t pc = 0;
        const int* reg = nullptr;
        std::vector<ActorId> kids;
        void fingerprint(StateHasher& h) const { h << pc << *reg << kids; }
      } l{0, &reg, std::vector<ActorId>(children_.size(), kNoActor)};
      a.declare_locals(l);
      std::vector<ActorId>& kids = l.kids;
      if (sc.start) a.lasts(*sc.start);
      for (std::size_t& pc = l.pc; pc < sc.code.size(); ++pc) {
        const Instr& in = sc.code[pc];
        Shared<int>& var = *w.vars[static_cast<std::size_t>(in.arg % kVars)];
        switch (in.kind) {
          case Kind::kRead:
            reg += var.read(a, "read");
            break;
          case Kind::kWrite:
            var.write(a, "write", reg + in.k);
            break;
          case Kind::kUpdate:
            var.update(a, "update", [&](int& v) { v += in.k; });
            break;
          case Kind::kAddReg:
            var.update(a, "addreg", [&](int& v) { v += reg; });
            break;
          case Kind::kLock:
            w.m[in.arg]->lock(a, "lock");
            break;
          case Kind::kUnlock:
            w.m[in.arg]->unlock(a, "unlock");
            break;
          case Kind::kRLock:
            w.rw->lock_shared(a, "rlock");
            break;
          case Kind::kRUnlock:
            w.rw->unlock_shared(a, "runlock");
            break;
          case Kind::kWLock:
            w.rw->lock(a, "wlock");
            break;
          case Kind::kWUnlock:
            w.rw->unlock(a, "wunlock");
            break;
          case Kind::kWait:
            reg += var.wait_until(a, "wait", [k = in.k](int v) { return v >= k; });
            break;
          case Kind::kChoose:
            // belongs to the actor's current step (or to its start-up before the first one)
            reg += static_cast<int>(a.choose(2)) * in.k;
            break;
          case Kind::kSkipIf:
            if (reg % 2 != 0) ++pc;
            break;
          case Kind::kCheck: {
            const int v = var.read(a, "check");
            if (v == in.k) {
              sink->violation = "seen_" + std::to_string(in.k);
              a.violation(sink->violation, "read " + std::to_string(v));
            }
            reg += v;
            break;
          }
          case Kind::kSpawn: {
            const Script& child = children_[static_cast<std::size_t>(in.arg)];
            a.step("spawn", {write(own)});
            kids[static_cast<std::size_t>(in.arg)] =
                a.spawn(a.name() + ".c" + std::to_string(in.arg),
                        [run, &child](Actor& c) { (*run)(c, child); });
            break;
          }
          case Kind::kJoin:
            if (kids[static_cast<std::size_t>(in.arg)] != kNoActor)
              a.join("join", kids[static_cast<std::size_t>(in.arg)]);
            break;
          case Kind::kLocalStep:
            a.step("local", {write(own)});
            break;
          case Kind::kWideStep: {
            std::vector<Access> accesses;
            for (int p = 0; p < kPads; ++p)
              accesses.push_back(p == in.k - 1 ? read_modify_write(w.pads + p) : read(w.pads + p));
            accesses.push_back(read_modify_write(var.id()));
            a.step("wide", accesses);
            // Inside the step that declares it: Shared has no update with more accesses, and its
            // value is not const (peek() only views it).
            const_cast<int&>(var.peek()) += in.k;
            break;
          }
        }
        // The work after the instruction's step (or after the previous step, for one that took
        // none: a choice, a skip).
        if (in.work) a.lasts(*in.work);
      }
    };
    for (std::size_t i = 0; i < actors_.size(); ++i) {
      const Script& sc = actors_[i];
      ex.spawn("A" + std::to_string(i), [run, &sc](Actor& a) { (*run)(a, sc); });
    }
    ex.fingerprint([&w](StateHasher& h) {
      for (const auto& v : w.vars)
        h << *v;
      h << *w.m[0] << *w.m[1] << *w.rw;
      h << w.regs;  // the final check reads every actor's register, finished ones' too
    });
    if (single_invariant_) {
      // A property of one object between steps, which it declares it reads.
      ex.invariant("v0_below_5", {w.vars[0]->id()}, [&w, sink]() -> Check {
        if (w.vars[0]->peek() < 5) return std::nullopt;
        sink->violation = "v0_below_5";
        return "v0 is " + std::to_string(w.vars[0]->peek());
      });
    }
    for (const auto& [x, y] : pair_invariants_) {
      if (w.vars[static_cast<std::size_t>(x)]->id() != static_cast<ObjectId>(x))
        throw std::logic_error("variable i must be object i (invariant_reads)");
      Shared<int>& vx = *w.vars[static_cast<std::size_t>(x)];
      Shared<int>& vy = *w.vars[static_cast<std::size_t>(y)];
      const std::string name = x == 0 ? "sum_v0_v1_not_3" : "v1_differs_from_v2";
      ex.invariant(name, {vx.id(), vy.id()}, [&vx, &vy, first = x == 0]() -> Check {
        if (first ? vx.peek() + vy.peek() != 3 : (vx.peek() != vy.peek() || vx.peek() == 0))
          return std::nullopt;
        return "v = " + std::to_string(vx.peek()) + ", " + std::to_string(vy.peek());
      });
    }
    ex.final_check("record", [&w, &ex, sink]() -> Check {
      // By actor name: actor ids depend on the order in which children were spawned.
      std::map<std::string, int> regs;
      for (std::size_t a = 0; a < ex.actor_count(); ++a)
        regs[ex.actor(static_cast<ActorId>(a)).name()] = w.regs[a];
      std::string s;
      for (const auto& v : w.vars)
        s += std::to_string(v->peek()) + ",";
      s += ";";
      for (const auto& [name, reg] : regs)
        s += name + "=" + std::to_string(reg) + ",";
      sink->final_states.insert(s);
      sink->last_final = s;
      return std::nullopt;
    });
  };
}

}  // namespace interleave::test
