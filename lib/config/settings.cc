#include "lib/config/settings.h"

#include <limits.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "lib/config/schedule.h"
#include "lib/config/size.h"
#include "lib/io/file_io.h"
#include "lib/stats/compare.h"

namespace alignbench {
namespace {

using nlohmann::json;

Error CaseError(const std::string& origin, const std::string& key,
                const std::string& why) {
  return PlainError(ErrorKind::kUsage, "case file " + origin,
                    key.empty() ? why : "key '" + key + "': " + why);
}

Result<std::uint64_t> Count(const json& value, const std::string& origin,
                            const std::string& key) {
  if (!value.is_number_unsigned()) {
    return CaseError(origin, key,
                     "expected a non-negative integer, got " +
                         std::string(value.type_name()));
  }
  return value.get<std::uint64_t>();
}

Result<double> Positive(const json& value, const std::string& origin,
                        const std::string& key) {
  if (!value.is_number() || !(value.get<double>() > 0)) {
    // Never dump() a value of unknown shape: a deeply nested one would
    // recurse off the stack (found by fuzzing).
    return CaseError(origin, key,
                     "expected a number above 0, got " +
                         (value.is_number() ? value.dump()
                                            : std::string(value.type_name())));
  }
  return value.get<double>();
}

Result<std::uint64_t> Bytes(const json& value, const std::string& origin,
                            const std::string& key) {
  if (value.is_string()) {
    Result<std::uint64_t> size = ParseByteSize(value.get<std::string>());
    if (!size) return CaseError(origin, key, size.error().Message());
    return size;
  }
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  return CaseError(origin, key,
                   "expected a byte size (number or \"4K\"), got " +
                       std::string(value.type_name()));
}

Result<std::vector<std::uint64_t>> Sizes(const json& value,
                                         const std::string& origin) {
  if (value.is_string()) {
    auto sizes = ParseSizeList(value.get<std::string>());
    if (!sizes) return CaseError(origin, "sizes", sizes.error().Message());
    return sizes;
  }
  if (!value.is_array()) {
    return CaseError(origin, "sizes",
                     "expected a list of sizes or a string like \"1K..512K\"");
  }
  std::vector<std::uint64_t> sizes;
  for (const json& item : value) {
    Result<std::uint64_t> size = Bytes(item, origin, "sizes");
    if (!size) return size.error();
    sizes.push_back(size.value());
  }
  return sizes;
}

// A name from `table`, or a list of names; each must be known.
template <typename E, std::size_t N>
Result<std::vector<E>> Names(const Named<E> (&table)[N], const json& value,
                             const std::string& origin,
                             const std::string& key) {
  std::vector<E> values;
  // No copy of `value`: copying a deeply nested array recurses off the stack.
  std::vector<const json*> list;
  if (value.is_array()) {
    for (const json& item : value) list.push_back(&item);
  } else {
    list.push_back(&value);
  }
  for (const json* item_pointer : list) {
    const json& item = *item_pointer;
    if (!item.is_string()) {
      return CaseError(origin, key,
                       "expected a string (" + NameList(table) + "), got " +
                           std::string(item.type_name()));
    }
    auto parsed = FromName(table, item.get<std::string>());
    if (!parsed) {
      return CaseError(origin, key,
                       "unknown value '" + item.get<std::string>() +
                           "' (expected " + NameList(table) + ")");
    }
    values.push_back(*parsed);
  }
  if (values.empty()) {
    return CaseError(origin, key,
                     "needs at least one value (" + NameList(table) + ")");
  }
  return values;
}

Result<std::string> Text(const json& value, const std::string& origin,
                         const std::string& key) {
  if (!value.is_string()) {
    return CaseError(
        origin, key,
        "expected a string, got " + std::string(value.type_name()));
  }
  return value.get<std::string>();
}

// Assigns a parsed value or passes its error on.
template <typename T, typename U>
bool Take(Result<T> parsed, U& target, std::optional<Error>& failure) {
  if (!parsed) {
    failure = parsed.error();
    return false;
  }
  target = std::move(parsed).value();
  return true;
}

// An axis needs a value, and each value once: a repeated one would measure
// the same pairs twice and multiply the plan (fuzzing found plans of
// millions of pairs).
template <typename E, std::size_t N>
Status CheckAxis(const std::vector<E>& values, const Named<E> (&table)[N],
                 const std::string& option) {
  if (values.empty()) {
    return PlainError(ErrorKind::kUsage, "option --" + option,
                      "needs at least one value");
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::find(values.begin(), values.begin() + i, values[i]) !=
        values.begin() + i) {
      return PlainError(
          ErrorKind::kUsage, "option --" + option,
          std::string(NameOf(table, values[i])) + " is listed twice");
    }
  }
  return Ok{};
}

// A file contrast sets each variant's layout itself; its recycled file is
// not cached, so the pair's cache is cold.
Status ValidateLogSettings(const Settings& s) {
  if (!s.log) return Ok{};
  if (Status ok = ValidateLog(*s.log); !ok) return ok;
  const bool file_axes = s.axes.layouts == std::vector{Layout::kExtend} &&
                         s.axes.caches == std::vector{CacheState::kCold};
  if (s.log->contrast == LogContrast::kFile && !file_axes) {
    return PlainError(ErrorKind::kUsage, "log rules",
                      "a file contrast sets each variant's layout: leave "
                      "--layout at extend, and --cache cold (a recycled file "
                      "is not cached)");
  }
  return Ok{};
}

}  // namespace

LogWorkload WorkloadOf(const Settings& settings) {
  return settings.log ? *settings.log : DerbyWorkload(settings.shift);
}

Status ApplyCaseText(const std::string& text, const std::string& origin,
                     Settings& settings) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return CaseError(origin, "", "not valid JSON");
  if (!doc.is_object())
    return CaseError(origin, "", "expected a JSON object at the top");
  Settings next = settings;
  std::optional<Error> failure;
  for (const auto& [key, value] : doc.items()) {
    bool ok = true;
    if (key == "name") {
      ok = Take(Text(value, origin, key), next.case_name, failure);
    } else if (key == "description") {
      ok = Take(Text(value, origin, key), next.case_description, failure);
    } else if (key == "expect") {
      ok = Take(Text(value, origin, key), next.case_expect, failure);
    } else if (key == "source") {
      // Documentation for readers of the case; nothing to apply.
    } else if (key == "requires") {
      // [] is allowed here (a case that needs nothing), unlike on the axes.
      const bool none = value.is_array() && value.empty();
      if (none) next.case_requires.clear();
      ok = none || Take(Names(kRequirements, value, origin, key),
                        next.case_requires, failure);
    } else if (key == "sizes") {
      ok = Take(Sizes(value, origin), next.sizes, failure);
    } else if (key == "shift") {
      ok = Take(Bytes(value, origin, key), next.shift, failure);
    } else if (key == "writes") {
      ok = Take(Count(value, origin, key), next.writes, failure);
    } else if (key == "warmup") {
      ok = Take(Count(value, origin, key), next.warmup, failure);
    } else if (key == "repetitions") {
      ok = Take(Count(value, origin, key), next.repetitions, failure);
    } else if (key == "seed") {
      std::uint64_t seed = 0;
      ok = Take(Count(value, origin, key), seed, failure);
      if (ok) next.seed = seed;
    } else if (key == "budget") {
      double seconds = 0;
      ok = Take(Positive(value, origin, key), seconds, failure);
      if (ok) next.budget_seconds = seconds;
    } else if (key == "precision") {
      ok = Take(Positive(value, origin, key), next.precision_points, failure);
    } else if (key == "sync") {
      ok = Take(Names(kSyncMethods, value, origin, key), next.axes.syncs,
                failure);
    } else if (key == "io") {
      ok = Take(Names(kIoModes, value, origin, key), next.axes.ios, failure);
    } else if (key == "layout") {
      ok =
          Take(Names(kLayouts, value, origin, key), next.axes.layouts, failure);
    } else if (key == "cache") {
      ok = Take(Names(kCacheStates, value, origin, key), next.axes.caches,
                failure);
    } else if (key == "log") {
      ok = Take(ParseLogCase(value, origin, next.log.value_or(LogWorkload{})),
                next.log, failure);
    } else if (key == "direct_unaligned") {
      std::vector<DirectUnaligned> choice;
      ok = Take(Names(kDirectUnaligned, value, origin, key), choice, failure);
      if (ok && choice.size() != 1) {
        return CaseError(origin, key, "expected one value");
      }
      if (ok) next.direct_unaligned = choice.front();
    } else {
      return CaseError(
          origin, key,
          "unknown key (known: name, description, expect, source, requires, "
          "sizes, shift, writes, warmup, repetitions, seed, budget, precision, "
          "sync, io, layout, cache, direct_unaligned, log)");
    }
    if (!ok) return *failure;
  }
  settings = std::move(next);
  return Ok{};
}

Status ApplyCaseFile(const std::string& path, Settings& settings) {
  Result<std::string> text =
      ReadWholeFile(path, ErrorKind::kUsage, kMaxCaseFileBytes);
  if (!text) {
    Error error = text.error();
    error.operation += " case file";
    error.hint = "--case takes a JSON file such as cases/derby-2004.json";
    return error;
  }
  return ApplyCaseText(text.value(), path, settings);
}

Status Validate(const Settings& s) {
  auto usage = [](const std::string& option, const std::string& why) {
    return PlainError(ErrorKind::kUsage, "option --" + option, why);
  };
  constexpr std::uint64_t kMaxSize = 1ull << 30;  // 1 GiB per write: absurd
  constexpr std::size_t kMaxSizes = 64;
  if (s.sizes.empty()) return usage("sizes", "needs at least one size");
  if (s.sizes.size() > kMaxSizes) {
    return usage("sizes", "at most " + std::to_string(kMaxSizes) + " sizes");
  }
  for (std::size_t i = 0; i < s.sizes.size(); ++i) {
    const std::uint64_t size = s.sizes[i];
    if (std::find(s.sizes.begin(), s.sizes.begin() + i, size) !=
        s.sizes.begin() + i) {
      return usage("sizes", FormatSize(size) + " is listed twice");
    }
    if (size == 0) return usage("sizes", "a size must be at least 1 byte");
    if (size > kMaxSize) {
      return usage("sizes", FormatSize(size) + " is larger than 1G");
    }
  }
  if (s.writes == 0) return usage("writes", "must be at least 1");
  if (s.writes > 100'000'000) {
    return usage("writes", "must be at most 100000000");
  }
  if (s.warmup > 100'000'000) {
    return usage("warmup", "must be at most 100000000");
  }
  if (s.repetitions == 0) return usage("repetitions", "must be at least 1");
  if (s.repetitions > kMaxRepetitions) {
    return usage("repetitions",
                 "must be at most " + std::to_string(kMaxRepetitions));
  }
  if (s.budget_seconds && s.repetitions < kMinRunsForVerdict) {
    return usage("budget",
                 "sizes its second stage from the first stage's variance: "
                 "--repetitions must be at least " +
                     std::to_string(kMinRunsForVerdict));
  }
  if (s.shift > kMaxSize) return usage("shift", "must be at most 1G");
  if (s.seed && *s.seed > kMaxSeed) {
    return usage("seed", "must be at most " + std::to_string(kMaxSeed) +
                             " (2^53 - 1, so that JSON keeps it exact)");
  }
  constexpr double kMaxBudgetSeconds = 7 * 24 * 3600;
  if (s.budget_seconds &&
      !(*s.budget_seconds > 0 && *s.budget_seconds <= kMaxBudgetSeconds)) {
    return usage("budget",
                 "must be more than 0 and at most 604800 seconds (a week)");
  }
  // Below 0.01 points no disk converges; --budget would only burn time.
  if (!(s.precision_points >= 0.01 && s.precision_points <= 1e6)) {
    return usage("precision", "must be between 0.01 and 1000000 points");
  }
  // The test file's name (/.alignbench-PID-RANDOM) must fit beside --dir.
  constexpr std::size_t kNameRoom = sizeof "/.alignbench-4194304-ffffffff";
  if (s.dir.size() + kNameRoom > PATH_MAX) {
    return usage("dir", "is " + std::to_string(s.dir.size()) +
                            " bytes long; at most " +
                            std::to_string(PATH_MAX - kNameRoom) +
                            " leave room for the test file's name (PATH_MAX)");
  }
  if (Status ok = ValidateLogSettings(s); !ok) return ok;
  if (Status ok = CheckAxis(s.axes.syncs, kSyncMethods, "sync"); !ok) return ok;
  if (Status ok = CheckAxis(s.axes.ios, kIoModes, "io"); !ok) return ok;
  if (Status ok = CheckAxis(s.axes.layouts, kLayouts, "layout"); !ok) return ok;
  if (Status ok = CheckAxis(s.axes.caches, kCacheStates, "cache"); !ok) {
    return ok;
  }
  // Every bound above holds and the plan can still be absurd: say what it
  // would cost. Products in double: they cannot overflow.
  constexpr double kMaxOperations = 1e9;
  const double pairs = static_cast<double>(ExpandPlan(s).size());
  const double operations = pairs * 2 * static_cast<double>(s.repetitions) *
                            static_cast<double>(s.writes + s.warmup);
  if (operations > kMaxOperations) {
    char cost[160];
    std::snprintf(cost, sizeof cost,
                  "%.0f pairs x 2 variants x %llu repetitions x %llu writes "
                  "(warmup included) is %.3g synced writes, more than 1e9",
                  pairs, static_cast<unsigned long long>(s.repetitions),
                  static_cast<unsigned long long>(s.writes + s.warmup),
                  operations);
    return PlainError(
        ErrorKind::kUsage, "plan",
        std::string(cost) +
            "; use fewer --sizes, axes, --repetitions or --writes");
  }
  return Ok{};
}

std::vector<PairSpec> ExpandPlan(const Settings& s) {
  std::vector<PairSpec> plan;
  for (SyncMethod sync : s.axes.syncs) {
    for (IoMode io : s.axes.ios) {
      for (Layout layout : s.axes.layouts) {
        for (CacheState cache : s.axes.caches) {
          for (std::uint64_t size : s.sizes)
            plan.push_back({size, sync, io, layout, cache});
        }
      }
    }
  }
  return plan;
}

}  // namespace alignbench
