// The program: the two services of Kleppmann's figure, each owning its shared object and declaring
// the accesses of its operations (one step each), the actors (clients, the lease clock).
#include "model/lease_lock/lease_lock.hpp"

#include "explorer/execution.hpp"

#include <algorithm>

namespace interleave::lease_lock {

const LogPatternTable& log_patterns() {
  static const std::string kSource =
      "hypothetical: the lease-lock model follows Kleppmann's figure, not a program's source";
  static const LogPatternTable table({
      {"lease_granted", "INFO", "LockService", kSource, "granted lease {lease:int}", "acquire", 1},
      {"write_accepted", "INFO", "Storage", kSource, "wrote under lease {lease:int}", "write", 2},
      {"write_rejected", "WARN", "Storage", kSource, "token {lease:int} rejected", "write", 3},
  });
  return table;
}

namespace {

// The lock service (a Redis key set with NX and PX, a Chubby lock, a ZooKeeper node): one lock,
// the shared object "lock". Lease g is the g-th grant, and g is its fencing token (Chubby's lock
// generation number). An expired lease is gone, as a Redis key whose PX has elapsed.
class LockService {
 public:
  LockService(Execution& ex, std::size_t clients) : id_(ex.object("lock")), clients_(clients) {}

  /// Blocks while a lease is in force, then grants the next one and returns its number.
  int acquire(Actor& a) {
    a.wait_until("acquire", {read_modify_write(id_)}, [this] { return holder_ == 0; });
    if (!believers_.empty()) a.cover(kTwoClientsHoldTheLock.name);
    owner_.push_back(a.name());
    holder_ = static_cast<int>(owner_.size());
    if (a.tracing())
      a.note(log_patterns().render("lease_granted", {{"lease", std::to_string(holder_)}}) +
             (believers_.empty() ? "" : "; " + believers_.front() + " still believes it holds"));
    believers_.push_back(a.name());
    return holder_;
  }
  /// Whether `lease` is still in force (what a client may ask before it writes).
  bool check(Actor& a, int lease) {
    a.step("check", {read(id_)});
    if (a.tracing()) a.note(holder_ == lease ? "its lease holds" : "its lease expired");
    return holder_ == lease;
  }
  /// The end of a client's critical section: compare-and-delete, or a plain DEL.
  void release(Actor& a, int lease, bool plain_delete) {
    a.step("release", {read_modify_write(id_)});
    believers_.erase(std::find(believers_.begin(), believers_.end(), a.name()));
    const bool other = holder_ != lease && holder_ != 0;  // another client's lease is in force
    if (a.tracing() && other)
      a.note((plain_delete ? "DEL: deleted " : "left alone: ") + lease_name(holder_));
    if (other && plain_delete)
      a.violation(kReleasedAnotherClientsLock.name,
                  a.name() + " deleted the lock while " + lease_name(holder_) + " held it");
    if (a.tracing() && !other) a.note(holder_ == 0 ? "no lock to delete" : "deleted its lock");
    if (!other || plain_delete) holder_ = 0;
  }
  /// The lease clock: waits until a lease is in force, and expires it (true), or until every
  /// client has released (false).
  bool expire(Actor& a) {
    a.wait_until("expire", {read_modify_write(id_)}, [this] {
      return holder_ != 0 || (believers_.empty() && owner_.size() == clients_);
    });
    if (holder_ == 0) return false;
    if (a.tracing()) a.note(lease_name(holder_) + " expired");
    holder_ = 0;
    return true;
  }

  void fingerprint(StateHasher& h) const { h << holder_ << owner_ << believers_; }  // stateful
 private:
  std::string lease_name(int g) const {
    return owner_[static_cast<std::size_t>(g - 1)] + "'s lease " + std::to_string(g);
  }
  ObjectId id_;
  std::size_t clients_;
  int holder_ = 0;                      // the lease in force, 0: none
  std::vector<std::string> owner_;      // owner_[g - 1]: the client granted lease g
  std::vector<std::string> believers_;  // clients between their acquire and their release
};

// The storage service the lock protects: one file, the shared object "storage". With fencing
// tokens, a write whose lease number is lower than one already accepted is rejected.
class Storage {
 public:
  Storage(Execution& ex, bool fencing) : id_(ex.object("storage")), fencing_(fencing) {}
  ObjectId id() const { return id_; }

  /// Writes the client's data under `lease` (with fencing, reading the highest token first).
  void write(Actor& a, int lease) {
    a.step("write", {Access{id_, fencing_ ? AccessKind::kReadModifyWrite : AccessKind::kWrite}});
    if (lease < newest_.first) a.cover(kStaleWriteAfterNewerWrite.name);
    if (fencing_ && lease < newest_.first) {
      if (a.tracing())
        a.note(log_patterns().render("write_rejected", {{"lease", std::to_string(lease)}}));
      return;
    }
    data_ = {lease, a.name()};
    if (lease > newest_.first) newest_ = data_;
    if (a.tracing())
      a.note(log_patterns().render("write_accepted", {{"lease", std::to_string(lease)}}));
  }
  /// The check of kStaleWriteOverwroteNewer.
  Check holds_newest() const {
    if (data_ == newest_) return std::nullopt;
    return "the storage holds " + data_.second + "'s data (lease " + std::to_string(data_.first) +
           "), written after " + newest_.second + "'s under the newer lease " +
           std::to_string(newest_.first);
  }

  void fingerprint(StateHasher& h) const { h << data_ << newest_; }  // for the stateful search
 private:
  ObjectId id_;
  bool fencing_;
  std::pair<int, std::string> data_{0, ""};    // the lease the file was written under, by whom
  std::pair<int, std::string> newest_{0, ""};  // the newest lease accepted: with fencing, the
                                               // highest token seen; without, a ghost
};

// A client: acquire; then the process may pause (a stop-the-world GC, a page fault): an untimed
// model needs no step for it, the scheduler just runs the others meanwhile; optionally check the
// lease; write; release, in a finally block (always). Its local state is its lease.
void client(Actor& a, const Config& cfg, LockService& lock, Storage& storage) {
  int lease = 0;
  a.declare_locals(lease);
  lease = lock.acquire(a);
  if (!cfg.check_lease_before_write || lock.check(a, lease)) storage.write(a, lease);
  lock.release(a, lease, cfg.plain_delete);
}

}  // namespace

Program make_program(const Config& cfg) {
  return [cfg](Execution& ex) {
    auto& lock = ex.make<LockService>(ex, static_cast<std::size_t>(cfg.clients));
    auto& storage = ex.make<Storage>(ex, cfg.fencing_tokens);
    for (int i = 1; i <= cfg.clients; ++i)
      ex.spawn("client" + std::to_string(i),
               [cfg, &lock, &storage](Actor& a) { client(a, cfg, lock, storage); });
    if (cfg.lease_expiries > 0)
      ex.spawn("lock_service", [&lock, n = cfg.lease_expiries](Actor& a) {
        int i = 0;
        a.declare_locals(i);
        for (; i < n; ++i)
          if (!lock.expire(a)) return;
      });
    ex.fingerprint([&lock, &storage](StateHasher& h) { h << lock << storage; });
    ex.invariant(std::string(kStaleWriteOverwroteNewer.name), {storage.id()},
                 [&storage] { return storage.holds_newest(); });
  };
}

}  // namespace interleave::lease_lock
