// The Fiber lifecycle, including recycling (the engine reuses one execution's fibers for the next).
#include "explorer/fiber.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <stdexcept>

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

TEST_CASE("recycling a suspended fiber unwinds it; the next run starts afresh", "[fiber]") {
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
