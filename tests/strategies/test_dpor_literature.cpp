// The classic DPOR benchmarks (tests/strategies/literature.hpp) with the trace counts published for
// them. The number of complete executions DPOR runs must equal the number of Mazurkiewicz traces.
//
// Published counts (number of traces explored by optimal DPOR, which is the number of Mazurkiewicz
// traces; Abdulla, Aronis, Jonsson, Sagonas, "Optimal dynamic partial order reduction", POPL 2014,
// Table 1, and the same benchmarks in "Source sets", JACM 2017):
//   filesystem(14) 2      filesystem(16) 8      filesystem(18) 32      filesystem(19) 64
//   indexer(12)    8      indexer(13)    64     indexer(14)    512     indexer(15)    4096
//   lastzero(5)    64     lastzero(10)   3328   lastzero(15)   147456
//   readers(2)     4      readers(8)     256    readers(13)    8192
// The small sizes are also checked against brute force (DFS, each run canonicalised).
#include "explorer/strategies/dpor.hpp"
#include "tests/strategies/literature.hpp"
#include "tests/strategies/oracle.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

namespace {

struct Counts {
  std::uint64_t completed;
  std::uint64_t blocked;
};

Counts dpor_counts(const Program& p) {
  Explorer ex(p);
  DporStrategy dpor;
  const ExplorationResult r = ex.explore(dpor);
  REQUIRE(r.verdict == Verdict::kHolds);
  return {r.stats.completed, r.stats.blocked};
}

// Distinct Mazurkiewicz traces among the runs of exhaustive DFS.
std::size_t brute_force_traces(const Program& p) {
  Explorer ex(p);
  DfsStrategy dfs;
  test::Canonicalising canon(dfs, test::Dep::kDeclared);
  ex.explore(canon);
  return canon.forms.size();
}

}  // namespace

TEST_CASE("readers(N): 2^N traces", "[dpor][literature]") {
  CHECK(dpor_counts(literature::readers(2)).completed == 4);
  CHECK(dpor_counts(literature::readers(8)).completed == 256);
  CHECK(dpor_counts(literature::readers(13)).completed == 8192);
  CHECK(brute_force_traces(literature::readers(3)) == 8);
  // Readers commute: no race between them, hence nothing to reverse redundantly.
  CHECK(dpor_counts(literature::readers(8)).blocked == 0);
}

TEST_CASE("lastzero(N): published trace counts", "[dpor][literature]") {
  CHECK(dpor_counts(literature::lastzero(5)).completed == 64);
  CHECK(dpor_counts(literature::lastzero(10)).completed == 3328);
  // Small sizes against brute force: (N + 3) * 2^(N - 2) traces.
  CHECK(brute_force_traces(literature::lastzero(2)) == 5);
  CHECK(dpor_counts(literature::lastzero(2)).completed == 5);
  CHECK(brute_force_traces(literature::lastzero(3)) == 12);
  CHECK(dpor_counts(literature::lastzero(3)).completed == 12);
}

TEST_CASE("indexer(N): published trace counts", "[dpor][literature]") {
  CHECK(dpor_counts(literature::indexer(11)).completed == 1);
  CHECK(dpor_counts(literature::indexer(12)).completed == 8);
  CHECK(dpor_counts(literature::indexer(13)).completed == 64);
  CHECK(dpor_counts(literature::indexer(14)).completed == 512);
}

TEST_CASE("filesystem(N): published trace counts", "[dpor][literature]") {
  CHECK(dpor_counts(literature::filesystem(13)).completed == 1);
  CHECK(dpor_counts(literature::filesystem(14)).completed == 2);
  CHECK(dpor_counts(literature::filesystem(16)).completed == 8);
  CHECK(dpor_counts(literature::filesystem(18)).completed == 32);
  CHECK(dpor_counts(literature::filesystem(19)).completed == 64);
}

TEST_CASE("the largest published sizes (slow, run by hand or by the benchmark)", "[.slow]") {
  CHECK(dpor_counts(literature::lastzero(15)).completed == 147456);
  CHECK(dpor_counts(literature::indexer(15)).completed == 4096);
}
