// Checked<T>: a model's shared state whose every use inside a step is checked against the accesses
// the step declared. A step that touches state it did not declare lies to DPOR (which then treats
// two steps as commuting when they do not) and the verdict with it, silently; in the checked mode
// (ExploreOptions::check_accesses, `interleave check --check-accesses`, and the tests) such a use
// stops the search with a ProgramError that names the object, the actor and the step. Off, a use
// costs one test of a flag.
//
//   auto& cache = exec.make<Checked<std::map<int, int>>>(exec, "cache");
//   a.step("invalidate", {write(cache.id())});
//   cache.write(a).erase(key);        // checked: the step declared a write of "cache"
//   exec.invariant("fresh", {cache.id()}, [&] { ... cache.peek() ... });  // outside steps
//
// A Checked value is the state; Shared<T> (explorer/core/primitives.hpp) is a value whose operations
// are steps themselves. Use Checked when one step touches several objects or does more than
// read or write one.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"

#include <string>
#include <string_view>
#include <utility>

namespace interleave {

template <class T>
class Checked {
 public:
  Checked(Execution& exec, std::string_view name, T initial = T{})
      : exec_(&exec), id_(exec.object(name)), value_(std::move(initial)) {}

  /// The value, in a step of `a` that declared an access to this object (any kind).
  const T& read(Actor& a) const {
    a.check_access(id_, /*write=*/false);
    return value_;
  }
  /// The value to change, in a step of `a` that declared an access that changes this object
  /// (write, read_modify_write, or a lock operation on it).
  T& write(Actor& a) {
    a.check_access(id_, /*write=*/true);
    return value_;
  }
  /// The value without a check: for what runs between steps (invariants, final checks, wait
  /// conditions, state dumps, fingerprints) and the program's set-up.
  const T& peek() const { return value_; }
  /// The value to change without a check: for the program's set-up, before any actor runs.
  T& unchecked() { return value_; }

  ObjectId id() const { return id_; }
  const std::string& name() const { return exec_->object_name(id_); }
  /// Writes the value into a state fingerprint.
  void fingerprint(StateHasher& h) const { h << value_; }

 private:
  Execution* exec_;
  ObjectId id_;
  T value_;
};

}  // namespace interleave
