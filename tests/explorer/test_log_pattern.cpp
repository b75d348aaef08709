// Log patterns (explorer/evidence/log_pattern.hpp): what a pattern's text may be, rendering, and matching
// records read by the log reader.
#include "explorer/core/execution.hpp"
#include "explorer/evidence/log_pattern.hpp"
#include "explorer/evidence/log_reader.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

namespace {

CompiledLogPattern compiled(std::string text) {
  return CompiledLogPattern(LogPattern{"p", "INFO", "X", "hypothetical", std::move(text), "", 0});
}

std::string compile_error(std::string text) {
  try {
    compiled(std::move(text));
  } catch (const ProgramError& e) {
    return e.what();
  }
  return "no error";
}

const char* const kAdd =
    "add temporary table, session[{session:uuid}], db id[{db:int}], table name[{table_name:word}], "
    "table id[{table:int}]";

}  // namespace

TEST_CASE("log pattern: what a pattern's text may be", "[log]") {
  CHECK(compile_error(kAdd) == "no error");
  CHECK(compile_error("a {{literal}} brace") == "no error");
  CHECK(compile_error("{x:int} first") ==
        "log pattern 'p' (\"{x:int} first\"): a pattern must start with literal text");
  CHECK(compile_error("a {x:int}{y:int}") ==
        "log pattern 'p' (\"a {x:int}{y:int}\"): two holes side by side ({x} and {y})");
  CHECK(compile_error("a {x:float}") ==
        "log pattern 'p' (\"a {x:float}\"): the hole {x:float} has an unknown type (int, uuid, "
        "word, text)");
  CHECK(compile_error("a {x}") == "log pattern 'p' (\"a {x}\"): the hole {x} is not {name:type}");
  CHECK(compile_error("a {x:int") == "log pattern 'p' (\"a {x:int\"): a '{' that is never closed");
  CHECK(compile_error("a } b") ==
        "log pattern 'p' (\"a } b\"): a '}' that closes no hole (write '}}' for a brace)");
  CHECK(compile_error("a {rest:text}") ==
        "log pattern 'p' (\"a {rest:text}\"): a text hole cannot end a pattern (it would take the "
        "rest of every line)");
  CHECK(compile_error("") == "log pattern 'p' (\"\"): an empty pattern");
}

TEST_CASE("log pattern: rendered, it is the line the program logs", "[log]") {
  const CompiledLogPattern p = compiled(kAdd);
  CHECK(p.hole_names() == std::vector<std::string>{"session", "db", "table_name", "table"});
  const std::vector<LogBinding> values{{"session", "8a1f7c52-3b1e-4f0a-9d1c-6e2b7a0c5d31"},
                                       {"db", "16061"},
                                       {"table_name", "hierarchy_1747372266300"},
                                       {"table", "52300"}};
  const std::string line = p.render(values);
  CHECK(line ==
        "add temporary table, session[8a1f7c52-3b1e-4f0a-9d1c-6e2b7a0c5d31], db id[16061], table "
        "name[hierarchy_1747372266300], table id[52300]");
  // The round trip: what it renders, it matches, with the same values.
  CHECK(p.match(line) == values);
  CHECK_THROWS_AS(p.render({{"session", "t1#1"}}), ProgramError);  // not a UUID, and values missing
  CHECK(compiled("a {{b}} {x:int}").render({{"x", "-3"}}) == "a {b} -3");
}

TEST_CASE("log pattern: matching finds the leftmost occurrence and checks each hole's text",
          "[log]") {
  const CompiledLogPattern p = compiled("Fail to finish tablet {tablet:int}");
  CHECK(p.match("x Fail to finish tablet 52305 and more") ==
        std::vector<LogBinding>{{"tablet", "52305"}});
  CHECK_FALSE(p.match("Fail to finish tablet abc").has_value());
  CHECK_FALSE(p.match("Fail to finish write").has_value());
  // The first occurrence does not match, the second does.
  CHECK(p.match("Fail to finish tablet x; Fail to finish tablet 7") ==
        std::vector<LogBinding>{{"tablet", "7"}});
  const CompiledLogPattern u = compiled("session[{s:uuid}]");
  CHECK_FALSE(u.match("session[8a1f7c52-3b1e-4f0a-9d1c-6e2b7a0c5d3]").has_value());
  CHECK_FALSE(u.match("session[8a1f7c52-3b1e-4f0a-9d1c+6e2b7a0c5d31]").has_value());
  // A name used twice must take the same text twice.
  const CompiledLogPattern twice = compiled("from {t:int} to {t:int}.");
  CHECK(twice.match("from 3 to 3.").has_value());
  CHECK_FALSE(twice.match("from 3 to 4.").has_value());
  // A text hole takes as little as lets the next literal follow.
  const CompiledLogPattern t = compiled("error: {why:text}, table id: {table:int}");
  CHECK(t.match("error: Table not exist: table not found, may be dropped, table id: 52300") ==
        std::vector<LogBinding>{{"why", "Table not exist: table not found, may be dropped"},
                                {"table", "52300"}});
}

TEST_CASE("log pattern: it matches a record's full message, continuation lines included", "[log]") {
  const LogFile log = parse_log(
      "05:10:32  table_schema_service.cpp:331 failed to get schema\n"
      "           db_id: 16061, table_id: 52300, schema_id: 52301,\n"
      "           tablet_id: 52305, txn_id: 12920\n",
      "incident.txt");
  REQUIRE(log.records.size() == 1);
  const CompiledLogPattern p = compiled(
      "failed to get schema db_id: {db:int}, table_id: {table:int}, schema_id: {schema:int}, "
      "tablet_id: {tablet:int}, txn_id: {txn:int}");
  CHECK(p.match(log.records[0].full_message()) ==
        std::vector<LogBinding>{{"db", "16061"},
                                {"table", "52300"},
                                {"schema", "52301"},
                                {"tablet", "52305"},
                                {"txn", "12920"}});
  CHECK(hole_accepts(HoleType::word, "hierarchy_1747372266300"));
  CHECK_FALSE(hole_accepts(HoleType::word, "two words"));
  CHECK_FALSE(hole_accepts(HoleType::int_, ""));
  CHECK(hole_accepts(HoleType::text, ""));
}
