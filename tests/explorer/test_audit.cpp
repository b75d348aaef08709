// A model cannot lie silently about its accesses: the checked mode (Checked<T>), the commutation
// audit and the determinism check, each on the mistake it is for. The model is a cache-aside
// read path against a writer that invalidates the cache and then updates the database; the
// mistakes are the writer's invalidation declared with no access, or with a read where it
// writes. Correctly declared, every search finds the stale set (after the invalidation the
// reader misses, reads the old value and fills the cache with it before the update);
// misdeclared, DPOR answers "holds": it never runs the invalidation before the reader's lookup.
#include "explorer/search/audit.hpp"
#include "explorer/core/checked.hpp"
#include "explorer/search/explorer.hpp"
#include "explorer/search/portfolio.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace interleave;

namespace {

enum class Invalidation { kDeclared, kUndeclared, kDeclaredAsRead };

Access invalidation_access(Invalidation how, ObjectId cache) {
  return how == Invalidation::kDeclaredAsRead ? read(cache) : write(cache);
}

// The reader: look the key up in the cache; on a miss read the database and fill the cache.
struct ReaderLocals {
  std::optional<int> cached;
  int from_db = 0;
  void fingerprint(StateHasher& h) const { h << cached << from_db; }
};

// With Checked state (`checked`) or with plain values, which only the audit can check.
Program cache_aside(Invalidation how, bool checked) {
  return [how, checked](Execution& ex) {
    auto& db = ex.make<Checked<int>>(ex, "db", 0);
    auto& cache = ex.make<Checked<std::optional<int>>>(ex, "cache", 0);
    ex.spawn("Reader", [&db, &cache, checked](Actor& a) {
      ReaderLocals l;
      a.declare_locals(l);
      a.step("read cache", {read(cache.id())});
      l.cached = checked ? cache.read(a) : cache.peek();
      if (l.cached) return;
      a.step("read db", {read(db.id())});
      l.from_db = checked ? db.read(a) : db.peek();
      a.step("fill cache", {write(cache.id())});
      (checked ? cache.write(a) : cache.unchecked()) = l.from_db;
    });
    ex.spawn("Writer", [&db, &cache, how, checked](Actor& a) {
      a.declare_no_locals();
      if (how == Invalidation::kUndeclared)
        a.step("invalidate", {});
      else
        a.step("invalidate", {invalidation_access(how, cache.id())});
      (checked ? cache.write(a) : cache.unchecked()).reset();
      a.step("write db", {write(db.id())});
      (checked ? db.write(a) : db.unchecked()) = 1;
    });
    ex.fingerprint([&db, &cache](StateHasher& h) {
      db.fingerprint(h);
      cache.fingerprint(h);
    });
    ex.final_check("cache matches db", [&db, &cache]() -> Check {
      if (!cache.peek() || *cache.peek() == db.peek()) return std::nullopt;
      return "the cache holds " + std::to_string(*cache.peek()) + " while the database holds " +
             std::to_string(db.peek());
    });
  };
}

ExploreOptions plain() {
  ExploreOptions o;
  o.check_determinism = false;
  o.audit_counterexamples = false;
  return o;
}

ExploreOptions checked_mode() {
  ExploreOptions o;
  o.check_accesses = true;
  return o;
}

std::string program_error(const Program& program, const ExploreOptions& options) {
  Explorer explorer(program, options);
  DporStrategy dpor;
  try {
    explorer.explore(dpor);
  } catch (const ProgramError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("audit: declared right, DFS and DPOR find the stale set", "[audit]") {
  for (bool checked : {false, true}) {
    Explorer explorer(cache_aside(Invalidation::kDeclared, checked), checked_mode());
    DfsStrategy dfs;
    CHECK(explorer.explore(dfs).verdict == Verdict::kViolation);
    DporStrategy dpor;
    const ExplorationResult r = explorer.explore(dpor);
    REQUIRE(r.verdict == Verdict::kViolation);
    CHECK(r.counterexamples.front().invariant == "cache matches db");
  }
}

TEST_CASE("audit: misdeclared, DPOR without the checks says holds", "[audit]") {
  // What the checks are for: the lie goes unnoticed.
  for (Invalidation how : {Invalidation::kUndeclared, Invalidation::kDeclaredAsRead}) {
    Explorer explorer(cache_aside(how, /*checked=*/true), plain());
    DporStrategy dpor;
    CHECK(explorer.explore(dpor).verdict == Verdict::kHolds);
  }
}

TEST_CASE("audit: the checked mode names the object, the actor and the step", "[audit]") {
  const std::string undeclared =
      program_error(cache_aside(Invalidation::kUndeclared, true), checked_mode());
  CHECK(undeclared ==
        "actor 'Writer' writes 'cache' in its step 'invalidate' (step 1), which declares no "
        "access that changes it (it declares none)");
  const std::string as_read =
      program_error(cache_aside(Invalidation::kDeclaredAsRead, true), checked_mode());
  CHECK(as_read ==
        "actor 'Writer' writes 'cache' in its step 'invalidate' (step 1), which declares no "
        "access that changes it (it declares read cache)");
  // Off, the same model runs (and DPOR's answer is the lie above).
  CHECK(program_error(cache_aside(Invalidation::kUndeclared, true), plain()).empty());
}

TEST_CASE("audit: Checked used outside a step is refused in the checked mode", "[audit]") {
  const Program before_first_step = [](Execution& ex) {
    auto& x = ex.make<Checked<int>>(ex, "x", 0);
    ex.spawn("A", [&x](Actor& a) {
      x.write(a) = 1;
      a.step("s", {write(x.id())});
    });
  };
  CHECK(program_error(before_first_step, checked_mode()) ==
        "actor 'A' writes 'x' before its first step: declare the access on a step");
  const Program in_invariant = [](Execution& ex) {
    auto& x = ex.make<Checked<int>>(ex, "x", 0);
    Actor*& actor = ex.make<Actor*>(nullptr);
    ex.spawn("A", [&x, &actor](Actor& a) {
      actor = &a;
      a.step("s", {write(x.id())});
      x.write(a) = 1;
    });
    ex.invariant("x small", {x.id()}, [&x, &actor]() -> Check {
      if (actor != nullptr && x.read(*actor) > 5) return "x is large";
      return std::nullopt;
    });
  };
  CHECK(program_error(in_invariant, checked_mode()).find("outside its own steps") !=
        std::string::npos);
}

TEST_CASE("audit: the commutation audit finds the pair without Checked state", "[audit]") {
  for (Invalidation how : {Invalidation::kUndeclared, Invalidation::kDeclaredAsRead}) {
    Explorer explorer(cache_aside(how, /*checked=*/false), plain());
    // The reader finds the value in the cache, then the writer invalidates it and updates the
    // database: fine. With the lookup and the invalidation swapped (which the declarations
    // allow) the reader misses, and goes on to fill the cache with the old value.
    Schedule s;
    for (const char* actor : {"Reader", "Writer", "Writer"})
      s.steps.push_back(ScheduleEntry::run(actor));
    const CommutationAudit audit = audit_commutation(explorer, s);
    REQUIRE(audit.finding);
    CHECK(audit.finding->message().starts_with(
        "Writer's 'invalidate' (step 1) and Reader's 'read cache' (step 0) are declared "
        "independent but do not commute: in the other order, the execution does not end after "
        "the same steps (an actor that had finished still has a step to run)"));
    // The checked mode audits sampled executions: the search stops with the finding.
    const std::string error = program_error(cache_aside(how, false), checked_mode());
    CHECK(error.find("are declared independent but do not commute") != std::string::npos);
  }
  SECTION("declared right, nothing is found") {
    Explorer explorer(cache_aside(Invalidation::kDeclared, false), plain());
    Schedule s;
    for (const char* actor : {"Writer", "Reader", "Writer", "Reader", "Reader"})
      s.steps.push_back(ScheduleEntry::run(actor));
    const CommutationAudit audit = audit_commutation(explorer, s);
    CHECK(!audit.finding);
    CHECK(audit.not_audited.empty());
    // Steps: Writer invalidate (cache), Reader read cache, Writer write db, Reader read db,
    // Reader fill cache. Only 'write db' is independent of its neighbour (it moves left past
    // 'read cache'); every other move passes a step of the same actor or one that shares an
    // object with a write: exactly one moved order runs.
    CHECK(audit.moves == 1);
  }
  SECTION("steps that commute pass, with or without a state fingerprint or dump") {
    const Program plain_program = [](Execution& ex) {
      const ObjectId x = ex.object("x");
      const ObjectId y = ex.object("y");
      ex.spawn("A", [x](Actor& a) { a.step("a", {write(x)}); });
      ex.spawn("B", [y](Actor& a) { a.step("b", {write(y)}); });
    };
    Explorer explorer(plain_program, plain());
    Schedule s;
    s.steps = {ScheduleEntry::run("A"), ScheduleEntry::run("B")};
    const CommutationAudit audit = audit_commutation(explorer, s);
    CHECK(!audit.finding);
    CHECK(audit.not_audited.empty());
    CHECK(audit.moves == 1);
  }
  SECTION("a failing step moved earlier fails sooner: the same failure, no finding") {
    // A sets x, which the invariant forbids; B's step is independent of it. Run B then A, the
    // invariant fails after A; moved before B, A's step fails at once and B never runs.
    const Program failing = [](Execution& ex) {
      const ObjectId x = ex.object("x");
      const ObjectId y = ex.object("y");
      auto set = std::make_shared<bool>(false);
      ex.spawn("A", [x, set](Actor& a) {
        a.step("a", {write(x)});
        *set = true;
      });
      ex.spawn("B", [y](Actor& a) { a.step("b", {write(y)}); });
      ex.invariant("x unset", {x}, [set]() -> Check {
        if (!*set) return std::nullopt;
        return std::string("x is set");
      });
    };
    Explorer explorer(failing, plain());
    Schedule s;
    s.steps = {ScheduleEntry::run("B"), ScheduleEntry::run("A")};
    const CommutationAudit audit = audit_commutation(explorer, s);
    CHECK(!audit.finding);
    CHECK(audit.not_audited.empty());
    CHECK(audit.moves == 1);
  }
}

TEST_CASE("audit: the portfolio never says holds while a member found a violation", "[audit]") {
  // Misdeclared, without Checked state: DPOR holds in the first round while the bug finders find
  // the stale set; the audit of their counterexample names the pair.
  const Program program = cache_aside(Invalidation::kUndeclared, false);
  ExploreOptions options;
  PortfolioOptions p;
  p.jobs = 1;
  std::string error;
  try {
    explore_portfolio(program, options, p);
  } catch (const ProgramError& e) {
    error = e.what();
  }
  CHECK(error.find("are declared independent but do not commute") != std::string::npos);
  SECTION("without the audit, the contradiction itself is the error") {
    options.audit_counterexamples = false;
    error.clear();
    try {
      explore_portfolio(program, options, p);
    } catch (const ProgramError& e) {
      error = e.what();
    }
    CHECK(error.starts_with("the declared accesses are wrong: dpor explored every trace and "
                            "found no violation, yet "));
  }
}

TEST_CASE("audit: a program that changes after its first execution is not deterministic",
          "[audit]") {
  // State kept across executions (a static counter in a real model): the writer's step declares
  // another object from the second execution on, which no prefix replay of DPOR looks at.
  int runs = 0;
  const Program program = [&runs](Execution& ex) {
    const bool first = runs++ == 0;
    const ObjectId x = ex.object("x");
    const ObjectId y = ex.object("y");
    ex.spawn("A", [x, y, first](Actor& a) { a.step("a", {write(first ? x : y)}); });
    ex.spawn("B", [x](Actor& a) { a.step("b", {read(x)}); });
  };
  {
    Explorer explorer(program, plain());
    DporStrategy dpor;
    CHECK(explorer.explore(dpor).verdict == Verdict::kHolds);  // unnoticed without the check
  }
  runs = 0;
  Explorer explorer(program, ExploreOptions{});
  DporStrategy dpor;
  std::string error;
  try {
    explorer.explore(dpor);
  } catch (const ProgramError& e) {
    error = e.what();
  }
  CHECK(error ==
        "the program is not deterministic: execution 1 of the search, run again at its end, did "
        "something else: at step 0 it ran A's 'a' (step 0) where it had run A's 'a' (step 0), "
        "with other accesses (state kept from one execution to the next, such as a static "
        "variable, changes what the program does)");
}

namespace {

// P writes v (declaring only its own object p), then ticks p five times; Q reads v (declaring
// only q) into `seen`, which the state dump shows. The lie is seen only when Q's read is moved
// past all six of P's steps: up to the write, P's ticks commute with it.
Program far_pair() {
  return [](Execution& ex) {
    const ObjectId p = ex.object("p");
    const ObjectId q = ex.object("q");
    auto v = std::make_shared<int>(0);
    auto seen = std::make_shared<int>(-1);
    ex.spawn("P", [p, v](Actor& a) {
      a.step("write v", {write(p)});
      *v = 1;
      for (int i = 0; i < 5; ++i)
        a.step("tick", {write(p)});
    });
    ex.spawn("Q", [q, v, seen](Actor& a) {
      a.step("read v", {write(q)});
      *seen = *v;
    });
    ex.state_dump([seen]() -> nlohmann::json { return {{"seen", *seen}}; });
  };
}

}  // namespace

TEST_CASE("audit: its reach is how far it moves a step, and which executions", "[audit]") {
  SECTION("the executions sampled, and the detail that states the reach") {
    AuditOptions o;
    std::vector<std::uint64_t> wanted;
    for (std::uint64_t n = 1; n <= 20; ++n)
      if (o.wants(n)) wanted.push_back(n);
    CHECK(wanted == std::vector<std::uint64_t>{1, 2, 4, 8, 16});
    CHECK(o.reach(5) == "audit: 5 executions (the 1st, 2nd, 4th, 8th, ...), steps moved up to 4 "
                        "places");
    o.every = 3;
    o.max_distance = 1;
    wanted.clear();
    for (std::uint64_t n = 1; n <= 10; ++n)
      if (o.wants(n)) wanted.push_back(n);
    CHECK(wanted == std::vector<std::uint64_t>{1, 3, 6, 9});
    CHECK(o.reach(1) == "audit: 1 execution (the 1st and every 3rd), steps moved up to 1 place");
    o.every = 12;
    CHECK(o.reach(0) == "audit: 0 executions (the 1st and every 12th), steps moved up to 1 place");
    o.every = 1;
    CHECK(o.reach(2) == "audit: 2 executions (every one), steps moved up to 1 place");
  }
  Schedule s;
  for (int i = 0; i < 6; ++i)
    s.steps.push_back(ScheduleEntry::run("P"));
  s.steps.push_back(ScheduleEntry::run("Q"));
  Explorer explorer(far_pair(), plain());
  SECTION("five places: Q's read moved past the ticks only, one order per distance") {
    AuditOptions five;
    five.max_distance = 5;
    const CommutationAudit audit = audit_commutation(explorer, s, five);
    CHECK(!audit.finding);
    CHECK(audit.not_audited.empty());
    CHECK(audit.moves == 5);
  }
  SECTION("six places: past the write too") {
    AuditOptions six;
    six.max_distance = 6;
    const CommutationAudit audit = audit_commutation(explorer, s, six);
    REQUIRE(audit.finding);
    CHECK(audit.moves == 6);
    CHECK(audit.finding->moved == 6);
    CHECK(audit.finding->past == 0);
    CHECK(audit.finding->distance == 6);
    CHECK(audit.finding->message().starts_with(
        "Q's 'read v' (step 6) and P's 'write v' (step 0) are declared independent but do not "
        "commute: in the other order, the execution ends in another state (Q's 'read v' (step 6) "
        "moved past the 6 steps up to P's 'write v' (step 0))"));
  }
  SECTION("the checked mode's search: DPOR runs one execution, audited up to the distance") {
    // P and Q never conflict by their declarations: one Mazurkiewicz trace.
    ExploreOptions o = checked_mode();
    DporStrategy dpor;
    const ExplorationResult r = Explorer(far_pair(), o).explore(dpor);
    CHECK(r.verdict == Verdict::kHolds);
    CHECK(r.stats.executions == 1);
    CHECK(r.stats.audited == 1);
    o.audit.max_distance = 6;
    CHECK(program_error(far_pair(), o).starts_with(
        "Q's 'read v' (step 6) and P's 'write v' (step 0) are declared independent"));
    o.check_accesses = false;
    DporStrategy again;
    const ExplorationResult off = Explorer(far_pair(), o).explore(again);
    CHECK(off.verdict == Verdict::kHolds);
    CHECK(off.stats.audited == 0);
  }
}
