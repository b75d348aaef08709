// Fuzz target: the incident-log reader (explorer/evidence/log_reader.hpp) on arbitrary bytes: every layout's
// scanner, continuation lines, the time arithmetic between neighbouring records and the order
// check. An input the reader rejects must be rejected with InputError (exit 2 in the CLI).
// docs/fuzzing.md says how to run it.
#include "explorer/core/input_error.hpp"
#include "explorer/evidence/log_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace interleave;
  interleave::LogLimits limits;
  limits.max_lines = 4096;
  limits.max_line_bytes = 16384;
  try {
    const LogFile log = parse_log(fuzz::text_of(data, size), "fuzz.log", limits);
    std::size_t total = 0;
    for (std::size_t i = 0; i < log.records.size(); ++i) {
      const LogRecord& r = log.records[i];
      total += r.full_message().size() + r.time.str().size();
      (void)r.time.utc_micros();
      (void)r.time.local_micros();
      if (i > 0) (void)micros_between(log.records[i - 1].time, r.time);
    }
    (void)total;
    check_log_order(log, 1'000'000);
  } catch (const InputError&) {
    // rejected as the CLI rejects bad input: exit 2
  }
  return 0;
}
