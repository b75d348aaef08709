#include "explorer/search/workers.hpp"

#include <algorithm>

namespace interleave {

Workers::Workers(unsigned count, std::function<void(unsigned)> work,
                 std::function<void()> on_failure)
    : work_(std::move(work)), on_failure_(std::move(on_failure)) {
  threads_.reserve(count);
  for (unsigned t = 0; t < count; ++t)
    threads_.emplace_back([this, t] {
      try {
        work_(t);
      } catch (...) {
        {
          std::lock_guard lock(mutex_);
          if (!failure_) failure_ = std::current_exception();
          failed_ = true;
        }
        if (on_failure_) on_failure_();
      }
    });
}

Workers::~Workers() {
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
}

void Workers::join() {
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
  std::lock_guard lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
}

void for_each_task(unsigned threads, std::size_t tasks,
                   const std::function<void(std::size_t)>& task) {
  std::vector<std::exception_ptr> errors(tasks);
  auto run = [&](std::size_t k) {
    try {
      task(k);
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  const std::size_t n = std::min<std::size_t>(std::max(1u, threads), tasks);
  if (n <= 1) {
    for (std::size_t k = 0; k < tasks; ++k)
      run(k);
  } else {
    std::atomic<std::size_t> next{0};
    auto take = [&](unsigned) {
      for (std::size_t k = next++; k < tasks; k = next++)
        run(k);
    };
    Workers helpers(static_cast<unsigned>(n - 1), take);
    take(0);
    helpers.join();
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace interleave
