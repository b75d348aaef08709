// Ready-made shared objects on top of Actor::step / Actor::wait_until: a shared value, a mutex and
// a reader-writer lock. Each operation is one visible step with the access kind it performs.
// Create them with Execution::make, e.g. `auto& m = exec.make<Mutex>(exec, "db_lock");`.
#pragma once

#include "explorer/core/execution.hpp"

#include <concepts>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>

namespace interleave {

namespace detail {
template <class T>
concept Streamable = requires(std::ostream& os, const T& v) {
  os << v;
};

template <class T>
void note_value(Actor& a, std::string_view verb, const std::string& object, const T& v) {
  if (!a.tracing()) return;
  std::ostringstream os;
  os << verb << ' ' << object;
  if constexpr (Streamable<T>) os << " = " << v;
  a.note(os.str());
}
}  // namespace detail

/// A shared value of type T. read/write/update are scheduling points; peek() is not (it is for
/// invariants and state dumps, which run between steps).
template <class T>
class Shared {
 public:
  Shared(Execution& exec, std::string_view name, T initial = T{})
      : exec_(&exec), id_(exec.object(name)), value_(std::move(initial)) {}

  const T& read(Actor& a, Label label) {
    a.step(label, {interleave::read(id_)});
    if (a.tracing()) detail::note_value(a, "read", name(), value_);
    return value_;
  }
  void write(Actor& a, Label label, T v) {
    a.step(label, {interleave::write(id_)});
    value_ = std::move(v);
    if (a.tracing()) detail::note_value(a, "write", name(), value_);
  }
  /// Applies f to the value in one atomic read-modify-write step; returns what f returns.
  template <class F>
  decltype(auto) update(Actor& a, Label label, F&& f) {
    a.step(label, {read_modify_write(id_)});
    if constexpr (std::is_void_v<decltype(f(value_))>) {
      f(value_);
      if (a.tracing()) detail::note_value(a, "update", name(), value_);
    } else {
      decltype(auto) r = f(value_);
      if (a.tracing()) detail::note_value(a, "update", name(), value_);
      return r;
    }
  }
  /// Blocks until pred(value) holds, then observes the value.
  template <class Pred>
  const T& wait_until(Actor& a, Label label, Pred pred) {
    a.wait_until(label, {Access{id_, AccessKind::kWait}}, [this, &pred] { return pred(value_); });
    return value_;
  }

  const T& peek() const { return value_; }
  ObjectId id() const { return id_; }
  const std::string& name() const { return exec_->object_name(id_); }
  /// Writes the value into a state fingerprint (explorer/core/fingerprint.hpp).
  void fingerprint(StateHasher& h) const { h << value_; }

 private:
  Execution* exec_;
  ObjectId id_;
  T value_;
};

/// A non-recursive mutex. lock() blocks while another actor holds it; unlocking a mutex the actor
/// does not hold is an actor failure.
class Mutex {
 public:
  Mutex(Execution& exec, std::string_view name) : exec_(&exec), id_(exec.object(name)) {
    exec.describe_object(id_, [this] {
      return owner_ == kNoActor ? std::string("free") : "held by " + exec_->actor(owner_).name();
    });
  }

  void lock(Actor& a, Label label) {
    if (owner_ == a.id()) a.fail("locks " + exec_->object_name(id_) + " which it already holds");
    a.wait_until(label, {Access{id_, AccessKind::kAcquire}}, [this] { return owner_ == kNoActor; });
    owner_ = a.id();
  }
  void unlock(Actor& a, Label label) {
    a.step(label, {Access{id_, AccessKind::kRelease}});
    if (owner_ != a.id()) a.fail("unlocks " + exec_->object_name(id_) + " which it does not hold");
    owner_ = kNoActor;
  }
  ActorId owner() const { return owner_; }
  ObjectId id() const { return id_; }
  /// Writes the holder into a state fingerprint.
  void fingerprint(StateHasher& h) const { h << owner_; }

 private:
  Execution* exec_;
  ObjectId id_;
  ActorId owner_ = kNoActor;  // invariant: kNoActor or the one actor inside the critical section
};

/// A reader-writer lock (as java.util.concurrent ReentrantReadWriteLock without reentrancy):
/// many readers or one writer.
class RwLock {
 public:
  RwLock(Execution& exec, std::string_view name) : exec_(&exec), id_(exec.object(name)) {
    exec.describe_object(id_, [this] {
      if (writer_ != kNoActor) return "write-held by " + exec_->actor(writer_).name();
      if (readers_.empty()) return std::string("free");
      std::string s = "read-held by";
      readers_.for_each([&](ActorId r) { s += " " + exec_->actor(r).name(); });
      return s;
    });
  }

  void lock_shared(Actor& a, Label label) {
    if (readers_.contains(a.id()) || writer_ == a.id())
      a.fail("read-locks " + exec_->object_name(id_) + " which it already holds");
    a.wait_until(label, {Access{id_, AccessKind::kAcquireShared}},
                 [this] { return writer_ == kNoActor; });
    readers_.insert(a.id());
  }
  void unlock_shared(Actor& a, Label label) {
    a.step(label, {Access{id_, AccessKind::kReleaseShared}});
    if (!readers_.contains(a.id()))
      a.fail("read-unlocks " + exec_->object_name(id_) + " which it does not hold");
    readers_.erase(a.id());
  }
  void lock(Actor& a, Label label) {
    if (readers_.contains(a.id()) || writer_ == a.id())
      a.fail("write-locks " + exec_->object_name(id_) + " which it already holds");
    a.wait_until(label, {Access{id_, AccessKind::kAcquire}},
                 [this] { return writer_ == kNoActor && readers_.empty(); });
    writer_ = a.id();
  }
  void unlock(Actor& a, Label label) {
    a.step(label, {Access{id_, AccessKind::kRelease}});
    if (writer_ != a.id())
      a.fail("write-unlocks " + exec_->object_name(id_) + " which it does not hold");
    writer_ = kNoActor;
  }
  ObjectId id() const { return id_; }
  /// Writes the holders into a state fingerprint.
  void fingerprint(StateHasher& h) const { h << writer_ << readers_.bits(); }

 private:
  Execution* exec_;
  ObjectId id_;
  ActorId writer_ = kNoActor;
  ActorSet readers_;
};

}  // namespace interleave
