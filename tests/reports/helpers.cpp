#include "tests/reports/helpers.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace interleave::test {

reports::TraceDocument explore_to_document(const Program& program, const std::string& name) {
  // The first counterexample DFS finds, not minimised: the exact renderings the tests expect
  // follow by hand from DFS order (minimisation has its own tests under tests/strategies/).
  ExploreOptions options;
  options.minimize = false;
  Explorer explorer(program, options);
  DfsStrategy dfs;
  ExplorationResult r = explorer.explore(dfs);
  if (r.counterexamples.empty()) throw std::logic_error(name + " has no counterexample");
  reports::TraceDocument doc;
  doc.tool_version = "interleave 0.1.0";
  doc.scenario_file = "tests/" + name + ".json";
  doc.scenario = {{"name", name}};
  doc.scenario_hash = "fnv1a64:0000000000000000";
  doc.strategy = r.strategy;
  doc.options = {{"strategy", r.strategy}};
  doc.counterexample = r.counterexamples.front();
  doc.stats = r.stats;
  return doc;
}

reports::TraceDocument adversarial_document() {
  using K = AccessKind;
  reports::TraceDocument doc;
  doc.tool_version = "interleave 0.1.0";
  doc.scenario_file = "tests/adversarial \"quoted\" & <odd>.json";
  doc.strategy = "dfs";
  Counterexample& c = doc.counterexample;
  c.invariant = "no \"weird\" #state; 100% <sure>";
  c.message = "line one;\nline two # with `code` and \\backslash\\ & <b>bold</b>";
  const std::string weird_actor = "end";
  const std::string arrow_actor = "A->>B: x;y";
  const std::string unicode_actor = "Ünïcødé 🚀 Überprüfer";
  auto step = [&](std::string actor, std::string label, std::vector<TraceAccess> acc,
                  std::string what) {
    TraceStep s;
    s.index = c.steps.size();
    s.actor = std::move(actor);
    s.label = std::move(label);
    s.accesses = std::move(acc);
    s.what = std::move(what);
    c.steps.push_back(std::move(s));
  };
  step(weird_actor, "semi;colon #hash \"dq\" 'sq'", {{"obj;1", K::kWrite}},
       "wrote obj;1 = \"v#1\"");
  step(arrow_actor, "multi\nline\r\nlabel", {{"obj;1", K::kRead}},
       "%%{init: {\"theme\":\"dark\"}}%%");
  step(unicode_actor, "<script>alert(1)</script>", {{"obj;1", K::kWrite}, {"m", K::kAcquire}},
       "style:x;y classDef:z#1; wrap:me");
  step(weird_actor, "", {{"m", K::kAcquire}}, "C:\\path\\n\\N \\G \\ end");
  step(arrow_actor, "ctl\x01\x1b[31mred\x7f \\N\\G &amp;", {{"m", K::kRelease}},
       "bad utf8 \xff\xfe\xc3 end");
  step(unicode_actor, "participant Note over end", {{"obj;1", K::kRead}},
       "a->>b: not a message;\n    end\nrect rgb(0,0,0)");
  c.step = 4;
  c.actor = arrow_actor;
  c.state = nlohmann::json{{"k;ey", "va\"lue"}};
  return doc;
}

bool have_tool(const std::string& tool) {
  return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

TempFile::TempFile(const std::string& name, const std::string& content) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("interleave-reports-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / name;
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path.string());
  path_ = path.string();
}

TempFile::~TempFile() {
  std::error_code ec;
  const std::filesystem::path path(path_);
  std::filesystem::remove(path, ec);
  std::filesystem::remove(path.parent_path(), ec);  // fails harmlessly while not empty
}

int run_command(const std::string& command, std::string& output) {
  output.clear();
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0)
    output.append(buf.data(), n);
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace interleave::test
