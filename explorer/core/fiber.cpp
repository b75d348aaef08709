#include "explorer/core/fiber.hpp"

#include <boost/context/protected_fixedsize_stack.hpp>

#include <cstdio>
#include <new>
#include <utility>

namespace interleave {

namespace ctx = boost::context;

namespace {
// Stacks a finished Explorer's pool gave back, kept mapped for the next pool on this thread (a
// gate over many scenarios, a test suite, a benchmark): mapping a guard-paged stack and faulting
// its first pages in costs microseconds per actor, as much as the whole exploration of a small
// program. At most kCachedStacks, all of one size (a pool of another size empties it first).
constexpr std::size_t kCachedStacks = 256;

// Set when the thread's cache is destroyed: a pool destroyed after it (an Explorer with static
// storage outliving the main thread's thread_local objects) unmaps its stacks itself.
thread_local bool t_cache_gone = false;

struct StackCache {
  std::vector<ctx::stack_context> stacks;
  StackCache() = default;
  StackCache(const StackCache&) = delete;
  StackCache& operator=(const StackCache&) = delete;
  ~StackCache() {
    clear();
    t_cache_gone = true;
  }
  void clear() noexcept {
    for (auto& s : stacks)
      ctx::protected_fixedsize_stack().deallocate(s);
    stacks.clear();
  }
};

thread_local StackCache t_cache;

// The mapped size (guard page included) of a stack of `usable` bytes, as boost::context maps it.
std::size_t mapped_size(std::size_t usable) {
  return usable + ctx::stack_traits::page_size();
}
}  // namespace

StackPool::StackPool(std::size_t stack_size) {
  const std::size_t page = ctx::stack_traits::page_size();
  size_ = (stack_size + page - 1) / page * page;
  if (size_ < ctx::stack_traits::minimum_size()) size_ = ctx::stack_traits::minimum_size();
}

StackPool::~StackPool() {
  ctx::protected_fixedsize_stack alloc(size_);
  if (t_cache_gone) {
    for (auto& s : free_)
      alloc.deallocate(s);
    return;
  }
  StackCache& cache = t_cache;
  if (!cache.stacks.empty() && cache.stacks.front().size != mapped_size(size_)) cache.clear();
  for (auto& s : free_) {
    if (cache.stacks.size() < kCachedStacks) {  // (every stack of this pool has that size)
      try {
        cache.stacks.push_back(s);
        continue;
      } catch (const std::bad_alloc&) {
      }
    }
    alloc.deallocate(s);
  }
}

std::size_t StackPool::cached() {
  return t_cache_gone ? 0 : t_cache.stacks.size();
}

ctx::stack_context StackPool::allocate() {
  if (!free_.empty()) {
    ctx::stack_context s = free_.back();
    free_.pop_back();
    return s;
  }
  ++mapped_;
  if (!t_cache_gone) {
    StackCache& cache = t_cache;
    if (!cache.stacks.empty() && cache.stacks.back().size == mapped_size(size_)) {
      ctx::stack_context s = cache.stacks.back();
      cache.stacks.pop_back();
      return s;
    }
  }
  return ctx::protected_fixedsize_stack(size_).allocate();
}

void StackPool::deallocate(ctx::stack_context& sctx) noexcept {
  try {
    free_.push_back(sctx);
  } catch (const std::bad_alloc&) {
    ctx::protected_fixedsize_stack(size_).deallocate(sctx);
    --mapped_;
  }
}

// The StackAllocator concept boost::context expects, forwarding to a pool; it also tells the
// fiber where its stack is (for the sanitizer annotations).
struct Fiber::PoolAllocator {
  StackPool* pool;
  Fiber* fiber;
  ctx::stack_context allocate() {
    ctx::stack_context s = pool->allocate();
    fiber->stack_bottom_ = static_cast<char*>(s.sp) - s.size;
    fiber->stack_size_ = s.size;
    return s;
  }
  void deallocate(ctx::stack_context& sctx) noexcept { pool->deallocate(sctx); }
};

Fiber::Fiber(StackPool& pool, std::function<void()> body) : body_(std::move(body)) {
  self_ = ctx::fiber(std::allocator_arg, PoolAllocator{&pool, this},
                     [this](ctx::fiber&& caller) { return run(std::move(caller)); });
}

ctx::fiber Fiber::run(ctx::fiber&& caller) {
#if defined(INTERLEAVE_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, &caller_bottom_, &caller_size_);
#endif
  caller_ = std::move(caller);
  while (!retiring_) {
    if (!unwinding_) {
      try {
        body_();
      } catch (const FiberUnwind&) {
        // unwound while suspended (destroyed or recycled): nothing to report
      } catch (const ctx::detail::forced_unwind&) {
        throw;  // never swallow boost's own unwinding
      } catch (...) {
        failure_ = std::current_exception();
      }
    }
    state_ = State::kFinished;
    park();  // until recycled and resumed (the body runs again) or retired
  }
  state_ = State::kFinished;
#if defined(INTERLEAVE_ASAN)
  __sanitizer_start_switch_fiber(nullptr, caller_bottom_, caller_size_);
#endif
  return std::move(caller_);
}

void Fiber::recycle() {
  if (state_ == State::kSuspended) {
    unwinding_ = true;
    for (int attempt = 0; attempt < 3 && !finished(); ++attempt)
      resume();
    if (!finished()) {
      std::fputs(
          "interleave: an actor swallowed FiberUnwind (a catch (...) that does not rethrow)\n",
          stderr);
      std::terminate();
    }
    unwinding_ = false;
  }
  state_ = State::kCreated;
  failure_ = nullptr;
}

Fiber::~Fiber() {
  // Finish the fiber through our own (annotated) switches so that boost never has to force-unwind
  // it: a Suspended body unwinds from its pending yield(), then the context's loop ends (a Created
  // or parked context ends at once).
  if (state_ == State::kSuspended) recycle();
  if (self_) {
    retiring_ = true;
    resume();
  }
}

}  // namespace interleave
