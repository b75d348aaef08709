// The command-line options of the exploration keys (--strategy NAME, --seed N, --no-minimize, ...):
// one per row of the table of reports/run/exploration.hpp, with its type, range and help.
#pragma once

#include "reports/run/exploration.hpp"

#include <CLI/CLI.hpp>

namespace interleave::cli {

// The run layer's types this header speaks of.
using run::ExplorationOverrides;


/// Declares one option per key of the table on `command` (--strategy NAME, --seed N, ...), each
/// writing `overrides` when given.
void add_exploration_options(CLI::App& command, ExplorationOverrides& overrides);

}  // namespace interleave::cli
