#include "reports/render/render_log.hpp"

#include "reports/render/wall_clock.hpp"

#include <cstdio>
#include <map>

namespace interleave::reports {

namespace {

// glog's "yyyymmdd hh:mm:ss.uuuuuu" of origin + t, in the origin's local time.
std::string glog_time(const WallClock& origin, Micros t) {
  const LocalTime lt = local_time(origin, t);
  const long long us = lt.micros_of_day;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d%02u%02u %02lld:%02lld:%02lld.%06lld", lt.year, lt.month,
                lt.day, us / 3'600'000'000LL, us / 60'000'000LL % 60, us / 1'000'000LL % 60,
                us % 1'000'000LL);
  return buf;
}

char glog_level(const std::string& level) {
  if (level == "WARN") return 'W';
  if (level == "ERROR") return 'E';
  if (level == "FATAL") return 'F';
  return 'I';
}

}  // namespace

std::vector<std::vector<std::string>> log_lines_by_step(const TraceDocument& doc,
                                                        const LogPatternTable& patterns) {
  const Counterexample& c = doc.counterexample;
  bool timed = !c.steps.empty();
  for (const TraceStep& s : c.steps)
    timed = timed && s.time.has_value();
  const WallClock origin = timed && c.wall_clock ? *c.wall_clock : WallClock{};
  std::map<std::string, std::size_t> thread_ids;
  std::vector<std::vector<std::string>> out(c.steps.size());
  for (std::size_t pos = 0; pos < c.steps.size(); ++pos) {
    const TraceStep& s = c.steps[pos];
    const std::vector<LoggedLine> lines = logged_lines(patterns.compiled(), s.what);
    if (lines.empty()) continue;
    const std::size_t tid = thread_ids.emplace(s.actor, thread_ids.size() + 1).first->second;
    const Micros t = timed ? *s.time : static_cast<Micros>(s.index) * 1000;
    for (const LoggedLine& l : lines) {
      const LogPattern& p = patterns.patterns()[l.pattern];
      if (!p.method.empty())
        out[pos].push_back(format_wall_clock(origin, t) + " " + p.level + " (" + s.actor + "|" +
               std::to_string(tid) + ") [" + p.logger + "." + p.method +
               "():" + std::to_string(p.line) + "] " + l.message);
      else
        out[pos].push_back(std::string(1, glog_level(p.level)) + glog_time(origin, t) + " " +
               std::to_string(tid) + " " + p.logger + ":" + std::to_string(p.line) + "] " +
                          l.message);
    }
  }
  return out;
}

std::string render_log(const TraceDocument& doc, const LogPatternTable& patterns) {
  std::string out;
  for (const std::vector<std::string>& lines : log_lines_by_step(doc, patterns))
    for (const std::string& line : lines)
      out += line + "\n";
  return out;
}

}  // namespace interleave::reports
