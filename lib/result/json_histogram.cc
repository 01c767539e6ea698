#include "lib/result/json_histogram.h"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>

#include "lib/base/json_parse.h"

namespace alignbench {
namespace {

using nlohmann::json;

constexpr int kBucketsPerOctave = 1 << kHistogramSubBits;

json OneJson(const Histogram& h) {
  json buckets = json::array();
  for (const HistogramBucket& b : h.buckets) {
    buckets.push_back({BucketLowerNs(b.index), b.count});
  }
  return {{"count", h.count},
          {"sum_ns", h.sum_ns},
          {"min_ns", h.min_ns},
          {"max_ns", h.max_ns},
          {"buckets", buckets}};
}

Error Wrong(const std::string& path, const std::string& what) {
  return PlainError(ErrorKind::kUsage, "read histogram",
                    "key '" + path + "': " + what);
}

bool Whole(const json& v) { return WholeNumber(v).has_value(); }

// Histograms exist only in files of the schema's version: its keys, no other.
std::optional<Error> UnknownKey(const json& j, const std::string& path,
                                std::initializer_list<std::string_view> keys) {
  for (const auto& item : j.items()) {
    if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) {
      return Wrong(path + "." + item.key(), "unknown key");
    }
  }
  return std::nullopt;
}

// The buckets of one histogram; their counts must add up to `count`.
Result<Histogram> ReadOne(const json& j, const std::string& path) {
  if (!j.is_object()) return Wrong(path, "expected an object");
  if (std::optional<Error> unknown = UnknownKey(
          j, path, {"count", "sum_ns", "min_ns", "max_ns", "buckets"})) {
    return *unknown;
  }
  for (const char* key : {"count", "sum_ns", "min_ns", "max_ns"}) {
    if (!j.contains(key) || !Whole(j.at(key)))
      return Wrong(path + "." + key, "expected a non-negative whole number");
    // The nanosecond fields are kept signed: past 2^63 - 1 they would wrap.
    if (std::string_view(key) != "count" &&
        *WholeNumber(j.at(key)) >
            static_cast<std::uint64_t>(
                std::numeric_limits<std::int64_t>::max())) {
      return Wrong(path + "." + key, "more than 2^63 - 1 nanoseconds");
    }
  }
  Histogram h;
  h.count = *WholeNumber(j.at("count"));
  h.sum_ns = static_cast<std::int64_t>(*WholeNumber(j.at("sum_ns")));
  h.min_ns = static_cast<std::int64_t>(*WholeNumber(j.at("min_ns")));
  h.max_ns = static_cast<std::int64_t>(*WholeNumber(j.at("max_ns")));
  const json* list = j.contains("buckets") ? &j.at("buckets") : nullptr;
  if (!list || !list->is_array())
    return Wrong(path + ".buckets", "expected a list");
  std::uint64_t total = 0;
  bool exceeded = false;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& b = (*list)[i];
    const std::string at = path + ".buckets[" + std::to_string(i) + "]";
    if (!b.is_array() || b.size() != 2 || !Whole(b[0]) || !Whole(b[1]) ||
        *WholeNumber(b[1]) == 0) {
      return Wrong(at, "expected [lower bound in ns, count > 0]");
    }
    const std::uint64_t lower = *WholeNumber(b[0]);
    const std::uint32_t index =
        BucketOf(static_cast<std::int64_t>(std::min<std::uint64_t>(
            lower, std::numeric_limits<std::int64_t>::max())));
    if (BucketLowerNs(index) != lower ||
        (!h.buckets.empty() && index <= h.buckets.back().index)) {
      return Wrong(at, "not a bucket bound of this layout, or out of order");
    }
    h.buckets.push_back({index, *WholeNumber(b[1])});
    // A sum past 2^64 would wrap and could come back round to `count`:
    // more than `count` is remembered instead of added.
    exceeded = exceeded || h.buckets.back().count > h.count - total;
    if (!exceeded) total += h.buckets.back().count;
  }
  if (exceeded || total != h.count || h.min_ns > h.max_ns) {
    return Wrong(path, "bucket counts do not add up to count, or min > max");
  }
  return h;
}

}  // namespace

json HistogramsJson(const VariantHistograms& h) {
  return {{"relative_error", kPercentileRelativeError},
          {"buckets_per_octave", kBucketsPerOctave},
          {"write_sync", OneJson(h.total_ns)},
          {"write", OneJson(h.write_ns)},
          {"sync", OneJson(h.sync_ns)}};
}

Result<VariantHistograms> ReadHistograms(const json& j,
                                         const std::string& path) {
  if (!j.is_object()) return Wrong(path, "expected an object");
  if (std::optional<Error> unknown =
          UnknownKey(j, path,
                     {"relative_error", "buckets_per_octave", "write_sync",
                      "write", "sync"})) {
    return *unknown;
  }
  const json per_octave = j.value("buckets_per_octave", json());
  if (per_octave != kBucketsPerOctave) {
    return Wrong(path + ".buckets_per_octave",
                 "expected " + std::to_string(kBucketsPerOctave));
  }
  VariantHistograms out;
  const std::pair<const char*, Histogram*> parts[] = {
      {"write_sync", &out.total_ns},
      {"write", &out.write_ns},
      {"sync", &out.sync_ns}};
  for (const auto& [key, histogram] : parts) {
    if (!j.contains(key)) return Wrong(path + "." + key, "missing");
    Result<Histogram> one = ReadOne(j.at(key), path + "." + key);
    if (!one) return one.error();
    *histogram = std::move(one).value();
  }
  return out;
}

namespace {

// The end of the array that opens at `open` when it holds only numbers and
// arrays of them, else npos. Nothing there can be inside a string: a string
// would bring a quote.
std::size_t EndOfNumbers(const std::string& pretty, std::size_t open) {
  int depth = 0;
  bool number = false;
  for (std::size_t i = open; i < pretty.size(); ++i) {
    const char c = pretty[i];
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      if (--depth == 0) return number ? i : std::string::npos;
    } else if (std::string_view("0123456789+-.eE").find(c) !=
               std::string_view::npos) {
      number = true;
    } else if (c != ',' && c != ' ' && c != '\n') {
      return std::string::npos;
    }
  }
  return std::string::npos;
}

}  // namespace

std::string OneLineNumberArrays(const std::string& pretty) {
  std::string out;
  out.reserve(pretty.size());
  bool in_string = false;
  for (std::size_t i = 0; i < pretty.size(); ++i) {
    const char c = pretty[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < pretty.size()) {
        out += pretty[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    const std::size_t end =
        c == '[' ? EndOfNumbers(pretty, i) : std::string::npos;
    if (end == std::string::npos) {
      out += c;
      continue;
    }
    // Numbers, arrays of them, commas and white space only: one line.
    for (std::size_t j = i; j <= end; ++j) {
      if (pretty[j] == ',') {
        out += ", ";
      } else if (pretty[j] != ' ' && pretty[j] != '\n') {
        out += pretty[j];
      }
    }
    i = end;
  }
  return out;
}

}  // namespace alignbench
