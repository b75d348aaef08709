// A counterexample as the log lines the modelled program would print (`interleave show --format
// log`): every line a step's notes record (explorer/evidence/log_pattern.hpp, logged_lines) against the
// model's pattern table, in step order, each in the layout of its logger:
//
// - a pattern with a method (an FE class) in fe.log's log4j2 pattern layout,
//     2025-05-16 05:10:31.962+08:00 WARN (TemporaryTableCleaner|3) [TemporaryTableCleaner.runAfterCatalogReady():83] cannot find ...
// - one without (a source file) in glog's layout, with the year,
//     W20250516 05:10:32.004001 4 table_schema_service.cpp:331] failed to get schema ...
//
// The thread is the step's actor: its name (FE) and, as the thread id, its number in order of
// first appearance in the trace (1, 2, ...). The time of a step is the trace's wall-clock origin
// plus the step's time_us when the trace has both; a timed trace without an origin starts at the
// placeholder origin 1970-01-01 00:00:00Z; an untimed trace has the placeholder origin and the
// step's index as its time in milliseconds (fe.log prints milliseconds: so the lines of both
// layouts keep the steps' order and no two steps share a time). A glog line prints no node: the
// lines of every CN are in the one stream.
#pragma once

#include "explorer/evidence/log_pattern.hpp"
#include "reports/trace/trace.hpp"

#include <string>
#include <vector>

namespace interleave::reports {

/// The log of `doc`'s counterexample under `patterns`, a line per logged line; "" when no step
/// logs one.
std::string render_log(const TraceDocument& doc, const LogPatternTable& patterns);

/// The same lines per step: element p holds the lines the step at position p printed, in order
/// (render_log is their concatenation, a newline after each).
std::vector<std::vector<std::string>> log_lines_by_step(const TraceDocument& doc,
                                                        const LogPatternTable& patterns);

}  // namespace interleave::reports
