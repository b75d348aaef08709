// The Fiber lifecycle, including recycling (the engine reuses one execution's fibers for the next).
#include "explorer/core/fiber.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <stdexcept>
#include <thread>

using namespace interleave;

namespace {
struct Guard {
  int* destroyed;
  ~Guard() { ++*destroyed; }
};
}  // namespace

TEST_CASE("a recycled fiber runs its body again, from the start, on the same stack", "[fiber]") {
  StackPool pool(64 * 1024);
  std::optional<Fiber> f;
  int runs = 0;
  int yields = 0;
  const void* frame[2] = {nullptr, nullptr};
  f.emplace(pool, [&] {
    int local = 0;
    frame[runs % 2] = &local;
    ++runs;
    f->yield();
    ++yields;
  });
  for (int round = 0; round < 3; ++round) {
    CHECK(f->state() == Fiber::State::kCreated);
    f->resume();
    CHECK(f->state() == Fiber::State::kSuspended);
    f->resume();
    CHECK(f->finished());
    CHECK(runs == round + 1);
    CHECK(yields == round + 1);
    f->recycle();
  }
  CHECK(frame[0] == frame[1]);  // same stack, same frame
  CHECK(pool.mapped() == 1);
  f.reset();
}

TEST_CASE("recycling a suspended fiber unwinds it, the next run starts afresh", "[fiber]") {
  StackPool pool(64 * 1024);
  int destroyed = 0;
  int runs = 0;
  int finished_runs = 0;
  std::optional<Fiber> f;
  f.emplace(pool, [&] {
    Guard g{&destroyed};
    ++runs;
    f->yield();
    ++finished_runs;
  });
  f->resume();
  CHECK(f->state() == Fiber::State::kSuspended);
  f->recycle();  // unwinds the pending yield
  CHECK(destroyed == 1);
  CHECK(finished_runs == 0);
  CHECK(f->failure() == nullptr);
  CHECK(f->state() == Fiber::State::kCreated);
  f->resume();
  f->resume();
  CHECK(runs == 2);
  CHECK(finished_runs == 1);
  CHECK(destroyed == 2);
  f.reset();
}

TEST_CASE("a failure is captured, and recycling clears it", "[fiber]") {
  StackPool pool(64 * 1024);
  bool throw_now = true;
  Fiber f(pool, [&] {
    if (throw_now) throw std::runtime_error("boom");
  });
  f.resume();
  REQUIRE(f.finished());
  REQUIRE(f.failure() != nullptr);
  f.recycle();
  CHECK(f.failure() == nullptr);
  throw_now = false;
  f.resume();
  CHECK(f.finished());
  CHECK(f.failure() == nullptr);
}

TEST_CASE("destroying a fiber in any state ends it (destructors run, stack returned)", "[fiber]") {
  StackPool pool(64 * 1024);
  int destroyed = 0;
  {
    Fiber never_started(pool, [&] { Guard g{&destroyed}; });
  }
  CHECK(destroyed == 0);  // a Created fiber never runs its body
  {
    std::optional<Fiber> f;
    f.emplace(pool, [&] {
      Guard g{&destroyed};
      f->yield();
    });
    f->resume();
    f.reset();  // Suspended
  }
  CHECK(destroyed == 1);
  {
    Fiber f(pool, [&] { Guard g{&destroyed}; });
    f.resume();  // Finished and parked
    CHECK(f.finished());
  }
  CHECK(destroyed == 2);
  {
    Fiber f(pool, [&] { Guard g{&destroyed}; });
    f.resume();
    f.recycle();  // Created again, on a parked context
  }
  CHECK(destroyed == 3);
  CHECK(pool.mapped() == 1);  // each fiber gave its stack back to the pool
}

TEST_CASE("an ended pool's stacks are taken by the next pool on the thread", "[fiber]") {
  const void* first = nullptr;
  std::size_t cached_before = 0;
  for (int round = 0; round < 2; ++round) {
    if (round == 1) {
      cached_before = StackPool::cached();
      REQUIRE(cached_before >= 1);  // round 0's stack is in it
    }
    StackPool pool(64 * 1024);
    const void* frame = nullptr;
    std::optional<Fiber> f;
    f.emplace(pool, [&] {
      int local = 0;
      frame = &local;
    });
    if (round == 1) CHECK(StackPool::cached() == cached_before - 1);  // taken from the cache
    f->resume();
    CHECK(f->finished());
    f.reset();
    CHECK(pool.mapped() == 1);
    if (round == 0) first = frame;
    else CHECK(frame == first);  // the same stack
  }
  // Each pool's stack went back to the cache when the pool ended.
  CHECK(StackPool::cached() >= 1);
}

TEST_CASE("a pool that outlives its thread's cache unmaps its own stacks", "[fiber]") {
  // A function-local static is destroyed after the main thread's thread_local objects: its
  // destructor must not use the cache (under AddressSanitizer that would be a use after free).
  {
    StackPool early(64 * 1024);  // leaves a stack in the cache: its table is allocated
    Fiber g(early, [] {});
    g.resume();
  }
  REQUIRE(StackPool::cached() >= 1);
  static StackPool late(64 * 1024);
  std::optional<Fiber> f;
  f.emplace(late, [] {});
  f->resume();
  CHECK(f->finished());
  f.reset();
  // A pool on a thread of its own: the thread's cache is emptied (its stacks unmapped) when the
  // thread ends.
  std::thread t([] {
    StackPool pool(64 * 1024);
    Fiber g(pool, [] {});
    g.resume();
  });
  t.join();
  CHECK(late.mapped() == 1);
}
