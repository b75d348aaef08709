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
  /// Where the text was read: "repository path@commit", or "hypothetical: " and why (not found
  /// at any commit read; what the text then follows).
  std::string source;
  std::string text;    ///< the message with its holes
  /// The method that logs it (log4j's %M); "" for a logger that is a source file (glog).
  std::string method;
  /// The source line the log prints (%L, glog's file:line).
  int line = 0;
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

/// A fact of the modelled program about its identities: a value of the hole `part` belongs to one
/// value of the hole `whole` (a tablet to one table, a table to one session). An incident whose
/// lines give one `part` two `whole`s contradicts itself: bad input (read_incident).
struct IdentityRule {
  std::string part;
  std::string whole;
};

/// A model's table of log patterns, compiled once: what a model declares (ModelDriver::log_patterns)
/// and renders its notes from, with the identity rules its lines obey. Construction checks every
/// pattern (ProgramError), that ids are unique, that no literal text holds "; " (the separator of
/// a step's notes, see logged_lines), and that each rule names holes some pattern has.
class LogPatternTable {
 public:
  explicit LogPatternTable(std::vector<LogPattern> patterns, std::vector<IdentityRule> rules = {});
  const std::vector<LogPattern>& patterns() const { return patterns_; }
  const std::vector<IdentityRule>& rules() const { return rules_; }
  const std::vector<CompiledLogPattern>& compiled() const { return compiled_; }
  /// The message of the pattern `id` rendered with `values` (ProgramError for an unknown id).
  std::string render(std::string_view id, const std::vector<LogBinding>& values) const;

 private:
  std::vector<LogPattern> patterns_;
  std::vector<CompiledLogPattern> compiled_;
  std::vector<IdentityRule> rules_;
};

/// Whether `message` is exactly what `pattern` renders with the values it takes: the values when
/// it is, nullopt otherwise (a match somewhere inside the message is not enough).
std::optional<std::vector<LogBinding>> match_whole(const CompiledLogPattern& pattern,
                                                   std::string_view message);

/// One line a step logged, found in the step's notes (see logged_lines).
struct LoggedLine {
  std::size_t pattern = 0;  ///< index in the patterns searched
  std::string node;         ///< the "node: " prefix of the note, "" without one
  std::string message;      ///< the rendered message
  std::vector<LogBinding> values;
};

/// The lines a step's notes record. A model notes a logged line as the rendered message, alone
/// in its note or prefixed with the node that logs it ("cn1: "); Actor::note joins the notes of a
/// step with "; ", so a step's text is split there and each part that some pattern renders whole
/// (the first pattern that does, in table order) is a logged line. A pattern's literal text
/// therefore never holds "; " (checked by the models' tests).
std::vector<LoggedLine> logged_lines(const std::vector<CompiledLogPattern>& patterns,
                                     std::string_view what);

/// Whether `value` is text a hole of `type` takes whole.
bool hole_accepts(HoleType type, std::string_view value);
std::string_view hole_type_name(HoleType type);

}  // namespace interleave
