#include "reports/run/expectation.hpp"

#include <algorithm>

namespace interleave::run {

namespace {

std::string quoted_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items)
    s += (s.empty() ? "'" : ", '") + i + "'";
  return s.empty() ? "none" : s;
}

}  // namespace

std::vector<std::string> violated_invariants(const ExplorationResult& result) {
  std::vector<std::string> out;
  for (const auto& c : result.counterexamples)
    out.push_back(c.invariant);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string describe_expectation(const std::optional<Expectation>& expected) {
  if (!expected) return "no expectation";
  std::string s(to_string(expected->verdict));
  if (!expected->invariants.empty()) s += " of " + quoted_list(expected->invariants);
  if (!expected->reached.empty()) s += ", reaching " + quoted_list(expected->reached);
  return s;
}

std::string describe_outcome(const ExplorationResult& actual) {
  std::string s(to_string(actual.verdict));
  if (actual.verdict == Verdict::kViolation)
    s += " of " + quoted_list(violated_invariants(actual));
  else if (actual.verdict == Verdict::kIncomplete)
    s += " (" + actual.detail + ")";
  return s;
}

ExpectationCheck check_expectation(const std::optional<Expectation>& expected,
                                   const ExplorationResult& actual) {
  ExpectationCheck check;
  if (!expected) {
    check.problems.push_back(
        "the scenario has no expectation (\"expect\"), so its result cannot pass");
    return check;
  }
  if (expected->verdict != actual.verdict) {
    std::string why = actual.detail;
    if (actual.verdict == Verdict::kViolation && !actual.counterexamples.empty())
      why =
          actual.counterexamples.front().invariant + ": " + actual.counterexamples.front().message;
    check.problems.push_back("expected verdict '" + std::string(to_string(expected->verdict)) +
                             "', got '" + std::string(to_string(actual.verdict)) + "' (" + why +
                             ")");
  }
  if (expected->verdict == Verdict::kViolation && actual.verdict == Verdict::kViolation) {
    const std::vector<std::string> got = violated_invariants(actual);
    std::vector<std::string> missing, unexpected;
    std::set_difference(expected->invariants.begin(), expected->invariants.end(), got.begin(),
                        got.end(), std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), expected->invariants.begin(),
                        expected->invariants.end(), std::back_inserter(unexpected));
    if (!missing.empty() && actual.stopped_at_first_violation)
      check.problems.push_back("expected to violate " + quoted_list(missing) +
                               ", which the search did not reach: it stopped at the first "
                               "violation (" + quoted_list(got) +
                               "); set /exploration/all_violations to true to search for every "
                               "property");
    else if (!missing.empty())
      check.problems.push_back("expected to violate " + quoted_list(missing) +
                               ", which the search did not");
    if (!unexpected.empty())
      check.problems.push_back("violated " + quoted_list(unexpected) + ", which was not expected");
  }
  if (expected->verdict == Verdict::kHolds && expected->reached.empty())
    check.problems.push_back(
        "a holds expectation must name the coverage goals (\"reached\") that show the dangerous "
        "situation was explored; without them the pass could be vacuous");
  if (expected->verdict == Verdict::kIncomplete && expected->reached.empty())
    check.problems.push_back(
        "an incomplete expectation must name the coverage goals (\"reached\") the partial search "
        "reaches; without them it passes whatever was searched");
  for (const auto& goal : expected->reached) {
    const auto it = actual.covered.find(goal);
    if (it == actual.covered.end() || it->second == 0)
      check.problems.push_back("coverage goal '" + goal +
                               "' was never reached, so the result is vacuous");
  }
  check.met = check.problems.empty();
  return check;
}

}  // namespace interleave::run
