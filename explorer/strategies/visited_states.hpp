// The visited table of the stateful strategy (stateful.hpp): the fingerprint of every state it has
// explored, with the sleep set it was explored under. Open addressing with linear probing over a
// power-of-two array of 24-byte entries, grown by doubling up to a memory bound; past the bound no
// new state is stored (the search goes on without caching them: still complete, slower).
#pragma once

#include "explorer/core/fingerprint.hpp"
#include "explorer/core/types.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace interleave {

class VisitedStates {
 public:
  /// What visit() found.
  enum class Seen : std::uint8_t {
    kNew,       ///< not there before: stored with the sleep set given
    kCovered,   ///< explored before under a sleep set included in this one: nothing new below
    kReopened,  ///< explored before under a sleep set with actors this one lacks: explore again;
                ///< the stored sleep set is now the intersection of the two
    kUnstored,  ///< not there, and the table is at its memory bound: not stored
  };

  /// `max_bytes`: the most the table's array may take (at least one initial array is always
  /// allocated).
  explicit VisitedStates(std::size_t max_bytes) : max_bytes_(max_bytes) { slots_.resize(kInitial); }

  Seen visit(const Fingerprint& fp, ActorSet sleep) {
    if (Entry* e = find(fp)) {
      if ((e->sleep & ~sleep.bits()) == 0) return Seen::kCovered;
      e->sleep &= sleep.bits();
      return Seen::kReopened;
    }
    if ((count_ + 1) * 4 > slots_.size() * 3 && !grow()) {
      ++unstored_;
      return Seen::kUnstored;
    }
    insert(Entry{fp.hi, fp.lo, sleep.bits()});
    ++count_;
    return Seen::kNew;
  }

  /// States stored.
  std::size_t size() const { return count_; }
  /// Bytes of the table's array.
  std::size_t bytes() const { return slots_.size() * sizeof(Entry); }
  /// Visits of new states that were not stored because the table was at its bound.
  std::uint64_t unstored() const { return unstored_; }

 private:
  struct Entry {
    std::uint64_t hi = 0;
    std::uint64_t lo = 0;  // {0, 0}: empty (StateHasher::digest never gives it)
    std::uint64_t sleep = 0;
  };
  static constexpr std::size_t kInitial = 1 << 12;

  Entry* find(const Fingerprint& fp) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = fp.lo & mask;; i = (i + 1) & mask) {
      Entry& e = slots_[i];
      if (e.hi == 0 && e.lo == 0) return nullptr;
      if (e.hi == fp.hi && e.lo == fp.lo) return &e;
    }
  }
  void insert(const Entry& entry) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = entry.lo & mask;
    while (slots_[i].hi != 0 || slots_[i].lo != 0)
      i = (i + 1) & mask;
    slots_[i] = entry;
  }
  bool grow() {
    if (slots_.size() * 2 * sizeof(Entry) > max_bytes_) return false;
    std::vector<Entry> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Entry& e : old)
      if (e.hi != 0 || e.lo != 0) insert(e);
    return true;
  }

  std::vector<Entry> slots_;
  std::size_t count_ = 0;
  std::size_t max_bytes_;
  std::uint64_t unstored_ = 0;
};

}  // namespace interleave
