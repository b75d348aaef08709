// The interleave command line.
#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"interleave: a deterministic interleaving explorer (stateless model checker)"};
  app.set_version_flag("--version", std::string("interleave ") + INTERLEAVE_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  std::cout << app.help();
  return 0;
}
