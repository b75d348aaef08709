// The text helpers of reports/: UTF-8 repair, printable text, wrapping, seconds.
#include "reports/render/text_util.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace interleave::reports;

TEST_CASE("valid_utf8 keeps valid text and replaces each invalid byte", "[text]") {
  CHECK(text::valid_utf8("plain") == "plain");
  CHECK(text::valid_utf8("Ünïcødé 🚀") == "Ünïcødé 🚀");
  const std::string r = "\xEF\xBF\xBD";
  CHECK(text::valid_utf8("a\xff"
                         "b") == "a" + r + "b");
  CHECK(text::valid_utf8("\xc3") == r);                          // truncated sequence
  CHECK(text::valid_utf8("\xc0\xaf") == r + r);                  // overlong '/'
  CHECK(text::valid_utf8("\xed\xa0\x80") == r + r + r);          // a surrogate
  CHECK(text::valid_utf8("\xf4\x90\x80\x80") == r + r + r + r);  // above U+10FFFF
  CHECK(text::valid_utf8(std::string("a\0b", 3)) == std::string("a\0b", 3));
}

TEST_CASE("printable blanks control characters, optionally keeping newlines", "[text]") {
  CHECK(text::printable("a\x1b[31mb\tc\nd\x7f") == "a [31mb c d ");
  CHECK(text::printable("a\nb\rc", true) == "a\nb c");
  CHECK(text::printable("x\xc2\x85y") == "x y");  // C1 NEL
  CHECK(text::printable("é") == "é");
}

TEST_CASE("wrap breaks at spaces and cuts only words longer than a line", "[text]") {
  using V = std::vector<std::string>;
  CHECK(text::wrap("", 10) == V{""});
  CHECK(text::wrap("read counter = 0", 40) == V{"read counter = 0"});
  CHECK(text::wrap("read counter = 0", 8) == V{"read", "counter", "= 0"});
  CHECK(text::wrap("abcdefghij xy", 4) == V{"abcd", "efgh", "ij", "xy"});
  CHECK(text::wrap("üüüüü", 2) == V{"üü", "üü", "ü"});
  CHECK(text::wrap("a\nb   c", 3) == V{"a b", "c"});
  CHECK(text::display_width("Ünïcødé") == 7);
}

TEST_CASE("format_seconds rounds to milliseconds and ignores nonsense", "[text]") {
  CHECK(text::format_seconds(0) == "0.000");
  CHECK(text::format_seconds(1.5) == "1.500");
  CHECK(text::format_seconds(0.0125) == "0.013");
  CHECK(text::format_seconds(0.0004) == "0.000");
  CHECK(text::format_seconds(59.9996) == "60.000");
  CHECK(text::format_millis(1005) == "1.005");
  CHECK(text::format_seconds(1234.5678) == "1234.568");
  CHECK(text::format_seconds(-1) == "0.000");
  CHECK(text::format_seconds(std::numeric_limits<double>::quiet_NaN()) == "0.000");
}

TEST_CASE("shorten cuts at a width in columns and ends with an ellipsis", "[text]") {
  CHECK(text::shorten("short", 10) == "short");
  CHECK(text::shorten("exactly10!", 10) == "exactly10!");
  CHECK(text::shorten("one two three", 8) == "one two\u2026");
  CHECK(text::shorten("one two three", 5) == "one\u2026");  // the blank before the cut goes
  CHECK(text::shorten("\u00e9\u00e9\u00e9\u00e9", 3) == "\u00e9\u00e9\u2026");  // code points
  CHECK(text::display_width(text::shorten(std::string(100, 'x'), 60)) == 60);
  CHECK(text::shorten("ab", 0) == "\u2026");
}
