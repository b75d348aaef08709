// A clean stop on SIGINT and SIGTERM for the commands that search (check, gate, estimate; the
// others keep the default action). While an InterruptHandlers object lives, the first SIGINT or SIGTERM only sets a flag
// (a lock-free atomic: async-signal-safe) that the explorations poll before every execution
// (ExploreOptions::stop); the search then stops at that execution boundary, the command prints
// its summary with the verdict `incomplete` (detail "interrupted"), writes its reports marked
// interrupted and exits 3 (docs/cli.md, "Interruption"). The handler restores the default action
// of both signals, so a second one ends the process at once (every file goes through
// write_file_atomically: a killed run leaves no half-written file).
//
// The handlers live in the command line, never in the engine: a program on the engine that wants
// the same passes its own flag in ExploreOptions::stop.
#pragma once

#include <atomic>
#include <string>

namespace interleave::cli {

/// The flag the handlers set. (A process has one set of signal handlers, hence one flag.)
const std::atomic<bool>& interrupt_requested();
/// "SIGINT", "SIGTERM", or "" when no signal arrived.
std::string interrupt_signal_name();
/// "interrupted by SIGINT" (or SIGTERM; "interrupted" when no signal was seen): the detail of an
/// interrupted search's verdict.
std::string interruption_text();

/// Installs the handlers (and clears the flag) for its lifetime; restores the previous ones.
class InterruptHandlers {
 public:
  InterruptHandlers();
  ~InterruptHandlers();
  InterruptHandlers(const InterruptHandlers&) = delete;
  InterruptHandlers& operator=(const InterruptHandlers&) = delete;
};

}  // namespace interleave::cli
