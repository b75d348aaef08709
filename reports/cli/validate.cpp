// `interleave validate SCENARIO...`: read, check and instantiate scenarios without exploring.
#include "reports/cli/commands.hpp"

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

CLI::App* add_validate(CLI::App& app, ValidateArgs& a) {
  CLI::App* c = app.add_subcommand(
      "validate", "Check scenario files (envelope, model sections, expectation) without exploring");
  c->add_option("scenarios", a.scenarios, "Scenario files, or directories searched for *.json")
      ->required()
      ->type_name("SCENARIO");
  c->footer(
      "Prints 'ok NAME (FILE)' per valid scenario and one error per invalid file.\n"
      "Exit codes: 0 all valid, 2 some invalid (or a path that does not exist), 4 internal "
      "error.\n\n"
      "Examples:\n"
      "  interleave validate scenarios/\n"
      "  interleave validate scenario.json");
  return c;
}

int run_validate(const ValidateArgs& args, const Context& ctx) {
  const std::vector<std::string> files = collect_scenario_files(args.scenarios);
  std::vector<Scenario> valid;
  bool failed = false;
  for (const auto& file : files) {
    try {
      valid.push_back(load_scenario(file, ctx.models));
    } catch (const InputError& e) {
      ctx.err << "error: " << e.what() << "\n";
      failed = true;
      continue;
    }
    try {
      check_unique_names(valid);
    } catch (const InputError& e) {
      ctx.err << "error: " << e.what() << "\n";
      failed = true;
      valid.pop_back();
      continue;
    }
    ctx.out << "ok " << valid.back().name << " (" << file << ")\n";
  }
  ctx.out << std::flush;
  return failed ? static_cast<int>(ExitCode::kBadInput) : static_cast<int>(ExitCode::kHolds);
}

}  // namespace interleave::cli
