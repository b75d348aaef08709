#include "reports/cli/progress.hpp"

#include <cmath>
#include <cstdio>

namespace interleave::cli {

namespace {

std::string duration_text(double seconds) {
  char buf[48];
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.0fs", seconds);
  else if (seconds < 3600)
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(seconds / 60),
                  static_cast<int>(std::fmod(seconds, 60)));
  else if (seconds < 1e7)
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(seconds / 3600),
                  static_cast<int>(std::fmod(seconds, 3600) / 60));
  else
    std::snprintf(buf, sizeof buf, "%.1e s", seconds);
  return buf;
}

std::string count_text(double n) {
  char buf[32];
  if (n < 1e6)
    std::snprintf(buf, sizeof buf, "%.0f", n);
  else
    std::snprintf(buf, sizeof buf, "%.2e", n);
  return buf;
}

}  // namespace

ProgressLine::ProgressLine(std::ostream& err, std::string name, Mode mode,
                           std::function<std::optional<ProgressEstimate>()> estimate)
    : err_(err), name_(std::move(name)), mode_(mode), estimator_(std::move(estimate)) {}

ProgressLine::~ProgressLine() {
  if (shown_ && mode_ == Mode::kTerminal) err_ << "\r\x1b[K" << std::flush;
}

std::string ProgressLine::format(const std::string& name, const Stats& s,
                                 const std::optional<ProgressEstimate>& estimate) {
  const double rate =
      s.elapsed_seconds > 0 ? static_cast<double>(s.executions) / s.elapsed_seconds : 0;
  std::uint64_t violations = 0;
  for (const auto& [property, n] : s.violations)
    violations += n;
  char buf[96];
  std::snprintf(buf, sizeof buf, " (%.0f/s), depth %llu, %llu violation%s", rate,
                static_cast<unsigned long long>(s.max_depth),
                static_cast<unsigned long long>(violations), violations == 1 ? "" : "s");
  std::string line = name + ": " + std::to_string(s.executions) + " executions" + buf;
  if (estimate && estimate->lower_bound) {
    // An estimate most probes could not reach: a lower bound, and no time left to show.
    char bl[64];
    std::snprintf(bl, sizeof bl, " (a lower bound: %.1f%% of its probes blocked)",
                  100 * estimate->blocked_share);
    line += ", of at least ~" + count_text(estimate->total) + bl;
  } else if (estimate && static_cast<double>(s.executions) > estimate->total) {
    // The search has outgrown its estimate: no time left can be backed.
    line += ", past the estimate of ~" + count_text(estimate->total);
  } else if (estimate) {
    const double total = estimate->total;
    line += ", of ~" + count_text(total);
    if (estimate->total > 0) {
      char se[32];
      std::snprintf(se, sizeof se, " (+-%.0f%%)", 100 * estimate->standard_error / estimate->total);
      line += se;
    }
    if (rate > 0)
      line += ", ETA " + duration_text((total - static_cast<double>(s.executions)) / rate);
  }
  char el[32];
  std::snprintf(el, sizeof el, ", %.1fs elapsed", s.elapsed_seconds);
  return line + el;
}

void ProgressLine::update(const Stats& s) {
  if (!asked_ && estimator_ && s.elapsed_seconds >= kEstimateAfterSeconds) {
    asked_ = true;
    estimate_ = estimator_();
  }
  if (mode_ == Mode::kLines) {
    if (s.elapsed_seconds < next_line_) return;
    while (next_line_ <= s.elapsed_seconds)
      next_line_ += kLineIntervalSeconds;
    err_ << format(name_, s, estimate_) << "\n" << std::flush;
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  shown_ = true;
  err_ << "\r" << format(name_, s, estimate_) << "\x1b[K" << std::flush;
}

}  // namespace interleave::cli
