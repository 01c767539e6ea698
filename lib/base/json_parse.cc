#include "lib/base/json_parse.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
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

}  // namespace

Result<nlohmann::json> ParseJsonStrict(const std::string& text) {
  using nlohmann::json;
  std::vector<std::set<std::string>> open_objects;
  std::vector<std::string> all_keys;
  std::optional<std::string> duplicate;
  std::size_t duplicate_occurrence = 0;
  const json::parser_callback_t watch = [&](int, json::parse_event_t event,
                                            json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        open_objects.emplace_back();
        break;
      case json::parse_event_t::object_end:
        if (!open_objects.empty()) open_objects.pop_back();
        break;
      case json::parse_event_t::key: {
        const std::string key = parsed.get<std::string>();
        if (!duplicate && !open_objects.empty() &&
            !open_objects.back().insert(key).second) {
          duplicate = key;
          duplicate_occurrence = static_cast<std::size_t>(
              std::count(all_keys.begin(), all_keys.end(), key));
        }
        all_keys.push_back(key);
        break;
      }
      default:
        break;
    }
    return true;
  };
  json doc = json::parse(text, watch, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return PlainError(ErrorKind::kUsage, "parse", "not valid JSON");
  }
  if (duplicate) {
    std::string detail =
        "duplicate key '" + EscapeControl(*duplicate) + "' in one object";
    if (const std::size_t line =
            LineOfKey(text, *duplicate, duplicate_occurrence)) {
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
