// Log patterns: a message as a program prints it, with typed holes, declared once by a model and
// used both ways: rendered with values it is the text a step logs (so a trace's note and what a
// log search looks for cannot drift apart), and matched against a log record's message it gives
// back the values, which a search then binds to the model's identities.
//
// A pattern's text is literal but for holes `{name:type}` (`{{` and `}}` are literal braces):
//
//   add temporary table, session[{session:uuid}], db id[{db:int}], table name[{table_name:word}], table id[{table:int}]
//
// `name` says what the value identifies (a session, a table id, a tablet id: the kind a search
// keeps consistent, one value for one identity); `type` says what text it takes:
//
//   int   an optional '-' and decimal digits
//   uuid  8-4-4-4-12 hexadecimal digits
//   word  one or more characters other than blanks and , ; [ ] ( ) { }
//   text  any characters, as few as make the rest of the pattern match (not last, not first)
//
// A pattern starts with literal text and no two holes are adjacent, so a match is found by one
// left-to-right scan per occurrence of the leading literal, without backtracking.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace interleave {

/// One line a program logs: the message's pattern and where it comes from.
struct LogPattern {
  std::string id;      ///< unique within a model, e.g. "add_temporary_table"
  std::string level;   ///< "INFO", "WARN", "ERROR", ...
  std::string logger;  ///< the class (FE) or source file (glog) that logs it
  std::string source;  ///< what it follows: "repository path@commit:line", or "hypothetical"
  std::string text;    ///< the message with its holes
};

/// The type of a hole.
enum class HoleType { int_, uuid, word, text };

/// One piece of a compiled pattern: literal text, or a hole.
struct PatternPiece {
  bool hole = false;
  std::string literal;  ///< when !hole
  std::string name;     ///< when hole
  HoleType type = HoleType::word;
};

/// A value a match took: the hole's name and the text.
using LogBinding = std::pair<std::string, std::string>;

/// A pattern made ready to render and match. Construction checks the text: an unknown type, an
/// unclosed or stray brace, a hole first, two adjacent holes or a `text` hole last throw
/// ProgramError naming the pattern (a model's mistake, not the user's).
class CompiledLogPattern {
 public:
  explicit CompiledLogPattern(LogPattern pattern);

  const LogPattern& pattern() const { return pattern_; }
  const std::vector<PatternPiece>& pieces() const { return pieces_; }
  /// The hole names in order (a name may appear twice: both must then take the same value).
  std::vector<std::string> hole_names() const;

  /// The message with each hole replaced by the value of that name in `values` (in order of
  /// the holes). A missing value, or one that its type does not accept, throws ProgramError.
  std::string render(const std::vector<LogBinding>& values) const;

  /// The leftmost match of the pattern in `message`, and the values its holes took; nullopt
  /// when the pattern does not occur. A name that appears twice must take the same text twice.
  std::optional<std::vector<LogBinding>> match(std::string_view message) const;

 private:
  LogPattern pattern_;
  std::vector<PatternPiece> pieces_;
};

/// Whether `value` is text a hole of `type` takes whole.
bool hole_accepts(HoleType type, std::string_view value);
std::string_view hole_type_name(HoleType type);

}  // namespace interleave
