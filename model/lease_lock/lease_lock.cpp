// The program: the two services of Kleppmann's figure, each owning its shared object (its state,
// Checked against the accesses its operations declare, one step each), the actors (clients, the
// lease clock).
#include "model/lease_lock/lease_lock.hpp"

#include "explorer/core/checked.hpp"
#include "explorer/core/execution.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

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
struct LockState {
  int holder = 0;                      // the lease in force, 0: none
  std::vector<std::string> owner;      // owner[g - 1]: the client granted lease g
  std::vector<std::string> believers;  // clients between their acquire and their release

  std::string lease_name(int g) const {
    return owner[static_cast<std::size_t>(g - 1)] + "'s lease " + std::to_string(g);
  }
  void fingerprint(StateHasher& h) const { h << holder << owner << believers; }  // stateful
};

class LockService {
 public:
  LockService(Execution& ex, std::size_t clients) : state_(ex, "lock"), clients_(clients) {}

  /// Blocks while a lease is in force, then grants the next one and returns its number.
  int acquire(Actor& a) {
    a.wait_until("acquire", {read_modify_write(state_.id())},
                 [this] { return state_.peek().holder == 0; });
    LockState& s = state_.write(a);
    if (!s.believers.empty()) a.cover(kTwoClientsHoldTheLock.name);
    s.owner.push_back(a.name());
    s.holder = static_cast<int>(s.owner.size());
    if (a.tracing())
      a.note(log_patterns().render("lease_granted", {{"lease", std::to_string(s.holder)}}) +
             (s.believers.empty() ? "" : "; " + s.believers.front() + " still believes it holds"));
    s.believers.push_back(a.name());
    return s.holder;
  }
  /// Whether `lease` is still in force (what a client may ask before it writes).
  bool check(Actor& a, int lease) {
    a.step("check", {read(state_.id())});
    const LockState& s = state_.read(a);
    if (a.tracing()) a.note(s.holder == lease ? "its lease holds" : "its lease expired");
    return s.holder == lease;
  }
  /// The end of a client's critical section: compare-and-delete, or a plain DEL.
  void release(Actor& a, int lease, bool plain_delete) {
    a.step("release", {read_modify_write(state_.id())});
    LockState& s = state_.write(a);
    s.believers.erase(std::find(s.believers.begin(), s.believers.end(), a.name()));
    const bool other = s.holder != lease && s.holder != 0;  // another client's lease is in force
    if (a.tracing() && other)
      a.note((plain_delete ? "DEL: deleted " : "left alone: ") + s.lease_name(s.holder));
    if (other && plain_delete)
      a.violation(kReleasedAnotherClientsLock.name,
                  a.name() + " deleted the lock while " + s.lease_name(s.holder) + " held it");
    if (a.tracing() && !other) a.note(s.holder == 0 ? "no lock to delete" : "deleted its lock");
    if (!other || plain_delete) s.holder = 0;
  }
  /// The lease clock: waits until a lease is in force, and expires it (true), or until every
  /// client has released (false).
  bool expire(Actor& a) {
    a.wait_until("expire", {read_modify_write(state_.id())}, [this] {
      const LockState& s = state_.peek();
      return s.holder != 0 || (s.believers.empty() && s.owner.size() == clients_);
    });
    LockState& s = state_.write(a);
    if (s.holder == 0) return false;
    if (a.tracing()) a.note(s.lease_name(s.holder) + " expired");
    s.holder = 0;
    return true;
  }

  void fingerprint(StateHasher& h) const { state_.fingerprint(h); }  // for the stateful search

 private:
  Checked<LockState> state_;
  std::size_t clients_;
};

// The storage service the lock protects: one file, the shared object "storage". With fencing
// tokens, a write whose lease number is lower than one already accepted is rejected.
struct StoredFile {
  std::pair<int, std::string> data{0, ""};    // the lease the file was written under, by whom
  std::pair<int, std::string> newest{0, ""};  // the newest lease accepted: with fencing, the
                                              // highest token seen; without, a ghost
  void fingerprint(StateHasher& h) const { h << data << newest; }  // for the stateful search
};

class Storage {
 public:
  Storage(Execution& ex, bool fencing) : file_(ex, "storage"), fencing_(fencing) {}
  ObjectId id() const { return file_.id(); }

  /// Writes the client's data under `lease` (with fencing, reading the highest token first).
  void write(Actor& a, int lease) {
    a.step("write", {Access{id(), fencing_ ? AccessKind::kReadModifyWrite : AccessKind::kWrite}});
    StoredFile& f = file_.write(a);
    if (lease < f.newest.first) a.cover(kStaleWriteAfterNewerWrite.name);
    if (fencing_ && lease < f.newest.first) {
      if (a.tracing())
        a.note(log_patterns().render("write_rejected", {{"lease", std::to_string(lease)}}));
      return;
    }
    f.data = {lease, a.name()};
    if (lease > f.newest.first) f.newest = f.data;
    if (a.tracing())
      a.note(log_patterns().render("write_accepted", {{"lease", std::to_string(lease)}}));
  }
  /// The check of kStaleWriteOverwroteNewer.
  Check holds_newest() const {
    const StoredFile& f = file_.peek();
    if (f.data == f.newest) return std::nullopt;
    return "the storage holds " + f.data.second + "'s data (lease " +
           std::to_string(f.data.first) + "), written after " + f.newest.second +
           "'s under the newer lease " + std::to_string(f.newest.first);
  }

  void fingerprint(StateHasher& h) const { file_.fingerprint(h); }  // for the stateful search

 private:
  Checked<StoredFile> file_;
  bool fencing_;
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
