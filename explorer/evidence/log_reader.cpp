// The log reader (log_reader.hpp): one pass over the lines, each tried against the four layouts
// by hand-written scanners (no regular expressions: each scanner looks at a line's bytes at most
// a constant number of times, so a file is read in linear time).
#include "explorer/evidence/log_reader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace interleave {

namespace {

constexpr std::int64_t kMicrosPerSecond = 1'000'000;
constexpr std::int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

[[noreturn]] void fail_at(const std::string& file, std::size_t line, const std::string& message) {
  throw InputError(file, "line " + std::to_string(line), message);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// The value of `n` digits at s[pos..], or -1 when they are not all digits.
int digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_digit(s[pos + i])) return -1;
    v = v * 10 + (s[pos + i] - '0');
  }
  return v;
}

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int month, std::optional<int> year) {
  static constexpr std::array<int, 12> kDays{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && year) return leap(*year) ? 29 : 28;
  return kDays[static_cast<std::size_t>(month - 1)];
}

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian; Howard Hinnant's method).
std::int64_t days_from_civil(std::int64_t y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/// Reads "HH:MM:SS" at s[pos..] and, when `fraction` is not 0, "." and exactly that many digits
/// (fraction < 0: any number of digits, or none). Sets t.micros_of_day and t.fraction_digits and
/// returns the position after it, or npos when the text is not of that shape. A shape with
/// impossible values (25:00:00) fails with InputError.
std::size_t read_time_of_day(std::string_view s, std::size_t pos, int fraction, LogTime& t,
                             const std::string& file, std::size_t line, bool one_digit_hour) {
  int hour = -1;
  std::size_t p = pos;
  if (one_digit_hour && p + 1 < s.size() && is_digit(s[p]) && s[p + 1] == ':') {
    hour = s[p] - '0';
    p += 1;
  } else {
    hour = digits(s, p, 2);
    p += 2;
  }
  if (hour < 0 || p >= s.size() || s[p] != ':') return std::string_view::npos;
  const int minute = digits(s, p + 1, 2);
  if (minute < 0 || p + 3 >= s.size() || s[p + 3] != ':') return std::string_view::npos;
  const int second = digits(s, p + 4, 2);
  if (second < 0) return std::string_view::npos;
  p += 6;
  std::int64_t micros = 0;
  int got = 0;
  if (fraction != 0) {
    if (p < s.size() && s[p] == '.') {
      std::size_t q = p + 1;
      while (q < s.size() && is_digit(s[q]) && got < 9) {
        if (got < 6) micros = micros * 10 + (s[q] - '0');
        ++got;
        ++q;
      }
      if (q < s.size() && is_digit(s[q])) return std::string_view::npos;  // over 9 digits
      if (fraction > 0 && got != fraction) return std::string_view::npos;
      if (got == 0) return std::string_view::npos;
      for (int i = got; i < 6; ++i)
        micros *= 10;
      p = q;
    } else if (fraction > 0) {
      return std::string_view::npos;
    }
  }
  if (hour > 23 || minute > 59 || second > 59)
    fail_at(file, line,
            "the time " + std::string(s.substr(pos, p - pos)) + " names no time of day");
  t.micros_of_day = (static_cast<std::int64_t>(hour) * 3600 + minute * 60 + second) *
                        kMicrosPerSecond +
                    micros;
  t.fraction_digits = std::min(got, 6);
  return p;
}

void check_date(const LogTime& t, std::string_view shown, const std::string& file,
                std::size_t line) {
  if (*t.month < 1 || *t.month > 12 || *t.day < 1 || *t.day > days_in_month(*t.month, t.year))
    fail_at(file, line, "the date " + std::string(shown) + " names no day");
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_blank(s.front()))
    s.remove_prefix(1);
  return s;
}

bool known_level(std::string_view level) {
  return level == "DEBUG" || level == "INFO" || level == "WARN" || level == "ERROR" ||
         level == "FATAL" || level == "TRACE";
}

/// "file.cpp:331 rest" at the start of a bare message: the source file and line, and the rest.
void split_source_prefix(LogRecord& r) {
  const std::string_view m = r.message;
  const std::size_t colon = m.find(':');
  if (colon == std::string_view::npos || colon == 0) return;
  const std::string_view file = m.substr(0, colon);
  if (file.find(' ') != std::string_view::npos || file.find('.') == std::string_view::npos)
    return;
  std::size_t p = colon + 1;
  int value = 0;
  std::size_t n = 0;
  while (p < m.size() && is_digit(m[p]) && n < 9) {
    value = value * 10 + (m[p] - '0');
    ++p;
    ++n;
  }
  if (n == 0 || (p < m.size() && !is_blank(m[p]))) return;
  r.source_file = std::string(file);
  r.source_line = value;
  r.message = std::string(trim_left(m.substr(p)));
}

/// The offset of "XXX": "Z" or "+HH:MM" / "-HH:MM". Returns the position after it or npos.
std::size_t read_offset(std::string_view s, std::size_t p, LogTime& t, const std::string& file,
                        std::size_t line) {
  if (p < s.size() && s[p] == 'Z') {
    t.utc_offset_minutes = 0;
    return p + 1;
  }
  if (p >= s.size() || (s[p] != '+' && s[p] != '-')) return std::string_view::npos;
  const int hh = digits(s, p + 1, 2);
  if (hh < 0 || p + 3 >= s.size() || s[p + 3] != ':') return std::string_view::npos;
  const int mm = digits(s, p + 4, 2);
  if (mm < 0) return std::string_view::npos;
  if (hh > 18 || mm > 59)
    fail_at(file, line, "the UTC offset " + std::string(s.substr(p, 6)) + " names no zone");
  t.utc_offset_minutes = (s[p] == '-' ? -1 : 1) * (hh * 60 + mm);
  return p + 6;
}

/// "yyyy-MM-dd HH:mm:ss.SSSXXX" at the start of s: the position after it, or npos.
std::size_t read_fe_timestamp(std::string_view s, LogTime& t, const std::string& file,
                              std::size_t line) {
  const int y = digits(s, 0, 4);
  if (y < 0 || s.size() < 11 || s[4] != '-' || s[7] != '-' || s[10] != ' ')
    return std::string_view::npos;
  const int mo = digits(s, 5, 2), d = digits(s, 8, 2);
  if (mo < 0 || d < 0) return std::string_view::npos;
  LogTime out;
  out.year = y;
  out.month = mo;
  out.day = d;
  std::size_t p = read_time_of_day(s, 11, 3, out, file, line, false);
  if (p == std::string_view::npos) return p;
  check_date(out, s.substr(0, 10), file, line);
  p = read_offset(s, p, out, file, line);
  if (p == std::string_view::npos) return p;
  t = out;
  return p;
}

enum class Scan { record, not_a_record, timestamped_unknown };

/// fe.log's pattern layout.
Scan scan_fe_pattern(std::string_view s, LogRecord& r, const std::string& file,
                     std::size_t line) {
  LogTime t;
  std::size_t p = read_fe_timestamp(s, t, file, line);
  if (p == std::string_view::npos) return Scan::not_a_record;
  const auto unknown = [] { return Scan::timestamped_unknown; };
  if (p >= s.size() || s[p] != ' ') return unknown();
  const std::size_t level_end = s.find(' ', p + 1);
  if (level_end == std::string_view::npos) return unknown();
  const std::string_view level = s.substr(p + 1, level_end - p - 1);
  if (!known_level(level)) return unknown();
  p = level_end + 1;
  if (p >= s.size() || s[p] != '(') return unknown();
  const std::size_t close = s.find(") [", p);
  if (close == std::string_view::npos) return unknown();
  const std::string_view thread = s.substr(p + 1, close - p - 1);
  const std::size_t bar = thread.rfind('|');
  if (bar == std::string_view::npos) return unknown();
  const std::size_t loc_begin = close + 3;
  const std::size_t loc_end = s.find("] ", loc_begin);
  const bool ends_at_loc = loc_end == std::string_view::npos && !s.empty() && s.back() == ']';
  const std::size_t loc_stop = ends_at_loc ? s.size() - 1 : loc_end;
  if (loc_stop == std::string_view::npos) return unknown();
  const std::string_view loc = s.substr(loc_begin, loc_stop - loc_begin);  // Class.method():L
  const std::size_t parens = loc.rfind("():");
  if (parens == std::string_view::npos) return unknown();
  const std::string_view class_method = loc.substr(0, parens);
  const std::size_t dot = class_method.rfind('.');
  if (dot == std::string_view::npos) return unknown();
  const std::string_view line_text = loc.substr(parens + 3);
  r.layout = LogLayout::fe_pattern;
  r.time = t;
  r.level = std::string(level);
  r.thread = std::string(thread.substr(0, bar));
  r.thread_id = std::string(thread.substr(bar + 1));
  r.logger = std::string(class_method.substr(0, dot));
  r.method = std::string(class_method.substr(dot + 1));
  r.source_file = r.logger + ".java";
  if (!line_text.empty() && line_text.size() < 10 &&
      std::all_of(line_text.begin(), line_text.end(), is_digit))
    r.source_line = std::stoi(std::string(line_text));
  r.message = ends_at_loc ? std::string() : std::string(s.substr(loc_stop + 2));
  return Scan::record;
}

/// fe.log's JSON layout: an object a line, "@timestamp" first.
Scan scan_fe_json(std::string_view s, LogRecord& r, const std::string& file, std::size_t line) {
  static constexpr std::string_view kStart = "{\"@timestamp\"";
  if (s.substr(0, kStart.size()) != kStart) return Scan::not_a_record;
  nlohmann::json j = nlohmann::json::parse(s.begin(), s.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    fail_at(file, line, "a line of the JSON layout that is not one JSON object");
  auto text = [&](const char* key, bool required) -> std::string {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
      if (required) fail_at(file, line, std::string("the JSON layout's \"") + key + "\" is missing");
      return {};
    }
    if (it->is_string()) return it->get<std::string>();
    if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
    fail_at(file, line, std::string("the JSON layout's \"") + key + "\" is " + it->type_name() +
                            ", expected a string");
  };
  const std::string stamp = text("@timestamp", true);
  LogTime t;
  const std::size_t end = read_fe_timestamp(stamp, t, file, line);
  if (end == std::string_view::npos || end != stamp.size())
    fail_at(file, line,
            "the JSON layout's \"@timestamp\" '" + stamp +
                "' is not yyyy-MM-dd HH:mm:ss.SSSXXX");
  const std::string level = text("level", true);
  if (!known_level(level))
    fail_at(file, line, "the JSON layout's \"level\" '" + level + "' is no log4j level");
  r.layout = LogLayout::fe_json;
  r.time = t;
  r.level = level;
  r.thread = text("thread.name", false);
  r.thread_id = text("thread.id", false);
  r.source_file = text("file", false);
  r.logger = r.source_file;
  if (r.logger.size() > 5 && r.logger.ends_with(".java")) r.logger.resize(r.logger.size() - 5);
  r.method = text("method", false);
  const std::string line_no = text("line", false);
  if (!line_no.empty() && line_no.size() < 10 &&
      std::all_of(line_no.begin(), line_no.end(), is_digit))
    r.source_line = std::stoi(line_no);
  std::string message = text("message", true);
  // A message over several lines: the first is the message, the rest continue it.
  std::size_t nl = message.find('\n');
  r.message = message.substr(0, nl);
  while (nl != std::string::npos) {
    const std::size_t next = message.find('\n', nl + 1);
    r.continuation.push_back(message.substr(nl + 1, next == std::string::npos ? next : next - nl - 1));
    nl = next;
  }
  const std::string exception = text("exception", false);
  std::size_t from = 0;
  while (from < exception.size()) {
    const std::size_t next = exception.find('\n', from);
    const std::string part = exception.substr(from, next == std::string::npos ? next : next - from);
    if (!trim_right(part).empty()) r.continuation.push_back(part);
    if (next == std::string::npos) break;
    from = next + 1;
  }
  return Scan::record;
}

/// glog: "Lyyyymmdd hh:mm:ss.uuuuuu tid file:line] msg" (or "Lmmdd ...").
Scan scan_glog(std::string_view s, LogRecord& r, const std::string& file, std::size_t line) {
  if (s.size() < 2 || std::string_view("IWEF").find(s[0]) == std::string_view::npos ||
      !is_digit(s[1]))
    return Scan::not_a_record;
  std::size_t n = 1;
  while (n < s.size() && is_digit(s[n]))
    ++n;
  const std::size_t date_digits = n - 1;
  if ((date_digits != 4 && date_digits != 8) || n >= s.size() || s[n] != ' ')
    return Scan::not_a_record;
  LogTime t;
  std::size_t p = 1;
  if (date_digits == 8) {
    t.year = digits(s, 1, 4);
    p = 5;
  }
  t.month = digits(s, p, 2);
  t.day = digits(s, p + 2, 2);
  const std::size_t after = read_time_of_day(s, n + 1, 6, t, file, line, false);
  if (after == std::string_view::npos) return Scan::not_a_record;
  check_date(t, s.substr(1, date_digits), file, line);
  p = after;
  if (p >= s.size() || s[p] != ' ') return Scan::timestamped_unknown;
  while (p < s.size() && s[p] == ' ')
    ++p;
  const std::size_t tid_begin = p;
  while (p < s.size() && is_digit(s[p]))
    ++p;
  if (p == tid_begin || p >= s.size() || s[p] != ' ') return Scan::timestamped_unknown;
  const std::string_view tid = s.substr(tid_begin, p - tid_begin);
  const std::size_t loc_begin = p + 1;
  const std::size_t bracket = s.find("] ", loc_begin);
  const bool ends = bracket == std::string_view::npos && s.back() == ']';
  const std::size_t loc_end = ends ? s.size() - 1 : bracket;
  if (loc_end == std::string_view::npos) return Scan::timestamped_unknown;
  const std::string_view loc = s.substr(loc_begin, loc_end - loc_begin);
  const std::size_t colon = loc.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == loc.size() ||
      loc.size() - colon - 1 > 9 ||
      !std::all_of(loc.begin() + static_cast<std::ptrdiff_t>(colon) + 1, loc.end(), is_digit))
    return Scan::timestamped_unknown;
  static constexpr std::array<const char*, 4> kLevels{"INFO", "WARN", "ERROR", "FATAL"};
  r.layout = LogLayout::glog;
  r.time = t;
  r.level = kLevels[std::string_view("IWEF").find(s[0])];
  r.thread_id = std::string(tid);
  r.source_file = std::string(loc.substr(0, colon));
  r.source_line = std::stoi(std::string(loc.substr(colon + 1)));
  r.message = ends ? std::string() : std::string(s.substr(loc_end + 2));
  return Scan::record;
}

/// A bare excerpt: "HH:MM:SS[.fff] message".
Scan scan_bare(std::string_view s, LogRecord& r, const std::string& file, std::size_t line) {
  if (s.empty() || !is_digit(s[0])) return Scan::not_a_record;
  LogTime t;
  const std::size_t p = read_time_of_day(s, 0, -1, t, file, line, true);
  if (p == std::string_view::npos) return Scan::not_a_record;
  if (p < s.size() && !is_blank(s[p])) return Scan::not_a_record;
  r.layout = LogLayout::bare;
  r.time = t;
  r.message = std::string(trim_left(s.substr(p)));
  split_source_prefix(r);
  return Scan::record;
}

/// Throws unless `s` is UTF-8 text without NUL bytes.
void check_text(std::string_view s, const std::string& file, std::size_t line) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0) fail_at(file, line, "a NUL byte: this is a binary file, not a log");
    std::size_t extra = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
    } else {
      fail_at(file, line, "bytes that are not UTF-8 text (a binary file?)");
    }
    for (std::size_t k = 1; k <= extra; ++k) {
      if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
        fail_at(file, line, "bytes that are not UTF-8 text (a binary file?)");
    }
    // Overlong three- and four-byte forms, surrogates and code points past U+10FFFF.
    const auto c1 = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 > 0x8F))
      fail_at(file, line, "bytes that are not UTF-8 text (a binary file?)");
    i += extra + 1;
  }
}

}  // namespace

std::string_view layout_name(LogLayout layout) {
  switch (layout) {
    case LogLayout::fe_pattern: return "fe.log pattern layout";
    case LogLayout::fe_json: return "fe.log JSON layout";
    case LogLayout::glog: return "glog";
    case LogLayout::bare: return "bare excerpt";
  }
  return "?";
}

std::optional<std::int64_t> LogTime::utc_micros() const {
  if (!year || !month || !utc_offset_minutes) return std::nullopt;
  return days_from_civil(*year, *month, *day) * kMicrosPerDay + micros_of_day -
         static_cast<std::int64_t>(*utc_offset_minutes) * 60 * kMicrosPerSecond;
}

std::optional<std::int64_t> LogTime::local_micros(int default_year) const {
  if (!month) return std::nullopt;
  return days_from_civil(year.value_or(default_year), *month, *day) * kMicrosPerDay +
         micros_of_day;
}

std::string LogTime::str() const {
  auto two = [](int v) {
    std::string s = std::to_string(v);
    return s.size() < 2 ? "0" + s : s;
  };
  std::string out;
  if (month) {
    if (year) out += std::to_string(*year) + (utc_offset_minutes ? "-" : "");
    out += two(*month) + (utc_offset_minutes ? "-" : "") + two(*day) + " ";
  }
  const std::int64_t seconds = micros_of_day / kMicrosPerSecond;
  out += two(static_cast<int>(seconds / 3600)) + ":" + two(static_cast<int>(seconds / 60 % 60)) +
         ":" + two(static_cast<int>(seconds % 60));
  if (fraction_digits > 0) {
    std::string frac = std::to_string(micros_of_day % kMicrosPerSecond);
    frac.insert(0, 6 - frac.size(), '0');
    out += "." + frac.substr(0, static_cast<std::size_t>(fraction_digits));
  }
  if (utc_offset_minutes) {
    const int m = *utc_offset_minutes;
    if (m == 0) {
      out += "Z";
    } else {
      out += (m < 0 ? "-" : "+") + two(std::abs(m) / 60) + ":" + two(std::abs(m) % 60);
    }
  }
  return out;
}

std::int64_t micros_between(const LogTime& a, const LogTime& b) {
  const auto ua = a.utc_micros(), ub = b.utc_micros();
  if (ua && ub) return *ub - *ua;
  if (a.month && b.month) {
    const int year = a.year ? *a.year : b.year.value_or(1972);
    return *b.local_micros(b.year.value_or(year)) - *a.local_micros(a.year.value_or(year));
  }
  return b.micros_of_day - a.micros_of_day;
}

std::string LogRecord::full_message() const {
  std::string out = message;
  for (const std::string& c : continuation) {
    const std::string_view t = trim_right(trim_left(c));
    if (t.empty()) continue;
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out;
}

LogFile parse_log(std::string_view text, const std::string& file, const LogLimits& limits) {
  if (text.size() > limits.max_bytes)
    fail_at(file, 1,
            "the log has " + std::to_string(text.size()) + " bytes, over the limit of " +
                std::to_string(limits.max_bytes));
  LogFile out;
  out.path = file;
  std::size_t pos = 0;
  std::size_t line = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    ++line;
    if (line > limits.max_lines)
      fail_at(file, line,
              "the log has more than " + std::to_string(limits.max_lines) + " lines, the limit");
    if (end - pos > limits.max_line_bytes)
      fail_at(file, line,
              "a line of " + std::to_string(end - pos) + " bytes, over the limit of " +
                  std::to_string(limits.max_line_bytes));
    const std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    check_text(raw, file, line);
    const std::string_view s = trim_right(raw);
    LogRecord r;
    Scan scan = Scan::not_a_record;
    for (auto scanner : {scan_fe_pattern, scan_fe_json, scan_glog, scan_bare}) {
      scan = scanner(s, r, file, line);
      if (scan != Scan::not_a_record) break;
    }
    if (scan == Scan::record) {
      r.line = r.last_line = line;
      r.text = std::string(s);
      out.records.push_back(std::move(r));
      continue;
    }
    if (s.empty()) continue;  // a blank line belongs to nothing and breaks nothing
    if (scan == Scan::timestamped_unknown) {
      out.ignored.push_back({line, std::string(s), "a timestamped line in no known layout"});
      continue;
    }
    if (out.records.empty()) {
      out.ignored.push_back({line, std::string(s), "before the first record"});
      continue;
    }
    LogRecord& last = out.records.back();
    if (last.layout == LogLayout::fe_json) {
      out.ignored.push_back({line, std::string(s), "not a JSON layout line"});
      continue;
    }
    last.continuation.emplace_back(s);
    last.last_line = line;
  }
  out.lines = line;
  return out;
}

LogFile read_log_file(const std::string& path, const LogLimits& limits) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError(path, "", std::string("cannot read the log: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(path, "", "is a directory, not a log file");
  if (static_cast<std::uint64_t>(st.st_size) > limits.max_bytes)
    throw InputError(path, "",
                     "the log has " + std::to_string(st.st_size) + " bytes, over the limit of " +
                         std::to_string(limits.max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot read the log");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_log(buffer.str(), path, limits);
}

void check_log_order(const LogFile& log, std::int64_t skew_micros) {
  for (std::size_t i = 1; i < log.records.size(); ++i) {
    const LogRecord& a = log.records[i - 1];
    const LogRecord& b = log.records[i];
    const std::int64_t back = -micros_between(a.time, b.time);
    if (back > skew_micros)
      fail_at(log.path, b.line,
              "the time " + b.time.str() + " goes back from " + a.time.str() + " (line " +
                  std::to_string(a.line) + ") by " + std::to_string(back / 1000) +
                  " ms, more than the clock skew of " + std::to_string(skew_micros / 1000) +
                  " ms within one file");
  }
}

}  // namespace interleave
