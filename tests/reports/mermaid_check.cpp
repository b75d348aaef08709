#include "tests/reports/mermaid_check.hpp"

#include "reports/render/text_util.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <sstream>

namespace interleave::test {

namespace {

// Words Mermaid's sequence lexer matches before an identifier (case-insensitive, no word
// boundary: an ID merely starting with one of them is mis-read).
constexpr std::array<const char*, 31> kKeywords = {"participant",
                                                   "actor",
                                                   "as",
                                                   "note",
                                                   "over",
                                                   "end",
                                                   "rect",
                                                   "loop",
                                                   "alt",
                                                   "else",
                                                   "opt",
                                                   "par",
                                                   "and",
                                                   "critical",
                                                   "option",
                                                   "break",
                                                   "box",
                                                   "autonumber",
                                                   "activate",
                                                   "deactivate",
                                                   "title",
                                                   "left",
                                                   "right",
                                                   "links",
                                                   "link",
                                                   "properties",
                                                   "details",
                                                   "create",
                                                   "destroy",
                                                   "off",
                                                   "sequenceDiagram"};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

void check_id(const std::string& id) {
  static const std::regex kId("[A-Za-z][A-Za-z0-9_]*");
  if (!std::regex_match(id, kId)) throw MermaidError("bad participant id '" + id + "'");
  const std::string l = lower(id);
  for (const char* k : kKeywords)
    if (l.rfind(lower(k), 0) == 0)
      throw MermaidError("participant id '" + id + "' starts with the keyword '" + k + "'");
}

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

std::string decode_mermaid_text(const std::string& raw) {
  if (raw.empty() || raw.front() == ' ' || raw.back() == ' ')
    throw MermaidError("text is empty or has blanks at its ends: '" + raw + "'");
  if (reports::text::valid_utf8(raw) != raw) throw MermaidError("text is not valid UTF-8");
  const std::string l = lower(raw);
  if (l.rfind("wrap:", 0) == 0 || l.rfind("nowrap:", 0) == 0)
    throw MermaidError("text starts with a wrap directive");
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char ch = raw[i];
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '#') {
      const std::size_t semi = raw.find(';', i);
      if (semi == std::string::npos) throw MermaidError("raw '#' in '" + raw + "'");
      const std::string name = raw.substr(i + 1, semi - i - 1);
      static const std::regex kNumeric("[0-9]{1,7}");
      if (std::regex_match(name, kNumeric)) {
        const unsigned long cp = std::stoul(name);
        if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
          throw MermaidError("bad numeric entity #" + name + ";");
        append_utf8(out, cp);
      } else if (name == "quot") {
        out += '"';
      } else if (name == "lt") {
        out += '<';
      } else if (name == "gt") {
        out += '>';
      } else if (name == "amp") {
        out += '&';
      } else {
        throw MermaidError("raw '#' or unknown entity '#" + name + ";' in '" + raw + "'");
      }
      i = semi;
      continue;
    }
    if (ch == '<') {
      if (raw.compare(i, 5, "<br/>") != 0) throw MermaidError("raw '<' in '" + raw + "'");
      out += '\n';
      i += 4;
      continue;
    }
    if (ch == ';' || ch == '"' || ch == '\'' || ch == '%' || ch == '`' || ch == ':' || ch == '>')
      throw MermaidError(std::string("raw '") + ch + "' in '" + raw + "'");
    if (u < 0x20 || u == 0x7F) throw MermaidError("control character in '" + raw + "'");
    out += ch;
  }
  return out;
}

MermaidDiagram parse_mermaid(const std::string& text) {
  static const std::regex kParticipant("    participant ([^ ]+) as (.+)");
  static const std::regex kMessage("    ([A-Za-z0-9_]+)->>([A-Za-z0-9_]+): (.+)");
  static const std::regex kNote("    Note over ([A-Za-z0-9_]+)(?:,([A-Za-z0-9_]+))?: (.+)");
  static const std::regex kRect("    rect rgb\\(([0-9]{1,3}), ([0-9]{1,3}), ([0-9]{1,3})\\)");
  static const std::regex kStyleHack("(style|classDef).*:\\S*#.*;");

  if (text.empty() || text.back() != '\n')
    throw MermaidError("the diagram must end with a newline");
  MermaidDiagram d;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  int depth = 0;
  auto fail = [&](const std::string& why) {
    throw MermaidError("line " + std::to_string(number) + ": " + why + ": '" + line + "'");
  };
  auto declared = [&](const std::string& id) {
    if (std::find(d.ids.begin(), d.ids.end(), id) == d.ids.end())
      fail("participant '" + id + "' is not declared");
  };
  auto decode = [&](const std::string& raw) {
    try {
      return decode_mermaid_text(raw);
    } catch (const MermaidError& e) {
      fail(e.what());
    }
    return std::string();
  };
  while (std::getline(in, line)) {
    ++number;
    if (line.find('\r') != std::string::npos) fail("carriage return");
    if (line.find("%%") != std::string::npos) fail("'%%' starts a comment or directive");
    if (std::regex_search(line, kStyleHack)) fail("matches Mermaid's style-directive rewrite");
    if (number == 1) {
      if (line != "sequenceDiagram") fail("the first line must be 'sequenceDiagram'");
      continue;
    }
    std::smatch m;
    if (std::regex_match(line, m, kParticipant)) {
      if (!d.statements.empty()) fail("participant after the first statement");
      try {
        check_id(m[1]);
      } catch (const MermaidError& e) {
        fail(e.what());
      }
      if (std::find(d.ids.begin(), d.ids.end(), m[1].str()) != d.ids.end())
        fail("participant declared twice");
      d.ids.push_back(m[1]);
      d.names.push_back(decode(m[2]));
    } else if (std::regex_match(line, m, kMessage)) {
      declared(m[1]);
      declared(m[2]);
      d.statements.push_back({MermaidStatement::Kind::kMessage, m[1], m[2], decode(m[3]), depth});
    } else if (std::regex_match(line, m, kNote)) {
      declared(m[1]);
      const std::string last = m[2].matched ? m[2].str() : m[1].str();
      declared(last);
      d.statements.push_back({MermaidStatement::Kind::kNote, m[1], last, decode(m[3]), depth});
    } else if (std::regex_match(line, m, kRect)) {
      for (int i = 1; i <= 3; ++i)
        if (std::stoi(m[i]) > 255) fail("colour component above 255");
      d.statements.push_back({MermaidStatement::Kind::kRectStart, {}, {}, {}, depth});
      ++depth;
    } else if (line == "    end") {
      if (depth == 0) fail("'end' without an open block");
      --depth;
      d.statements.push_back({MermaidStatement::Kind::kRectEnd, {}, {}, {}, depth});
    } else {
      fail("not a statement of the subset");
    }
  }
  if (number == 0) throw MermaidError("empty diagram");
  if (depth != 0) throw MermaidError("unclosed rect block");
  if (d.ids.empty()) throw MermaidError("no participant");
  return d;
}

}  // namespace interleave::test
