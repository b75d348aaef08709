// Reading an incident's logs: the lines a system printed, split into records with their time,
// level, thread, logger and source location, whatever layout printed them. Four layouts are
// recognised, line by line (docs/incident-logs.md has an example of each):
//
//   fe_pattern  log4j2's PatternLayout "%d{yyyy-MM-dd HH:mm:ss.SSSXXX} %p (%t|%tid) [%C{1}.%M():%L] %m"
//               2025-05-16 05:10:02.103+08:00 INFO (TemporaryTableCleaner|61) [TemporaryTableCleaner.runAfterCatalogReady():71] ...
//   fe_json     log4j2's JsonTemplateLayout, one object a line, "@timestamp" first
//               {"@timestamp":"2025-05-15 21:10:02.103Z","level":"INFO","thread.name":"...","thread.id":61,
//                "line":71,"file":"TemporaryTableCleaner.java","method":"...","message":"..."}
//   glog        "Lyyyymmdd hh:mm:ss.uuuuuu tid file:line] msg", the year optional (Lmmdd ...)
//               I20250516 05:10:14.120345 140021 table_schema_service.cpp:331] ...
//   bare        "HH:MM:SS[.fff] message", the excerpts of a bug report or a chat
//               05:10:32  table_schema_service.cpp:331 failed to get schema
//
// A line that starts no record belongs to the record before it (a stack trace, a message over
// several lines); before the first record of a file it is listed as ignored, as is a timestamped
// line in none of the layouts. A file that cannot be read as a log is bad input (InputError
// naming the file and the line): not UTF-8 text (a binary file), a timestamp that names no
// instant (month 13, 25:00), a JSON line that is not the JSON layout's object, or a file beyond
// LogLimits. The reader keeps no state between calls and is linear in the size of its input.
#pragma once

#include "explorer/core/input_error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace interleave {

/// The limits of a log file (docs/incident-logs.md, "Limits"), checked while it is read.
struct LogLimits {
  std::uint64_t max_bytes = 64ull << 20;    ///< the file's size, checked before it is read
  std::size_t max_lines = 1'000'000;        ///< lines of one file
  std::size_t max_line_bytes = 1ull << 20;  ///< bytes of one line
};

/// Which layout printed a record.
enum class LogLayout { fe_pattern, fe_json, glog, bare };
std::string_view layout_name(LogLayout layout);

/// A record's time, with exactly what its layout printed: a bare excerpt gives only the time of
/// day, glog gives the date without the year (unless it prints one) and no zone, the FE layouts
/// the full date and the offset from UTC.
struct LogTime {
  std::optional<int> year;
  std::optional<int> month;  ///< 1..12, with day
  std::optional<int> day;    ///< 1..31 (checked against the month and year)
  std::int64_t micros_of_day = 0;          ///< 0 .. 86 399 999 999
  std::optional<int> utc_offset_minutes;   ///< when the layout prints a zone ("Z" is 0)
  int fraction_digits = 0;                 ///< the precision printed: 0, 3 or 6 digits

  /// Microseconds since 1970-01-01T00:00:00Z: only with a year, a date and a zone.
  std::optional<std::int64_t> utc_micros() const;
  /// The local date and time in microseconds since 1970-01-01 (the printed fields, the zone
  /// ignored; the year taken as `default_year` when not printed); nullopt without a date.
  std::optional<std::int64_t> local_micros(int default_year = 1970) const;
  /// "2025-05-16 05:10:02.103+08:00", "0516 05:10:14.120345", "05:10:32": as printed.
  std::string str() const;
};

/// How far apart two records are in time, b minus a, in microseconds, on what both print: the
/// instants when both give a date, a year and a zone; otherwise the local dates and times when
/// both give a date (the year when only one prints it is taken from it); otherwise the times of
/// day. Always defined: every layout prints a time of day.
std::int64_t micros_between(const LogTime& a, const LogTime& b);

/// One record of a log: its first line and the lines that continue it.
struct LogRecord {
  std::size_t line = 0;       ///< 1-based number of its first line in the file
  std::size_t last_line = 0;  ///< of its last continuation line (== line without any)
  LogLayout layout = LogLayout::bare;
  LogTime time;
  /// "DEBUG", "INFO", "WARN", "ERROR", "FATAL" (glog's I, W, E, F read as INFO, WARN, ERROR,
  /// FATAL); "" in a bare excerpt, which prints no level.
  std::string level;
  std::string thread;     ///< the thread's name (FE layouts), "" otherwise
  std::string thread_id;  ///< as printed (FE layouts and glog)
  /// The class that logged (%C{1}, or the JSON layout's file without ".java"); "" for glog and
  /// bare lines, which name a source file instead.
  std::string logger;
  std::string method;       ///< the method (FE layouts)
  std::string source_file;  ///< glog's file, or the JSON layout's, or a bare line's "file.cpp:N "
  std::optional<int> source_line;
  std::string message;  ///< the first line's message
  /// The lines after the first that belong to the record, as printed (a stack trace, the rest of
  /// a message, a bare excerpt's indented lines; the JSON layout's "exception", line by line).
  std::vector<std::string> continuation;
  std::string text;  ///< the whole first line, as printed

  /// The message and its continuation lines, each continuation trimmed of leading blanks, joined
  /// with single spaces: what a message pattern is matched against.
  std::string full_message() const;
};

/// A line that is no record and continues none.
struct IgnoredLogLine {
  std::size_t line = 0;
  std::string text;
  std::string why;  ///< e.g. "before the first record", "a timestamped line in no known layout"
};

/// One file, read.
struct LogFile {
  std::string path;  ///< as the user named it
  std::vector<LogRecord> records;
  std::vector<IgnoredLogLine> ignored;
  std::size_t lines = 0;  ///< lines in the file
};

/// Reads a log from its text; `file` names it in errors.
LogFile parse_log(std::string_view text, const std::string& file, const LogLimits& limits = {});
/// Reads a log file: an unreadable file, a directory or a file over limits.max_bytes (checked
/// before it is read) is an InputError too.
LogFile read_log_file(const std::string& path, const LogLimits& limits = {});

/// Checks that the records of one file never go back in time by more than `skew_micros`
/// (measured with micros_between); throws InputError naming the file and the later line.
void check_log_order(const LogFile& log, std::int64_t skew_micros);

}  // namespace interleave
