// The progress of a long search on stderr: executions, rate, the deepest execution, violations
// so far, and (once the search has run a while) the estimated total with an ETA, from Knuth's
// estimator (explorer/search/estimate.hpp). On a terminal the line is redrawn in place at most five
// times a second and erased when the scenario is done; otherwise (a CI log) one line is printed
// every 10 s, the first after 10 s, so a short run prints nothing. Wall time appears only here.
#pragma once

#include "explorer/search/stats.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace interleave::cli {

/// The expected number of executions of the search under way, with its standard error.
struct ProgressEstimate {
  double total = 0;
  double standard_error = 0;
  /// Most of the estimator's probes ended sleep-set blocked (TreeEstimate::blind): `total` is a
  /// lower bound of unknown quality, and the line shows no ETA; blocked_share says how many.
  bool lower_bound = false;
  double blocked_share = 0;
};

class ProgressLine {
 public:
  enum class Mode { kTerminal, kLines };
  /// `estimate` (may be empty) is asked once, after the search has run `estimate_after`
  /// seconds; nullopt: no estimate for this search (the line then shows none).
  ProgressLine(std::ostream& err, std::string name, Mode mode,
               std::function<std::optional<ProgressEstimate>()> estimate = {});
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void update(const Stats& s);

  /// The text of one progress line (without "\r" or a newline): for the tests.
  static std::string format(const std::string& name, const Stats& s,
                            const std::optional<ProgressEstimate>& estimate);

  static constexpr double kEstimateAfterSeconds = 2.0;
  static constexpr double kLineIntervalSeconds = 10.0;

 private:
  std::ostream& err_;
  std::string name_;
  Mode mode_;
  std::function<std::optional<ProgressEstimate>()> estimator_;
  bool asked_ = false;
  std::optional<ProgressEstimate> estimate_;
  std::chrono::steady_clock::time_point last_;
  double next_line_ = kLineIntervalSeconds;
  bool shown_ = false;
};

}  // namespace interleave::cli
