// The interleave executable: the generic command line (reports/cli) with the models of model/.
#include "reports/cli/cli.hpp"
#include "explorer/model_api/model_driver.hpp"
#include "model/register.hpp"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  try {
    interleave::ModelRegistry models;
    interleave::register_models(models);
    interleave::cli::CliEnvironment env;
    env.tool_version = std::string("interleave ") + INTERLEAVE_VERSION;
    env.progress = ::isatty(STDERR_FILENO) == 1;
    env.progress_lines = !env.progress;  // a line every 10 s instead, for CI logs
    const std::vector<std::string> args(argv + 1, argv + argc);
    return interleave::cli::run_cli(args, models, env, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "internal error: an unknown exception\n");
  }
  return 4;
}
