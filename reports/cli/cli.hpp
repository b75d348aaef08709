// The `interleave` command line, generic over models: it knows scenarios, traces and strategies,
// and reaches models only through a ModelRegistry. Called in-process by tests and by model/main.
//
//   ModelRegistry models;
//   models.add(std::make_unique<MyDriver>());
//   return interleave::cli::run_cli({"check", "s.json"}, models, {"interleave 0.1.0", false},
//                                   std::cout, std::cerr);
#pragma once

#include "explorer/model_api/model_driver.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace interleave::cli {

/// The documented exit codes (docs/cli.md).
enum class ExitCode : int {
  kHolds = 0,          ///< success: every scenario holds / the command did its job
  kViolation = 1,      ///< a property is violated (check), the violation reproduces (replay)
  kBadInput = 2,       ///< bad input or usage; nothing was written
  kIncomplete = 3,     ///< no violation found but the search (or replay) could not complete
  kInternalError = 4,  ///< a bug of interleave or of a model: "internal error: ..."
};

/// What the process around the CLI knows (no environment is read deep inside).
struct CliEnvironment {
  std::string tool_version = "interleave";  ///< e.g. "interleave 0.1.0", recorded in traces
  bool progress = false;  ///< stderr is a terminal: show a progress line while exploring
  /// stderr is not a terminal: print a progress line every 10 s of a long search (CI logs).
  bool progress_lines = false;
  /// SIGINT and SIGTERM stop a search cleanly while a command runs (reports/cli/interrupt.hpp).
  bool handle_interrupts = true;
};

/// Runs one command line (`args` without the program name). Never throws: bad input gives 2 with
/// one message on `err`, anything unexpected gives 4 with "internal error: ...".
int run_cli(const std::vector<std::string>& args, const ModelRegistry& models,
            const CliEnvironment& env, std::ostream& out, std::ostream& err);

}  // namespace interleave::cli
