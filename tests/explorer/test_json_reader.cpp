// Exact error messages for user-written JSON: file, JSON path, what is wrong.
#include "explorer/core/json_reader.hpp"
#include "tests/explorer/helpers.hpp"

#include <catch2/catch.hpp>

using namespace interleave;
using nlohmann::json;
using interleave::test::error_of;

TEST_CASE("JsonReader names the file and the JSON path", "[json]") {
  const json doc = json::parse(R"({"cluster": {"fes": "3", "cns": 9},
                                   "actors": {"task_runs": [{"kind": "asnyc"}]},
                                   "a/b": 1})");
  JsonReader root(doc, "s.json");
  CHECK(error_of([&] { root.at("cluster").at("fes").as_int(1, 3); }) ==
        "s.json: /cluster/fes: expected an integer, got a string");
  CHECK(error_of([&] { root.at("cluster").at("cns").as_int(1, 2); }) ==
        "s.json: /cluster/cns: must be between 1 and 2, got 9");
  CHECK(error_of([&] { root.at("policy"); }) == "s.json: /policy: missing (required)");
  CHECK(error_of([&] {
          root.at("actors").at("task_runs").items()[0].at("kind").as_enum({"async", "sync"});
        }) ==
        "s.json: /actors/task_runs/0/kind: unknown value 'asnyc' (did you mean 'async'?); "
        "expected one of 'async', 'sync'");
  CHECK(error_of([&] {
          root.at("cluster").expect_keys({"fes", "cnz"});
        }) ==
        "s.json: /cluster/cns: unknown key 'cns' (did you mean 'cnz'?); known keys: 'fes', 'cnz'");
  CHECK(error_of([&] {
          root.expect_keys({"cluster", "actors"});
        }) == "s.json: /a~1b: unknown key 'a/b'; known keys: 'cluster', 'actors'");
  CHECK(error_of([&] { JsonReader(doc, "s.json").as_string(); }) ==
        "s.json: /: expected a string, got an object");
  CHECK(root.at("cluster").int_or("missing", 7, 0, 10) == 7);
}

TEST_CASE("did_you_mean suggests only close candidates", "[json]") {
  CHECK(did_you_mean("passses", {"passes", "fes"}) == " (did you mean 'passes'?)");
  CHECK(did_you_mean("zzzzzz", {"passes", "fes"}).empty());
}
