// The gate run as a SARIF 2.1.0 log (render_sarif, reports/gate/gate_report.hpp), for code-scanning
// views (GitHub code scanning, SARIF viewers):
//
//   {"$schema": kSchema, "version": "2.1.0", "runs": [{
//     "tool": {"driver": {"name": "interleave", "version": ..., "rules": [
//         {"id": PROPERTY, "shortDescription": {"text": ...}}, ...,   // report.rules, in order
//         {"id": "interleave.expectation", ...}]}},                   // the gate's own rule, last
//     "results": [...]}]}
//
// One result per counterexample, in the order of the cases and of their counterexamples: ruleId
// the violated property (ruleIndex its rule), level "error", the violation sentence as message,
// the scenario file as location, the trace file as related location, and codeFlows[0] with one
// threadFlow per actor (in order of first appearance), whose locations are the actor's steps with
// their global step number as executionOrder; the violating step and the race's two steps are
// "essential", the steps not involved "unimportant". A counterexample the scenario expects
// carries a suppression (kind inSource, status accepted: its "expect" says so). A scenario that
// fails its expectation gets one more result, of the rule "interleave.expectation", with the
// gate's reason (a case the gate did not decide, being interrupted, gets none). An interrupted
// gate's run has invocations[0] with executionSuccessful false and a notification saying why.
// No timings: byte-identical for identical outcomes.
#include "reports/gate/gate_report.hpp"
#include "reports/render/text_util.hpp"
#include "reports/trace/trace_view.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string_view>

namespace interleave::reports {

namespace {

constexpr std::string_view kSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json";
constexpr std::string_view kExpectationRule = "interleave.expectation";

// JSON strings must be valid UTF-8 (nlohmann::json refuses to dump anything else).
std::string str(std::string_view s) {
  return text::valid_utf8(s);
}

nlohmann::json message(std::string_view text) {
  return {{"text", str(text)}};
}

// A path as a URI reference: relative paths stay relative ("./a/b c.json" -> "a/b%20c.json"),
// absolute ones become file: URIs; every byte outside the unreserved characters and '/' is
// percent-encoded.
std::string uri_of(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  std::string out = p.is_absolute() ? "file://" : "";
  for (char ch : p.generic_string()) {
    const auto u = static_cast<unsigned char>(ch);
    if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
        ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '/') {
      out += ch;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    }
  }
  return out;
}

nlohmann::json file_location(const std::string& path) {
  return {{"physicalLocation", {{"artifactLocation", {{"uri", uri_of(path)}}}}}};
}

nlohmann::json code_flow(const GateCase& c, const TraceDocument& doc) {
  const Counterexample& cx = doc.counterexample;
  const std::optional<std::size_t> violating = violating_position(cx);
  std::vector<std::size_t> essential;
  if (violating) essential.push_back(*violating);
  if (doc.race) essential.insert(essential.end(), {doc.race->first, doc.race->second});
  nlohmann::json flows = nlohmann::json::array();
  for (const std::string& actor : actors_in_order(cx)) {
    nlohmann::json locations = nlohmann::json::array();
    for (std::size_t s = 0; s < cx.steps.size(); ++s) {
      const TraceStep& step = cx.steps[s];
      if (step.actor != actor) continue;
      std::string importance = "important";
      if (std::find(essential.begin(), essential.end(), s) != essential.end())
        importance = "essential";
      else if (std::binary_search(doc.not_involved.begin(), doc.not_involved.end(), step.index))
        importance = "unimportant";
      nlohmann::json location = file_location(c.file);
      location["message"] = message("step " + std::to_string(step.index) + " (" + actor +
                                    "): " + describe_step(step, Wording::kReport));
      locations.push_back({{"location", std::move(location)},
                           {"executionOrder", step.index},
                           {"importance", importance}});
    }
    if (locations.empty()) continue;  // the counterexample's actor without a step of its own
    flows.push_back({{"id", str(actor)}, {"message", message(actor)}, {"locations", locations}});
  }
  nlohmann::json flow = {{"threadFlows", flows}};
  flow["message"] =
      message(doc.race ? "race: " + describe_race(cx, *doc.race) : counterexample_headline(cx));
  return flow;
}

}  // namespace

std::string render_sarif(const GateReport& report) {
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, std::size_t> rule_index;
  auto add_rule = [&](const std::string& id, const std::string& description) {
    if (rule_index.count(id) != 0) return;
    rule_index.emplace(id, rule_index.size());
    nlohmann::json rule = {{"id", str(id)}};
    if (!description.empty()) rule["shortDescription"] = message(description);
    rules.push_back(std::move(rule));
  };
  for (const GateRule& r : report.rules)
    add_rule(r.id, r.description);
  // A counterexample of a property the rules do not list still gets a rule (and so a ruleIndex).
  for (const GateCase& c : report.cases)
    for (const TraceDocument& doc : c.traces)
      add_rule(doc.counterexample.invariant, "");
  add_rule(std::string(kExpectationRule),
           "the scenario's outcome meets its expectation (its \"expect\": verdict, violated "
           "properties, coverage goals reached)");

  nlohmann::json results = nlohmann::json::array();
  for (const GateCase& c : report.cases) {
    for (std::size_t i = 0; i < c.traces.size(); ++i) {
      const TraceDocument& doc = c.traces[i];
      const Counterexample& cx = doc.counterexample;
      nlohmann::json result = {{"ruleId", str(cx.invariant)},
                               {"ruleIndex", rule_index.at(cx.invariant)},
                               {"level", "error"},
                               {"message", message(describe_violation(cx, Wording::kReport))},
                               {"locations", nlohmann::json::array({file_location(c.file)})}};
      if (i < c.counterexample_paths.size()) {
        nlohmann::json related = file_location(c.counterexample_paths[i]);
        related["id"] = 1;
        related["message"] = message("the counterexample trace (interleave replay, show)");
        result["relatedLocations"] = nlohmann::json::array({related});
      }
      const nlohmann::json flow = code_flow(c, doc);
      if (!flow["threadFlows"].empty()) result["codeFlows"] = nlohmann::json::array({flow});
      if (std::binary_search(c.expected_violations.begin(), c.expected_violations.end(),
                             cx.invariant)) {
        result["suppressions"] = nlohmann::json::array(
            {{{"kind", "inSource"},
              {"status", "accepted"},
              {"justification", str("the scenario " + c.scenario + " expects a violation of " +
                                    cx.invariant + " (its \"expect\")")}}});
      }
      result["properties"] = {{"scenario", str(c.scenario)},
                              {"expected", str(c.expected)},
                              {"actual", str(c.actual)},
                              {"steps", cx.steps.size()},
                              {"preemptions", cx.preemptions}};
      results.push_back(std::move(result));
    }
    if (!c.passed && !c.skipped) {
      results.push_back(
          {{"ruleId", std::string(kExpectationRule)},
           {"ruleIndex", rule_index.at(std::string(kExpectationRule))},
           {"level", "error"},
           {"message", message(c.scenario + ": " +
                               (c.failure.empty() ? "the expectation was not met" : c.failure))},
           {"locations", nlohmann::json::array({file_location(c.file)})},
           {"properties",
            {{"scenario", str(c.scenario)}, {"expected", str(c.expected)}, {"actual", str(c.actual)}}}});
    }
  }

  nlohmann::json driver = {{"name", "interleave"}, {"rules", rules}};
  const std::string prefix = "interleave ";
  if (report.tool_version.starts_with(prefix))
    driver["version"] = str(report.tool_version.substr(prefix.size()));
  else if (!report.tool_version.empty())
    driver["version"] = str(report.tool_version);
  nlohmann::json run = {{"tool", {{"driver", driver}}}, {"results", results}};
  if (!report.interrupted.empty()) {
    // An interrupted gate: the invocation did not complete, and a notification says why.
    std::size_t skipped = 0;
    for (const GateCase& c : report.cases)
      if (c.skipped) ++skipped;
    run["invocations"] = nlohmann::json::array(
        {{{"executionSuccessful", false},
          {"toolExecutionNotifications",
           nlohmann::json::array({{{"level", "error"},
                                   {"message", message("the gate was " + report.interrupted +
                                                       ": " + std::to_string(skipped) +
                                                       " scenario(s) not decided")}}})}}});
  }
  const nlohmann::json log = {{"$schema", std::string(kSchema)},
                              {"version", "2.1.0"},
                              {"runs", nlohmann::json::array({run})}};
  return log.dump(2) + "\n";
}

}  // namespace interleave::reports
