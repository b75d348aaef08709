// Fuzz target: the scenario reader (parse_json with its limits) and the model's validation
// (parse_scenario: the envelope, the exploration keys, the model's sections and cross-field
// rules, the expectation), then the strategy the scenario asks for. docs/fuzzing.md says how
// to run it.
#include "explorer/core/input_error.hpp"
#include "explorer/core/json_reader.hpp"
#include "reports/run/exploration.hpp"
#include "reports/run/scenario.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace interleave;
  const std::string file = "fuzz.json";
  try {
    const run::Scenario s = run::parse_scenario(parse_json(fuzz::text_of(data, size), file), file,
                                      fuzz::models());
    run::make_strategy_for(s.exploration);
  } catch (const InputError&) {
    // rejected as the CLI rejects bad input: exit 2
  }
  return 0;
}
