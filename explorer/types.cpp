#include "explorer/types.hpp"

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

namespace {
bool observes(AccessKind k) {
  return k == AccessKind::kRead || k == AccessKind::kWait;
}
bool shared_lock_op(AccessKind k) {
  return k == AccessKind::kAcquireShared || k == AccessKind::kReleaseShared;
}
}  // namespace

bool conflicts(const Access& a, const Access& b) {
  if (a.object != b.object) return false;
  if (observes(a.kind) && observes(b.kind)) return false;
  // Readers of a reader-writer lock do not exclude each other.
  if (shared_lock_op(a.kind) && shared_lock_op(b.kind)) return false;
  return true;
}

bool conflicts(const Op& a, const Op& b) {
  for (const Access& x : a)
    for (const Access& y : b)
      if (conflicts(x, y)) return true;
  return false;
}

}  // namespace interleave
