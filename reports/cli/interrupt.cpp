#include "reports/cli/interrupt.hpp"

#include <csignal>

namespace interleave::cli {

namespace {

static_assert(std::atomic<bool>::is_always_lock_free, "the flag is set from a signal handler");
static_assert(std::atomic<int>::is_always_lock_free, "the signal is recorded from a handler");

std::atomic<bool> requested{false};
std::atomic<int> which{0};
struct sigaction previous_int {};
struct sigaction previous_term {};

void reset_to_default(int sig) {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
}

// Only async-signal-safe operations: two lock-free stores and sigaction.
extern "C" void on_interrupt(int sig) {
  which.store(sig, std::memory_order_relaxed);
  requested.store(true, std::memory_order_relaxed);
  reset_to_default(SIGINT);  // a second signal ends the process at once
  reset_to_default(SIGTERM);
}

void install(int sig, struct sigaction& previous) {
  sigaction(sig, nullptr, &previous);
  // A signal the process was started ignoring (e.g. SIGINT of a background job) stays ignored.
  if (previous.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // writes in progress are not cut short by EINTR
  sigaction(sig, &action, nullptr);
}

}  // namespace

const std::atomic<bool>& interrupt_requested() { return requested; }

std::string interrupt_signal_name() {
  switch (which.load(std::memory_order_relaxed)) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case 0:
      return "";
  }
  return "a signal";
}

std::string interruption_text() {
  const std::string name = interrupt_signal_name();
  return name.empty() ? std::string("interrupted") : "interrupted by " + name;
}

InterruptHandlers::InterruptHandlers() {
  requested.store(false);
  which.store(0);
  install(SIGINT, previous_int);
  install(SIGTERM, previous_term);
}

InterruptHandlers::~InterruptHandlers() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

}  // namespace interleave::cli
