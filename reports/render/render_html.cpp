// render_html: the counterexample as one self-contained HTML page (docs/reports.md, "HTML").
//
// The page is drawn here, in HTML, so that it reads without its script: a header (the
// violation, the race, the slice), then a table with one lane (column) per actor and one row per
// step. Its script and style are reports/render/html/page.js and page.css, embedded at build time
// (reports/render/html/embed.cmake); the script reads the steps' accesses, log lines and states from a
// JSON block of the page and adds the details panel, folding, zoom and the keyboard. Nothing is
// fetched: no external script, style, font or image.
#include "reports/analysis/causal_slice.hpp"
#include "reports/gate/gate_report.hpp"
#include "reports/render/html_assets.hpp"
#include "reports/render/render.hpp"
#include "reports/render/text_util.hpp"
#include "reports/trace/trace_view.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace interleave::reports {

namespace {

std::string esc(std::string_view raw) {
  return text::xml_escape(raw, false);
}
std::string attr(std::string_view raw) {
  return text::xml_escape(raw, true);
}

/// JSON for a <script type="application/json"> block: invalid UTF-8 replaced, and no '<' (so no
/// "</script>" or "<!--" can end or change the block); '<' only occurs inside strings, where
/// "\u003c" means the same.
std::string script_json(const nlohmann::json& j) {
  const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    if (ch == '<')
      out += "\\u003c";
    else
      out += ch;
  }
  return out;
}

/// "12.345 s" for microseconds since the origin.
std::string seconds_text(Micros us) {
  return text::format_millis(static_cast<std::uint64_t>(std::max<Micros>(us, 0) / 1000)) + " s";
}

/// A gap between two consecutive timed steps as words: "+250 ms", "+4.200 s".
std::string gap_text(Micros us) {
  if (us < 1'000'000) return "+" + std::to_string(us / 1000) + " ms";
  return "+" + seconds_text(us);
}

/// The space (in pixels, before zoom) drawn above a step that follows the previous one after
/// `us`: logarithmic, so that milliseconds and seconds both show and no gap takes a screen.
int gap_pixels(Micros us) {
  if (us <= 0) return 0;
  const double ms = static_cast<double>(us) / 1000.0;
  return std::min(64, static_cast<int>(std::lround(6.0 * std::log2(1.0 + ms))));
}

/// A gap of at least this long is marked on the time axis ("+4.200 s").
constexpr Micros kMarkedGap = 1'000'000;

}  // namespace

std::string render_html(const TraceDocument& doc, const HtmlOptions& options) {
  const Counterexample& c = doc.counterexample;
  const std::vector<std::string> actors = actors_in_order(c);
  std::map<std::string, std::size_t> lane;
  for (const std::string& a : actors)
    lane.emplace(a, lane.size());
  const CausalSlice slice = causal_slice(doc);
  const std::optional<std::size_t> violating = slice.violating;
  bool timed = !c.steps.empty();
  for (const TraceStep& s : c.steps)
    timed = timed && s.time.has_value();
  const std::string scenario_name =
      doc.scenario.is_object() && doc.scenario.contains("name") && doc.scenario["name"].is_string()
          ? doc.scenario["name"].get<std::string>()
          : std::string();
  const auto is_race = [&](std::size_t p) {
    return doc.race &&
           (c.steps[p].index == doc.race->first || c.steps[p].index == doc.race->second);
  };

  // The data the script reads: per step its accesses, log lines and what it changed in the state.
  nlohmann::json data = nlohmann::json::object();
  data["actors"] = actors;
  data["timed"] = timed;
  data["violating"] = violating ? nlohmann::json(*violating) : nlohmann::json(nullptr);
  data["race"] = doc.race ? nlohmann::json::array({doc.race->first, doc.race->second})
                          : nlohmann::json(nullptr);
  data["has_states"] = !c.states.empty();
  nlohmann::json steps = nlohmann::json::array();
  nlohmann::json before;  // the state before the step (null before the first)
  for (std::size_t p = 0; p < c.steps.size(); ++p) {
    const TraceStep& s = c.steps[p];
    nlohmann::json step = nlohmann::json::object();
    nlohmann::json accesses = nlohmann::json::array();
    for (const TraceAccess& a : s.accesses)
      accesses.push_back(nlohmann::json::array({a.object, std::string(to_string(a.kind))}));
    step["accesses"] = accesses;
    if (p < options.log.size() && !options.log[p].empty()) step["log"] = options.log[p];
    if (p < c.states.size()) {
      // The state as changes: a key set to a new value, a key removed, or (not an object) the
      // whole value; the script replays them, so the page holds each value once.
      const nlohmann::json& after = c.states[p];
      if (after.is_object() && (before.is_object() || before.is_null())) {
        nlohmann::json set = nlohmann::json::object();
        for (const auto& [key, v] : after.items())
          if (!before.is_object() || !before.contains(key) || before[key] != v) set[key] = v;
        nlohmann::json removed = nlohmann::json::array();
        if (before.is_object())
          for (const auto& [key, v] : before.items())
            if (!after.contains(key)) removed.push_back(key);
        step["set"] = set;
        if (!removed.empty()) step["removed"] = removed;
      } else {
        step["state"] = after;
      }
      before = after;
    }
    steps.push_back(step);
  }
  data["steps"] = steps;

  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // Nothing may be loaded from anywhere: the page's own inline script and style only.
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n";
  out += "<title>" + esc(scenario_name.empty() ? c.invariant : scenario_name + ": " + c.invariant) +
         "</title>\n";
  out += "<style>\n" + std::string(html_assets::kPageCss) + "</style>\n</head>\n";
  out += "<body class=\"trace folded\" data-timed=\"" + std::string(timed ? "true" : "false") +
         "\">\n";

  // The header: what was violated, the race, the slice, and how to move.
  out += "<header>\n<h1>" + esc(counterexample_headline(c)) + "</h1>\n";
  out += "<p class=\"meta\">";
  if (!scenario_name.empty()) out += "scenario <b>" + esc(scenario_name) + "</b> · ";
  if (!doc.scenario_file.empty()) out += esc(doc.scenario_file) + " · ";
  if (!doc.overrides.empty()) {
    std::string list;
    for (const std::string& o : doc.overrides)
      list += (list.empty() ? "" : " ") + o;
    out += "overrides " + esc(list) + " · ";
  }
  out += "strategy " + esc(doc.strategy) + " · " + esc(doc.tool_version) + "</p>\n";
  out +=
      "<p id=\"violation\" class=\"sentence violation-text\"><span "
      "class=\"tag\">violation</span> " +
      esc(describe_violation(c, Wording::kReport)) + "</p>\n";
  if (doc.race)
    out += "<p id=\"race\" class=\"sentence race-text\"><span class=\"tag\">the race</span> " +
           esc(describe_race(c, *doc.race)) + "; reversed, " + esc(doc.race->reversed) + "</p>\n";
  const std::size_t involved = slice.involved_count();
  out += "<p id=\"slice\" class=\"sentence\">";
  if (slice.complete())
    out += "Every step is in the causal slice (the steps the violation depends on).";
  else
    out += std::to_string(involved) + " of " + std::to_string(c.steps.size()) +
           " steps are in the causal slice (the steps the violation depends on); the " +
           std::to_string(c.steps.size() - involved) +
           " others are folded. <button type=\"button\" id=\"fold-toggle\">show every step "
           "(f)</button>";
  out += "</p>\n";
  out +=
      "<p class=\"keys\">Keys: <kbd>j</kbd>/<kbd>↓</kbd> next step, <kbd>k</kbd>/<kbd>↑</kbd> "
      "previous, ";
  if (doc.race) out += "<kbd>r</kbd> the race, ";
  out += "<kbd>v</kbd> the violation, <kbd>f</kbd> fold or unfold, <kbd>Esc</kbd> unpin";
  if (timed) out += ", <kbd>+</kbd>/<kbd>-</kbd> zoom the time axis";
  out += ". Hover a step to see what it accessed and the state after it; click to pin it.</p>\n";
  out += "</header>\n";

  // The lanes.
  out += "<main>\n<div id=\"lanes\">\n<table id=\"timeline\" style=\"--lanes:" +
         std::to_string(actors.size()) + "\">\n<thead><tr><th class=\"axis\">" +
         std::string(timed ? "time" : "step") + "</th>";
  for (std::size_t a = 0; a < actors.size(); ++a)
    out +=
        "<th class=\"actor\" data-lane=\"" + std::to_string(a) + "\" title=\"" + attr(actors[a]) +
        "\">" + esc(actors[a]) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  const std::string span = std::to_string(actors.size());
  std::size_t run = 0;  // the folded runs so far
  Micros previous_time = 0;
  for (std::size_t p = 0; p < c.steps.size();) {
    if (!slice.involved[p]) {
      // A run of steps not involved: one fold row naming how many of whose, then the steps.
      std::size_t end = p;
      std::vector<std::pair<std::string, std::size_t>> whose;
      while (end < c.steps.size() && !slice.involved[end]) {
        const std::string& a = c.steps[end].actor;
        auto it =
            std::find_if(whose.begin(), whose.end(), [&](const auto& w) { return w.first == a; });
        if (it == whose.end())
          whose.emplace_back(a, 1);
        else
          ++it->second;
        ++end;
      }
      std::string who;
      for (const auto& [a, n] : whose)
        who += (who.empty() ? "" : ", ") + a + " " + std::to_string(n);
      const std::size_t n = end - p;
      out += "<tr class=\"fold\" data-run=\"" + std::to_string(run) + "\"><td class=\"axis\">#" +
             std::to_string(c.steps[p].index) +
             (n > 1 ? "–" + std::to_string(c.steps[end - 1].index) : "") + "</td><td colspan=\"" +
             span + "\">" + std::to_string(n) + (n == 1 ? " step" : " steps") + " not involved (" +
             esc(who) + ") <span class=\"hint\">click to show</span></td></tr>\n";
    }
    const std::size_t end = slice.involved[p] ? p + 1 : [&] {
      std::size_t e = p;
      while (e < c.steps.size() && !slice.involved[e])
        ++e;
      return e;
    }();
    for (; p < end; ++p) {
      const TraceStep& s = c.steps[p];
      std::string cls = "step";
      if (!slice.involved[p]) cls += " uninvolved";
      if (violating == p) cls += " violating";
      if (is_race(p)) cls += " race";
      out += "<tr class=\"" + cls + "\" id=\"step-" + std::to_string(s.index) + "\" data-p=\"" +
             std::to_string(p) + "\"";
      if (!slice.involved[p]) out += " data-run=\"" + std::to_string(run) + "\"";
      std::string axis = "#" + std::to_string(s.index);
      if (timed) {
        const Micros gap = p == 0 ? *s.time : *s.time - previous_time;
        out += " style=\"--gap:" + std::to_string(gap_pixels(gap)) + "\"";
        axis = "<span class=\"t\">" + esc(seconds_text(*s.time)) + "</span> " + axis;
        if (p > 0 && gap >= kMarkedGap)
          axis = "<span class=\"gap\" title=\"a gap of " + attr(gap_text(gap)) +
                 ", compressed\">⋯ " + esc(gap_text(gap)) + "</span>" + axis;
        previous_time = *s.time;
      }
      out += "><td class=\"axis\">" + axis + "</td>";
      const std::size_t l = lane.at(s.actor);
      for (std::size_t k = 0; k < l; ++k)
        out += "<td class=\"lane\"></td>";
      out += "<td class=\"cell\" data-lane=\"" + std::to_string(l) + "\"><div class=\"card\">";
      out += "<div class=\"label\"><span class=\"idx\">#" + std::to_string(s.index) + "</span> " +
             esc(step_label(s));
      if (is_race(p))
        out += " <span class=\"badge race-badge\">race " +
               std::string(s.index == doc.race->first ? "1" : "2") + "</span>";
      if (violating == p) out += " <span class=\"badge violation-badge\">violation</span>";
      out += "</div>";
      const std::string what = describe_what(s, Wording::kReport);
      if (!what.empty()) out += "<div class=\"what\">" + esc(what) + "</div>";
      if (p < options.log.size())
        for (const std::string& line : options.log[p])
          out += "<div class=\"log\" title=\"" + attr(line) + "\">" + esc(line) + "</div>";
      out += "</div></td>";
      for (std::size_t k = l + 1; k < actors.size(); ++k)
        out += "<td class=\"lane\"></td>";
      out += "</tr>\n";
    }
    if (!slice.involved[end - 1]) ++run;
  }
  if (!violating)
    out +=
        "<tr class=\"step violating end\" id=\"violation-end\"><td class=\"axis\">end</td>"
        "<td colspan=\"" +
        span +
        "\"><div class=\"card\"><div class=\"label\"><span class=\"badge "
        "violation-badge\">violation</span> " +
        esc(describe_violation(c, Wording::kReport)) + "</div></div></td></tr>\n";
  out += "</tbody>\n</table>\n</div>\n";
  out +=
      "<aside id=\"details\"><p class=\"hint\">Hover a step for what it accessed and the state "
      "after it.</p></aside>\n</main>\n";
  out += "<script type=\"application/json\" id=\"trace-data\">" + script_json(data) + "</script>\n";
  out += "<script>\n" + std::string(html_assets::kPageJs) + "</script>\n</body>\n</html>\n";
  return out;
}

std::string render_html_index(const GateReport& report) {
  const std::size_t failed = report.failed();
  const std::size_t skipped = report.skipped();
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n";
  out += "<title>" + esc(report.name) + "</title>\n";
  out += "<style>\n" + std::string(html_assets::kPageCss) +
         "</style>\n</head>\n<body class=\"index\">\n";
  out += "<header>\n<h1>" + esc(report.name) + "</h1>\n<p class=\"sentence\" id=\"totals\">" +
         std::to_string(report.cases.size()) + " scenario" + (report.cases.size() == 1 ? "" : "s") +
         ": " + std::to_string(report.cases.size() - failed - skipped) + " passed, " +
         std::to_string(failed) + " failed";
  if (!report.interrupted.empty())
    out += "; " + esc(report.interrupted) + ", " + std::to_string(skipped) + " not decided";
  out += ".</p>\n";
  if (!report.tool_version.empty())
    out += "<p class=\"meta\">" + esc(report.tool_version) + "</p>\n";
  out +=
      "</header>\n<main>\n<table class=\"index\">\n<thead><tr><th>scenario</th><th>expected</th>"
      "<th>actual</th><th>executions</th><th>result</th><th>counterexamples</th></tr></thead>\n"
      "<tbody>\n";
  const auto row = [&](const GateCase& c) {
    const std::string result = c.skipped ? "not decided" : c.passed ? "pass" : "FAIL";
    const std::string cls = c.skipped ? "skipped" : c.passed ? "pass" : "fail";
    out += "<tr class=\"" + cls + "\"><td><b>" + esc(c.scenario) + "</b>";
    if (!c.file.empty()) out += "<div class=\"meta\">" + esc(c.file) + "</div>";
    out += "</td><td>" + esc(c.expected) + "</td><td>" + esc(c.actual) + "</td><td class=\"num\">" +
           std::to_string(c.executions) + "</td><td class=\"result\">" + result;
    if (!c.failure.empty()) out += "<div class=\"meta\">" + esc(c.failure) + "</div>";
    out += "</td><td>";
    for (std::size_t i = 0; i < c.traces.size(); ++i) {
      const std::string name = c.traces[i].counterexample.invariant;
      if (i < c.counterexample_pages.size() && !c.counterexample_pages[i].empty())
        out +=
            "<div><a href=\"" + attr(c.counterexample_pages[i]) + "\">" + esc(name) + "</a></div>";
      else
        out += "<div>" + esc(name) + "</div>";
    }
    out += "</td></tr>\n";
  };
  for (const GateCase& c : report.cases)
    if (!c.passed && !c.skipped) row(c);
  for (const GateCase& c : report.cases)
    if (c.passed || c.skipped) row(c);
  out += "</tbody>\n</table>\n</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace interleave::reports
