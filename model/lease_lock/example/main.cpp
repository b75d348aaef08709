// The lease lock's own checker, out of tree: the generic command line of the installed package
// with one model registered. docs/writing-a-model.md ("Out of tree") builds it; installed, with
// the model's sources and scenarios, in share/interleave/examples/lease-lock.
#include "model/lease_lock/lease_lock.hpp"
#include "reports/cli/cli.hpp"

#include <iostream>

int main(int argc, char** argv) {
  interleave::ModelRegistry models;
  models.add(interleave::lease_lock::make_lease_lock_driver());
  interleave::cli::CliEnvironment env;
  env.tool_version = "lease-lock-checker 1.0";
  return interleave::cli::run_cli({argv + 1, argv + argc}, models, env, std::cout, std::cerr);
}
