// Fuzz target: the trace reader (parse_json with the trace's limits, trace_from_json), the
// validation `replay` and `show` do (the embedded scenario, the recorded options), every trace
// renderer, and a replay of the recorded schedule bounded to kMaxReplaySteps steps.
// docs/fuzzing.md says how to run it.
#include "explorer/search/explorer.hpp"
#include "explorer/core/input_error.hpp"
#include "explorer/core/json_reader.hpp"
#include "reports/cli/commands.hpp"
#include "reports/run/exploration.hpp"
#include "reports/render/formats.hpp"
#include "reports/trace/trace.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <algorithm>

namespace {
constexpr std::size_t kMaxReplaySteps = 2000;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace interleave;
  const std::string file = "fuzz.trace.json";
  try {
    reports::TraceDocument doc = reports::trace_from_json(
        parse_json(fuzz::text_of(data, size), file, reports::trace_json_limits()), file);
    const run::ReplayInput input = run::replay_input(std::move(doc), file, "", fuzz::models());
    for (const reports::TraceFormat& format : reports::trace_formats()) {
      (void)format.render(input.doc);
      if (format.render_full) (void)format.render_full(input.doc);
    }
    ExploreOptions options = run::explore_options_for(input.settings);
    options.max_steps = std::min(options.max_steps, kMaxReplaySteps);
    Explorer explorer(input.scenario.instance.program, options);
    (void)explorer.replay(input.doc.counterexample.schedule);
  } catch (const InputError&) {
    // rejected as the CLI rejects bad input: exit 2
  }
  return 0;
}
