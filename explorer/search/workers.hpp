// The engine's threads: the portfolio's rounds, the simulation's runs and a split search's jobs
// all run on Workers, which keep the first exception a thread throws (a ProgramError) and hand it
// to the caller once every thread has ended. What a thread computes never depends on which thread
// runs it (each driver says how), so the output is the same on any number of threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace interleave {

class Workers {
 public:
  /// Starts `count` threads, thread t running work(t). An exception that leaves work(t) is kept
  /// (the first one) and on_failure() is then called on that thread (e.g. to tell the others to
  /// stop), if given.
  Workers(unsigned count, std::function<void(unsigned)> work,
          std::function<void()> on_failure = {});
  /// Joins the threads (an exception kept is dropped: call join() to see it).
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  /// Whether some thread has thrown (an exception is kept).
  bool failed() const { return failed_.load(); }
  /// Waits for every thread, then rethrows the exception kept, if any.
  void join();

 private:
  std::function<void(unsigned)> work_;
  std::function<void()> on_failure_;
  std::mutex mutex_;
  std::exception_ptr failure_;
  std::atomic<bool> failed_{false};
  std::vector<std::thread> threads_;
};

/// Runs task(0) ... task(tasks - 1), each once, on at most `threads` threads (the calling thread
/// is one of them; with one thread, or one task, all run in order on the calling thread), each
/// thread taking the next task not started. After every task has ended, rethrows the exception
/// of the lowest task that threw, if any: the same whatever the threads.
void for_each_task(unsigned threads, std::size_t tasks,
                   const std::function<void(std::size_t)>& task);

}  // namespace interleave
