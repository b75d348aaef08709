// `interleave simulate SCENARIO`: how often the scenario's properties fail when its durations are
// drawn from their laws and its actors run in time order (explorer/search/simulate.hpp; the run layer's
// reports/run/simulation.hpp loads and runs it). Per property:
// the runs that violated it and the probability per run with its 95 % Wilson interval, and a rate
// per hour and per year when the scenario gives how many runs an hour arise. `--vary PATH=A,B,...`
// repeats the simulation for each value of one scenario key and prints the curve as a table (and
// with --svg, draws it). A simulation estimates; it never says "holds": `interleave check` on a
// timed scenario says whether a failure is possible at all.
//
// Exit codes: 0 the runs ran, 2 bad input, 3 interrupted (the summary of the runs that ended).
#include "explorer/search/simulate.hpp"
#include "reports/cli/commands.hpp"
#include "reports/cli/interrupt.hpp"
#include "reports/cli/progress.hpp"
#include "reports/run/errors.hpp"
#include "reports/run/scenario_overrides.hpp"
#include "reports/run/simulation.hpp"
#include "reports/render/text_util.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

using nlohmann::json;

constexpr double kHoursPerYear = 8766;  // 365.25 days

std::string fixed(double x, const char* format) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

// A probability: 4 significant digits ("0.1661", "3.842e-06").
std::string prob(double p) {
  if (p == 0) return "0";
  return fixed(p, p >= 1e-3 ? "%.4f" : "%.3e");
}

std::string rate(double x) {
  if (x == 0) return "0";
  return fixed(x, x >= 100 ? "%.0f" : (x >= 1e-3 ? "%.3g" : "%.2e"));
}

std::string point_text(const SimulationPoint& p, std::uint64_t seed, const std::string& file) {
  const SimulationResult& r = p.result;
  std::string out = p.scenario_name + ": " + std::to_string(r.runs) + " runs in time order (seed " +
                    std::to_string(seed) + ")" +
                    (r.interrupted ? ", " + interruption_text() + " before the end" : "") + "\n";
  if (!r.timed)
    out += "  the scenario gives no durations: every step takes no time, ties at random\n";
  std::size_t width = 0;
  for (const auto& [name, n] : r.violations)
    width = std::max(width, name.size());
  for (const auto& [name, k] : r.violations) {
    const Proportion w = wilson(k, r.runs);
    out += "  " + name + std::string(width - name.size(), ' ') + "  " + std::to_string(k) +
           (k == 1 ? " run: " : " runs: ") + prob(w.estimate) + " per run [" + prob(w.low) + ", " + prob(w.high) +
           "] (95 %, Wilson)";
    if (p.runs_per_hour > 0)
      out += "; at " + rate(p.runs_per_hour) + " runs an hour: " +
             rate(w.estimate * p.runs_per_hour) + " an hour [" + rate(w.low * p.runs_per_hour) +
             ", " + rate(w.high * p.runs_per_hour) + "], " +
             rate(w.estimate * p.runs_per_hour * kHoursPerYear) + " a year";
    out += "\n";
  }
  const Proportion none = wilson(0, r.runs);
  const std::size_t quiet = static_cast<std::size_t>(
      std::count_if(p.invariants.begin(), p.invariants.end(),
                    [&](const std::string& n) { return !r.violations.contains(n); }));
  if (quiet > 0 && r.runs > 0) {
    out += "  " + std::string(r.violations.empty() ? "no property" : "no other property") +
           " failed (" + std::to_string(quiet) + "): 0 in " + std::to_string(r.runs) +
           " runs, below " + prob(none.high) + " per run at 95 %";
    if (p.runs_per_hour > 0)
      out += " (" + rate(none.high * p.runs_per_hour * kHoursPerYear) + " a year)";
    out += "\n  whether a failure is possible at all: interleave check " + file +
           " (the exhaustive timed search)\n";
  }
  if (r.timing_infeasible > 0)
    out += "  " + std::to_string(r.timing_infeasible) +
           " runs drew times the timed constraints refuse (a flaw of the sampler)\n";
  if (r.cut_by_bound > 0)
    out += "  " + std::to_string(r.cut_by_bound) + " runs were cut by the step bound\n";
  return out;
}

// The curve of --vary as an SVG plot: one line per property seen, the estimate with its interval
// as a bar, over the values (evenly spaced, in the order given).
std::string svg_plot(const std::string& path, const std::vector<SimulationPoint>& points) {
  std::set<std::string> names;
  for (const SimulationPoint& p : points)
    for (const auto& [k, n] : p.result.violations)
      names.insert(k);
  const double w = 640, h = 400, left = 70, right = 200, top = 30, bottom = 50;
  const double pw = w - left - right, ph = h - top - bottom;
  const std::size_t n = points.size();
  auto x_of = [&](std::size_t i) { return left + (n == 1 ? pw / 2 : pw * double(i) / double(n - 1)); };
  auto y_of = [&](double p) { return top + ph * (1 - p); };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
    << "\" viewBox=\"0 0 " << w << " " << h << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<line x1=\"" << left << "\" y1=\"" << top + ph << "\" x2=\"" << left + pw << "\" y2=\""
    << top + ph << "\" stroke=\"black\"/>\n";
  s << "<line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\"" << top + ph
    << "\" stroke=\"black\"/>\n";
  for (int t = 0; t <= 4; ++t) {
    const double p = t / 4.0;
    s << "<text x=\"" << left - 8 << "\" y=\"" << y_of(p) + 4 << "\" text-anchor=\"end\">"
      << fixed(p, "%.2f") << "</text>\n";
  }
  for (std::size_t i = 0; i < n; ++i)
    s << "<text x=\"" << x_of(i) << "\" y=\"" << top + ph + 18 << "\" text-anchor=\"middle\">"
      << reports::text::xml_escape(points[i].value, true) << "</text>\n";
  s << "<text x=\"" << left + pw / 2 << "\" y=\"" << h - 10 << "\" text-anchor=\"middle\">"
    << reports::text::xml_escape(path, true) << "</text>\n";
  s << "<text x=\"15\" y=\"" << top + ph / 2 << "\" transform=\"rotate(-90 15 " << top + ph / 2
    << ")\" text-anchor=\"middle\">probability per run (95 % interval)</text>\n";
  const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
  std::size_t c = 0;
  for (const std::string& name : names) {
    const char* colour = colours[c % std::size(colours)];
    std::string line;
    for (std::size_t i = 0; i < n; ++i) {
      const auto it = points[i].result.violations.find(name);
      const Proportion pr =
          wilson(it == points[i].result.violations.end() ? 0 : it->second, points[i].result.runs);
      line += (line.empty() ? "" : " ") + fixed(x_of(i), "%.1f") + "," + fixed(y_of(pr.estimate), "%.1f");
      s << "<line x1=\"" << x_of(i) << "\" y1=\"" << y_of(pr.low) << "\" x2=\"" << x_of(i)
        << "\" y2=\"" << y_of(pr.high) << "\" stroke=\"" << colour << "\"/>\n";
      s << "<circle cx=\"" << x_of(i) << "\" cy=\"" << y_of(pr.estimate) << "\" r=\"3\" fill=\""
        << colour << "\"/>\n";
    }
    s << "<polyline points=\"" << line << "\" fill=\"none\" stroke=\"" << colour << "\"/>\n";
    s << "<text x=\"" << left + pw + 10 << "\" y=\"" << top + 16 * double(c) + 4 << "\" fill=\""
      << colour << "\">" << reports::text::xml_escape(name, true) << "</text>\n";
    ++c;
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace

CLI::App* add_simulate(CLI::App& app, SimulateArgs& a) {
  CLI::App* c = app.add_subcommand(
      "simulate", "Estimate how often a timed scenario's properties fail, from sampled runs");
  c->add_option("scenario", a.scenario, "Scenario file")->required()->type_name("SCENARIO");
  c->add_option("--runs", a.runs, "Sampled runs (default 10000)")
      ->type_name("N")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000}));
  c->add_option("--seed", a.seed, "Seed of the draws (default 0): the same seed, the same counts")
      ->type_name("S");
  c->add_option("--jobs,-j", a.jobs, "Threads (0 or not given: one per core); the counts are "
                                     "the same for every N")
      ->type_name("N")
      ->check(CLI::Range(0u, 256u));
  c->add_option("--preset", a.preset, "Run under this policy preset (see 'interleave list')")
      ->type_name("NAME");
  c->add_option("--set", a.sets, "Set a scenario key before validation (repeatable)")
      ->type_name("PATH=VALUE")
      ->take_all()
      ->allow_extra_args(false);
  c->add_option("--vary", a.vary,
                "Simulate once per value of a scenario key (as --set sets it) and print the curve")
      ->type_name("PATH=A,B,...");
  c->add_option("--svg", a.svg, "With --vary: draw the curve as an SVG plot in FILE")
      ->type_name("FILE");
  c->add_flag("--check-accesses", a.check_accesses,
              "The checked mode: a step that uses state it did not declare is an internal error "
              "(exit 4) naming it");
  c->add_flag("--json", a.json, "Print the result as JSON");
  c->add_flag("--quiet,-q", a.quiet, "No progress line");
  c->footer(
      "Each run is one execution in time order: every duration is drawn from its law (the\n"
      "scenario's numbers and distributions), a free phase uniformly, and the actor whose next\n"
      "step is due first runs (ties at random). Run i draws from the seed and i alone, so the\n"
      "counts do not depend on --jobs. Each run stops at its first violation. Per property: the\n"
      "runs that violated it and the probability per run with its 95 % Wilson interval; a rate\n"
      "per hour and per year when the scenario gives its runs an hour. Nothing seen is reported\n"
      "as a bound (\"0 in N runs: below X per run\"), never as holds: 'interleave check' on the\n"
      "scenario says whether a failure is possible at all.\n\n"
      "SIGINT or SIGTERM stops at the next run: the summary of the runs that ended is printed.\n\n"
      "Exit codes: 0 the runs ran, 2 bad input or usage, 3 interrupted, 4 internal error.\n\n"
      "Examples:\n"
      "  interleave simulate scenario.json --runs 20000\n"
      "  interleave simulate scenario.json --vary exploration.max_steps=100,1000 --svg curve.svg\n"
      "  interleave simulate scenario.json --seed 1 --json");
  return c;
}

int run_simulate(const SimulateArgs& args, const Context& ctx) {
  // Everything is read and checked before the first run: each --vary value's scenario too.
  std::string vary_path;
  std::vector<std::string> values;
  if (!args.vary.empty()) {
    const std::size_t eq = args.vary.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == args.vary.size())
      throw UsageError("--vary " + args.vary + ": expected PATH=A,B,...");
    vary_path = args.vary.substr(0, eq);
    values = split_vary_values(args.vary.substr(eq + 1));
  }
  if (!args.svg.empty() && args.vary.empty()) throw UsageError("--svg draws the curve of --vary");
  if (!args.svg.empty()) check_output_file("--svg", args.svg);
  const SimulationPlan plan =
      plan_simulation(args.scenario, ctx.models, args.preset, args.sets, vary_path, values);
  const unsigned jobs = jobs_of(args.jobs);
  std::vector<SimulationPoint> points;
  bool interrupted = false;
  for (std::size_t i = 0; i < plan.scenarios.size() && !interrupted; ++i) {
    const Scenario& s = plan.scenarios[i];
    SimulateOptions o;
    o.runs = args.runs;
    o.seed = args.seed;
    o.jobs = jobs;
    o.check_accesses = args.check_accesses;
    o.stop = &interrupt_requested();
    std::optional<ProgressLine> progress;
    if ((ctx.env.progress || ctx.env.progress_lines) && !args.quiet) {
      const double total = static_cast<double>(args.runs);
      progress.emplace(ctx.err, s.name + (plan.values.size() > 1 ? " " + plan.values[i] : ""),
                       ctx.env.progress ? ProgressLine::Mode::kTerminal
                                        : ProgressLine::Mode::kLines,
                       [total]() -> std::optional<ProgressEstimate> {
                         ProgressEstimate e;
                         e.total = total;
                         return e;
                       });
      const auto started = std::chrono::steady_clock::now();
      o.on_progress = [&progress, started](std::uint64_t ended) {
        Stats st;
        st.executions = ended;
        st.elapsed_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        progress->update(st);
      };
    }
    points.push_back(simulate_scenario(s, plan.values[i], o));
    progress.reset();
    interrupted = points.back().result.interrupted;
  }
  if (args.json) {
    json doc{{"tool_version", ctx.env.tool_version}};
    if (vary_path.empty()) {
      doc.update(to_json(points.front(), args.seed, interruption_text()));
    } else {
      doc["vary"] = vary_path;
      json arr = json::array();
      for (const SimulationPoint& p : points) {
        json j = to_json(p, args.seed, interruption_text());
        j["value"] = json::parse(p.value, nullptr, false).is_discarded()
                         ? json(p.value)
                         : json::parse(p.value);
        arr.push_back(std::move(j));
      }
      doc["points"] = std::move(arr);
    }
    ctx.out << doc.dump(2) << "\n";
  } else if (vary_path.empty()) {
    ctx.out << point_text(points.front(), args.seed, args.scenario);
  } else {
    std::set<std::string> names;
    for (const SimulationPoint& p : points)
      for (const auto& [k, n] : p.result.violations)
        names.insert(k);
    ctx.out << points.front().scenario_name << ": " << args.runs << " runs per value of "
            << vary_path << " (seed " << args.seed << "); probability per run [95 % interval]\n";
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{vary_path, "runs"};
    for (const std::string& n : names)
      head.push_back(n);
    rows.push_back(head);
    for (const SimulationPoint& p : points) {
      std::vector<std::string> row{p.value, std::to_string(p.result.runs)};
      for (const std::string& n : names) {
        const auto it = p.result.violations.find(n);
        const Proportion w =
            wilson(it == p.result.violations.end() ? 0 : it->second, p.result.runs);
        row.push_back(prob(w.estimate) + " [" + prob(w.low) + ", " + prob(w.high) + "]");
      }
      rows.push_back(std::move(row));
    }
    std::vector<std::size_t> width(head.size(), 0);
    for (const auto& row : rows)
      for (std::size_t c = 0; c < row.size(); ++c)
        width[c] = std::max(width[c], row[c].size());
    for (const auto& row : rows) {
      std::string line;
      for (std::size_t c = 0; c < row.size(); ++c)
        line += (c ? "  " : "  ") + row[c] + std::string(width[c] - row[c].size(), ' ');
      while (!line.empty() && line.back() == ' ') line.pop_back();
      ctx.out << line << "\n";
    }
    if (names.empty())
      ctx.out << "  no property failed in any run: each below "
              << prob(wilson(0, args.runs).high) << " per run at 95 %\n";
    if (interrupted) ctx.out << "  " << interruption_text() << ": the last value's runs are those that ended\n";
  }
  if (!args.svg.empty() && !interrupted) write_file_atomically(args.svg, svg_plot(vary_path, points));
  ctx.out << std::flush;
  return interrupted ? static_cast<int>(ExitCode::kIncomplete) : static_cast<int>(ExitCode::kHolds);
}

}  // namespace interleave::cli
