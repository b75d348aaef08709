// Reading user-written JSON with exact errors. A JsonReader is a view of one value in a document
// plus where it is (the file and the JSON pointer); every accessor that finds something wrong
// throws InputError("FILE: /json/path: what is wrong"). Unknown keys are errors, with a
// did-you-mean suggestion when a known key is close.
#pragma once

#include "explorer/core/input_error.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace interleave {

/// The limits of a JSON document read by interleave (docs/scenario-format.md, "Limits"). Each is
/// checked while the text is parsed, so a document beyond one is rejected at once, before the
/// rest is read, with an InputError naming the file and the JSON path where the limit was crossed.
/// They keep every reader linear in the size of its input and every recursive walk of a document
/// (copies, comparisons, dumps) far from the stack's end.
struct JsonLimits {
  std::uint64_t max_bytes = 64ull << 20;        ///< the text (a file: its size, checked first)
  std::size_t max_depth = 64;                   ///< nested arrays and objects, the root is 1
  std::size_t max_array_elements = 1ull << 20;  ///< elements of one array
  std::size_t max_object_members = 1ull << 16;  ///< members (keys) of one object
};

/// Parses JSON text as a user wrote it, in time linear in its size. Malformed or truncated text
/// ("line 3, column 5: ..."), duplicate keys (which JSON parsers otherwise resolve silently), a
/// number out of range (beyond the 64-bit floating point range, e.g. 1e999) and a document beyond
/// `limits` throw InputError naming `file` and, except for malformed text, the JSON path.
nlohmann::json parse_json(const std::string& text, const std::string& file,
                          const JsonLimits& limits = {});
/// Reads and parses a file; an unreadable file, a directory, or a file larger than
/// limits.max_bytes (checked before it is read) is an InputError too.
nlohmann::json read_json_file(const std::string& path, const JsonLimits& limits = {});

/// " (did you mean 'x'?)" when some candidate is within a small edit distance of `word`, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

/// The JSON type name used in messages: "an object", "an array", "a string", "an integer"...
std::string json_type_name(const nlohmann::json& j);

class JsonReader {
 public:
  JsonReader(const nlohmann::json& value, std::string file, std::string path = "")
      : value_(&value), file_(std::move(file)), path_(std::move(path)) {}

  const nlohmann::json& json() const { return *value_; }
  const std::string& file() const { return file_; }
  /// The JSON pointer of this value ("" for the document root, shown as "/").
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(const std::string& message) const;

  // ---- objects ----
  /// Fails unless this is an object whose keys are all in `known` (did-you-mean on a typo).
  void expect_keys(const std::vector<std::string>& known) const;
  bool has(std::string_view key) const;
  /// The member `key`; fails with "missing" if absent.
  JsonReader at(std::string_view key) const;
  std::optional<JsonReader> find(std::string_view key) const;

  // ---- scalars (this value) ----
  std::string as_string() const;
  bool as_bool() const;
  std::int64_t as_int(std::int64_t min, std::int64_t max) const;
  std::uint64_t as_uint(std::uint64_t min, std::uint64_t max) const;
  double as_number(double min, double max) const;
  /// A string that must be one of `allowed` (did-you-mean on a typo).
  std::string as_enum(const std::vector<std::string>& allowed) const;

  // ---- members with defaults ----
  std::string string_or(std::string_view key, std::string fallback) const;
  bool bool_or(std::string_view key, bool fallback) const;
  std::int64_t int_or(std::string_view key, std::int64_t fallback, std::int64_t min,
                      std::int64_t max) const;
  std::uint64_t uint_or(std::string_view key, std::uint64_t fallback, std::uint64_t min,
                        std::uint64_t max) const;
  double number_or(std::string_view key, double fallback, double min, double max) const;
  std::string enum_or(std::string_view key, std::string fallback,
                      const std::vector<std::string>& allowed) const;

  // ---- arrays ----
  /// The elements of this array (fails unless it is an array).
  std::vector<JsonReader> items() const;
  /// The elements of member `key`, or none when absent.
  std::vector<JsonReader> items_or_empty(std::string_view key) const;

  /// The pointer of member `key` / element `i` of this value.
  std::string child_path(std::string_view key) const;
  std::string child_path(std::size_t index) const;

 private:
  const nlohmann::json* value_;
  std::string file_;
  std::string path_;
};

}  // namespace interleave
