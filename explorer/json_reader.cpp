#include "explorer/json_reader.hpp"

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

// A container being parsed: its members seen so far (objects) or the index of the next element.
struct ParseFrame {
  bool is_array = false;
  std::size_t index = 0;
  std::string key;  // the member being parsed (objects)
  std::vector<std::string> keys;
};

std::string frames_path(const std::vector<ParseFrame>& frames, std::size_t count) {
  std::string path;
  for (std::size_t i = 0; i < count; ++i)
    path += "/" + (frames[i].is_array ? std::to_string(frames[i].index)
                                      : escape_pointer_token(frames[i].key));
  return path;
}

}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& file) {
  using nlohmann::json;
  std::vector<ParseFrame> frames;
  auto element_done = [&frames] {
    if (!frames.empty() && frames.back().is_array) ++frames.back().index;
  };
  auto callback = [&](int /*depth*/, json::parse_event_t event, json& parsed) -> bool {
    switch (event) {
      case json::parse_event_t::object_start:
        frames.push_back({});
        break;
      case json::parse_event_t::array_start:
        frames.push_back({true, 0, {}, {}});
        break;
      case json::parse_event_t::key: {
        ParseFrame& f = frames.back();
        const auto& key = parsed.get_ref<const std::string&>();
        if (std::find(f.keys.begin(), f.keys.end(), key) != f.keys.end())
          throw InputError(file,
                           frames_path(frames, frames.size() - 1) + "/" + escape_pointer_token(key),
                           "duplicate key '" + key + "'");
        f.keys.push_back(key);
        f.key = key;
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames.pop_back();
        element_done();
        break;
      case json::parse_event_t::value:
        element_done();
        break;
    }
    return true;
  };
  try {
    return json::parse(text, callback);
  } catch (const json::parse_error& e) {
    // what() is "[json.exception.parse_error.101] parse error at line 3, column 5: ...".
    std::string what = e.what();
    const auto bracket = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
      what = what.substr(bracket + 2);
    throw InputError(file, "/", "malformed JSON: " + what);
  }
}

nlohmann::json read_json_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, "/", "is a directory, expected a JSON file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, "/", std::string("cannot read the file: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path, "/", "cannot read the file");
  return parse_json(text.str(), path);
}

}  // namespace interleave
