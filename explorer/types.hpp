// Core vocabulary of the engine: actors, shared objects, accesses and operations.
//
// An actor touches shared state only through visible operations. Each operation is announced
// before it runs (that announcement is the scheduling point) and declares which shared objects it
// touches and how. The declared accesses are all the scheduler and the strategies know about an
// operation: they define which steps conflict (are dependent) and which commute.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

namespace interleave {

/// Index of an actor within one execution, in spawn order (deterministic across executions).
using ActorId = std::uint16_t;
inline constexpr ActorId kNoActor = 0xffff;
/// An execution holds at most this many actors (an ActorSet is one machine word).
inline constexpr std::size_t kMaxActors = 64;

/// Index of a shared object within one execution, in creation order.
using ObjectId = std::uint32_t;
inline constexpr ObjectId kNoObject = 0xffffffffu;

/// A step label such as "C1" or "E2a". It must refer to storage that outlives the exploration
/// (a string literal, or a string owned by the program's configuration).
using Label = std::string_view;

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

/// True when two accesses to the same object do not commute. Reads (and waits, which observe)
/// commute with each other; shared lock acquisitions commute with each other; everything else on
/// the same object conflicts. Accesses to different objects never conflict.
bool conflicts(const Access& a, const Access& b);

/// A visible operation: its label and the accesses it performs (at most kMaxAccesses).
struct Op {
  static constexpr std::size_t kMaxAccesses = 8;

  Label label;
  std::array<Access, kMaxAccesses> accesses{};
  std::uint8_t count = 0;

  Op() = default;
  Op(Label l, std::initializer_list<Access> list) : label(l) {
    if (list.size() > kMaxAccesses)
      throw std::length_error("an operation declares at most 8 accesses");
    for (const Access& a : list)
      accesses[count++] = a;
  }
  const Access* begin() const { return accesses.data(); }
  const Access* end() const { return accesses.data() + count; }
};

/// True when any access of `a` conflicts with any access of `b` (the dependency relation).
bool conflicts(const Op& a, const Op& b);

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
