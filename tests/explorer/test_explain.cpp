// Explaining an incident (explorer/evidence/explain.hpp) on a small program that exhaustive DFS can search
// to the end: the lines related to the failure, the incident's order, the explanations found by
// DPOR against those of DFS, and the cutting search against the search that filters only at the
// end (under DFS, which abandons a cut execution, and under DPOR, which runs it on untraced).
#include "explorer/evidence/explain.hpp"
#include "explorer/core/primitives.hpp"

#include <catch2/catch.hpp>

using namespace interleave;

namespace {

const LogPatternTable& table() {
  static const LogPatternTable t({
      LogPattern{"put", "INFO", "Map", "hypothetical: a test's", "put key[{key:int}] value[{value:int}]",
                 "put", 10},
      LogPattern{"drop", "WARN", "Cleaner", "hypothetical: a test's", "drop key[{key:int}]", "drop",
                 20},
      LogPattern{"miss", "ERROR", "Reader", "hypothetical: a test's", "key[{key:int}] not found",
                 "get", 30},
  });
  return t;
}

// Two writers put a key each and read it back; a cleaner drops key 1, then key 2, if present.
// Each logs through the table: a writer that finds its key gone logs "key[k] not found".
// `timed`: a writer puts within 1 s and reads its key back 1 to 2 s after its put; the cleaner's
// first drop comes at any time in the first 10 s, its second 1 s after the first.
Program map_program(bool timed = false) {
  return [timed](Execution& ex) {
    auto& slot1 = ex.make<Shared<int>>(ex, "slot1", 0);
    auto& slot2 = ex.make<Shared<int>>(ex, "slot2", 0);
    const auto writer = [timed](Shared<int>& slot, int key) {
      return [&slot, key, timed](Actor& a) {
        if (timed) a.lasts(Duration::between(0, seconds(1)));
        slot.write(a, "put", key * 10);
        a.note(table().render("put", {{"key", std::to_string(key)},
                                      {"value", std::to_string(key * 10)}}));
        if (timed) a.lasts(Duration::between(seconds(1), seconds(2)));
        if (slot.read(a, "get") == 0)
          a.note(table().render("miss", {{"key", std::to_string(key)}}));
      };
    };
    ex.spawn("w1", writer(slot1, 1));
    ex.spawn("w2", writer(slot2, 2));
    ex.spawn("cleaner", [&slot1, &slot2, timed](Actor& a) {
      if (timed) a.lasts(Duration::between(0, seconds(10)));
      int key = 1;
      for (Shared<int>* slot : {&slot1, &slot2}) {
        slot->update(a, "drop", [&](int& v) {
          if (v != 0) a.note(table().render("drop", {{"key", std::to_string(key)}}));
          v = 0;
        });
        if (timed) a.lasts(Duration::exactly(seconds(1)));
        ++key;
      }
    });
  };
}

Incident incident(const std::string& text, IncidentOptions options = {}) {
  std::vector<LogFile> files;
  files.push_back(parse_log(text, "incident.log"));
  return read_incident(std::move(files), table().compiled(), options);
}

// key 1 put, dropped, then found missing; key 2 put (not related: no id shared with the failure).
const char* const kIncident =
    "00:00:01 put key[1] value[10]\n"
    "00:00:02 put key[2] value[20]\n"
    "00:00:05 drop key[1]\n"
    "00:00:09 key[1] not found\n";

ExplainResult explain(const Incident& inc, bool dfs, bool end_only = false) {
  ExplainOptions o;
  o.dfs = dfs;
  o.filter_only_at_end = end_only;
  o.keep_forms = true;
  return explain_incident(map_program(), inc, table().compiled(), o);
}

}  // namespace

TEST_CASE("explain: the related lines start from the failure and follow shared ids, in file order",
          "[explain]") {
  const Incident inc = incident(kIncident);
  REQUIRE(inc.lines.size() == 4);
  CHECK(inc.unmatched.empty());
  std::vector<std::string> related;
  for (const std::size_t l : inc.related)
    related.push_back(inc.where(l));
  CHECK(related == std::vector<std::string>{"incident.log:1", "incident.log:3", "incident.log:4"});
  CHECK_FALSE(inc.lines[1].related);
  CHECK(inc.before[0][1]);
  CHECK(inc.before[1][2]);
  CHECK_FALSE(inc.before[2][0]);

  IncidentOptions focus;
  focus.focus = {{"key", "2"}};
  const Incident by_hand = incident(kIncident, focus);
  REQUIRE(by_hand.related.size() == 1);
  CHECK(by_hand.where(by_hand.related[0]) == "incident.log:2");
}

TEST_CASE("explain: DPOR finds the explanations exhaustive DFS finds, one per Mazurkiewicz trace",
          "[explain]") {
  const Incident inc = incident(kIncident);
  const ExplainResult dfs = explain(inc, true);
  const ExplainResult dpor = explain(inc, false);
  REQUIRE(dfs.complete);
  REQUIRE(dpor.complete);
  REQUIRE(dfs.explanations > 0);
  CHECK(dfs.explaining > dfs.explanations);  // several interleavings of one trace
  CHECK(dpor.forms == dfs.forms);
  CHECK(dpor.explanations == dfs.explanations);
  CHECK(dpor.explaining == dpor.explanations);
  REQUIRE(dpor.first.has_value());
  // The miss (line 4) is logged by the get of the writer that logged the put (line 1): the log's
  // key 1 binds to one key of the program (which one is free: values bind as a renaming).
  REQUIRE(dpor.first->step_of.size() == 3);
  const std::string writer = dpor.first->steps[dpor.first->step_of[0]].actor;
  CHECK((writer == "w1" || writer == "w2"));
  CHECK(dpor.first->steps[dpor.first->step_of[2]].actor == writer);
  CHECK(dpor.first->steps[dpor.first->step_of[1]].actor == "cleaner");
  // In every explanation the cleaner's drop falls between the put and the miss.
  bool drop_between = false;
  for (const InferredStep& s : dpor.inferred)
    if (s.actor == "cleaner" && s.label == "drop" && s.occurrence == 1) drop_between = true;
  CHECK_FALSE(drop_between);  // the drop of key 1 logs line 3: it is explained, not inferred
}

TEST_CASE("explain: a step no line logs, between two lines in every explanation, is inferred",
          "[explain]") {
  // One writer puts key 1 (line 1), clears its slot without a line, and finds the key missing
  // (line 2): the clear is in every explanation, after line 1 and before line 2.
  const Program program = [](Execution& ex) {
    auto& slot = ex.make<Shared<int>>(ex, "slot", 0);
    ex.spawn("w", [&slot](Actor& a) {
      slot.write(a, "put", 10);
      a.note(table().render("put", {{"key", "1"}, {"value", "10"}}));
      slot.write(a, "clear", 0);
      if (slot.read(a, "get") == 0) a.note(table().render("miss", {{"key", "1"}}));
    });
  };
  const Incident inc = incident("00:00:01 put key[1] value[10]\n00:00:02 key[1] not found\n");
  REQUIRE(inc.related.size() == 2);
  for (const bool dfs : {false, true}) {
    ExplainOptions o;
    o.dfs = dfs;
    const ExplainResult r = explain_incident(program, inc, table().compiled(), o);
    INFO("dfs " << dfs);
    REQUIRE(r.complete);
    CHECK(r.explanations == 1);
    REQUIRE(r.inferred.size() == 1);
    const InferredStep& s = r.inferred[0];
    CHECK(s.actor == "w");
    CHECK(s.label == "clear");
    CHECK(s.occurrence == 1);
    CHECK(s.what == "write slot = 0");  // the primitive's note, which no pattern matches
    CHECK(s.after_line == std::optional<std::size_t>(0));
    CHECK(s.before_line == std::optional<std::size_t>(1));
  }
}

TEST_CASE("explain: cutting at a line a complete logger may not print finds what filtering at the "
          "end finds",
          "[explain]") {
  IncidentOptions complete;
  complete.complete = {"Cleaner"};
  const Incident inc = incident(kIncident, complete);
  const ExplainResult cut = explain(inc, true);
  const ExplainResult end = explain(inc, true, true);
  const ExplainResult dpor = explain(inc, false);
  const ExplainResult dpor_end = explain(inc, false, true);
  REQUIRE(cut.complete);
  REQUIRE(end.complete);
  // Under DPOR a cut execution runs on untraced: the same executions, the same explanations.
  CHECK(dpor.cut > 0);
  CHECK(dpor_end.cut == 0);
  CHECK(dpor.executions == dpor_end.executions);
  CHECK(dpor.forms == dpor_end.forms);
  CHECK(dpor.explanations == dpor_end.explanations);
  // The cleaner logs one drop: the other key is dropped before its writer puts it.
  CHECK(cut.cut > 0);
  CHECK(end.cut == 0);
  CHECK(cut.executions < end.executions);
  CHECK(cut.explaining == end.explaining);
  CHECK(cut.forms == end.forms);
  CHECK(dpor.forms == end.forms);
  REQUIRE(end.explanations > 0);
  // Fewer explanations than without the complete logger: those that log a second drop are out.
  CHECK(end.explanations < explain(incident(kIncident), true).explanations);
  for (const std::string& form : end.forms)
    CHECK((form.find("drop key[1]") == std::string::npos ||
           form.find("drop key[2]") == std::string::npos));
}

TEST_CASE("explain: a log the program cannot produce is not explained: the longest prefix and the "
          "closest execution say where",
          "[explain]") {
  // The miss before the drop: no execution logs them in that order.
  const Incident inc = incident(
      "00:00:01 put key[1] value[10]\n"
      "00:00:04 key[1] not found\n"
      "00:00:09 drop key[1]\n");
  const ExplainResult r = explain(inc, false);
  CHECK(r.complete);
  CHECK(r.explanations == 0);
  CHECK_FALSE(r.first.has_value());
  CHECK(r.longest_prefix == 2);  // the put and the miss; then a drop of that key cannot follow
  REQUIRE(r.closest.has_value());
  CHECK(r.closest->step_of.size() == 2);
  // Lines of two files closer than the skew may come in either order.
  std::vector<LogFile> files;
  files.push_back(parse_log("00:00:05 key[1] not found\n", "reader.log"));
  files.push_back(parse_log("00:00:01 put key[1] value[10]\n00:00:05.500 drop key[1]\n",
                            "cleaner.log"));
  IncidentOptions skew;
  skew.clock_skew_micros = 1'000'000;
  const Incident close = read_incident(files, table().compiled(), skew);
  CHECK(explain(close, false).explanations > 0);
  skew.clock_skew_micros = 100'000;  // now the miss is half a second before the drop
  const Incident apart = read_incident(files, table().compiled(), skew);
  CHECK(explain(apart, false).explanations == 0);
}

TEST_CASE("explain: values bind one to one: one log id cannot stand for two of the program's",
          "[explain]") {
  // Keys 7 and 8 of the log bind to the program's keys 1 and 2 (in some order): both missing is
  // possible. Key 7 put twice is not: it binds to one key of the program, which is put once.
  const ExplainResult two = explain(incident("00:00:01 put key[7] value[10]\n"
                                             "00:00:01 put key[8] value[20]\n"
                                             "00:00:09 key[7] not found\n"
                                             "00:00:09 key[8] not found\n"),
                                    false);
  CHECK(two.explanations > 0);
  const ExplainResult twice = explain(incident("00:00:01 put key[7] value[10]\n"
                                               "00:00:02 put key[7] value[20]\n"
                                               "00:00:09 key[7] not found\n"),
                                      false);
  CHECK(twice.complete);
  CHECK(twice.explanations == 0);
  CHECK(twice.longest_prefix == 1);
}

TEST_CASE("explain: lines that contradict an identity rule of the model are bad input, naming the "
          "file and line",
          "[explain]") {
  IncidentOptions rules;
  rules.rules = {IdentityRule{"value", "key"}};  // a value is put under one key
  CHECK(incident("00:00:01 put key[1] value[10]\n00:00:02 put key[1] value[10]\n", rules)
            .lines.size() == 2);
  try {
    incident("00:00:01 put key[1] value[10]\n00:00:02 put key[2] value[10]\n", rules);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "incident.log");
    CHECK(e.path() == "line 2");
    CHECK(e.message() ==
          "value 10 is under key 2 here and under key 1 at incident.log:1: a value belongs to one "
          "key");
  }
  // A rule must name holes of the table.
  CHECK_THROWS_AS(LogPatternTable({LogPattern{"p", "INFO", "X", "hypothetical", "a {a:int}", "m", 1}},
                                  {IdentityRule{"a", "b"}}),
                  ProgramError);
}

namespace {

ExplainResult explain_timed(const Incident& inc, bool dfs) {
  ExplainOptions o;
  o.dfs = dfs;
  o.keep_forms = true;
  return explain_incident(map_program(/*timed=*/true), inc, table().compiled(), o);
}

}  // namespace

TEST_CASE("explain: a timed program's durations must allow the incident's times, and DPOR finds "
          "what DFS finds",
          "[explain][timed]") {
  // The miss 1.5 s after the put, the drop between them: the durations allow it.
  const Incident fits = incident("00:00:01.000 put key[1] value[10]\n"
                                 "00:00:02.000 drop key[1]\n"
                                 "00:00:02.500 key[1] not found\n");
  const ExplainResult dfs = explain_timed(fits, true);
  const ExplainResult dpor = explain_timed(fits, false);
  REQUIRE(dfs.complete);
  REQUIRE(dpor.complete);
  CHECK(dpor.timed);
  CHECK(dfs.explanations > 0);
  CHECK(dpor.forms == dfs.forms);
  CHECK(dpor.explanations == dfs.explanations);

  // The same lines, the miss 8 s after the put: a writer reads back within 2 s.
  const Incident late = incident("00:00:01.000 put key[1] value[10]\n"
                                 "00:00:05.000 drop key[1]\n"
                                 "00:00:09.000 key[1] not found\n");
  const ExplainResult no = explain_timed(late, false);
  CHECK(no.complete);
  CHECK(no.explanations == 0);
  CHECK(no.time_rejected > 0);
  CHECK(explain_timed(late, true).explanations == 0);
  // Untimed, the same incident is explained: only the durations rule it out.
  CHECK(explain(late, false).explanations > 0);

  // Printed to the second, the 8 s may be as short as 7 s: still too long. A put and a miss
  // printed in the same second fit.
  const Incident same_second = incident("00:00:01 put key[1] value[10]\n"
                                        "00:00:01 drop key[1]\n"
                                        "00:00:02 key[1] not found\n");
  CHECK(explain_timed(same_second, false).explanations > 0);
}
