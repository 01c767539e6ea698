#include "lib/config/options.h"

#include <limits.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <nlohmann/json.hpp>

#include "lib/base/error.h"
#include "lib/base/json_parse.h"
#include "lib/base/text.h"
#include "lib/config/schedule.h"
#include "lib/config/size.h"
#include "lib/stats/compare.h"

namespace alignbench {
namespace {

using nlohmann::json;
// What is wrong with a value, or nothing.
using Why = std::optional<std::string>;

// Never dump() a value of unknown shape: a deeply nested one would recurse off
// the stack (found by fuzzing). Strings are quoted, numbers shown.
std::string Got(const json& value) {
  if (value.is_string()) return "'" + value.get<std::string>() + "'";
  if (value.is_number()) return value.dump();
  return value.type_name();
}

// --- The parsers: JSON (or a command-line word as a JSON string) to a value.

Why ParseCount(const json& value, std::uint64_t& out) {
  if (const std::optional<std::uint64_t> whole = WholeNumber(value)) {
    out = *whole;
    return std::nullopt;
  }
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    // 19 digits always fit in 64 bits.
    if (!text.empty() && text.size() <= 19 &&
        std::all_of(text.begin(), text.end(), ::isdigit)) {
      out = std::stoull(text);
      return std::nullopt;
    }
  }
  return "expected a non-negative whole number, got " + Got(value);
}

// A decimal number as JSON writes one, but for an optional leading zero and
// fraction ("0.5", ".5", "5."): what strtod takes besides (hex, "+5", " 5",
// "inf") a count refuses, and one grammar serves every option.
bool DecimalText(const std::string& text) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  if (i < text.size() && text[i] == '-') ++i;
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

Why ParseNumber(const json& value, double& out) {
  if (value.is_number()) {
    out = value.get<double>();
  } else if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    char* end = nullptr;
    if (!DecimalText(text)) return "expected a number, got " + Got(value);
    out = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) {
      return "expected a number, got " + Got(value);
    }
  } else {
    return "expected a number, got " + Got(value);
  }
  if (!std::isfinite(out)) return "expected a finite number, got " + Got(value);
  return std::nullopt;
}

Why ParseSizes(const json& value, std::vector<std::uint64_t>& out) {
  if (value.is_string()) {
    auto sizes = ParseSizeList(value.get<std::string>());
    if (!sizes) return sizes.error().Message();
    out = std::move(sizes).value();
    return std::nullopt;
  }
  if (!value.is_array()) {
    return "expected a list of sizes or a string like \"1K..512K\", got " +
           Got(value);
  }
  out.clear();
  for (const json& item : value) {
    std::uint64_t size = 0;
    if (Why bad = ParseByteValue(item, size)) return bad;
    out.push_back(size);
  }
  return std::nullopt;
}

// A list of names: a JSON array of strings, or one string with commas. Every
// item counts, also an empty one ("fsync," is a mistake, not fsync).
template <typename E>
Why ParseNames(const json& value, NameTable<E> table, std::vector<E>& out) {
  std::vector<std::string> items;
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    for (std::size_t start = 0; start <= text.size();) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      items.push_back(text.substr(start, comma - start));
      start = comma + 1;
    }
  } else if (value.is_array()) {
    // No copy of `value`: copying a deeply nested array recurses off the stack.
    for (const json& item : value) {
      if (!item.is_string()) {
        return "expected a string (" + NameList(table) + "), got " + Got(item);
      }
      items.push_back(item.get<std::string>());
    }
  } else {
    return "expected a string (" + NameList(table) + "), got " + Got(value);
  }
  out.clear();
  for (const std::string& item : items) {
    auto parsed = FromName(table, item);
    if (!parsed) {
      return "unknown value '" + item + "' (expected " + NameList(table) + ")";
    }
    out.push_back(*parsed);
  }
  return std::nullopt;
}

// --- Each field type: parse, check bounds, record, show.

Why Parse(const field::Count& f, const json& v, Settings& s) {
  return ParseCount(v, s.*f.member);
}
Why Parse(const field::Number& f, const json& v, Settings& s) {
  return ParseNumber(v, s.*f.member);
}
// An optional field is set by the parser of its value type.
template <typename T>
Why ParseInto(std::optional<T>& target, const json& v,
              Why (*parse)(const json&, T&)) {
  T value{};
  if (Why bad = parse(v, value)) return bad;
  target = value;
  return std::nullopt;
}
Why Parse(const field::OptionalCount& f, const json& v, Settings& s) {
  return ParseInto(s.*f.member, v, ParseCount);
}
Why Parse(const field::OptionalNumber& f, const json& v, Settings& s) {
  return ParseInto(s.*f.member, v, ParseNumber);
}
Why Parse(const field::Bytes& f, const json& v, Settings& s) {
  return ParseByteValue(v, s.*f.member);
}
Why Parse(const field::SizeList& f, const json& v, Settings& s) {
  if (f.one_as_number && v.is_number()) {
    std::uint64_t value = 0;
    if (Why bad = ParseByteValue(v, value)) return bad;
    s.*f.member = {value};
    return std::nullopt;
  }
  return ParseSizes(v, s.*f.member);
}
Why Parse(const field::Text& f, const json& v, Settings& s) {
  if (!v.is_string()) return "expected a string, got " + Got(v);
  s.*f.member = v.get<std::string>();
  return std::nullopt;
}
template <typename E>
Why Parse(const field::Names<E>& f, const json& v, Settings& s) {
  // [] is allowed where the row says so ("requires": a case needing nothing).
  if (f.may_be_empty && v.is_array() && v.empty()) {
    (s.*f.member).clear();
    return std::nullopt;
  }
  return ParseNames(v, f.table, s.*f.member);
}
template <typename E>
Why Parse(const field::Name<E>& f, const json& v, Settings& s) {
  std::vector<E> values;
  if (Why bad = ParseNames(v, f.table, values)) return bad;
  if (values.size() != 1) return "takes one value";
  s.*f.member = values.front();
  return std::nullopt;
}
Why Parse(const field::Note&, const json& v, Settings&) {
  if (!v.is_string()) return "expected a string, got " + Got(v);
  return std::nullopt;
}

Why Between(std::uint64_t value, std::uint64_t min, std::uint64_t max) {
  if (value < min) return "must be at least " + std::to_string(min);
  if (value > max) return "must be at most " + std::to_string(max);
  return std::nullopt;
}

Why Check(const field::Count& f, const Settings& s) {
  return Between(s.*f.member, f.min, f.max);
}
Why Check(const field::OptionalCount& f, const Settings& s) {
  const auto& value = s.*f.member;
  return value ? Between(*value, 0, f.max) : std::nullopt;
}
Why Check(const field::Number& f, const Settings& s) {
  const double value = s.*f.member;
  if (value >= f.min && value <= f.max) return std::nullopt;
  return "must be between " + Printf("%g", f.min) + " and " +
         Printf("%.0f", f.max) + " " + std::string(f.unit);
}
Why Check(const field::OptionalNumber& f, const Settings& s) {
  const auto& value = s.*f.member;
  if (!value || (*value > 0 && *value <= f.max)) return std::nullopt;
  return "must be more than 0 and at most " + Printf("%.0f", f.max) + " " +
         std::string(f.unit);
}
Why Check(const field::Bytes& f, const Settings& s) {
  if (s.*f.member <= f.max) return std::nullopt;
  return "must be at most " + FormatSize(f.max);
}
Why Check(const field::SizeList& f, const Settings& s) {
  const std::vector<std::uint64_t>& sizes = s.*f.member;
  const std::string noun(f.noun);
  if (sizes.empty()) return "needs at least one " + noun;
  if (sizes.size() > f.max_count) {
    return "at most " + std::to_string(f.max_count) + " " + noun + "s";
  }
  for (auto at = sizes.begin(); at != sizes.end(); ++at) {
    if (std::find(sizes.begin(), at, *at) != at) {
      return FormatSize(*at) + " is listed twice";
    }
    if (*at < f.min) {
      return "a " + noun + " must be at least " + std::to_string(f.min) +
             " byte";
    }
    if (*at > f.max)
      return FormatSize(*at) + " is larger than " + FormatSize(f.max);
  }
  return std::nullopt;
}
Why Check(const field::Text& f, const Settings& s) {
  const std::size_t bytes = (s.*f.member).size();
  if (bytes <= f.max_bytes) return std::nullopt;
  return "is " + std::to_string(bytes) + " bytes long; at most " +
         std::to_string(f.max_bytes) +
         (f.why_max.empty() ? "" : " " + std::string(f.why_max));
}
// Each value once: a repeated one would measure the same pairs twice and
// multiply the plan (fuzzing found plans of millions of pairs).
template <typename E>
Why Check(const field::Names<E>& f, const Settings& s) {
  const std::vector<E>& values = s.*f.member;
  if (values.empty() && !f.may_be_empty) {
    return "needs at least one value (" + NameList(f.table) + ")";
  }
  for (auto at = values.begin(); at != values.end(); ++at) {
    if (std::find(values.begin(), at, *at) != at) {
      return std::string(NameOf(f.table, *at)) + " is listed twice";
    }
  }
  return std::nullopt;
}
template <typename E>
Why Check(const field::Name<E>&, const Settings&) {
  return std::nullopt;
}
Why Check(const field::Note&, const Settings&) { return std::nullopt; }

template <typename E>
json NameArray(NameTable<E> table, const std::vector<E>& values) {
  json names = json::array();
  for (E value : values) names.push_back(NameOf(table, value));
  return names;
}

json Record(const field::Count& f, const Settings& s) { return s.*f.member; }
json Record(const field::OptionalCount& f, const Settings& s) {
  const auto& value = s.*f.member;
  return value ? json(*value) : json();
}
json Record(const field::Number& f, const Settings& s) { return s.*f.member; }
json Record(const field::OptionalNumber& f, const Settings& s) {
  const auto& value = s.*f.member;
  return value ? json(*value) : json();
}
json Record(const field::Bytes& f, const Settings& s) { return s.*f.member; }
json Record(const field::SizeList& f, const Settings& s) {
  const std::vector<std::uint64_t>& sizes = s.*f.member;
  if (f.one_as_number && sizes.size() == 1) return sizes.front();
  return sizes;
}
json Record(const field::Text& f, const Settings& s) { return s.*f.member; }
template <typename E>
json Record(const field::Names<E>& f, const Settings& s) {
  return NameArray(f.table, s.*f.member);
}
template <typename E>
json Record(const field::Name<E>& f, const Settings& s) {
  return NameOf(f.table, s.*f.member);
}
json Record(const field::Note&, const Settings&) { return json(); }

std::string Show(const field::Bytes& f, const Settings& s) {
  return FormatSize(s.*f.member);
}
std::string Show(const field::SizeList& f, const Settings& s) {
  std::string text;
  for (std::uint64_t size : s.*f.member) {
    text += (text.empty() ? "" : ",") + FormatSize(size);
  }
  return text;
}
template <typename E>
std::string Show(const field::Names<E>& f, const Settings& s) {
  std::string text;
  for (E value : s.*f.member) {
    text += (text.empty() ? "" : ",") + std::string(NameOf(f.table, value));
  }
  return text.empty() ? "none" : text;
}
std::string Show(const field::Number& f, const Settings& s) {
  return Printf("%g", s.*f.member);
}
// Every other type shows as its record: a number or a name.
template <typename F>
std::string Show(const F& f, const Settings& s) {
  const json value = Record(f, s);
  if (value.is_null()) return "unset";
  return value.is_string() ? value.get<std::string>() : value.dump();
}

template <typename E>
std::string ValueHelp(NameTable<E> table) {
  std::string help;
  for (const auto& entry : table) {
    help += "\n  " + std::string(entry.name) + ": " + std::string(entry.help);
  }
  return help;
}
template <typename E>
std::string ValueHelp(const field::Names<E>& f) {
  return ValueHelp(f.table);
}
template <typename E>
std::string ValueHelp(const field::Name<E>& f) {
  return ValueHelp(f.table);
}
template <typename F>
std::string ValueHelp(const F&) {
  return "";
}

Error OriginError(const ValueOrigin& origin, const std::string& why) {
  return PlainError(ErrorKind::kUsage, origin.operation, origin.prefix + why);
}

// The test file's name (/.alignbench-PID-RANDOM) must fit beside --dir.
constexpr std::size_t kNameRoom = sizeof "/.alignbench-4194304-ffffffff";
constexpr std::uint64_t kMaxWriteBytes = 1ull << 30;  // 1 GiB: absurd already
constexpr std::uint64_t kMaxWrites = 100'000'000;
// Group commit: PostgreSQL's WAL writer and InnoDB's write groups gather tens
// of commits; a thousand is past any.
constexpr std::uint64_t kMaxCommitsPerSync = 1024;
// More threads or writes in flight than any engine's log keeps.
constexpr std::uint64_t kMaxWriters = 64;
constexpr std::uint64_t kMaxQueueDepth = 256;
// Every power of two from a byte to 1 GiB, and a few more.
constexpr std::size_t kMaxShifts = 32;

// What one run writes: where, how much, and how commits share a sync.
std::vector<Option> WorkloadOptions() {
  using namespace field;
  return {
      {"dir", "", "dir", Recorded::kAlways, "DIR",
       "directory for the private test file; give --dir again to measure "
       "several directories in one interleaved schedule, one result each",
       Text{&Settings::dir, PATH_MAX - kNameRoom,
            "leave room for the test file's name (PATH_MAX)"},
       true, false, true},
      {"sizes", "sizes", "sizes_bytes", Recorded::kAlways, "LIST",
       "block sizes: 4K,64K or 1K..512K (default Derby's 13, 512K down to 1K)",
       SizeList{&Settings::sizes, kMaxWriteBytes, 64}, false},
      {"shift", "shift", "shift_bytes", Recorded::kAlways, "LIST",
       "shift of the unaligned writes; several (24,512,1K or 512..64K) "
       "measure a pair each against one aligned variant, aligned past them all",
       SizeList{&Settings::shifts, kMaxWriteBytes, kMaxShifts, 0, true,
                "shift"}},
      {"writes", "writes", "writes", Recorded::kAlways, "N",
       "timed writes per run", Count{&Settings::writes, 1, kMaxWrites}},
      {"warmup", "warmup", "warmup_writes", Recorded::kOptional, "N",
       "untimed writes before them", Count{&Settings::warmup, 0, kMaxWrites}},
      {"commits-per-sync", "commits_per_sync", "commits_per_sync",
       Recorded::kOptional, "N",
       "commits whose writes share one sync, as a log writer's group commit "
       "makes them (fsync and fdatasync only); every time and device figure "
       "is then per commit, its share of the sync included",
       Count{&Settings::commits_per_sync, 1, kMaxCommitsPerSync}},
      {"group-commit", "group_commit", "group_commit", Recorded::kOptional, "K",
       "a leader's group commit, as PostgreSQL, InnoDB and MariaDB's binlog "
       "make one: the records of K commits written as one write, then one "
       "sync; K may be fractional (a measured engine's commits per sync: "
       "groups of floor(K) and ceil(K) commits averaging K); every figure is "
       "per commit",
       OptionalNumber{&Settings::group_commit,
                      static_cast<double>(kMaxCommitsPerSync), "commits"}},
      {"writers", "writers", "writers", Recorded::kOptional, "N",
       "writer threads: a group of N commits written at once, each thread "
       "writing its own commit at the next place in the log, then one sync "
       "for the group (a group of N: --commits-per-sync 1 or N); no engine "
       "measured writes a group so (docs/engines.md): --group-commit does",
       Count{&Settings::writers, 1, kMaxWriters}},
      {"queue-depth", "queue_depth", "queue_depth", Recorded::kOptional, "N",
       "direct-I/O writes in flight: a group of N commits' writes submitted "
       "at once through io_uring and all awaited, then one fsync or "
       "fdatasync (none with o_sync, o_dsync), as Seastar's and TigerBeetle's "
       "logs write",
       Count{&Settings::queue_depth, 1, kMaxQueueDepth}},
  };
}

// How many runs, in which order, and the rounds of --budget.
std::vector<Option> PlanOptions() {
  using namespace field;
  const std::string verdict_runs = std::to_string(kMinRunsForVerdict);
  return {
      {"repetitions", "repetitions", "repetitions", Recorded::kAlways, "N",
       "runs per variant of each pair, in blocks of one run of each variant; "
       "a verdict needs " +
           verdict_runs,
       Count{&Settings::repetitions, 1, kMaxRepetitions}},
      {"seed", "seed", "seed", Recorded::kOptional, "N",
       "the seed of the run order; the same seed repeats the same order "
       "(default: a fresh one, recorded in the result; at most 2^53 - 1, so "
       "that JSON keeps it exact)",
       OptionalCount{&Settings::seed, kMaxSeed}, false, false},
      {"budget", "budget", "budget_seconds", Recorded::kOptional, "SECONDS",
       "after the first --repetitions blocks, measure in rounds until every "
       "pair's interval is within +-(--precision) or this many seconds of "
       "measuring have passed (at most a week); a pair that is there stops, "
       "the next round's blocks go to the others. Default, when --repetitions "
       "is not given: 60 at --precision 5, times (5/P)^2 at --precision P; "
       "with --repetitions and no --budget, exactly that many blocks",
       OptionalNumber{&Settings::budget_seconds, kMaxBudgetSeconds, "seconds"},
       false},
      {"precision", "precision", "precision_points", Recorded::kOptional,
       "POINTS",
       "target half-width of every pair's gain interval, in %gain points, for "
       "the rounds of --budget",
       Number{&Settings::precision_points, 0.01, 1e6, "points"}},
  };
}

// The axes a pair is measured under, and how its writes are made.
std::vector<Option> AxisOptions() {
  using namespace field;
  return {
      {"sync", "sync", "sync", Recorded::kAlways, "LIST",
       "sync after each write; a list measures each",
       Names<SyncMethod>{&Settings::syncs, kSyncMethods}},
      {"io", "io", "io", Recorded::kAlways, "LIST", "I/O path",
       Names<IoMode>{&Settings::ios, kIoModes}},
      {"layout", "layout", "layout", Recorded::kAlways, "LIST",
       "the file before the run", Names<Layout>{&Settings::layouts, kLayouts}},
      {"cache", "cache", "cache", Recorded::kAlways, "LIST",
       "page cache before the run",
       Names<CacheState>{&Settings::caches, kCacheStates}},
      {"direct-unaligned", "direct_unaligned", "direct_unaligned",
       Recorded::kAlways, "HOW", "direct writes at unaligned offsets",
       Name<DirectUnaligned>{&Settings::direct_unaligned, kDirectUnaligned}},
      {"atomic", "atomic", "atomic_writes", Recorded::kOptional, "off|on",
       "each write with RWF_ATOMIC, as a log that drops its doublewrite "
       "buffer or full-page writes would (direct I/O only)",
       Name<AtomicWrites>{&Settings::atomic, kAtomicWrites}},
  };
}

// What a case file says of itself; the result keeps it under "case".
std::vector<Option> CaseOptions() {
  using namespace field;
  return {
      {"", "name", "", Recorded::kNo, "", "the case's name",
       Text{&Settings::case_name, 200}},
      {"", "description", "", Recorded::kNo, "", "what the case measures",
       Text{&Settings::case_description, 1 << 16}},
      {"", "expect", "", Recorded::kNo, "", "what a correct run shows",
       Text{&Settings::case_expect, 1 << 16}},
      {"", "source", "", Recorded::kNo, "", "where the case comes from",
       Note{}},
      {"", "requires", "", Recorded::kNo, "", "what the case needs",
       Names<Requirement>{&Settings::case_requires, kRequirements, true}},
  };
}

// The settings table, in the order --help lists it.
std::vector<Option> MakeOptions() {
  std::vector<Option> options;
  for (auto part : {WorkloadOptions, PlanOptions, AxisOptions, CaseOptions}) {
    std::vector<Option> rows = part();
    options.insert(options.end(), std::make_move_iterator(rows.begin()),
                   std::make_move_iterator(rows.end()));
  }
  return options;
}

}  // namespace

const std::vector<Option>& SettingOptions() {
  static const std::vector<Option> options = MakeOptions();
  return options;
}

const Option* FindOption(std::string_view name) {
  return FindNamed(SettingOptions(), name);
}

ValueOrigin FromCommandLine(const Option& option) {
  return {"option --" + std::string(option.name), ""};
}

ValueOrigin FromCaseFile(const std::string& path, std::string_view key) {
  return {"case file " + path, "key '" + std::string(key) + "': "};
}

Status ApplyOption(const Option& option, const json& value,
                   const ValueOrigin& origin, Settings& settings) {
  Settings next = settings;
  Why bad = std::visit([&](const auto& f) { return Parse(f, value, next); },
                       option.field);
  if (!bad) {
    bad =
        std::visit([&](const auto& f) { return Check(f, next); }, option.field);
  }
  if (bad) return OriginError(origin, *bad);
  settings = std::move(next);
  return Ok{};
}

Status ReadRecordedOption(const Option& option, const json& value,
                          const ValueOrigin& origin, Settings& settings) {
  Why bad = std::visit([&](const auto& f) { return Parse(f, value, settings); },
                       option.field);
  if (bad) return OriginError(origin, *bad);
  return Ok{};
}

Status CheckOption(const Option& option, const Settings& settings) {
  Why bad = std::visit([&](const auto& f) { return Check(f, settings); },
                       option.field);
  if (!bad) return Ok{};
  const std::string where =
      option.name.empty() ? "case key '" + std::string(option.case_key) + "'"
                          : "option --" + std::string(option.name);
  return PlainError(ErrorKind::kUsage, where, *bad);
}

json RecordOption(const Option& option, const Settings& settings) {
  return std::visit([&](const auto& f) { return Record(f, settings); },
                    option.field);
}

std::string ShowOption(const Option& option, const Settings& settings) {
  return std::visit([&](const auto& f) { return Show(f, settings); },
                    option.field);
}

std::optional<std::string> ParseNumberWord(const std::string& word,
                                           double& out) {
  return ParseNumber(json(word), out);
}

std::string HelpOfOption(const Option& option) {
  std::string help = option.help;
  if (option.show_default) {
    help += " (default " + ShowOption(option, Settings{}) + ")";
  }
  return help +
         std::visit([](const auto& f) { return ValueHelp(f); }, option.field);
}

}  // namespace alignbench
