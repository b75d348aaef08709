// Log patterns (log_pattern.hpp): compiling a pattern's text, rendering and matching it.
#include "explorer/evidence/log_pattern.hpp"

#include "explorer/core/execution.hpp"

#include <algorithm>

namespace interleave {

namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_char(char c) {
  switch (c) {
    case ' ': case '\t': case '\n': case '\r': case ',': case ';': case '[': case ']':
    case '(': case ')': case '{': case '}':
      return false;
    default:
      return true;
  }
}

/// The length of the longest prefix of s that a hole of `type` takes (int, uuid, word), or 0.
std::size_t take(HoleType type, std::string_view s) {
  switch (type) {
    case HoleType::int_: {
      std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
      const std::size_t begin = i;
      while (i < s.size() && is_digit(s[i]))
        ++i;
      return i == begin ? 0 : i;
    }
    case HoleType::uuid: {
      static constexpr std::size_t kLen = 36;
      if (s.size() < kLen) return 0;
      for (std::size_t i = 0; i < kLen; ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !is_hex(s[i])) return 0;
      }
      return kLen;
    }
    case HoleType::word: {
      std::size_t i = 0;
      while (i < s.size() && is_word_char(s[i]))
        ++i;
      return i;
    }
    case HoleType::text:
      return s.size();
  }
  return 0;
}

}  // namespace

std::string_view hole_type_name(HoleType type) {
  switch (type) {
    case HoleType::int_: return "int";
    case HoleType::uuid: return "uuid";
    case HoleType::word: return "word";
    case HoleType::text: return "text";
  }
  return "?";
}

bool hole_accepts(HoleType type, std::string_view value) {
  if (type == HoleType::text) return true;
  return !value.empty() && take(type, value) == value.size();
}

CompiledLogPattern::CompiledLogPattern(LogPattern pattern) : pattern_(std::move(pattern)) {
  const std::string& t = pattern_.text;
  auto fail = [&](const std::string& what) {
    throw ProgramError("log pattern '" + pattern_.id + "' (\"" + t + "\"): " + what);
  };
  std::string literal;
  auto flush = [&] {
    if (literal.empty()) return;
    pieces_.push_back({false, literal, "", HoleType::word});
    literal.clear();
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '{' && i + 1 < t.size() && t[i + 1] == '{') {
      literal += '{';
      ++i;
    } else if (c == '}' && i + 1 < t.size() && t[i + 1] == '}') {
      literal += '}';
      ++i;
    } else if (c == '}') {
      fail("a '}' that closes no hole (write '}}' for a brace)");
    } else if (c == '{') {
      const std::size_t close = t.find('}', i);
      if (close == std::string::npos) fail("a '{' that is never closed");
      const std::string body = t.substr(i + 1, close - i - 1);
      const std::size_t colon = body.find(':');
      if (colon == std::string::npos || colon == 0)
        fail("the hole {" + body + "} is not {name:type}");
      const std::string name = body.substr(0, colon), type = body.substr(colon + 1);
      HoleType ht{};
      if (type == "int") {
        ht = HoleType::int_;
      } else if (type == "uuid") {
        ht = HoleType::uuid;
      } else if (type == "word") {
        ht = HoleType::word;
      } else if (type == "text") {
        ht = HoleType::text;
      } else {
        fail("the hole {" + body + "} has an unknown type (int, uuid, word, text)");
      }
      if (pieces_.empty() && literal.empty()) fail("a pattern must start with literal text");
      if (literal.empty()) fail("two holes side by side ({" + pieces_.back().name + "} and {" + name + "})");
      flush();
      pieces_.push_back({true, "", name, ht});
      i = close;
    } else {
      literal += c;
    }
  }
  flush();
  if (pieces_.empty()) fail("an empty pattern");
  if (pieces_.back().hole && pieces_.back().type == HoleType::text)
    fail("a text hole cannot end a pattern (it would take the rest of every line)");
}

std::vector<std::string> CompiledLogPattern::hole_names() const {
  std::vector<std::string> names;
  for (const PatternPiece& p : pieces_)
    if (p.hole) names.push_back(p.name);
  return names;
}

std::string CompiledLogPattern::render(const std::vector<LogBinding>& values) const {
  std::string out;
  for (const PatternPiece& p : pieces_) {
    if (!p.hole) {
      out += p.literal;
      continue;
    }
    const auto it = std::find_if(values.begin(), values.end(),
                                 [&](const LogBinding& b) { return b.first == p.name; });
    if (it == values.end())
      throw ProgramError("log pattern '" + pattern_.id + "': no value for {" + p.name + "}");
    if (!hole_accepts(p.type, it->second))
      throw ProgramError("log pattern '" + pattern_.id + "': the value '" + it->second +
                         "' of {" + p.name + "} is not a " + std::string(hole_type_name(p.type)));
    out += it->second;
  }
  return out;
}

std::optional<std::vector<LogBinding>> CompiledLogPattern::match(std::string_view message) const {
  const std::string& first = pieces_.front().literal;
  for (std::size_t start = message.find(first); start != std::string_view::npos;
       start = message.find(first, start + 1)) {
    std::vector<LogBinding> bindings;
    std::size_t i = start + first.size();
    bool ok = true;
    for (std::size_t k = 1; k < pieces_.size() && ok; ++k) {
      const PatternPiece& p = pieces_[k];
      const std::string_view rest = message.substr(i);
      if (!p.hole) {
        ok = rest.substr(0, p.literal.size()) == p.literal;
        i += p.literal.size();
        continue;
      }
      std::size_t n = 0;
      if (p.type == HoleType::text) {
        const std::size_t next = rest.find(pieces_[k + 1].literal);  // never last: k + 1 exists
        if (next == std::string_view::npos) {
          ok = false;
          continue;
        }
        n = next;
      } else {
        n = take(p.type, rest);
        if (n == 0) {
          ok = false;
          continue;
        }
      }
      const std::string value(rest.substr(0, n));
      for (const LogBinding& b : bindings)
        if (b.first == p.name && b.second != value) ok = false;
      bindings.emplace_back(p.name, value);
      i += n;
    }
    if (ok) return bindings;
  }
  return std::nullopt;
}

LogPatternTable::LogPatternTable(std::vector<LogPattern> patterns, std::vector<IdentityRule> rules)
    : patterns_(std::move(patterns)), rules_(std::move(rules)) {
  for (std::size_t i = 0; i < patterns_.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (patterns_[j].id == patterns_[i].id)
        throw ProgramError("two log patterns named '" + patterns_[i].id + "'");
    compiled_.emplace_back(patterns_[i]);
    for (const PatternPiece& p : compiled_.back().pieces())
      if (!p.hole && p.literal.find("; ") != std::string::npos)
        throw ProgramError("log pattern '" + patterns_[i].id +
                           "': its text holds \"; \", which separates a step's notes");
  }
  for (const IdentityRule& rule : rules_) {
    for (const std::string* hole : {&rule.part, &rule.whole}) {
      bool found = false;
      for (const CompiledLogPattern& p : compiled_)
        for (const std::string& name : p.hole_names())
          if (name == *hole) found = true;
      if (!found)
        throw ProgramError("identity rule '" + rule.part + "' in '" + rule.whole +
                           "': no log pattern has a hole '" + *hole + "'");
    }
  }
}

std::string LogPatternTable::render(std::string_view id,
                                    const std::vector<LogBinding>& values) const {
  for (const CompiledLogPattern& p : compiled_)
    if (p.pattern().id == id) return p.render(values);
  throw ProgramError("no log pattern '" + std::string(id) + "'");
}

std::optional<std::vector<LogBinding>> match_whole(const CompiledLogPattern& pattern,
                                                   std::string_view message) {
  std::optional<std::vector<LogBinding>> values = pattern.match(message);
  if (!values || pattern.render(*values) != message) return std::nullopt;
  return values;
}

std::vector<LoggedLine> logged_lines(const std::vector<CompiledLogPattern>& patterns,
                                     std::string_view what) {
  std::vector<LoggedLine> out;
  const auto try_part = [&](std::string_view part) {
    for (std::size_t k = 0; k < patterns.size(); ++k) {
      std::string_view message = part;
      std::string node;
      // An optional node prefix: a word without blanks, then ": ".
      const std::size_t colon = part.find(": ");
      if (!part.empty() && part.substr(0, patterns[k].pieces().front().literal.size()) !=
                               patterns[k].pieces().front().literal &&
          colon != std::string_view::npos && colon > 0 &&
          part.substr(0, colon).find(' ') == std::string_view::npos) {
        node = std::string(part.substr(0, colon));
        message = part.substr(colon + 2);
      }
      if (auto values = match_whole(patterns[k], message)) {
        out.push_back({k, std::move(node), std::string(message), std::move(*values)});
        return;
      }
    }
  };
  std::size_t begin = 0;
  while (begin <= what.size()) {
    const std::size_t end = what.find("; ", begin);
    try_part(what.substr(begin, end == std::string_view::npos ? what.npos : end - begin));
    if (end == std::string_view::npos) break;
    begin = end + 2;
  }
  return out;
}

}  // namespace interleave
