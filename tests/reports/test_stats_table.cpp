// The stats of an exploration derive from one table of counters (explorer/search/stats.hpp:
// stats_fields()): +=, the JSON written and read, the --json summaries `merge` adds up, and the
// trace schema's "stats" object, which this test holds against the table.
#include "explorer/core/json_reader.hpp"
#include "explorer/search/stats.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

using namespace interleave;

namespace {

Stats numbered(std::uint64_t base) {
  Stats s;
  std::uint64_t n = base;
  for (const StatsField& f : stats_fields())
    s.*f.member = n++;
  s.violations = {{"a", base}, {"b", 1}};
  s.elapsed_seconds = 0.5;
  s.worker_executions = {base, base + 1};
  return s;
}

}  // namespace

TEST_CASE("the stats table: every counter once, each written, read back and combined",
          "[stats]") {
  std::set<std::string> keys;
  for (const StatsField& f : stats_fields())
    CHECK(keys.insert(std::string(f.key)).second);
  CHECK(keys.size() == 10);

  const Stats a = numbered(10), b = numbered(100);
  const nlohmann::json j = to_json(a, /*with_timing=*/true);
  for (const StatsField& f : stats_fields())
    CHECK(j.at(std::string(f.key)) == a.*f.member);
  const Stats back = stats_from_json(JsonReader(j, "stats.json"));
  CHECK(to_json(back, true) == j);

  Stats sum = a;
  sum += b;
  for (const StatsField& f : stats_fields()) {
    INFO(f.key);
    CHECK(sum.*f.member == (f.combine == StatsField::Combine::kMax
                                ? std::max(a.*f.member, b.*f.member)
                                : a.*f.member + b.*f.member));
  }
  CHECK(sum.violations == std::map<std::string, std::uint64_t>{{"a", 110}, {"b", 2}});
  CHECK(sum.elapsed_seconds == 1.0);
  // The workers' executions, a statistic like wall time: appended, and written with timing only.
  CHECK(sum.worker_executions == std::vector<std::uint64_t>{10, 11, 100, 101});
  CHECK(j.at("worker_executions") == nlohmann::json::array({10, 11}));
  CHECK_FALSE(to_json(a, /*with_timing=*/false).contains("worker_executions"));
  CHECK_FALSE(to_json(a, /*with_timing=*/false).contains("elapsed_seconds"));

  // A counter shown only when non-zero is left out at 0 and read back as 0.
  const nlohmann::json zero = to_json(Stats{}, /*with_timing=*/false);
  for (const StatsField& f : stats_fields())
    CHECK(zero.contains(std::string(f.key)) == !f.only_when_nonzero);
  CHECK(to_json(stats_from_json(JsonReader(zero, "zero.json")), false) == zero);
  nlohmann::json unknown = zero;
  unknown["executed"] = 1;
  CHECK_THROWS(stats_from_json(JsonReader(unknown, "unknown.json")));
}

TEST_CASE("the trace schema's stats object has the table's keys", "[stats]") {
  std::ifstream in(std::string(INTERLEAVE_SOURCE_DIR) + "/reports/trace/trace.schema.json");
  const nlohmann::json schema = nlohmann::json::parse(in);
  const nlohmann::json& stats = schema.at("$defs").at("stats");
  std::set<std::string> properties, required;
  for (const auto& [key, _] : stats.at("properties").items())
    properties.insert(key);
  for (const auto& key : stats.at("required"))
    required.insert(key.get<std::string>());
  std::set<std::string> keys, always;
  for (const std::string& k : stats_keys())
    keys.insert(k);
  for (const StatsField& f : stats_fields())
    if (!f.only_when_nonzero) always.insert(std::string(f.key));
  always.insert("violations");
  CHECK(properties == keys);
  CHECK(required == always);
}
