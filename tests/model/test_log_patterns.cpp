// The lines StarRocks logs at the model's steps (model/starrocks/log_patterns.hpp): every pattern
// renders a note that the pattern finds again whole, the table cites a StarRocks source at a
// commit or says it is hypothetical, and the seed counterexample's notes are the patterns rendered
// with the seed's identities (so a note and a pattern cannot drift apart).
#include "model/lease_lock/lease_lock.hpp"
#include "model/starrocks/log_patterns.hpp"
#include "tests/model/helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>

using namespace interleave;
using namespace interleave::model;

namespace {

// A value each hole type takes.
std::string sample(HoleType type, const std::string& name) {
  switch (type) {
    case HoleType::int_: return "52300";
    case HoleType::uuid: return session_uuid("t1#" + name);
    case HoleType::word: return "hierarchy_1747372266300#2/" + name;
    case HoleType::text: return "any text, " + name;
  }
  return "";
}

void check_table(const LogPatternTable& table) {
  const std::regex cited("[A-Za-z_./-]+\\.(java|cpp)@[0-9a-f]{40}( \\(.*\\))?");
  for (std::size_t k = 0; k < table.compiled().size(); ++k) {
    const CompiledLogPattern& p = table.compiled()[k];
    INFO(p.pattern().id);
    std::vector<LogBinding> values;
    for (const PatternPiece& piece : p.pieces())
      if (piece.hole) values.emplace_back(piece.name, sample(piece.type, piece.name));
    const std::string note = p.render(values);
    // Alone, after a node, and among other notes of the step: found whole, with its values.
    for (const std::string& what :
         {note, "cn1: " + note, "something else; " + note + "; and more"}) {
      const std::vector<LoggedLine> lines = logged_lines(table.compiled(), what);
      REQUIRE(lines.size() == 1);
      CHECK(lines[0].pattern == k);
      CHECK(lines[0].message == note);
      CHECK(lines[0].values == values);
    }
    CHECK_FALSE(p.pattern().level.empty());
    CHECK_FALSE(p.pattern().logger.empty());
    CHECK(p.pattern().line > 0);
    CHECK((p.pattern().source.rfind("hypothetical: ", 0) == 0 ||
           std::regex_match(p.pattern().source, cited)));
  }
}

std::vector<std::string> logged(const TraceStep& s) {
  std::vector<std::string> out;
  for (const LoggedLine& l : logged_lines(starrocks_log_patterns().compiled(), s.what))
    out.push_back((l.node.empty() ? "" : l.node + ": ") + l.message);
  return out;
}

}  // namespace

TEST_CASE("log patterns: every pattern of both models renders a note it finds again whole",
          "[log_patterns]") {
  check_table(starrocks_log_patterns());
  CHECK(starrocks_log_patterns().patterns().size() == 9);
  check_table(lease_lock::log_patterns());
  CHECK(lease_lock::log_patterns().patterns().size() == 3);
  // A session's UUID is a fixed function of its name, in the uuid hole's shape.
  CHECK(session_uuid("t1#1") == session_uuid("t1#1"));
  CHECK(session_uuid("t1#1") != session_uuid("t1#2"));
  CHECK(hole_accepts(HoleType::uuid, session_uuid("c1")));
  // A note that is more than the line is no line.
  CHECK(logged_lines(starrocks_log_patterns().compiled(),
                     "remove all temporary tables in session[" + session_uuid("c1") + "] (none)")
            .empty());
}

TEST_CASE("log patterns: the seed counterexample's notes are the patterns rendered with its "
          "identities",
          "[log_patterns][seed]") {
  WorldConfig w = test::world("starrocks-4.1.1");
  w.actors.task_runs.push_back(test::task_run("t1", false, TabletRows::kNone));
  w.actors.clients.push_back(test::client("c1"));
  const ExplorationResult r = test::explore(w, false, 20000);
  const Counterexample* c = test::counterexample(r, inv::kSinkTableNotFound);
  REQUIRE(c != nullptr);
  const auto& s = c->steps;
  const std::string session = session_uuid("t1#1");
  const std::string table = "hierarchy_1747372266300";
  const std::size_t e2 = test::find_step(s, "TaskRun:t1", "E2");
  const std::size_t e2c = test::find_step(s, "TaskRun:t1", "E2c");
  const std::size_t d1 = test::find_step(s, "TemporaryTableCleaner", "D1");
  const std::size_t d3 = test::find_step(s, "TemporaryTableCleaner", "D3");
  const std::size_t d4 = test::find_step(s, "TemporaryTableCleaner", "D4");
  const std::size_t n3 = test::find_step(s, "TabletSink:t1#1/E3/cn1", "N3");
  REQUIRE(n3 < s.size());
  REQUIRE(e2 < e2c);
  REQUIRE(e2c < d1);
  CHECK(logged(s[e2]) ==
        std::vector<std::string>{"cn1: " + log_line(logs::kAddShard,
                                                    {{"tablet", "52305"},
                                                     {"path", ".../db16061/52300/52302"}})});
  CHECK(logged(s[e2c]) == std::vector<std::string>{log_line(
                              logs::kAddTemporaryTable, {{"session", session},
                                                         {"db", "16061"},
                                                         {"table_name", table},
                                                         {"table", "52300"}})});
  CHECK(logged(s[d1]) == std::vector<std::string>{
                             log_line(logs::kCleanDeadSession, {{"session", session}})});
  CHECK(s[d1].what.rfind(log_line(logs::kCleanDeadSession, {{"session", session}}) + "; ", 0) ==
        0);
  const std::vector<LogBinding> tablet{{"tablet", "52305"}, {"txn", "12920"}};
  CHECK(logged(s[n3]) ==
        std::vector<std::string>{
            "cn1: " + log_line(logs::kSchemaNotFound, {{"db", "16061"},
                                                       {"table", "52300"},
                                                       {"schema", "52301"},
                                                       {"tablet", "52305"},
                                                       {"txn", "12920"}}),
            "cn1: " + log_line(logs::kFailToFinishWrite, tablet),
            "cn1: " + log_line(logs::kFailToFinishTablet, {{"tablet", "52305"}})});
  // The seed's CN line, as the bug report quotes it, is what the model notes at N3.
  CHECK(logged(s[n3])[0] ==
        "cn1: failed to get schema db_id: 16061, table_id: 52300, schema_id: 52301, tablet_id: "
        "52305, txn_id: 12920 error: Table not exist: table not found, may be dropped");
  if (d3 < s.size())
    CHECK(logged(s[d3]) == std::vector<std::string>{log_line(
                               logs::kDropTemporaryTable,
                               {{"session", session}, {"db", "16061"}, {"table_name", table}})});
  if (d4 < s.size())
    CHECK(logged(s[d4]) == std::vector<std::string>{
                               log_line(logs::kRemoveTemporaryTables, {{"session", session}})});
}

TEST_CASE("log patterns: docs/incident-logs.md's table is the model's", "[log_patterns][docs]") {
  std::ifstream in(std::string(INTERLEAVE_SOURCE_DIR) + "/docs/incident-logs.md");
  REQUIRE(in);
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("| `", 0) == 0) rows.push_back(line);
  std::size_t found = 0;
  for (const LogPattern& p : starrocks_log_patterns().patterns()) {
    INFO(p.id);
    const std::string logger = p.method.empty() ? p.logger : p.logger + "." + p.method;
    const std::string row = "| `" + p.id + "` | " + p.level + " | `" + logger + "` | " +
                            std::to_string(p.line) + " | `" + p.text + "` | ";
    const bool listed = std::any_of(rows.begin(), rows.end(), [&](const std::string& r) {
      return r.rfind(row, 0) == 0;
    });
    CHECK(listed);
    found += listed ? 1 : 0;
    // The commit the docs name (8 digits) is the table's.
    const std::size_t at = p.source.find('@');
    if (p.source.rfind("hypothetical: ", 0) != 0 && at != std::string::npos) {
      const std::string commit = p.source.substr(at + 1, 8);
      CHECK(std::any_of(rows.begin(), rows.end(), [&](const std::string& r) {
        return r.rfind(row, 0) == 0 && r.find("@`" + commit + "`") != std::string::npos;
      }));
    }
  }
  CHECK(found == starrocks_log_patterns().patterns().size());
}
