// Trace documents for the renderer tests: small programs explored on the engine (a lost update, a
// three-actor race around a lock, a lock-order deadlock), their first counterexample wrapped in a
// TraceDocument whose fields are filled directly (no JSON reader involved), and helpers to run
// external tools (dot, xmllint) on an output.
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/core/primitives.hpp"
#include "explorer/strategies/dfs.hpp"
#include "reports/trace/trace.hpp"
#include "tests/programs.hpp"

#include <string>

namespace interleave::test {

/// Writer1 and Writer2 each set x and y under lock m (x == y inside the lock only); Auditor reads
/// x then y without the lock and reports a violation in its own step when they differ.
inline Program locked_pair_race() {
  return [](Execution& ex) {
    auto& m = ex.make<Mutex>(ex, "m");
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    auto& y = ex.make<Shared<int>>(ex, "y", 0);
    for (int w : {1, 2}) {
      ex.spawn("Writer" + std::to_string(w), [&, w](Actor& a) {
        m.lock(a, "lock");
        x.write(a, "set x", w);
        y.write(a, "set y", w);
        m.unlock(a, "unlock");
      });
    }
    ex.spawn("Auditor", [&](Actor& a) {
      const int vx = x.read(a, "read x");
      const int vy = y.read(a, "read y");
      if (vx != vy)
        a.violation("x == y",
                    "auditor saw x = " + std::to_string(vx) + ", y = " + std::to_string(vy));
    });
  };
}

/// T1 locks a then b, T2 locks b then a.
inline Program lock_order_deadlock() {
  return [](Execution& ex) {
    auto& a = ex.make<Mutex>(ex, "lock_a");
    auto& b = ex.make<Mutex>(ex, "lock_b");
    ex.spawn("T1", [&](Actor& t) {
      a.lock(t, "lock a");
      b.lock(t, "lock b");
      b.unlock(t, "unlock b");
      a.unlock(t, "unlock a");
    });
    ex.spawn("T2", [&](Actor& t) {
      b.lock(t, "lock b");
      a.lock(t, "lock a");
      a.unlock(t, "unlock a");
      b.unlock(t, "unlock b");
    });
  };
}

/// Explores `program` with DFS and wraps its first counterexample in a document (the program
/// must have a violation).
reports::TraceDocument explore_to_document(const Program& program, const std::string& name);

/// A document written by hand whose actor names, labels and notes hold everything a renderer must
/// escape: ';', '#', quotes, newlines, '%%{', HTML, Mermaid keywords and arrows, backslashes,
/// control characters, invalid UTF-8 and non-ASCII text.
reports::TraceDocument adversarial_document();

/// True when `tool` is on the PATH.
bool have_tool(const std::string& tool);

/// A file under the temporary directory holding `content`, removed (with its directory, when
/// empty) on destruction. Names are per process, so parallel test processes do not collide.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Runs a shell command; returns its exit status and puts its stdout+stderr in `output`.
int run_command(const std::string& command, std::string& output);

}  // namespace interleave::test
