// The dependency relation DPOR explores under: the conflicts of the declared accesses
// (conflicts(Op, Op) in explorer/core/types.hpp), extended by writes to ghost objects that order more
// steps than their accesses do:
//   - all writes: every step that changes shared state (an access that is not an observation)
//     writes one ghost, so every two such steps are dependent. Asked for by
//     DporStrategy::Dependency::kAllWrites (the strategy dpor-all-writes), and taken whenever the
//     program has an invariant that declares no reads (Execution::invariant): it may read any
//     object, and only a total order of the state-changing steps visits every state it can see.
//   - invariant ghosts: for an invariant that declares the objects it reads, every step that
//     changes one of them writes the invariant's ghost, so every two such steps are dependent.
// Why that is enough: an invariant's value after a step depends only on the values of the objects
// it reads, which only their state-changing steps set. Those steps being totally ordered in every
// trace, the prefixes of an explored representative go through exactly the sequence of values the
// objects take in any equivalent interleaving, so every value the invariant can see is checked.
//
// Ghost ids are reserved object ids (types.hpp: kFirstReservedObject and up), never registered.
#pragma once

#include "explorer/core/strategy.hpp"
#include "explorer/core/types.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <new>
#include <span>
#include <vector>

namespace interleave::detail::dpor {

/// The ghost written by every state-changing step under all writes.
inline constexpr ObjectId kAllWritesGhost = kNoObject - 1;
/// Ghosts of invariants that declare their reads: invariant i (in registration order) writes
/// invariant_ghost(i % kInvariantGhosts). Invariants beyond that share ghosts, which orders more
/// steps than needed: sound, with less reduction.
inline constexpr std::size_t kInvariantGhosts = 16;
inline constexpr ObjectId invariant_ghost(std::size_t g) {
  return kNoObject - 2 - static_cast<ObjectId>(g);
}
/// Ghost ids in a table: kAllWritesGhost is 0, invariant_ghost(g) is g + 1.
inline constexpr std::size_t kGhosts = kInvariantGhosts + 1;
inline constexpr std::size_t ghost_index(ObjectId ghost) {
  return kNoObject - 1 - ghost;
}
static_assert(kGhosts <= kReservedObjects, "ghosts are reserved object ids");

/// A quick over-approximation of conflicts: which objects (bit object % 64) an operation, or a
/// sequence of them, observes, takes shared or accesses exclusively, whether it changes state, and
/// which invariant ghosts it writes (bit g).
struct AccessMasks {
  std::uint64_t observed = 0;
  std::uint64_t shared = 0;
  std::uint64_t exclusive = 0;
  std::uint32_t ghosts = 0;
  bool changes = false;

  void add(const AccessMasks& m) {
    observed |= m.observed;
    shared |= m.shared;
    exclusive |= m.exclusive;
    ghosts |= m.ghosts;
    changes |= m.changes;
  }
};

/// True when `later` cannot be runnable in a state where `earlier` is: `earlier` releases a lock
/// that `later` acquires (the releasing actor holds it, so the acquisition is blocked). Such a pair
/// is ordered by the lock, not by a race: the acquisition races with the acquisition before.
inline bool never_coenabled(const Op& earlier, const Op& later) {
  for (const Access& x : earlier) {
    if (x.kind != AccessKind::kRelease && x.kind != AccessKind::kReleaseShared) continue;
    for (const Access& y : later) {
      if (y.object != x.object) continue;
      if (y.kind == AccessKind::kAcquire) return true;
      if (y.kind == AccessKind::kAcquireShared && x.kind == AccessKind::kRelease) return true;
    }
  }
  return false;
}

/// Whether an operation can block (a lock acquisition, a wait, a join).
inline bool blocking(const Op& op) {
  for (const Access& a : op)
    if (a.kind == AccessKind::kAcquire || a.kind == AccessKind::kAcquireShared ||
        a.kind == AccessKind::kWait)
      return true;
  return false;
}

class Dependency;

/// The accesses DPOR tracks for an operation: its own, then its ghost writes. It refers to the
/// operation's own accesses unless there is a ghost write to add (then it holds a copy), so that
/// the common case copies nothing. A wide operation (more than Op::kMaxAccesses accesses, kept out
/// of line) with ghost writes refers to a list the Dependency keeps for it instead (made once per
/// distinct operation). (Made only by Dependency::tracked, in place: never copied.)
class Tracked {
 public:
  /// The accesses and ghost writes of an operation whose accesses are inline.
  static constexpr std::size_t kCapacity = Op::kMaxAccesses + kInvariantGhosts;

  inline Tracked(const Op& op, const Dependency& dependency);
  Tracked(const Tracked&) = delete;
  Tracked& operator=(const Tracked&) = delete;
  const Access* begin() const { return begin_; }
  const Access* end() const { return end_; }

 private:
  // Copies the operation's accesses, then adds writes of the ghosts of `ghosts` (invariant ghost
  // bits), or of kAllWritesGhost when `ghosts` is 0.
  inline void add_ghosts(const Op& op, std::uint32_t ghosts, const Dependency& dependency);
  void add_inline_ghosts(const Op& op, std::uint32_t ghosts) {
    new (&list_) std::array<Access, kCapacity>();
    std::size_t n = 0;
    for (const Access& a : op)
      list_[n++] = a;
    if (ghosts == 0) list_[n++] = Access{kAllWritesGhost, AccessKind::kWrite};
    for (std::uint32_t bits = ghosts; bits != 0; bits &= bits - 1)
      list_[n++] = Access{invariant_ghost(static_cast<std::size_t>(std::countr_zero(bits))),
                          AccessKind::kWrite};
    begin_ = list_.data();
    end_ = list_.data() + n;
  }

  const Access* begin_;
  const Access* end_;
  union {
    std::array<Access, kCapacity> list_;  // constructed only with a ghost write
  };
};

class Dependency {
 public:
  /// `all_writes`: DporStrategy::Dependency::kAllWrites. `order_invariants`: false keeps the
  /// relation of the declared accesses whatever the invariants read (DporStrategy::Invariants).
  Dependency(bool all_writes, bool order_invariants)
      : asked_all_writes_(all_writes),
        all_writes_(all_writes),
        order_invariants_(order_invariants) {}

  /// Extends the relation for the invariants of the program: called at the first scheduling
  /// point of every execution (with the same invariants every time, or the program is not
  /// deterministic: then it returns false).
  bool configure(std::span<const InvariantReads> invariants);

  /// Every two state-changing steps are dependent.
  bool all_writes() const { return all_writes_; }
  /// ... because an invariant declares no reads (not because the strategy asked for it).
  bool forced_all_writes() const { return all_writes_ && !asked_all_writes_; }
  /// Some invariant declares its reads and has a ghost.
  bool invariant_ghosts() const { return !ghosts_of_object_.empty(); }

  /// Invariant ghosts (bit g) written by `op`: those of the objects it changes.
  std::uint32_t ghosts_of(const Op& op) const {
    std::uint32_t g = 0;
    for (const Access& a : op)
      if (!observes(a.kind) && a.object < ghosts_of_object_.size())
        g |= ghosts_of_object_[a.object];
    return g;
  }

  bool dependent(const Op& a, const Op& b) const {
    if (conflicts(a, b)) return true;
    if (all_writes()) return changes_state(a) && changes_state(b);
    return invariant_ghosts() && (ghosts_of(a) & ghosts_of(b)) != 0;
  }

  /// The operation's accesses and its ghost writes.
  Tracked tracked(const Op& op) const { return Tracked(op, *this); }
  /// The same for a wide operation with ghost writes (`ghosts` as Tracked::add_ghosts): a list
  /// kept for the whole search, one per distinct list of accesses (the ghosts an operation writes
  /// follow from its accesses once the relation is configured).
  const std::vector<Access>& wide_tracked(const Op& op, std::uint32_t ghosts) const;

  AccessMasks masks_of(const Op& op) const {
    AccessMasks m;
    for (const Access& a : op) {
      const std::uint64_t bit = std::uint64_t{1} << (a.object & 63u);
      if (observes(a.kind))
        m.observed |= bit;
      else if (shared_lock_op(a.kind))
        m.shared |= bit;
      else
        m.exclusive |= bit;
      if (!observes(a.kind)) m.changes = true;
    }
    if (invariant_ghosts()) m.ghosts = ghosts_of(op);
    return m;
  }

  /// False only if `op` is independent of every operation `v` summarises (true: it may not be).
  bool may_depend(const AccessMasks& v, const Op& op) const {
    if (all_writes() && v.changes && changes_state(op)) return true;
    if (v.ghosts != 0 && (ghosts_of(op) & v.ghosts) != 0) return true;
    for (const Access& a : op) {
      const std::uint64_t bit = std::uint64_t{1} << (a.object & 63u);
      std::uint64_t conflicting = v.exclusive;
      if (!observes(a.kind)) conflicting |= v.observed;
      if (!shared_lock_op(a.kind)) conflicting |= v.shared;
      if ((conflicting & bit) != 0) return true;
    }
    return false;
  }

 private:
  bool asked_all_writes_;
  bool all_writes_;  // asked for, or taken for an invariant that declares no reads
  bool order_invariants_;
  bool configured_ = false;
  // Per object id: the invariant ghosts of the invariants that read it (bit g). Empty when no
  // invariant has a ghost.
  std::vector<std::uint32_t> ghosts_of_object_;
  // The invariants of the first execution, to compare the later ones with: per invariant,
  // whether it declared its reads, then its count of reads and the reads.
  std::vector<std::uint64_t> signature_;
  // wide_tracked: per list of accesses of a wide operation, its tracked accesses (map nodes do
  // not move, so a Tracked may refer to them).
  mutable std::map<std::vector<Access>, std::vector<Access>, AccessListLess> wide_tracked_;
};

inline void Tracked::add_ghosts(const Op& op, std::uint32_t ghosts, const Dependency& dependency) {
  if (op.wide()) [[unlikely]] {
    const std::vector<Access>& list = dependency.wide_tracked(op, ghosts);
    begin_ = list.data();
    end_ = list.data() + list.size();
    return;
  }
  add_inline_ghosts(op, ghosts);
}

inline Tracked::Tracked(const Op& op, const Dependency& dependency)
    : begin_(op.begin()), end_(op.end()) {
  if (dependency.all_writes()) {
    if (changes_state(op)) add_ghosts(op, 0, dependency);
  } else if (dependency.invariant_ghosts()) {
    if (const std::uint32_t g = dependency.ghosts_of(op); g != 0) add_ghosts(op, g, dependency);
  }
}

}  // namespace interleave::detail::dpor
