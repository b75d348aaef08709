#include "reports/render/text_util.hpp"

#include <cmath>
#include <cstdint>

namespace interleave::reports::text {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at s[i], or 0 if the bytes there are not one.
std::size_t valid_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if ((b0 & 0xE0u) == 0xC0u) {
    n = 2;
    cp = b0 & 0x1Fu;
  } else if ((b0 & 0xF0u) == 0xE0u) {
    n = 3;
    cp = b0 & 0x0Fu;
  } else if ((b0 & 0xF8u) == 0xF0u) {
    n = 4;
    cp = b0 & 0x07u;
  } else {
    return 0;  // a continuation byte or 0xF8..0xFF
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t n = valid_sequence_length(s, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string printable(std::string_view s, bool keep_newlines) {
  const std::string valid = valid_utf8(s);
  std::string out;
  out.reserve(valid.size());
  for_each_code_point(valid, [&](std::string_view cp) {
    const auto b0 = static_cast<unsigned char>(cp[0]);
    const bool c0 = cp.size() == 1 && (b0 < 0x20 || b0 == 0x7F);
    const bool c1 = cp.size() == 2 && b0 == 0xC2 && static_cast<unsigned char>(cp[1]) < 0xA0;
    if ((c0 && !(keep_newlines && b0 == '\n')) || c1)
      out += ' ';
    else
      out += cp;
  });
  return out;
}

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0u) != 0x80u) ++w;
  return w;
}

std::string shorten(std::string_view s, std::size_t width) {
  if (width == 0) width = 1;
  if (display_width(s) <= width) return std::string(s);
  std::string out;
  std::size_t w = 0;
  for_each_code_point(s, [&](std::string_view cp) {
    if (w + 1 < width) out += cp;
    ++w;
  });
  while (!out.empty() && (out.back() == ' ' || out.back() == '\t' || out.back() == '\n'))
    out.pop_back();
  return out + "\u2026";
}

std::vector<std::string> wrap(std::string_view s, std::size_t width) {
  if (width == 0) width = 1;
  // Split into words (code point sequences without whitespace).
  std::vector<std::string> words;
  std::string word;
  for_each_code_point(s, [&](std::string_view cp) {
    if (cp == " " || cp == "\n" || cp == "\t" || cp == "\r" || cp == "\v" || cp == "\f") {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += cp;
    }
  });
  if (!word.empty()) words.push_back(std::move(word));

  std::vector<std::string> lines;
  std::string line;
  std::size_t line_width = 0;
  for (const std::string& w : words) {
    std::size_t ww = display_width(w);
    if (line_width > 0 && line_width + 1 + ww <= width) {
      line += ' ';
      line += w;
      line_width += 1 + ww;
      continue;
    }
    if (line_width > 0) {
      lines.push_back(std::move(line));
      line.clear();
      line_width = 0;
    }
    if (ww <= width) {
      line = w;
      line_width = ww;
      continue;
    }
    // A word wider than a line: cut it into pieces of `width` code points.
    std::string piece;
    std::size_t piece_width = 0;
    for_each_code_point(w, [&](std::string_view cp) {
      if (piece_width == width) {
        lines.push_back(std::move(piece));
        piece.clear();
        piece_width = 0;
      }
      piece += cp;
      ++piece_width;
    });
    line = std::move(piece);
    line_width = piece_width;
  }
  if (line_width > 0 || lines.empty()) lines.push_back(std::move(line));
  return lines;
}

std::uint64_t to_millis(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return 0;
  if (seconds >= 1e15) return static_cast<std::uint64_t>(1e18);
  return static_cast<std::uint64_t>(std::llround(seconds * 1000));
}

std::string format_millis(std::uint64_t millis) {
  std::string frac = std::to_string(millis % 1000);
  return std::to_string(millis / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

std::string format_seconds(double seconds) {
  return format_millis(to_millis(seconds));
}

std::string xml_escape(std::string_view raw, bool attribute) {
  const std::string s = valid_utf8(raw);
  std::string out;
  out.reserve(s.size());
  for_each_code_point(s, [&](std::string_view cp) {
    if (cp == "\xEF\xBF\xBE" || cp == "\xEF\xBF\xBF") {
      out += "\xEF\xBF\xBD";
      return;
    }
    if (cp.size() > 1) {
      out += cp;
      return;
    }
    const char ch = cp[0];
    switch (ch) {
      case '&':
        out += "&amp;";
        return;
      case '<':
        out += "&lt;";
        return;
      case '>':
        out += "&gt;";
        return;
      case '"':
        out += attribute ? "&quot;" : "\"";
        return;
      case '\'':
        out += attribute ? "&apos;" : "'";
        return;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        return;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        return;
      case '\r':
        out += "&#13;";
        return;
      default:
        break;
    }
    if (static_cast<unsigned char>(ch) < 0x20)
      out += "\xEF\xBF\xBD";
    else
      out += ch;
  });
  return out;
}

}  // namespace interleave::reports::text
