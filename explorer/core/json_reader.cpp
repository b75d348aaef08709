#include "explorer/core/json_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace interleave {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string escape_pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items)
    s += (s.empty() ? "" : ", ") + ("'" + i + "'");
  return s;
}

}  // namespace

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  std::size_t best_d = std::numeric_limits<std::size_t>::max();
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = &c;
    }
  }
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  if (best == nullptr || best_d > limit) return "";
  return " (did you mean '" + *best + "'?)";
}

std::string json_type_name(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "an integer";
    case nlohmann::json::value_t::number_float:
      return "a number";
    case nlohmann::json::value_t::null:
      return "null";
    default:
      return "an unsupported value";
  }
}

void JsonReader::fail(const std::string& message) const {
  throw InputError(file_, path_, message);
}

std::string JsonReader::child_path(std::string_view key) const {
  return path_ + "/" + escape_pointer_token(key);
}

std::string JsonReader::child_path(std::size_t index) const {
  return path_ + "/" + std::to_string(index);
}

void JsonReader::expect_keys(const std::vector<std::string>& known) const {
  if (!value_->is_object()) fail("expected an object, got " + json_type_name(*value_));
  for (const auto& [key, _] : value_->items()) {
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw InputError(file_, child_path(key),
                       "unknown key '" + key + "'" + did_you_mean(key, known) +
                           "; known keys: " + quoted_list(known));
  }
}

bool JsonReader::has(std::string_view key) const {
  return value_->is_object() && value_->contains(key);
}

JsonReader JsonReader::at(std::string_view key) const {
  if (!value_->is_object()) fail("expected an object, got " + json_type_name(*value_));
  auto it = value_->find(key);
  if (it == value_->end()) throw InputError(file_, child_path(key), "missing (required)");
  return JsonReader(*it, file_, child_path(key));
}

std::optional<JsonReader> JsonReader::find(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return at(key);
}

std::string JsonReader::as_string() const {
  if (!value_->is_string()) fail("expected a string, got " + json_type_name(*value_));
  return value_->get<std::string>();
}

bool JsonReader::as_bool() const {
  if (!value_->is_boolean()) fail("expected a boolean, got " + json_type_name(*value_));
  return value_->get<bool>();
}

std::int64_t JsonReader::as_int(std::int64_t min, std::int64_t max) const {
  if (!value_->is_number_integer()) fail("expected an integer, got " + json_type_name(*value_));
  if (value_->is_number_unsigned() &&
      value_->get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    fail("must be at most " + std::to_string(max));
  const auto v = value_->get<std::int64_t>();
  if (v < min || v > max)
    fail("must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
         std::to_string(v));
  return v;
}

std::uint64_t JsonReader::as_uint(std::uint64_t min, std::uint64_t max) const {
  if (!value_->is_number_integer()) fail("expected an integer, got " + json_type_name(*value_));
  if (!value_->is_number_unsigned() && value_->get<std::int64_t>() < 0)
    fail("must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
         std::to_string(value_->get<std::int64_t>()));
  const auto v = value_->get<std::uint64_t>();
  if (v < min || v > max)
    fail("must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
         std::to_string(v));
  return v;
}

double JsonReader::as_number(double min, double max) const {
  if (!value_->is_number()) fail("expected a number, got " + json_type_name(*value_));
  const double v = value_->get<double>();
  if (!std::isfinite(v) || v < min || v > max)
    fail("must be between " + nlohmann::json(min).dump() + " and " + nlohmann::json(max).dump() +
         ", got " + value_->dump());
  return v;
}

std::string JsonReader::as_enum(const std::vector<std::string>& allowed) const {
  const std::string v = as_string();
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end())
    fail("unknown value '" + v + "'" + did_you_mean(v, allowed) + "; expected one of " +
         quoted_list(allowed));
  return v;
}

std::string JsonReader::string_or(std::string_view key, std::string fallback) const {
  auto r = find(key);
  return r ? r->as_string() : std::move(fallback);
}

bool JsonReader::bool_or(std::string_view key, bool fallback) const {
  auto r = find(key);
  return r ? r->as_bool() : fallback;
}

std::int64_t JsonReader::int_or(std::string_view key, std::int64_t fallback, std::int64_t min,
                                std::int64_t max) const {
  auto r = find(key);
  return r ? r->as_int(min, max) : fallback;
}

std::uint64_t JsonReader::uint_or(std::string_view key, std::uint64_t fallback, std::uint64_t min,
                                  std::uint64_t max) const {
  auto r = find(key);
  return r ? r->as_uint(min, max) : fallback;
}

double JsonReader::number_or(std::string_view key, double fallback, double min, double max) const {
  auto r = find(key);
  return r ? r->as_number(min, max) : fallback;
}

std::string JsonReader::enum_or(std::string_view key, std::string fallback,
                                const std::vector<std::string>& allowed) const {
  auto r = find(key);
  return r ? r->as_enum(allowed) : std::move(fallback);
}

std::vector<JsonReader> JsonReader::items() const {
  if (!value_->is_array()) fail("expected an array, got " + json_type_name(*value_));
  std::vector<JsonReader> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.emplace_back((*value_)[i], file_, child_path(i));
  return out;
}

std::vector<JsonReader> JsonReader::items_or_empty(std::string_view key) const {
  auto r = find(key);
  return r ? r->items() : std::vector<JsonReader>{};
}

}  // namespace interleave

namespace interleave {

namespace {

std::string bytes_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Builds the document from the parser's events (nlohmann's SAX interface), with the checks of
// parse_json. nlohmann's parser is iterative, so nothing here depends on the stack's depth; and
// unlike its DOM parser with a callback (whose end of an object scans the object, quadratic in
// the input), every event costs O(log n) at most (a key's look-up in its object).
class DocumentBuilder {
 public:
  using json = nlohmann::json;

  DocumentBuilder(const std::string& file, const JsonLimits& limits)
      : file_(file), limits_(limits) {}

  json take() { return std::move(root_); }

  bool null() { return add(json(nullptr)); }
  bool boolean(bool v) { return add(json(v)); }
  bool number_integer(json::number_integer_t v) { return add(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return add(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return add(json(v)); }
  bool string(json::string_t& v) { return add(json(std::move(v))); }
  bool binary(json::binary_t& /*v*/) {  // only binary formats (CBOR, ...) have these
    throw InputError(file_, next_path(), "binary values are not JSON");
  }

  bool start_object(std::size_t /*elements*/) { return open(json::object()); }
  bool start_array(std::size_t /*elements*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& k) {
    Frame& f = frames_.back();
    auto& members = f.value->get_ref<json::object_t&>();
    if (members.size() >= limits_.max_object_members)
      throw InputError(file_, path(frames_.size()) + "/" + escape_pointer_token(k),
                       "more than " + std::to_string(limits_.max_object_members) +
                           " members in one object (the limit of an object's size)");
    // One look-up both finds a duplicate and makes the member's place (a std::map node, which
    // stays where it is): O(log m) in the object's m members, m bounded by the limit.
    const auto [it, inserted] = members.emplace(k, json());
    if (!inserted)
      throw InputError(file_, path(frames_.size()) + "/" + escape_pointer_token(k),
                       "duplicate key '" + k + "'");
    f.key = std::move(k);
    f.member = &it->second;
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const json::exception& e) {
    // what() is "[json.exception.parse_error.101] parse error at line 3, column 5: ...".
    std::string what = e.what();
    const auto bracket = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
      what = what.substr(bracket + 2);
    if (e.id == 406) {  // out_of_range.406: "number overflow parsing '1e999'"
      const auto quote = what.find('\'');
      throw InputError(
          file_, next_path(),
          "number out of range: " + (quote == std::string::npos ? what : what.substr(quote)) +
              " is beyond the 64-bit floating point range (about 1.8e308)");
    }
    throw InputError(file_, "/", "malformed JSON: " + what);
  }

 private:
  struct Frame {
    json* value;             // the array or object being filled
    std::string key;         // objects: the member being parsed
    json* member = nullptr;  // objects: where that member's value goes
  };

  // The pointer of the first `count` containers: "" for the root, then one token per level.
  std::string path(std::size_t count) const {
    std::string p;
    for (std::size_t i = 1; i < count; ++i) {
      const Frame& parent = frames_[i - 1];
      p += "/" + (parent.value->is_array() ? std::to_string(parent.value->size() - 1)
                                           : escape_pointer_token(parent.key));
    }
    return p;
  }
  // The pointer of the value the parser is about to add.
  std::string next_path() const {
    if (frames_.empty()) return "";
    const Frame& f = frames_.back();
    return path(frames_.size()) + "/" +
           (f.value->is_array() ? std::to_string(f.value->size()) : escape_pointer_token(f.key));
  }

  json* add(json v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = frames_.back();
    if (f.value->is_object()) {
      *f.member = std::move(v);
      return f.member;
    }
    if (f.value->size() >= limits_.max_array_elements)
      throw InputError(file_, next_path(),
                       "more than " + std::to_string(limits_.max_array_elements) +
                           " elements in one array (the limit of an array's length)");
    f.value->push_back(std::move(v));
    return &f.value->back();  // a parent is not grown while a child of it is open
  }

  bool open(json container) {
    if (frames_.size() >= limits_.max_depth)
      throw InputError(file_, next_path(),
                       "nested deeper than " + std::to_string(limits_.max_depth) +
                           " levels of arrays and objects (the limit of nesting)");
    json* value = add(std::move(container));
    frames_.push_back({value, {}, nullptr});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  const std::string& file_;
  const JsonLimits& limits_;
  json root_;
  std::vector<Frame> frames_;
};

}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& file,
                          const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw InputError(file, "/",
                     "the document is " + std::to_string(text.size()) + " bytes, more than " +
                         bytes_text(limits.max_bytes) + " (the limit of a document's size)");
  // The parser takes a NUL byte for the end of the text and would ignore what follows it; no
  // JSON text holds one (not even in a string, where it must be written \u0000).
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    const auto line_start = text.rfind('\n', nul);
    const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
    const auto column = nul - (line_start == std::string::npos ? 0 : line_start + 1);
    throw InputError(file, "/",
                     "malformed JSON: a NUL byte at line " + std::to_string(line + 1) +
                         ", column " + std::to_string(column + 1));
  }
  DocumentBuilder builder(file, limits);
  nlohmann::json::sax_parse(text, &builder, nlohmann::json::input_format_t::json,
                            /*strict=*/true, /*ignore_comments=*/false);
  return builder.take();
}

nlohmann::json read_json_file(const std::string& path, const JsonLimits& limits) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, "/", "is a directory, expected a JSON file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, "/", std::string("cannot read the file: ") + std::strerror(errno));
  auto too_large = [&](std::uint64_t size, const char* more) {
    return InputError(path, "/",
                      "the file is " + std::string(more) + std::to_string(size) +
                          " bytes, more than " + bytes_text(limits.max_bytes) +
                          " (the limit of a document's size)");
  };
  const auto size = std::filesystem::file_size(path, ec);  // fails for pipes and devices
  if (!ec && size > limits.max_bytes) throw too_large(size, "");
  // Read at most one byte past the limit: a pipe or a device (/dev/zero) is bounded too.
  std::string text;
  if (!ec) text.reserve(size);
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > limits.max_bytes) throw too_large(text.size(), "at least ");
  }
  if (in.bad()) throw InputError(path, "/", "cannot read the file");
  return parse_json(text, path, limits);
}

}  // namespace interleave
