// `interleave merge SUMMARY...`: one verdict from the --json summaries of the shards of a split
// search (`interleave check --shard K/N --json`), run anywhere (GNU parallel, a Slurm job array, a
// Kubernetes Indexed Job). Every summary must come from the same tool version, scenario (by hash),
// options and split (depth, prefixes, shard count, the assignment of prefixes to shards), each
// shard at most once; the counts are added, the violations and coverage united, and the first
// counterexample of each property in prefix order kept (the one a single split search reports).
// The verdict is honest: violation if a shard found one; holds only if every shard is there and
// searched its part to the end; otherwise incomplete, naming the missing and the incomplete shards.
#include "explorer/core/json_reader.hpp"
#include "reports/cli/commands.hpp"
#include "reports/run/errors.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace interleave::cli {

using namespace interleave::run;  // the run layer this command drives

namespace {

using nlohmann::json;

constexpr std::uint64_t kAny = std::numeric_limits<std::uint64_t>::max();

// One shard's summary of one scenario.
struct ShardPart {
  std::string file;
  std::string path;  // JSON pointer of the scenario in the file
  std::size_t index = 0;
  const json* scenario = nullptr;
};

std::string list_text(const std::vector<std::size_t>& v) {
  std::string s;
  for (std::size_t i : v)
    s += (s.empty() ? "" : ", ") + std::to_string(i);
  return s;
}

// Every summary read, and its scenarios grouped by name (the docs own the JSON the parts point at).
struct Shards {
  std::vector<json> docs;
  std::string tool_version;
  std::map<std::string, std::vector<ShardPart>> by_scenario;  // by name, in name order
};

Shards read_shards(const std::vector<std::string>& summaries) {
  // Read and check every file before any output.
  Shards shards;
  std::vector<json>& docs = shards.docs;
  docs.reserve(summaries.size());
  for (const std::string& f : summaries)
    docs.push_back(read_json_file(f));
  std::string& tool_version = shards.tool_version;
  std::string first_file;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    const JsonReader root(docs[d], summaries[d]);
    const std::string version = root.at("tool_version").as_string();
    if (first_file.empty()) {
      tool_version = version;
      first_file = root.file();
    } else if (version != tool_version) {
      root.at("tool_version")
          .fail("written by " + version + ", but " + first_file + " by " + tool_version +
                ": the shards of one search must come from one version");
    }
    const std::vector<JsonReader> scenarios = root.at("scenarios").items();
    for (const JsonReader& s : scenarios) {
      const std::optional<JsonReader> split = s.find("split");
      if (!split)
        s.fail("not a shard: this summary has no \"split\" (write it with 'interleave check "
               "--shard K/N --json')");
      ShardPart part;
      part.file = root.file();
      part.path = s.path();
      part.scenario = &s.json();
      part.index = split->at("shard").at("index").as_uint(1, kAny);
      shards.by_scenario[s.at("name").as_string()].push_back(part);
    }
  }
  return shards;
}

// The manifest: what every shard of scenario `name` must agree on (with the first), each shard at
// most once. Sorts `parts` by shard index; returns the number of shards of the search.
std::uint64_t check_manifest(const std::string& name, std::vector<ShardPart>& parts) {
  const ShardPart& first = parts.front();
  const JsonReader r0(*first.scenario, first.file, first.path);
  const JsonReader sp0 = r0.at("split");
  const std::uint64_t count = sp0.at("shard").at("count").as_uint(1, kAny);
  for (const ShardPart& p : parts) {
    const JsonReader r(*p.scenario, p.file, p.path);
    const JsonReader sp = r.at("split");
    auto same = [&](const JsonReader& here, const JsonReader& there, const std::string& what) {
      if (here.json() != there.json())
        here.fail(what + " differs from " + first.file + " (" + there.json().dump() +
                  "): the shards of one search must agree on it");
    };
    same(sp.at("scenario_hash"), sp0.at("scenario_hash"), "the scenario");
    same(r.at("options"), r0.at("options"), "the options");
    same(sp.at("depth"), sp0.at("depth"), "the split depth");
    same(sp.at("prefixes"), sp0.at("prefixes"), "the number of prefixes");
    same(sp.at("shard").at("count"), sp0.at("shard").at("count"), "the number of shards");
    if (sp0.has("assignment") || sp.has("assignment"))
      same(sp.at("assignment"), sp0.at("assignment"), "the assignment of prefixes to shards");
    if (p.index > count)
      sp.at("shard").at("index").fail("shard " + std::to_string(p.index) + " of " +
                                      std::to_string(count) + " does not exist");
  }
  std::sort(parts.begin(), parts.end(),
            [](const ShardPart& a, const ShardPart& b) { return a.index < b.index; });
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (parts[i].index == parts[i - 1].index)
      JsonReader(*parts[i].scenario, parts[i].file, parts[i].path)
          .at("split")
          .at("shard")
          .at("index")
          .fail("shard " + std::to_string(parts[i].index) + " of " + name + " is also in " +
                parts[i - 1].file + ": give each shard once");
  return count;
}

// The shards of one scenario combined: the counts added, the coverage united, the first
// counterexample of each property in prefix order, and which shards are missing, incomplete or
// violating.
struct Combined {
  Stats stats;
  std::map<std::string, std::uint64_t> coverage;
  struct Found {
    std::vector<std::uint64_t> prefix;  // compared in commit order (explorer/search/split.hpp)
    json counterexample;
  };
  std::map<std::string, Found> found;  // by property: the first in prefix order
  std::vector<std::size_t> missing, incomplete, violating;
  std::string description;
};

Combined combine_shards(const std::vector<ShardPart>& parts, std::uint64_t count) {
  Combined m;
  auto& [stats, coverage, found, missing, incomplete, violating, description] = m;
  std::size_t next = 1;
  for (const ShardPart& p : parts) {
    for (; next < p.index; ++next)
      missing.push_back(next);
    next = p.index + 1;
    const JsonReader r(*p.scenario, p.file, p.path);
    const JsonReader sp = r.at("split");
    stats += stats_from_json(r.at("stats"));
    const JsonReader cov = r.at("coverage");
    for (const auto& [goal, n] : cov.json().items())
      coverage[goal] += cov.at(goal).as_uint(0, kAny);
    const std::vector<JsonReader> cex = r.at("counterexamples").items();
    const std::vector<JsonReader> prefixes = sp.at("counterexample_prefixes").items();
    if (cex.size() != prefixes.size())
      sp.at("counterexample_prefixes")
          .fail("names " + std::to_string(prefixes.size()) + " prefixes for " +
                std::to_string(cex.size()) + " counterexamples");
    for (std::size_t i = 0; i < cex.size(); ++i) {
      const std::string property = cex[i].at("violation").at("invariant").as_string();
      std::vector<std::uint64_t> prefix;
      for (const JsonReader& k : prefixes[i].items())
        prefix.push_back(k.as_uint(0, kAny));
      auto it = found.find(property);
      if (it == found.end() || prefix < it->second.prefix)
        found[property] = Combined::Found{prefix, cex[i].json()};
    }
    const Verdict verdict = *verdict_from_string(
        r.at("verdict").as_enum({"holds", "violation", "incomplete"}));
    if (verdict == Verdict::kViolation) violating.push_back(p.index);
    if (!sp.at("part_complete").as_bool()) incomplete.push_back(p.index);
    const std::string c = sp.at("coverage").as_string();
    if (description.empty() || (c.find("optimal DPOR") == std::string::npos &&
                                description.find("optimal DPOR") != std::string::npos))
      description = c;
  }
  for (; next <= count; ++next)
    missing.push_back(next);
  return m;
}

// The honest verdict of the combined shards, with its detail.
std::pair<Verdict, std::string> merged_verdict(const Combined& m, std::uint64_t count) {
  if (!m.found.empty())
    return {Verdict::kViolation, "found by shard" +
                                     std::string(m.violating.size() == 1 ? " " : "s ") +
                                     list_text(m.violating) + " of " + std::to_string(count)};
  if (!m.missing.empty() || !m.incomplete.empty()) {
    std::string detail;
    if (!m.missing.empty())
      detail = "shard" + std::string(m.missing.size() == 1 ? " " : "s ") + list_text(m.missing) +
               " of " + std::to_string(count) + " missing";
    if (!m.incomplete.empty())
      detail += (detail.empty() ? "" : "; ") + std::string("shard") +
                (m.incomplete.size() == 1 ? " " : "s ") + list_text(m.incomplete) +
                " did not search its part to the end";
    return {Verdict::kIncomplete, detail};
  }
  return {Verdict::kHolds, m.description + " (" + std::to_string(count) + " shards merged)"};
}

json merged_json(const std::string& name, const std::vector<ShardPart>& parts,
                 std::uint64_t count, const Combined& m, Verdict verdict,
                 const std::string& detail) {
  const ShardPart& first = parts.front();
  const JsonReader r0(*first.scenario, first.file, first.path);
  json cex = json::array();
  for (const auto& [property, f] : m.found)
    cex.push_back(f.counterexample);
  std::vector<std::size_t> merged;
  for (const ShardPart& p : parts)
    merged.push_back(p.index);
  return {{"name", name},
          {"verdict", to_string(verdict)},
          {"detail", detail},
          {"options", r0.at("options").json()},
          {"counterexamples", cex},
          {"coverage", m.coverage},
          {"stats", to_json(m.stats, /*with_timing=*/true)},
          {"shards", {{"count", count}, {"merged", merged}, {"missing", m.missing}}}};
}

std::string merged_text(const std::string& name, std::size_t parts, std::uint64_t count,
                        const Combined& m, Verdict verdict, const std::string& detail) {
  std::string text = name + ": " + std::string(to_string(verdict));
  if (!m.found.empty()) {
    std::string names;
    for (const auto& [property, f] : m.found)
      names += (names.empty() ? "" : ", ") + property;
    text += " (" + names + ")";
  }
  text += "\n  " + detail + "\n";
  text += "  merged " + std::to_string(parts) + " of " + std::to_string(count) +
          " shards: " + std::to_string(m.stats.executions) + " executions, " +
          std::to_string(m.stats.completed) + " complete\n";
  for (const auto& [property, f] : m.found) {
    const std::string trace = f.counterexample.value("trace", std::string());
    if (!trace.empty()) text += "  counterexample: " + trace + "\n";
  }
  return text;
}

}  // namespace

CLI::App* add_merge(CLI::App& app, MergeArgs& a) {
  CLI::App* c = app.add_subcommand(
      "merge", "Combine the --json summaries of the shards of a split search into one verdict");
  c->add_option("summaries", a.summaries,
                "Summaries written by 'interleave check --shard K/N --json', one per shard")
      ->required()
      ->type_name("SUMMARY");
  c->add_flag("--json", a.json, "Print a machine-readable summary (JSON) on stdout");
  c->footer(
      "Every summary must come from the same tool version, scenario, options and split; a\n"
      "shard given twice, or summaries of different searches, are refused (exit 2). A missing\n"
      "shard, or one that did not search its part to the end, makes the verdict incomplete.\n\n"
      "The shards, e.g. under GNU parallel (or a Slurm job array, a Kubernetes Indexed Job):\n"
      "  parallel interleave check s.json --shard {}/4 --json '>' shard-{}.json ::: 1 2 3 4\n\n"
      "Exit codes: 0 holds, 1 violation, 3 incomplete, 2 bad input or usage, 4 internal error.\n\n"
      "Examples:\n"
      "  interleave merge shard-*.json\n"
      "  interleave merge shard-*.json --json > merged.json");
  return c;
}

int run_merge(const MergeArgs& args, const Context& ctx) {
  Shards shards = read_shards(args.summaries);  // every file read and checked before any output
  Verdict overall = Verdict::kHolds;            // the worst of the scenarios' verdicts
  json out_scenarios = json::array();
  std::string text;
  for (auto& [name, parts] : shards.by_scenario) {
    const std::uint64_t count = check_manifest(name, parts);
    const Combined merged = combine_shards(parts, count);
    const auto [verdict, detail] = merged_verdict(merged, count);
    overall = worse(overall, verdict);
    out_scenarios.push_back(merged_json(name, parts, count, merged, verdict, detail));
    text += merged_text(name, parts.size(), count, merged, verdict, detail);
  }
  const int exit_code = exit_code_of(overall);
  if (args.json)
    ctx.out << json{{"tool_version", shards.tool_version},
                    {"exit_code", exit_code},
                    {"scenarios", out_scenarios}}
                   .dump(2, ' ', false, json::error_handler_t::replace)
            << "\n";
  else
    ctx.out << text << std::flush;
  return exit_code;
}

}  // namespace interleave::cli
