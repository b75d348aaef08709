// State fingerprints: a 128-bit digest of an execution's state at a scheduling point, for the
// stateful strategy (explorer/strategies/stateful.hpp), which prunes an execution that reaches a
// state an earlier one already explored.
//
// What goes into a fingerprint (Execution::state_fingerprint):
//   - what the engine owns: per actor (by id), its name, whether it has finished and, if not, the
//     operation it has announced (label and accesses), which stands for its program point;
//   - the program's shared state, written by the function it registers with
//     Execution::fingerprint (for StarRocks: the catalog, the managers, the connect schedulers,
//     the task-run maps, the schema caches, the journal cursors, the property monitors);
//   - each actor's local state, the struct it declares with Actor::declare_locals (a loop index,
//     a snapshot read earlier, anything its next steps depend on that the label does not show).
// History is left out: step indices, message text, transaction ids; two executions that differ
// only in history reach the same state. Every value that decides what can happen next must be in
// it: a value that is left out merges states that behave differently, and the search is then
// unsound. The stateful strategy's audit mode looks for such merges.
//
// The digest is two 64-bit lanes mixed independently (not cryptographic). Assuming it behaves as
// a random function, n distinct states collide with probability at most n^2 / 2^129.
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace interleave {

struct Fingerprint {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  friend bool operator==(const Fingerprint&, const Fingerprint&) = default;
};

/// Accumulates the words of a state into a Fingerprint. Values are written with operator<<;
/// a container writes its size, then its elements in iteration order (so an ordered container,
/// or a vector whose order is part of the state: never a hash container, whose order depends on
/// addresses and hash seeds).
class StateHasher {
 public:
  void word(std::uint64_t w) {
    a_ = std::rotl((a_ ^ w) * 0x9E3779B97F4A7C15ULL, 31);
    b_ = std::rotl(b_ + w * 0xC2B2AE3D27D4EB4FULL, 27) * 0x165667B19E3779F9ULL;
    ++n_;
  }
  void bytes(std::string_view s) {
    word(s.size());
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, s.data() + i, 8);
      word(w);
    }
    if (i < s.size()) {
      std::uint64_t w = 0;
      std::memcpy(&w, s.data() + i, s.size() - i);
      word(w);
    }
  }
  /// The digest of the words written so far (never {0, 0}: the visited table's empty mark).
  Fingerprint digest() const {
    Fingerprint f{finish(a_ ^ n_), finish(b_ + (n_ << 1))};
    if (f.hi == 0 && f.lo == 0) f.lo = 1;
    return f;
  }

  template <class T>
    requires std::integral<T> || std::is_enum_v<T>
  StateHasher& operator<<(T v) {
    if constexpr (std::is_enum_v<T>)
      word(static_cast<std::uint64_t>(static_cast<std::underlying_type_t<T>>(v)));
    else
      word(static_cast<std::uint64_t>(v));
    return *this;
  }
  StateHasher& operator<<(std::string_view s) {
    bytes(s);
    return *this;
  }
  StateHasher& operator<<(const std::string& s) { return *this << std::string_view(s); }
  StateHasher& operator<<(const char* s) { return *this << std::string_view(s); }
  StateHasher& operator<<(const Fingerprint& f) {
    word(f.hi);
    word(f.lo);
    return *this;
  }
  template <class A, class B>
  StateHasher& operator<<(const std::pair<A, B>& p) {
    return *this << p.first << p.second;
  }
  template <class T>
  StateHasher& operator<<(const std::optional<T>& o) {
    word(o.has_value());
    if (o) *this << *o;
    return *this;
  }
  template <class T>
  StateHasher& operator<<(const std::vector<T>& v) {
    return range(v);
  }
  template <class T, class C>
  StateHasher& operator<<(const std::set<T, C>& s) {
    return range(s);
  }
  template <class K, class V, class C>
  StateHasher& operator<<(const std::map<K, V, C>& m) {
    return range(m);
  }
  /// A struct with a `void fingerprint(StateHasher&) const` member.
  template <class T>
    requires requires(const T& t, StateHasher& h) { t.fingerprint(h); }
  StateHasher& operator<<(const T& t) {
    t.fingerprint(*this);
    return *this;
  }

 private:
  template <class R>
  StateHasher& range(const R& r) {
    word(r.size());
    for (const auto& x : r)
      *this << x;
    return *this;
  }
  static std::uint64_t finish(std::uint64_t x) {  // the splitmix64 finalizer
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
  }

  std::uint64_t a_ = 0x243F6A8885A308D3ULL;
  std::uint64_t b_ = 0x13198A2E03707344ULL;
  std::uint64_t n_ = 0;
};

}  // namespace interleave
