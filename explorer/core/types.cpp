#include "explorer/core/types.hpp"

namespace interleave {

std::string_view to_string(AccessKind kind) {
  switch (kind) {
    case AccessKind::kRead:
      return "read";
    case AccessKind::kWrite:
      return "write";
    case AccessKind::kReadModifyWrite:
      return "read-modify-write";
    case AccessKind::kAcquire:
      return "acquire";
    case AccessKind::kRelease:
      return "release";
    case AccessKind::kAcquireShared:
      return "acquire-shared";
    case AccessKind::kReleaseShared:
      return "release-shared";
    case AccessKind::kWait:
      return "wait";
  }
  return "unknown";
}

AccessKind access_kind_from_string(std::string_view name) {
  for (auto k : {AccessKind::kRead, AccessKind::kWrite, AccessKind::kReadModifyWrite,
                 AccessKind::kAcquire, AccessKind::kRelease, AccessKind::kAcquireShared,
                 AccessKind::kReleaseShared, AccessKind::kWait}) {
    if (to_string(k) == name) return k;
  }
  throw std::invalid_argument("unknown access kind '" + std::string(name) + "'");
}

Label LabelStore::intern(std::string_view text) {
  auto it = texts_.find(text);
  if (it == texts_.end()) it = texts_.emplace(text).first;
  return Label(it->data(), it->size());
}

AccessList AccessListStore::intern(std::span<const Access> accesses) {
  auto it = lists_.find(accesses);
  if (it == lists_.end()) it = lists_.emplace(accesses.begin(), accesses.end()).first;
  return AccessList(it->data(), it->size());
}

}  // namespace interleave
