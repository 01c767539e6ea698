#include "lib/base/json_parse.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace alignbench {
namespace {

// The line of the `occurrence`-th (0-based) `"key"` that is followed by a
// colon: the key as the text spells it. 0 when it cannot be found, as when the
// text spells the key with escapes.
std::size_t LineOfKey(const std::string& text, const std::string& key,
                      std::size_t occurrence) {
  const std::string quoted = nlohmann::json(key).dump();
  std::size_t seen = 0;
  for (std::size_t at = text.find(quoted); at != std::string::npos;
       at = text.find(quoted, at + 1)) {
    std::size_t after = at + quoted.size();
    while (after < text.size() &&
           std::isspace(static_cast<unsigned char>(text[after]))) {
      ++after;
    }
    if (after >= text.size() || text[after] != ':') continue;
    if (at > 0 && text[at - 1] == '\\') continue;  // inside another string
    if (seen++ == occurrence) {
      std::size_t line = 1;
      for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n';
      return line;
    }
  }
  return 0;
}

// A first pass over the text that builds nothing: the first key said twice
// in one object, and how many times that key was said before it. (nlohmann's
// parser with a callback would do it in the same pass, but it looks through
// the whole parent at the end of each object: a trace's 600,000 commits took
// a minute.)
class DuplicateKeys : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::optional<std::string> duplicate;
  std::size_t occurrence = 0;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    open_.emplace_back();
    return true;
  }
  bool end_object() override {
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool key(string_t& key) override {
    if (!duplicate && !open_.back().insert(key).second) {
      duplicate = key;
      occurrence = said_[key];
    }
    ++said_[key];
    return true;
  }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  std::vector<std::set<std::string>> open_;
  std::map<std::string, std::size_t> said_;
};

}  // namespace

Result<nlohmann::json> ParseJsonStrict(const std::string& text) {
  using nlohmann::json;
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return PlainError(ErrorKind::kUsage, "parse", "not valid JSON");
  }
  DuplicateKeys keys;
  json::sax_parse(text, &keys);
  if (keys.duplicate) {
    std::string detail =
        "duplicate key '" + EscapeControl(*keys.duplicate) + "' in one object";
    if (const std::size_t line =
            LineOfKey(text, *keys.duplicate, keys.occurrence)) {
      detail += " (line " + std::to_string(line) + ")";
    }
    return PlainError(ErrorKind::kUsage, "parse", detail);
  }
  return doc;
}

std::optional<std::uint64_t> WholeNumber(const nlohmann::json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer()) {
    const std::int64_t v = value.get<std::int64_t>();
    if (v >= 0) return static_cast<std::uint64_t>(v);
    return std::nullopt;
  }
  if (value.is_number_float()) {
    const double v = value.get<double>();
    // 2^64 is exact as a double; every whole double below it fits.
    if (v >= 0 && v < 18446744073709551616.0 && v == std::floor(v)) {
      return static_cast<std::uint64_t>(v);
    }
  }
  return std::nullopt;
}

}  // namespace alignbench
