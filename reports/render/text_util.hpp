// Text helpers shared by the renderers of reports/: UTF-8 repair, display width, word wrapping,
// locale-independent number formatting. Pure functions; internal to reports/ (not a stable API).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace interleave::reports::text {

/// `s` with every invalid UTF-8 sequence (stray continuation byte, truncated or overlong
/// sequence, surrogate, code point above U+10FFFF) replaced by U+FFFD. Valid input is returned
/// unchanged, so every renderer can emit well-formed UTF-8 whatever the labels hold.
std::string valid_utf8(std::string_view s);

/// valid_utf8(s) with every control character (C0, DEL, C1) replaced by a space, except '\n'
/// when keep_newlines: text that cannot move a terminal's cursor or restyle it.
std::string printable(std::string_view s, bool keep_newlines = false);

/// Calls f(code_point_bytes) for each code point of valid UTF-8 text `s`.
template <class F>
void for_each_code_point(std::string_view s, F&& f) {
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t n = 1;
    while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0u) == 0x80u)
      ++n;
    f(s.substr(i, n));
    i += n;
  }
}

/// Columns taken by valid UTF-8 text on a terminal, counting one per code point (wide CJK
/// characters and combining marks are not special-cased).
std::size_t display_width(std::string_view s);

/// Valid UTF-8 text cut to at most `width` columns (display_width): a longer text keeps its first
/// width - 1 columns, trailing blanks dropped, and ends with "…" (U+2026). `width` at least 1.
std::string shorten(std::string_view s, std::size_t width);

/// Greedy word wrap of valid UTF-8 text at `width` columns (at least 1): breaks at spaces, and
/// inside a word only when the word alone is wider than a line. Whitespace characters (newlines,
/// tabs) count as spaces. Always returns at least one line (empty for empty input).
std::vector<std::string> wrap(std::string_view s, std::size_t width);

/// `seconds` rounded to whole milliseconds (half away from zero); negative or non-finite values
/// give 0.
std::uint64_t to_millis(double seconds);
/// Milliseconds as seconds with exactly three decimals ("1.500"), independent of any locale.
std::string format_millis(std::uint64_t millis);
/// format_millis(to_millis(seconds)).
std::string format_seconds(double seconds);

/// Escaped text for XML 1.0 (JUnit, SVG): for element content, or with `attribute` for a
/// double-quoted attribute. Characters XML 1.0 cannot carry at all (C0 controls other than tab,
/// LF, CR; U+FFFE, U+FFFF) become U+FFFD; in attributes, tab, LF and CR are written as character
/// references so that parsers do not normalise them away.
std::string xml_escape(std::string_view raw, bool attribute);

}  // namespace interleave::reports::text
