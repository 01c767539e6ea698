// Reading the `alignbench` object back, strictly: every value's type is checked
// and an error names the key's path ("pairs[0].size_bytes"), because files
// come from strangers and must never crash or mislead `show` and `compare`.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>
#include <new>
#include <stdexcept>

#include "lib/base/json_parse.h"
#include "lib/base/memory.h"
#include "lib/config/options.h"
#include "lib/io/file_io.h"
#include "lib/report/env_fields.h"
#include "lib/report/escape.h"
#include "lib/report/json.h"
#include "lib/report/json_histogram.h"
#include "lib/report/log_report.h"
#include "lib/stats/compare.h"

namespace alignbench {
namespace {

using nlohmann::json;

struct FieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A JSON object and where it sits in the document.
class Reader {
 public:
  Reader(const json& value, std::string path)
      : j_(value), path_(std::move(path)) {
    if (!j_.is_object()) Fail(path_, "an object", j_);
  }

  bool Has(const char* key) const {
    return j_.contains(key) && !j_.at(key).is_null();
  }

  template <typename T>
  T Get(const char* key) const {
    if (!j_.contains(key))
      throw FieldError("key '" + Path(key) + "' is missing");
    return As<T>(j_.at(key), Path(key));
  }

  template <typename T>
  void Optional(const char* key, std::optional<T>& out) const {
    if (Has(key)) out = Get<T>(key);
  }

  template <typename T>
  T GetOr(const char* key, T fallback) const {
    return Has(key) ? Get<T>(key) : fallback;
  }

  // The value itself, for parsers kept elsewhere (the settings table's, the
  // histograms'); Path gives their errors its place.
  const json& Raw(const char* key) const { return j_.at(key); }

  std::string Path(const char* key) const {
    return path_.empty() ? key : path_ + "." + key;
  }

  Reader Object(const char* key) const {
    if (!j_.contains(key))
      throw FieldError("key '" + Path(key) + "' is missing");
    return Reader(j_.at(key), Path(key));
  }

  std::vector<Reader> Objects(const char* key) const {
    if (!j_.contains(key))
      throw FieldError("key '" + Path(key) + "' is missing");
    const json& list = j_.at(key);
    if (!list.is_array()) Fail(Path(key), "a list", list);
    std::vector<Reader> items;
    for (std::size_t i = 0; i < list.size(); ++i) {
      items.emplace_back(list[i], Path(key) + "[" + std::to_string(i) + "]");
    }
    return items;
  }

  // A field of the environment table, of the type its kind says.
  FieldValue Value(const char* key, FieldKind kind) const {
    switch (kind) {
      case FieldKind::kText:
        return Get<std::string>(key);
      case FieldKind::kYesNo:
        return Get<bool>(key);
      case FieldKind::kCount:
        return Get<std::uint64_t>(key);
    }
    return {};
  }

  template <typename E, std::size_t N>
  E Name(const Named<E> (&table)[N], const char* key) const {
    const std::string name = Get<std::string>(key);
    auto value = FromName(table, name);
    if (!value) {
      throw FieldError("key '" + Path(key) + "': unknown value '" + name +
                       "' (expected " + NameList(table) + ")");
    }
    return *value;
  }

  template <typename E, std::size_t N>
  std::vector<E> Names(const Named<E> (&table)[N], const char* key) const {
    std::vector<E> values;
    for (const std::string& name : Get<std::vector<std::string>>(key)) {
      auto value = FromName(table, name);
      if (!value) {
        throw FieldError("key '" + Path(key) + "': unknown value '" + name +
                         "'");
      }
      values.push_back(*value);
    }
    return values;
  }

 private:
  [[noreturn]] static void Fail(const std::string& path, const char* expected,
                                const json& got) {
    throw FieldError(
        "key '" + path + "': expected " + expected + ", got " +
        (got.is_number() ? got.dump() : std::string(got.type_name())));
  }

  template <typename T>
  static T As(const json& v, const std::string& path) {
    if constexpr (std::is_same_v<T, std::string>) {
      if (!v.is_string()) Fail(path, "a string", v);
      return v.get<std::string>();
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean()) Fail(path, "true or false", v);
      return v.get<bool>();
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!v.is_number()) Fail(path, "a number", v);
      return v.get<T>();
    } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
      // nlohmann stores 2 as signed when it was built in code, unsigned when
      // parsed, and 2.0 as a double: JSON Schema's "integer" is all three.
      const std::optional<std::uint64_t> whole = WholeNumber(v);
      if (!whole || *whole > std::numeric_limits<T>::max()) {
        Fail(path, "a non-negative whole number", v);
      }
      return static_cast<T>(*whole);
    } else if constexpr (std::is_same_v<T, std::vector<std::string>> ||
                         std::is_same_v<T, std::vector<std::uint64_t>>) {
      if (!v.is_array()) Fail(path, "a list", v);
      T items;
      for (std::size_t i = 0; i < v.size(); ++i) {
        items.push_back(As<typename T::value_type>(
            v[i], path + "[" + std::to_string(i) + "]"));
      }
      return items;
    } else {
      static_assert(sizeof(T) == 0, "no reader for this type");
    }
  }

  const json& j_;
  std::string path_;
};

Summary ReadSummary(const Reader& r) {
  const double unknown = std::nan("");
  Summary s;
  s.count = r.Get<std::size_t>("count");
  s.mean = r.Get<double>("mean_ns");
  s.stddev = r.GetOr("stddev_ns", unknown);
  s.min = r.GetOr("min_ns", unknown);
  s.p50 = r.GetOr("p50_ns", unknown);
  s.p90 = r.GetOr("p90_ns", unknown);
  s.p99 = r.GetOr("p99_ns", unknown);
  s.p999 = r.GetOr("p99_9_ns", unknown);
  s.p9999 = r.GetOr("p99_99_ns", unknown);
  s.relative_error = r.GetOr("percentile_relative_error", 0.0);
  s.max = r.GetOr("max_ns", unknown);
  return s;
}

DevicePerOp ReadDevicePerOp(const Reader& d) {
  DevicePerOp per{d.Get<double>("reads"), d.Get<double>("read_kib"),
                  d.Get<double>("writes"), d.Get<double>("written_kib"),
                  std::nullopt};
  d.Optional("flushes", per.flushes);
  return per;
}

VariantResult ReadVariant(const Reader& r) {
  VariantResult v;
  v.repetitions = r.Get<std::size_t>("repetitions");
  v.failed_repetitions = r.GetOr<std::size_t>("failed_repetitions", 0);
  v.staged = r.Get<bool>("staged");
  // A reference table knows only write+sync; the split is then unknown (NaN).
  v.write_ns = v.sync_ns = Summarize({});
  if (v.repetitions > 0) {
    v.total_ns = ReadSummary(r.Object("write_sync"));
    if (r.Has("write")) v.write_ns = ReadSummary(r.Object("write"));
    if (r.Has("sync")) v.sync_ns = ReadSummary(r.Object("sync"));
  }
  if (r.Has("histograms")) {
    Result<VariantHistograms> histograms =
        ReadHistograms(r.Raw("histograms"), r.Path("histograms"));
    if (!histograms) throw FieldError(histograms.error().detail);
    v.histograms = std::move(histograms).value();
  }
  if (r.Has("device_per_write")) {
    v.device = ReadDevicePerOp(r.Object("device_per_write"));
  }
  if (r.Has("device_background_per_write")) {
    v.background = ReadDevicePerOp(r.Object("device_background_per_write"));
  }
  if (r.Has("process_per_write")) {
    const Reader p = r.Object("process_per_write");
    v.process =
        ProcessPerOp{p.Get<double>("read_bytes"), p.Get<double>("write_bytes")};
  }
  if (r.Has("runs")) {
    for (const Reader& run : r.Objects("runs")) {
      v.runs.push_back({run.Get<std::size_t>("order"),
                        run.Get<std::size_t>("block"),
                        run.Get<double>("start_s"), run.Get<double>("wall_s"),
                        run.Get<double>("mean_ns"), run.Get<double>("p50_ns")});
    }
    if (v.runs.size() != v.repetitions) {
      throw FieldError("key '" + r.Path("runs") +
                       "': " + std::to_string(v.runs.size()) + " runs, but " +
                       r.Path("repetitions") + " says " +
                       std::to_string(v.repetitions));
    }
  }
  r.Optional("resident_pages_after_drop", v.resident_pages_after_drop);
  if (r.Has("error")) {
    const Reader e = r.Object("error");
    v.error = e.Get<std::string>("message");
    v.error_errno = static_cast<int>(e.GetOr<unsigned>("errno", 0));
  }
  return v;
}

// An interval with its estimate and method; schema 1 knew only low and high
// of a delta-method interval, next to a Mann-Whitney p.
GainTest ReadTest(const Reader& i, const Reader& pair, double gain_pct) {
  GainTest t;
  t.method = i.Has("method") ? i.Name(kTestMethods, "method")
                             : TestMethod::kDeltaRatio;
  t.estimate_pct = i.GetOr("estimate_pct", gain_pct);
  t.interval_pct = {i.Get<double>("low"), i.Get<double>("high")};
  t.p_value =
      i.Has("p_value") ? i.Get<double>("p_value") : pair.GetOr("p_value", 1.0);
  if (!(t.p_value >= 0 && t.p_value <= 1)) {
    throw FieldError(
        "key '" +
        (i.Has("p_value") ? i.Path("p_value") : pair.Path("p_value")) +
        "': a p-value is between 0 and 1");
  }
  for (const double bound :
       {t.estimate_pct, t.interval_pct.low, t.interval_pct.high}) {
    if (!(bound > -100)) {
      throw FieldError("key '" + i.Path("low") +
                       "': a gain in percent is more than -100");
    }
  }
  i.Optional("df", t.df);
  t.units = i.Has("method") ? i.Get<std::size_t>("units") : 0;
  return t;
}

// The largest write a result can describe (the settings table's bound).
constexpr std::uint64_t kMaxSizeBytes = 1ull << 30;

// Every gain in percent is (unaligned / aligned - 1) * 100 of two positive
// times: finite, and more than -100.
void CheckGain(const Reader& r, const char* key,
               const std::optional<double>& gain) {
  if (gain && !(std::isfinite(*gain) && *gain > -100)) {
    throw FieldError("key '" + r.Path(key) +
                     "': a gain in percent is finite and more than -100");
  }
}

PairResult ReadPair(const Reader& r) {
  PairResult p;
  p.spec.size = r.Get<std::uint64_t>("size_bytes");
  if (p.spec.size < 1 || p.spec.size > kMaxSizeBytes) {
    throw FieldError("key '" + r.Path("size_bytes") +
                     "': must be between 1 and " +
                     std::to_string(kMaxSizeBytes));
  }
  if (r.Has("p_value")) {
    const double p_value = r.Get<double>("p_value");
    if (!(p_value >= 0 && p_value <= 1)) {
      throw FieldError("key '" + r.Path("p_value") +
                       "': a p-value is between 0 and 1");
    }
  }
  p.spec.sync = r.Name(kSyncMethods, "sync");
  p.spec.io = r.Name(kIoModes, "io");
  p.spec.layout = r.Name(kLayouts, "layout");
  p.spec.cache = r.Name(kCacheStates, "cache");
  p.unaligned = ReadVariant(r.Object("unaligned"));
  p.aligned = ReadVariant(r.Object("aligned"));
  p.explanation = r.GetOr<std::string>("explanation", "");
  r.Optional("gain_pct", p.gain_pct);
  r.Optional("median_gain_pct", p.median_gain_pct);
  CheckGain(r, "gain_pct", p.gain_pct);
  CheckGain(r, "median_gain_pct", p.median_gain_pct);
  const double gain = p.gain_pct.value_or(0);
  if (r.Has("gain_interval_pct")) {
    p.inference.test = ReadTest(r.Object("gain_interval_pct"), r, gain);
  } else {
    p.inference.why_not = r.GetOr<std::string>("no_interval_reason", "");
  }
  if (r.Has("cross_check")) {
    const Reader c = r.Object("cross_check");
    if (c.Has("low")) {
      p.cross_check.test = ReadTest(c, c, gain);
    } else {
      p.cross_check.why_not = c.Get<std::string>("reason");
    }
  }
  if (r.Has("verdict")) {
    // Schema 1 named the only undecided case after its reason.
    p.verdict = r.Get<std::string>("verdict") == "undecided: one repetition"
                    ? Verdict::kUndecided
                    : r.Name(kVerdicts, "verdict");
  }
  if (r.Has("run_notes")) {
    p.run_notes = r.Get<std::vector<std::string>>("run_notes");
  }
  return p;
}

// Through the settings table, by the same parsers as case files.
Settings ReadSettings(const Reader& r) {
  Settings s;
  for (const Option& option : SettingOptions()) {
    if (option.recorded == Recorded::kNo) continue;
    const std::string key(option.result_key);
    if (!r.Has(key.c_str())) {
      if (option.recorded == Recorded::kOptional) continue;
      throw FieldError("key '" + r.Path(key.c_str()) + "' is missing");
    }
    const ValueOrigin origin{"", "key '" + r.Path(key.c_str()) + "': "};
    Status read = ReadRecordedOption(option, r.Raw(key.c_str()), origin, s);
    if (!read) throw FieldError(read.error().detail);
    // The bounds of a run's settings are the bounds of a result's: a file
    // with 0 writes describes no run alignbench could have made.
    if (Status bounded = CheckOption(option, s); !bounded) {
      throw FieldError("key '" + r.Path(key.c_str()) +
                       "': " + bounded.error().detail);
    }
  }
  if (r.Has("case")) {
    const Reader c = r.Object("case");
    s.case_name = c.GetOr<std::string>("name", "");
    s.case_description = c.GetOr<std::string>("description", "");
    s.case_expect = c.GetOr<std::string>("expect", "");
  }
  return s;
}

// The fields of one section of the environment, as the field table lists
// them.
void ReadSection(const Reader& r, EnvSection section, TargetInfo& t) {
  for (const EnvField& field : EnvFields()) {
    if (field.section != section) continue;
    if (!field.required && !r.Has(field.key)) continue;
    if (!field.set(t, r.Value(field.key, field.kind))) {
      throw FieldError("key '" + r.Path(field.key) + "': out of range");
    }
  }
}

TargetInfo ReadEnvironment(const Reader& r) {
  TargetInfo t;
  ReadSection(r.Object("host"), EnvSection::kHost, t);
  const Reader target = r.Object("target");
  ReadSection(target, EnvSection::kTarget, t);
  if (target.Has("device")) {
    ReadSection(target.Object("device"), EnvSection::kDevice, t);
  }
  t.no_device_reason =
      target.GetOr<std::string>("device_unavailable_reason", "");
  return t;
}

Report ReadReport(const Reader& r) {
  Report report;
  const Reader tool = r.Object("tool");
  report.tool_version = tool.Get<std::string>("version");
  tool.Optional("git_revision", report.git_revision);
  report.command_line = r.Get<std::vector<std::string>>("command_line");
  r.Optional("started_at", report.started_at);
  r.Optional("finished_at", report.finished_at);
  report.complete = r.Get<bool>("complete");
  report.settings = ReadSettings(r.Object("settings"));
  report.target = ReadEnvironment(r.Object("environment"));
  for (const Reader& pair : r.Objects("pairs"))
    report.pairs.push_back(ReadPair(pair));
  if (report.pairs.empty()) {
    throw FieldError("key '" + r.Path("pairs") +
                     "': a result has at least one pair");
  }
  report.warnings = r.GetOr("warnings", std::vector<std::string>{});
  report.errors = r.GetOr("errors", std::vector<std::string>{});
  if (r.Has("reference")) {
    const Reader s = r.Object("reference");
    report.reference = ReferenceSource{
        s.Get<std::string>("source"),  s.Get<std::string>("program"),
        s.Get<std::string>("command"), s.Get<std::string>("platform"),
        s.Get<std::string>("disk"),    s.Get<std::string>("notes")};
  }
  return report;
}

// Versions start at 1; 2.0 is 2, as JSON Schema reads an integer.
std::uint64_t SchemaVersion(const json& object) {
  const Reader r(object, "alignbench");
  const std::uint64_t version = r.Get<std::uint64_t>("schema_version");
  if (version < 1) {
    throw FieldError(
        "key 'alignbench.schema_version': 0 is no version (the first is 1)");
  }
  return version;
}

}  // namespace

Result<Report> FromJson(const json& object, const std::string& origin) {
  try {
    const Reader r(object, "alignbench");
    const std::uint64_t version = SchemaVersion(object);
    if (version > static_cast<std::uint64_t>(kSchemaVersion)) {
      Error error =
          PlainError(ErrorKind::kUsage, "read " + origin,
                     "schema_version " + std::to_string(version) +
                         " is newer than this alignbench understands (" +
                         std::to_string(kSchemaVersion) + ")");
      error.hint = "use a newer alignbench to read it";
      return error;
    }
    Report report = ReadReport(r);
    if (Status log = ReadLogSettings(object, origin, report.settings); !log) {
      return log.error();
    }
    return report;
  } catch (const FieldError& e) {
    return PlainError(ErrorKind::kUsage, "read " + origin,
                      std::string("not an alignbench result: ") + e.what());
  }
}

namespace {

Result<Report> LoadResultFileUnguarded(const std::string& path) {
  Result<std::string> text =
      ReadWholeFile(path, ErrorKind::kUsage, kMaxResultFileBytes);
  if (!text) {
    Error error = text.error();
    error.operation += " result file";
    return error;
  }
  Result<json> parsed = ParseJsonStrict(text.value());
  if (!parsed) {
    return PlainError(ErrorKind::kUsage, "read " + path, parsed.error().detail);
  }
  json doc = std::move(parsed).value();
  EscapeControlStrings(doc);  // its text is printed by show and compare
  if (!doc.is_object() || !doc.contains("alignbench")) {
    return PlainError(
        ErrorKind::kUsage, "read " + path,
        "no \"alignbench\" object: not an alignbench result file");
  }
  return FromJson(doc.at("alignbench"), path);
}

}  // namespace

Result<Report> LoadResultFile(const std::string& path) {
  // A result file may be 64 MiB of JSON, several times that parsed: under a
  // memory limit this is where show and compare run out.
  try {
    return LoadResultFileUnguarded(path);
  } catch (const std::bad_alloc&) {
    Error error =
        SystemError(ErrorKind::kSetup, "read result file", path, ENOMEM);
    error.hint = OutOfMemoryHint("read a smaller result file");
    return error;
  }
}

}  // namespace alignbench
