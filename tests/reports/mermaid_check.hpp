// A validator for the subset of Mermaid's sequenceDiagram grammar that render_mermaid emits,
// written from Mermaid's lexer rules (text after ':' runs up to '#', ';' or a newline; "%%" starts
// a comment and "%%{" a directive; keywords are matched before identifiers, case-insensitively;
// `#name;` / `#123;` are entity codes). It accepts:
//
//   sequenceDiagram
//       participant ID as TEXT          (all participants first, IDs unique)
//       ID->>ID: TEXT
//       Note over ID: TEXT   |   Note over ID,ID: TEXT
//       rect rgb(R, G, B)    ...    end   (balanced)
//
// where ID is [A-Za-z][A-Za-z0-9_]* not starting with a Mermaid keyword and declared before use,
// and TEXT is non-empty valid UTF-8 with no raw '#', ';', '"', '\'', '%', '`', ':', '>', control
// characters, and '<' only in "<br/>"; '#' only in the entity codes #quot; #lt; #gt; #amp; and
// #NNN;. The decoded text (entities resolved, <br/> as '\n') is returned for content checks.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace interleave::test {

struct MermaidStatement {
  enum class Kind { kMessage, kNote, kRectStart, kRectEnd };
  Kind kind = Kind::kNote;
  std::string from;  ///< message: sender; note: first participant
  std::string to;    ///< message: receiver; note: last participant (== from for one)
  std::string text;  ///< decoded
  int depth = 0;     ///< rect nesting depth of the statement
};

struct MermaidDiagram {
  std::vector<std::string> ids;    ///< participant ids, in declaration order
  std::vector<std::string> names;  ///< their decoded display names
  std::vector<MermaidStatement> statements;
};

class MermaidError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses `text`; throws MermaidError("line N: ...") when it does not follow the subset.
MermaidDiagram parse_mermaid(const std::string& text);

/// Decodes one TEXT (see above); throws MermaidError when it is not valid.
std::string decode_mermaid_text(const std::string& raw);

}  // namespace interleave::test
