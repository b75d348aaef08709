// The layers of the source tree (tests/layering/layering.hpp): the tree respects them, and the
// check catches each way of breaking them.
#include "tests/layering/layering.hpp"

#include <catch2/catch.hpp>

#include <stdlib.h>

#include <fstream>
#include <stdexcept>

using interleave::test::LayeringScan;
using interleave::test::scan_layering;

namespace {

class TempTree {
 public:
  TempTree() {
    std::string templ =
        (std::filesystem::temp_directory_path() / "interleave-layering-XXXXXX").string();
    if (::mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = templ;
  }
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  /// Writes root/path with the given lines.
  void file(const std::string& path, const std::vector<std::string>& lines) const {
    std::filesystem::create_directories((root_ / path).parent_path());
    std::ofstream out(root_ / path);
    for (const auto& l : lines)
      out << l << "\n";
  }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

}  // namespace

TEST_CASE("every #include of explorer/, reports/ and model/ respects the layers", "[layering]") {
  const LayeringScan scan = scan_layering(INTERLEAVE_SOURCE_DIR);
  // Not vacuous: the whole tree was read.
  CHECK(scan.files > 60);
  CHECK(scan.includes > 300);
  // Each layer has files of its own: the run layer (reports/run/, no CLI11) under the command
  // line (reports/cli/).
  for (const char* dir : {"explorer/", "reports/", "reports/run/", "reports/cli/", "model/"}) {
    INFO(dir);
    CHECK(std::any_of(scan.paths.begin(), scan.paths.end(),
                      [dir](const std::string& p) { return p.starts_with(dir); }));
  }
  std::string all;
  for (const auto& v : scan.violations)
    all += v + "\n";
  INFO(all);
  CHECK(scan.violations.empty());
}

TEST_CASE("the check rejects each include across the layers the wrong way", "[layering]") {
  TempTree t;
  // Allowed: each layer including itself and the layers above it.
  t.file("explorer/core/a.hpp", {"#include \"explorer/core/b.hpp\"", "#include <nlohmann/json.hpp>"});
  t.file("explorer/strategies/s.cpp", {"#include \"explorer/core/a.hpp\""});
  t.file("reports/r.cpp", {"#include \"reports/r.hpp\"", "#include \"explorer/core/a.hpp\""});
  t.file("reports/run/u.cpp", {"#include \"reports/run/u.hpp\"", "#include \"reports/r.hpp\"",
                               "#include \"explorer/core/a.hpp\"", "#include <nlohmann/json.hpp>"});
  t.file("reports/cli/c.cpp", {"#include \"reports/cli/c.hpp\"", "#include \"reports/r.hpp\"",
                               "#include \"reports/run/u.hpp\"", "#include <CLI/CLI.hpp>"});
  t.file("model/main.cpp", {"#include \"reports/cli/c.hpp\"", "#include \"model/register.hpp\"",
                            "#include <CLI/CLI.hpp>"});
  t.file("model/alpha/example/main.cpp",
         {"#include \"model/alpha/alpha.hpp\"", "#include \"reports/cli/c.hpp\""});
  t.file("model/register.cpp",
         {"#include \"model/alpha/alpha.hpp\"", "#include \"explorer/core/a.hpp\""});
  t.file("model/alpha/alpha.cpp",
         {"#include \"model/alpha/alpha.hpp\"", "#include \"explorer/core/a.hpp\"",
          "#include \"model/register.hpp\""});
  t.file("tests/t.cpp", {"#include \"model/alpha/alpha.hpp\"", "#include <catch2/catch.hpp>"});
  t.file("explorer/notes.txt", {"#include \"reports/r.hpp\""});  // not a source file
  CHECK(scan_layering(t.root()).violations.empty());

  // Each way of breaking them.
  t.file("explorer/search/up.hpp", {"// the engine reaching up", "#include \"reports/trace/trace.hpp\""});
  t.file("explorer/strategies/model.cpp", {"  #  include \"model/world.hpp\""});
  t.file("explorer/core/cli.cpp", {"#include <CLI/CLI.hpp>"});
  t.file("explorer/core/down.hpp", {"#include \"explorer/search/explorer.hpp\""});
  t.file("explorer/time/clock.hpp", {"#include \"explorer/evidence/explain.hpp\""});
  // The execution reaches time through its hook (explorer/core/time_hook.hpp), never the part.
  t.file("explorer/core/execution.hpp", {"#include \"explorer/time/timing.hpp\""});
  t.file("explorer/loose.cpp", {"#include \"explorer/core/a.hpp\""});
  t.file("reports/model.cpp", {"#include \"model/alpha/alpha.hpp\""});
  t.file("reports/cli_user.cpp", {"#include \"reports/cli/c.hpp\""});
  t.file("reports/relative.cpp", {"#include \"r.hpp\""});
  t.file("reports/cli/model.cpp", {"#include \"model/alpha/alpha.hpp\""});
  t.file("reports/run_user.cpp", {"#include \"reports/run/u.hpp\""});
  t.file("reports/run/cli.cpp", {"#include \"reports/run/u.hpp\"", "#include <CLI/CLI.hpp>"});
  t.file("reports/run/commands.cpp", {"#include \"reports/cli/c.hpp\""});
  t.file("reports/run/model.cpp", {"#include \"model/alpha/alpha.hpp\""});
  t.file("model/alpha/reports.cpp", {"#include \"reports/trace/trace.hpp\""});
  t.file("model/alpha/other.cpp", {"#include \"model/beta/beta.hpp\""});
  t.file("model/alpha/tests.cpp",
         {"#include \"tests/programs.hpp\"", "#include <catch2/catch.hpp>"});
  t.file("model/register.hpp", {"#include \"reports/cli/cli.hpp\""});
  t.file("model/main.cpp", {"#include \"tests/programs.hpp\""});
  const LayeringScan scan = scan_layering(t.root());
  CHECK(scan.violations ==
        std::vector<std::string>{
            "explorer/core/cli.cpp:1: includes <CLI/CLI.hpp>: CLI11 belongs to the command line "
            "(reports/cli/, model/main.cpp)",
            "explorer/core/down.hpp:1: includes \"explorer/search/explorer.hpp\": explorer/core/ "
            "may include only its own folder and the parts before it (core/, strategies/, time/, "
            "search/, evidence/, model_api/)",
            "explorer/core/execution.hpp:1: includes \"explorer/time/timing.hpp\": explorer/core/ "
            "may include only its own folder and the parts before it (core/, strategies/, time/, "
            "search/, evidence/, model_api/)",
            "explorer/loose.cpp:1: includes \"explorer/core/a.hpp\": a file of the engine lies in "
            "none of its parts",
            "explorer/search/up.hpp:2: includes \"reports/trace/trace.hpp\": the engine (explorer/) "
            "may include only explorer/",
            "explorer/strategies/model.cpp:1: includes \"model/world.hpp\": the engine "
            "(explorer/) may include only explorer/",
            "explorer/time/clock.hpp:1: includes \"explorer/evidence/explain.hpp\": explorer/time/ "
            "may include only its own folder and the parts before it (core/, strategies/, time/, "
            "search/, evidence/, model_api/)",
            "model/alpha/other.cpp:1: includes \"model/beta/beta.hpp\": a model (model/alpha/) "
            "may include only explorer/, model/alpha/ and the registration headers of model/",
            "model/alpha/reports.cpp:1: includes \"reports/trace/trace.hpp\": a model (model/alpha/) "
            "may include only explorer/, model/alpha/ and the registration headers of model/",
            "model/alpha/tests.cpp:1: includes \"tests/programs.hpp\": a model (model/alpha/) "
            "may include only explorer/, model/alpha/ and the registration headers of model/",
            "model/alpha/tests.cpp:2: includes <catch2/catch.hpp>: Catch2 belongs to tests/",
            "model/main.cpp:1: includes \"tests/programs.hpp\": model/main.cpp may include only "
            "explorer/, reports/ and model/",
            "model/register.hpp:1: includes \"reports/cli/cli.hpp\": the registration of models "
            "(model/*) may include only explorer/ and model/",
            "reports/cli/model.cpp:1: includes \"model/alpha/alpha.hpp\": the command line "
            "(reports/cli/) may include only explorer/ and reports/",
            "reports/cli_user.cpp:1: includes \"reports/cli/c.hpp\": reports/ may include only "
            "explorer/ and reports/ (not reports/run/, reports/cli/)",
            "reports/model.cpp:1: includes \"model/alpha/alpha.hpp\": reports/ may include only "
            "explorer/ and reports/ (not reports/run/, reports/cli/)",
            "reports/relative.cpp:1: includes \"r.hpp\": reports/ may include only explorer/ and "
            "reports/ (not reports/run/, reports/cli/)",
            "reports/run/cli.cpp:2: includes <CLI/CLI.hpp>: CLI11 belongs to the command line "
            "(reports/cli/, model/main.cpp)",
            "reports/run/commands.cpp:1: includes \"reports/cli/c.hpp\": the run layer "
            "(reports/run/) may include only explorer/, reports/ and reports/run/ (not "
            "reports/cli/)",
            "reports/run/model.cpp:1: includes \"model/alpha/alpha.hpp\": the run layer "
            "(reports/run/) may include only explorer/, reports/ and reports/run/ (not "
            "reports/cli/)",
            "reports/run_user.cpp:1: includes \"reports/run/u.hpp\": reports/ may include only "
            "explorer/ and reports/ (not reports/run/, reports/cli/)",
        });
}
