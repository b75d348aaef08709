// Reading scenario files costs time linear in their size (issue 16): generated StarRocks
// scenarios of about 1, 10 and 40 MB (a long task_runs array), and objects with many keys,
// parsed by parse_json with the scenario limits; prints MB/s for each and the ratios to the
// smallest, in the same run. Linear time: the rates stay within a small factor of each other
// (before, a DOM callback parser made them fall with the size: 42 MB did not finish in 300 s).
//
//   bench_json_reader [--quick]      (--quick: 1 and 4 MB, for a smoke run)
#include "explorer/core/json_reader.hpp"
#include "tests/bench/bench_util.hpp"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace interleave;
using namespace interleave::bench;

namespace {

// A scenario whose text is at least `bytes` long: one cleaner, task runs t0, t1, ... .
std::string long_scenario(std::size_t bytes) {
  std::string s = R"({"name": "big", "model": "starrocks-temp-tables", "actors": {)"
                  R"("cleaner": {"passes": 1}, "task_runs": [)";
  for (std::size_t i = 0; s.size() < bytes; ++i)
    s += std::string(i ? ", " : "") + R"({"name": "t)" + std::to_string(i) +
         R"(", "tablet_rows": "none"})";
  return s + "]}}";
}

// An object of objects with `keys` keys each (up to the limit of an object's size) until the
// text is at least `bytes` long: duplicate-key detection at scale.
std::string wide_objects(std::size_t bytes, std::size_t keys) {
  std::string s = "[";
  for (std::size_t o = 0; s.size() < bytes; ++o) {
    s += o ? ", {" : "{";
    for (std::size_t k = 0; k < keys; ++k)
      s += std::string(k ? ", " : "") + "\"key" + std::to_string(k) + "\": " + std::to_string(k);
    s += "}";
  }
  return s + "]";
}

struct Rate {
  double cpu;   // MB per CPU second
  double wall;  // MB per wall second
};

// MB/s of parse_json over `text` (the document destroyed included): the best of `repeat` runs.
Rate rate(const std::string& text, int repeat) {
  double best_cpu = 1e30, best_wall = 1e30;
  for (int r = 0; r < repeat; ++r) {
    const double cpu = cpu_seconds();
    const auto start = Clock::now();
    {
      const nlohmann::json j = parse_json(text, "bench.json");
      if (j.is_null()) std::abort();
    }
    best_cpu = std::min(best_cpu, cpu_seconds() - cpu);
    best_wall = std::min(best_wall, seconds_since(start));
  }
  const double mb = static_cast<double>(text.size()) / 1e6;
  return {mb / best_cpu, mb / best_wall};
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::vector<std::size_t> sizes_mb =
      quick ? std::vector<std::size_t>{1, 4} : std::vector<std::size_t>{1, 10, 40};
  struct Row {
    std::string what;
    double mb;
    Rate rate;
  };
  std::vector<Row> rows;
  for (const char* kind : {"task_runs", "wide objects"}) {
    for (std::size_t mb : sizes_mb) {
      const std::string text = std::string(kind) == "task_runs"
                                   ? long_scenario(mb * 1000 * 1000)
                                   : wide_objects(mb * 1000 * 1000, JsonLimits{}.max_object_members);
      rows.push_back({kind, static_cast<double>(text.size()) / 1e6, rate(text, 3)});
    }
  }
  std::printf("%-14s %8s %12s %20s %13s\n", "document", "MB", "MB/s (CPU)",
              "ratio to smallest's", "MB/s (wall)");
  for (const Row& r : rows) {
    const Row& first = *std::find_if(rows.begin(), rows.end(),
                                     [&](const Row& x) { return x.what == r.what; });
    std::printf("%-14s %8.1f %12.1f %20.2f %13.1f\n", r.what.c_str(), r.mb, r.rate.cpu,
                r.rate.cpu / first.rate.cpu, r.rate.wall);
  }
  std::printf("peak RSS: %ld MiB\n", peak_rss_kib() / 1024);
  return 0;
}
