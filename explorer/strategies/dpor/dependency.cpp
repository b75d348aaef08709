#include "explorer/strategies/dpor/dependency.hpp"

namespace interleave::detail::dpor {

bool Dependency::configure(std::span<const InvariantReads> invariants) {
  // The signature of the invariants: per invariant whether it declared its reads, then (if so)
  // their count and the reads.
  if (configured_) {  // compared in place: no allocation per execution
    std::size_t i = 0;
    auto next = [&](std::uint64_t v) { return i < signature_.size() && signature_[i++] == v; };
    for (const InvariantReads& inv : invariants) {
      if (!next(inv.declared ? 1 : 0)) return false;
      if (!inv.declared) continue;
      if (!next(inv.objects.size())) return false;
      for (const ObjectId o : inv.objects)
        if (!next(o)) return false;
    }
    return i == signature_.size();
  }
  configured_ = true;
  for (const InvariantReads& inv : invariants) {
    signature_.push_back(inv.declared ? 1 : 0);
    if (!inv.declared) continue;
    signature_.push_back(inv.objects.size());
    signature_.insert(signature_.end(), inv.objects.begin(), inv.objects.end());
  }
  if (!order_invariants_ || all_writes_) return true;
  std::size_t ghost = 0;
  for (const InvariantReads& inv : invariants) {
    if (!inv.declared) {
      // It may read anything: only a total order of the state-changing steps is enough.
      all_writes_ = true;
      ghosts_of_object_.clear();
      return true;
    }
    const std::uint32_t bit = std::uint32_t{1} << (ghost++ % kInvariantGhosts);
    for (const ObjectId o : inv.objects) {
      if (o >= ghosts_of_object_.size()) ghosts_of_object_.resize(static_cast<std::size_t>(o) + 1);
      ghosts_of_object_[o] |= bit;
    }
  }
  return true;
}

const std::vector<Access>& Dependency::wide_tracked(const Op& op, std::uint32_t ghosts) const {
  const std::span<const Access> accesses(op.begin(), op.count);
  auto it = wide_tracked_.find(accesses);
  if (it != wide_tracked_.end()) return it->second;
  std::vector<Access> list(accesses.begin(), accesses.end());
  if (ghosts == 0) list.push_back(Access{kAllWritesGhost, AccessKind::kWrite});
  for (std::uint32_t bits = ghosts; bits != 0; bits &= bits - 1)
    list.push_back(Access{invariant_ghost(static_cast<std::size_t>(std::countr_zero(bits))),
                          AccessKind::kWrite});
  return wide_tracked_.emplace(std::vector<Access>(accesses.begin(), accesses.end()),
                               std::move(list))
      .first->second;
}

}  // namespace interleave::detail::dpor
