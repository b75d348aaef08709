// Fibers: a thin wrapper over boost::context::fiber with an explicit lifecycle and pooled,
// guard-paged stacks. The engine runs every actor on its own Fiber; the scheduler resumes it and
// the actor yields back at each scheduling point.
#pragma once

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define INTERLEAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INTERLEAVE_ASAN 1
#endif
#endif
#if defined(INTERLEAVE_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

namespace interleave {

/// A pool of fixed-size stacks, each with a guard page below it (a stack overflow faults instead
/// of corrupting memory). Stacks are reused across executions: after warm-up an execution
/// allocates no stack memory. A destroyed pool hands its stacks to a per-thread cache (at most 256,
/// one size), which the next pool on the thread takes from before mapping new ones. Not
/// thread-safe: one pool per Explorer.
class StackPool {
 public:
  explicit StackPool(std::size_t stack_size);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sctx) noexcept;

  std::size_t stack_size() const { return size_; }
  /// Stacks this pool holds (in use + free), mapped for it or taken from the per-thread cache:
  /// bounded by the peak number of live fibers.
  std::size_t mapped() const { return mapped_; }
  /// Stacks in this thread's cache, waiting for the next pool.
  static std::size_t cached();

 private:
  std::size_t size_;  // usable bytes, page-rounded, without the guard page
  std::size_t mapped_ = 0;
  std::vector<boost::context::stack_context> free_;
};

/// Thrown inside a fiber that is being destroyed while suspended, to unwind its stack. Actor code
/// must let it propagate (a catch (...) must rethrow).
struct FiberUnwind {};

/// A coroutine with an explicit lifecycle:
///   Created --resume--> Running --yield--> Suspended --resume--> Running ... --> Finished
///   Finished or Suspended --recycle--> Created (the same body runs again on the same stack).
/// An exception escaping the body is captured (state Finished, failure() set) and never crosses
/// the context switch. Destroying (or recycling) a Suspended fiber unwinds its stack (destructors
/// run) by making its pending yield() throw FiberUnwind; destroying a Created one never runs its
/// body. A finished body leaves its context parked on its stack, so that recycle() makes a new run
/// cost no context creation, no stack hand-over and no exit switch (the engine recycles the fibers
/// of one execution's actors for the next).
class Fiber {
 public:
  enum class State { kCreated, kRunning, kSuspended, kFinished };

  Fiber(StackPool& pool, std::function<void()> body);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // resume() and yield() are inline on purpose: a context switch defeats the CPU's return-address
  // prediction, so every call level between the switch and the loop that drives it costs a
  // mispredicted return on each step.

  /// Scheduler side: run the fiber until it yields or finishes.
  void resume() {
    state_ = State::kRunning;
#if defined(INTERLEAVE_ASAN)
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, stack_bottom_, stack_size_);
#endif
    self_ = std::move(self_).resume();
#if defined(INTERLEAVE_ASAN)
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
    if (state_ != State::kFinished) state_ = State::kSuspended;
  }
  /// Fiber side: return control to whoever resumed this fiber. Throws FiberUnwind when the fiber
  /// is resumed only to be destroyed.
  void yield() {
    park();
    if (unwinding_) [[unlikely]]
      throw FiberUnwind{};
  }

  State state() const {
    return state_;
  }
  bool finished() const {
    return state_ == State::kFinished;
  }
  /// The exception that escaped the body, if any.
  std::exception_ptr failure() const {
    return failure_;
  }
  /// Makes the fiber Created again, to run its body once more: a Suspended body is unwound first.
  void recycle();

 private:
  struct PoolAllocator;
  // The context's loop: run the body, park, and again, until retired.
  boost::context::fiber run(boost::context::fiber&& caller);
  // Fiber side: switch to the resumer (the whole of yield(); also where a finished body's context
  // waits to be recycled); returns when resumed.
  void park() {
#if defined(INTERLEAVE_ASAN)
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, caller_bottom_, caller_size_);
#endif
    caller_ = std::move(caller_).resume();
#if defined(INTERLEAVE_ASAN)
    __sanitizer_finish_switch_fiber(fake_stack, &caller_bottom_, &caller_size_);
#endif
  }
  State state_ = State::kCreated;
  bool unwinding_ = false;  // the pending yield() throws FiberUnwind
  bool retiring_ = false;   // the context ends instead of running the body (again)
  std::function<void()> body_;
  std::exception_ptr failure_;
  boost::context::fiber self_;    // the suspended fiber (valid unless Running or Finished)
  boost::context::fiber caller_;  // the scheduler's continuation (valid while Running)
  // Stack bounds for AddressSanitizer's fiber annotations.
  const void* stack_bottom_ = nullptr;
  std::size_t stack_size_ = 0;
#if defined(INTERLEAVE_ASAN)
  const void* caller_bottom_ = nullptr;
  std::size_t caller_size_ = 0;
#endif
};

}  // namespace interleave
