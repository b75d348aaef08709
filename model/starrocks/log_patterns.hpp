// The lines StarRocks logs at the model's steps: ONE table (log_patterns.cpp) of messages as
// StarRocks formats them, with typed holes (explorer/evidence/log_pattern.hpp), the level, the logger (the
// FE class or the CN source file), the method and line the log prints and the StarRocks source
// the text was read at. A step that StarRocks logs notes the line by rendering its pattern
// (log_line), so the trace's note and the pattern a log search looks for cannot drift apart;
// `interleave show --format log` finds the lines again in the notes (explorer's logged_lines).
#pragma once

#include "explorer/evidence/log_pattern.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace interleave::model {

/// The patterns' ids.
namespace logs {
inline constexpr std::string_view kAddTemporaryTable = "add_temporary_table";
inline constexpr std::string_view kDropTemporaryTable = "drop_temporary_table";
inline constexpr std::string_view kRemoveTemporaryTables = "remove_temporary_tables";
inline constexpr std::string_view kCleanDeadSession = "clean_dead_session";
inline constexpr std::string_view kAddShard = "add_shard";
inline constexpr std::string_view kSchemaNotFound = "schema_not_found";
inline constexpr std::string_view kFailToWrite = "fail_to_write";
inline constexpr std::string_view kFailToFinishWrite = "fail_to_finish_write";
inline constexpr std::string_view kFailToFinishTablet = "fail_to_finish_tablet";
}  // namespace logs

/// The table, in a fixed order, compiled once (a malformed pattern is a ProgramError).
const LogPatternTable& starrocks_log_patterns();

/// The message of the pattern `id` with `values`: what the step notes. An unknown id, a missing
/// value or one its hole's type rejects throws ProgramError.
std::string log_line(std::string_view id, const std::vector<LogBinding>& values);

/// The UUID StarRocks would print for the model's session `name` (a ConnectContext's session id):
/// a fixed function of the name (FNV-1a), formatted 8-4-4-4-12 as a version-4 UUID, so that the
/// same session prints the same UUID in every run.
std::string session_uuid(std::string_view name);

}  // namespace interleave::model
