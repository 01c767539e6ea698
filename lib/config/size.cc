#include "lib/config/size.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>

#include "lib/base/json_parse.h"

namespace alignbench {
namespace {

struct Suffix {
  std::string_view text;
  std::uint64_t factor;
};
// Longest spellings first so that "KiB" is not read as "K" followed by junk.
constexpr Suffix kSuffixes[] = {
    {"GiB", 1ull << 30},
    {"MiB", 1ull << 20},
    {"KiB", 1ull << 10},
    {"G", 1ull << 30},
    {"M", 1ull << 20},
    {"K", 1ull << 10},
    {"B", 1},
};
constexpr Suffix kPrintSuffixes[] = {
    {"G", 1ull << 30}, {"M", 1ull << 20}, {"K", 1ull << 10}};

Error Bad(std::string_view text, const std::string& why) {
  return PlainError(ErrorKind::kUsage, "size '" + std::string(text) + "'", why);
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() &&
         std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() &&
         std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace

Result<std::uint64_t> ParseByteSize(std::string_view raw) {
  const std::string_view text = Trim(raw);
  std::size_t digits = 0;
  while (digits < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[digits]))) {
    ++digits;
  }
  if (digits == 0) {
    return Bad(raw, text.empty() || text[0] != '-'
                        ? "expected a number with an optional K, M or G suffix"
                        : "must not be negative");
  }
  std::uint64_t number = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
    if (number > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      return Bad(raw, "too large");
    }
    number = number * 10 + digit;
  }
  const std::string_view suffix = text.substr(digits);
  std::uint64_t factor = 1;
  if (!suffix.empty()) {
    factor = 0;
    for (const Suffix& s : kSuffixes) {
      if (EqualsIgnoreCase(suffix, s.text)) factor = s.factor;
    }
    if (factor == 0) {
      return Bad(
          raw, "unknown suffix '" + std::string(suffix) + "' (use K, M or G)");
    }
  }
  if (number > std::numeric_limits<std::uint64_t>::max() / factor) {
    return Bad(raw, "too large");
  }
  return number * factor;
}

Result<std::vector<std::uint64_t>> ParseSizeList(std::string_view text) {
  std::vector<std::uint64_t> sizes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = Trim(text.substr(start, comma - start));
    const std::size_t dots = item.find("..");
    if (dots == std::string_view::npos) {
      Result<std::uint64_t> size = ParseByteSize(item);
      if (!size) return size.error();
      sizes.push_back(size.value());
    } else {
      Result<std::uint64_t> from = ParseByteSize(item.substr(0, dots));
      if (!from) return from.error();
      Result<std::uint64_t> to = ParseByteSize(item.substr(dots + 2));
      if (!to) return to.error();
      const std::uint64_t low = std::min(from.value(), to.value());
      const std::uint64_t high = std::max(from.value(), to.value());
      if (low == 0 || high % low != 0 || !IsPowerOfTwo(high / low)) {
        return Bad(item,
                   "a range goes from A to B by doubling: B must be A times a "
                   "power of 2");
      }
      // Count the doublings instead of doubling until past `high`: near 2^64
      // that would overflow and never stop.
      std::vector<std::uint64_t> range;
      for (std::uint64_t s = low;; s *= 2) {
        range.push_back(s);
        if (s == high) break;
      }
      if (from.value() > to.value()) std::reverse(range.begin(), range.end());
      sizes.insert(sizes.end(), range.begin(), range.end());
    }
    start = comma + 1;
  }
  return sizes;
}

std::string FormatSize(std::uint64_t bytes) {
  for (const Suffix& s : kPrintSuffixes) {
    if (bytes != 0 && bytes % s.factor == 0) {
      return std::to_string(bytes / s.factor) + std::string(s.text);
    }
  }
  return std::to_string(bytes);
}

std::optional<std::string> ParseByteValue(const nlohmann::json& value,
                                          std::uint64_t& out) {
  if (value.is_string()) {
    Result<std::uint64_t> size = ParseByteSize(value.get<std::string>());
    if (!size) return size.error().Message();
    out = size.value();
    return std::nullopt;
  }
  if (const std::optional<std::uint64_t> whole = WholeNumber(value)) {
    out = *whole;
    return std::nullopt;
  }
  // Never dump() a value of unknown shape: a deeply nested one would recurse
  // off the stack. A string is parsed above, a number shown.
  const std::string got =
      value.is_number() ? value.dump() : std::string(value.type_name());
  return "expected a byte size (4096 or \"4K\"), got " + got;
}

}  // namespace alignbench
