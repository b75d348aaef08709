// Core vocabulary of the engine: actors, shared objects, accesses and operations.
//
// An actor touches shared state only through visible operations. Each operation is announced
// before it runs (that announcement is the scheduling point) and declares which shared objects it
// touches and how. The declared accesses are all the scheduler and the strategies know about an
// operation: they define which steps conflict (are dependent) and which commute.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace interleave {

/// Index of an actor within one execution, in spawn order (deterministic across executions).
using ActorId = std::uint16_t;
inline constexpr ActorId kNoActor = 0xffff;
/// An execution holds at most this many actors (an ActorSet is one machine word).
inline constexpr std::size_t kMaxActors = 64;

/// Index of a shared object within one execution, in creation order.
using ObjectId = std::uint32_t;
inline constexpr ObjectId kNoObject = 0xffffffffu;

/// Object ids from kFirstReservedObject up are never registered: strategies use them for objects
/// of their own (DPOR's ghost objects, see explorer/strategies/dpor/dependency.hpp).
inline constexpr ObjectId kReservedObjects = 128;
inline constexpr ObjectId kFirstReservedObject = kNoObject - kReservedObjects;

/// A step label such as "C1" or "E2a": a view of characters that stay valid, unchanged, for the
/// whole exploration (strategies compare the labels of different executions). There are two ways
/// to make one, and no other:
///   - from a string literal, implicitly: `a.step("C1", ...)` (checked at compile time);
///   - from a runtime string, explicitly: `a.label("worker " + std::to_string(i))` or
///     Execution::label, which copy it once into storage owned by the Explorer (the same text
///     gives the same label in every execution).
/// So `a.step("step " + std::to_string(i), ...)`, whose temporary string would be gone before the
/// label is read, does not compile. A Label converts to std::string_view.
class Label {
 public:
  constexpr Label() = default;
  /// From a string literal (or any constant character array ending with '\0').
  template <std::size_t N>
  consteval Label(const char (&text)[N])  // NOLINT(google-explicit-constructor): literals
      : data_(text), size_(N - 1) {
    // Reading the last character needs a constant array: a mutable buffer is refused here.
    if (text[N - 1] != '\0') throw "a label is a string literal";
  }

  constexpr const char* data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr std::string_view view() const { return {data_, size_}; }
  constexpr operator std::string_view() const { return view(); }  // NOLINT: a view, like a literal

  /// Same characters (labels made from a literal and from a runtime string compare by text).
  /// A Label compares with a std::string_view through the conversion.
  friend constexpr bool operator==(Label a, Label b) { return a.view() == b.view(); }

 private:
  friend class LabelStore;
  constexpr Label(const char* data, std::size_t size) : data_(data), size_(size) {}

  const char* data_ = "";
  std::size_t size_ = 0;
};

/// Storage for labels made from runtime strings: each distinct text is copied once and stays at
/// the same address for the store's lifetime (an Explorer keeps one for all its executions).
class LabelStore {
 public:
  /// The label of `text`: the same Label (same characters, same address) for the same text.
  Label intern(std::string_view text);

 private:
  std::set<std::string, std::less<>> texts_;  // nodes never move: their strings stay put
};

/// How an operation touches an object.
enum class AccessKind : std::uint8_t {
  kRead,             ///< observes the object
  kWrite,            ///< replaces the object's value
  kReadModifyWrite,  ///< reads and writes in one atomic step
  kAcquire,          ///< exclusive acquisition of a lock (blocks while it is held)
  kRelease,          ///< release of an exclusively held lock
  kAcquireShared,    ///< shared (reader) acquisition of a reader-writer lock
  kReleaseShared,    ///< release of a shared acquisition
  kWait,             ///< blocks until a condition on the object holds, then observes it
};

std::string_view to_string(AccessKind kind);
/// Parses the names produced by to_string(); throws std::invalid_argument otherwise.
AccessKind access_kind_from_string(std::string_view name);

/// One declared access: which object, and how.
struct Access {
  ObjectId object = kNoObject;
  AccessKind kind = AccessKind::kRead;
  friend bool operator==(const Access&, const Access&) = default;
};

inline Access read(ObjectId o) {
  return {o, AccessKind::kRead};
}
inline Access write(ObjectId o) {
  return {o, AccessKind::kWrite};
}
inline Access read_modify_write(ObjectId o) {
  return {o, AccessKind::kReadModifyWrite};
}

/// Whether an access only observes its object (a read, or a wait, which observes until it holds).
constexpr bool observes(AccessKind k) {
  return k == AccessKind::kRead || k == AccessKind::kWait;
}
/// Whether an access is an operation of a shared (reader) lock acquisition.
constexpr bool shared_lock_op(AccessKind k) {
  return k == AccessKind::kAcquireShared || k == AccessKind::kReleaseShared;
}
/// Whether two accesses of these kinds to the same object do not commute: observations commute
/// with each other, shared lock operations commute with each other, every other pair conflicts.
constexpr bool kinds_conflict(AccessKind a, AccessKind b) {
  if (observes(a) && observes(b)) return false;
  if (shared_lock_op(a) && shared_lock_op(b)) return false;
  return true;
}
/// Whether an access of this kind conflicts with every access to its object (so it orders every
/// earlier access to it).
constexpr bool exclusive(AccessKind k) {
  return !observes(k) && !shared_lock_op(k);
}

/// True when two accesses do not commute: they touch the same object and their kinds conflict
/// (kinds_conflict). Accesses to different objects never conflict. This and conflicts(Op, Op)
/// below are the dependency relation: every strategy and report uses these two definitions.
constexpr bool conflicts(const Access& a, const Access& b) {
  return a.object == b.object && kinds_conflict(a.kind, b.kind);
}

/// A list of accesses kept out of line for the whole exploration, for an operation with more than
/// Op::kMaxAccesses: made only by an AccessListStore, which owns the storage (so an Op copied into
/// a trace, a wakeup tree or a report never outlives it within its Explorer).
class AccessList {
 public:
  const Access* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  friend class AccessListStore;
  AccessList(const Access* data, std::size_t size) : data_(data), size_(size) {}
  const Access* data_;
  std::size_t size_;
};

/// Lexicographic order of access lists (by object, then kind), transparent over vectors and
/// spans: the key order of the stores of wide operations' lists.
struct AccessListLess {
  using is_transparent = void;
  static bool less(std::span<const Access> a, std::span<const Access> b) {
    return std::lexicographical_compare(
        a.begin(), a.end(), b.begin(), b.end(), [](const Access& x, const Access& y) {
          return x.object != y.object ? x.object < y.object : x.kind < y.kind;
        });
  }
  bool operator()(const std::vector<Access>& a, const std::vector<Access>& b) const {
    return less(a, b);
  }
  bool operator()(const std::vector<Access>& a, std::span<const Access> b) const {
    return less(a, b);
  }
  bool operator()(std::span<const Access> a, const std::vector<Access>& b) const {
    return less(a, b);
  }
};

/// Storage for the access lists of wide operations: each distinct list is copied once and stays at
/// the same address for the store's lifetime (an Explorer keeps one for all its executions, as it
/// keeps its LabelStore).
class AccessListStore {
 public:
  /// The stored list equal to `accesses` (copied if it is new).
  AccessList intern(std::span<const Access> accesses);

 private:
  std::set<std::vector<Access>, AccessListLess> lists_;  // nodes never move: their vectors stay put
};

/// A visible operation: its label and the accesses it performs. Up to kMaxAccesses are held in
/// the operation itself (the common case: an Op is copied at every step, so it stays small); an
/// operation with more, up to kMaxWideAccesses (a rare wide step, such as a snapshot reading one
/// row per session), refers to a list kept out of line (AccessList), made by
/// Actor::step(Label, std::span<const Access>). Iterate the accesses with begin()/end().
struct Op {
  /// Accesses held inline.
  static constexpr std::size_t kMaxAccesses = 8;
  /// Accesses of one operation, inline or out of line.
  static constexpr std::size_t kMaxWideAccesses = 255;

  Label label;
  union {
    std::array<Access, kMaxAccesses> accesses{};  // when count <= kMaxAccesses
    const Access* wide_accesses;                  // when count > kMaxAccesses (an AccessList)
  };
  std::uint8_t count = 0;

  Op() = default;
  /// At most kMaxAccesses accesses (a wider step: Actor::step(Label, std::span<const Access>)).
  Op(Label l, std::initializer_list<Access> list) : label(l) {
    if (list.size() > kMaxAccesses)
      throw std::length_error("an operation declares at most 8 accesses inline");
    for (const Access& a : list)
      accesses[count++] = a;
  }
  /// An operation whose accesses are the stored list `list` (any length up to kMaxWideAccesses;
  /// up to kMaxAccesses they are copied inline).
  Op(Label l, AccessList list) : label(l) {
    if (list.size() > kMaxWideAccesses)
      throw std::length_error("an operation declares at most 255 accesses");
    if (list.size() <= kMaxAccesses) {
      for (std::size_t i = 0; i < list.size(); ++i)
        accesses[i] = list.data()[i];
    } else {
      wide_accesses = list.data();
    }
    count = static_cast<std::uint8_t>(list.size());
  }
  /// Whether the accesses are out of line (more than kMaxAccesses).
  bool wide() const { return count > kMaxAccesses; }
  const Access* begin() const { return wide() ? wide_accesses : accesses.data(); }
  const Access* end() const { return begin() + count; }
};

/// True when any access of `a` conflicts with any access of `b` (the dependency relation).
inline bool conflicts(const Op& a, const Op& b) {
  for (const Access& x : a)
    for (const Access& y : b)
      if (conflicts(x, y)) return true;
  return false;
}

/// Whether an operation may change shared state: it has an access that is not an observation.
inline bool changes_state(const Op& op) {
  for (const Access& a : op)
    if (!observes(a.kind)) return true;
  return false;
}

/// A set of actors as a bit mask (actor i is bit i).
class ActorSet {
 public:
  constexpr ActorSet() = default;
  constexpr explicit ActorSet(std::uint64_t bits) : bits_(bits) {}
  static constexpr ActorSet single(ActorId a) { return ActorSet(std::uint64_t{1} << a); }

  constexpr bool contains(ActorId a) const { return (bits_ >> a) & 1u; }
  constexpr void insert(ActorId a) { bits_ |= std::uint64_t{1} << a; }
  constexpr void erase(ActorId a) { bits_ &= ~(std::uint64_t{1} << a); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr std::size_t size() const { return static_cast<std::size_t>(std::popcount(bits_)); }
  /// The lowest actor in the set; kNoActor when empty.
  constexpr ActorId first() const {
    return bits_ == 0 ? kNoActor : static_cast<ActorId>(std::countr_zero(bits_));
  }
  /// The lowest actor strictly greater than `a`; kNoActor when none.
  constexpr ActorId next_after(ActorId a) const {
    if (a + 1u >= kMaxActors) return kNoActor;
    const std::uint64_t rest = bits_ & (~std::uint64_t{0} << (a + 1u));
    return rest == 0 ? kNoActor : static_cast<ActorId>(std::countr_zero(rest));
  }
  constexpr std::uint64_t bits() const { return bits_; }
  constexpr ActorSet operator&(ActorSet o) const { return ActorSet(bits_ & o.bits_); }
  constexpr ActorSet operator|(ActorSet o) const { return ActorSet(bits_ | o.bits_); }
  constexpr ActorSet minus(ActorSet o) const { return ActorSet(bits_ & ~o.bits_); }
  friend constexpr bool operator==(ActorSet, ActorSet) = default;

  template <class F>
  constexpr void for_each(F&& f) const {
    for (std::uint64_t b = bits_; b != 0; b &= b - 1)
      f(static_cast<ActorId>(std::countr_zero(b)));
  }

 private:
  std::uint64_t bits_ = 0;
};

}  // namespace interleave
