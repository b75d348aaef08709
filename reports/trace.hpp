// The counterexample trace document: what `interleave check` writes when it finds a violation and
// what `replay` and `show` read. Self-contained: it carries the scenario it came from, so it can
// be replayed and rendered without anything else. Schema: reports/trace.schema.json.
#pragma once

#include "explorer/explorer.hpp"
#include "explorer/stats.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace interleave::reports {

struct TraceDocument {
  static constexpr int kFormatVersion = 1;

  std::string tool_version;       ///< "interleave X.Y.Z"
  std::string scenario_file;      ///< the path the scenario was read from (informative)
  nlohmann::json scenario;        ///< the scenario document itself
  std::string scenario_hash;      ///< content hash of the scenario (see scenario_hash())
  std::string strategy;           ///< strategy name
  nlohmann::json options;         ///< exploration options as used (strategy parameters, bounds)
  Counterexample counterexample;  ///< violation, schedule, readable steps, state at the violation
  Stats stats;                    ///< of the exploration that found it (wall time included)
};

/// "fnv1a64:<16 hex digits>" of the scenario's canonical JSON text (keys sorted, no spaces).
std::string scenario_hash(const nlohmann::json& scenario);

nlohmann::json to_json(const TraceDocument& doc);
/// Reads and validates a trace document. Throws InputError naming `file` and the JSON path for
/// malformed, truncated or inconsistent documents (e.g. a hash that does not match the scenario).
TraceDocument trace_from_json(const nlohmann::json& j, const std::string& file);
/// Reads a trace file (malformed JSON is an InputError too).
TraceDocument read_trace_file(const std::string& path);

}  // namespace interleave::reports
