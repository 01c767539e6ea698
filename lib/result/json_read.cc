// Reading the `alignbench` object back, strictly: every value's type is checked
// and an error names the key's path ("pairs[0].size_bytes"), because files
// come from strangers and must never crash or mislead `show` and `compare`.
//
// A file of a version the schema describes (2 or 3) is first held to the schema
// itself, compiled in (lib/result/schema_check.h): whatever the schema refuses,
// show and compare refuse, with the path, what was found and what is allowed;
// the reader then checks the rules across fields that the schema cannot say.
// tests/integration/schema_reader.sh breaks every field to hold both to each
// other. Version 1 files were written before the schema and are read as they
// always were.
//
// A fault is a value here as everywhere in lib/: the first one found is
// kept (Fault) and returned as the error; nothing throws. The keys of plain
// values are read by their field tables (result_fields.h), the rest by hand.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>
#include <memory>
#include <new>
#include <string_view>
#include <vector>

#include "lib/base/json_parse.h"
#include "lib/base/memory.h"
#include "lib/config/case_file.h"
#include "lib/config/options.h"
#include "lib/io/file_io.h"
#include "lib/result/env_fields.h"
#include "lib/result/escape.h"
#include "lib/result/json_histogram.h"
#include "lib/result/log_settings_json.h"
#include "lib/result/result_fields.h"
#include "lib/result/result_json.h"
#include "lib/result/schema_check.h"
#include "lib/stats/compare.h"

namespace alignbench {
namespace {

using nlohmann::json;

// What is wrong with a document, found as it is read: the first fault, with
// its key's path ("key 'alignbench.pairs[0].size_bytes' is missing"). The
// readers of one document share it. Past a fault a getter gives an empty
// value and reading goes on to the end, where ReadAlignbench returns the
// fault as its error and drops what was read: nothing read after a fault is
// used, and no exception is thrown.
class Fault {
 public:
  void Say(std::string what) {
    if (!first_) first_ = std::move(what);
  }
  bool found() const { return first_.has_value(); }
  const std::string& what() const { return *first_; }

 private:
  std::optional<std::string> first_;
};

// --- reading, into the Report ---------------------------------------------

// A JSON object and where it sits in the document.
class ObjectReader {
 public:
  // `strict`: the file claims a version the schema describes (2 or 3), whose
  // shape was checked already; the rules across its fields are checked as it is
  // read. Version 1 files were written before the schema and are read
  // leniently. A value that is no object is a fault, read as an empty one.
  ObjectReader(const json& value, std::string path, Fault& fault,
               bool strict = false)
      : j_(value.is_object() ? value : Empty()),
        path_(std::move(path)),
        fault_(&fault),
        strict_(strict) {
    if (!value.is_object()) Fail(path_, "an object", value);
  }

  bool strict() const { return strict_; }
  // A fault was found, here or anywhere else in the document.
  bool failed() const { return fault_->found(); }

  bool Has(const char* key) const {
    return j_.contains(key) && !j_.at(key).is_null();
  }

  template <typename T>
  T Get(const char* key) const {
    if (!Present(key)) return T{};
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
  // histograms'), where Has(key); Path gives their errors its place.
  const json& Raw(const char* key) const { return j_.at(key); }

  std::string Path(const char* key) const {
    return path_.empty() ? key : path_ + "." + key;
  }

  // "key 'PATH': RULE": a rule of the key's value that the file breaks.
  void Broken(const char* key, const std::string& rule) const {
    fault_->Say("key '" + Path(key) + "': " + rule);
  }
  // A fault whose text another parser made (it names its key already).
  void Refused(const std::string& what) const { fault_->Say(what); }
  void Missing(const char* key) const {
    fault_->Say("key '" + Path(key) + "' is missing");
  }

  ObjectReader Object(const char* key) const {
    if (!Present(key))
      return ObjectReader(Empty(), Path(key), *fault_, strict_);
    return ObjectReader(j_.at(key), Path(key), *fault_, strict_);
  }

  std::vector<ObjectReader> Objects(const char* key) const {
    if (!Present(key)) return {};
    const json& list = j_.at(key);
    if (!list.is_array()) {
      Fail(Path(key), "a list", list);
      return {};
    }
    std::vector<ObjectReader> items;
    for (std::size_t i = 0; i < list.size(); ++i) {
      items.emplace_back(list[i], Path(key) + "[" + std::to_string(i) + "]",
                         *fault_, strict_);
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

  // An enum by the name its table gives it; the table's first value where
  // the name is none of them (a fault).
  template <typename Table>
  NamedEnum<Table> Name(const Table& table, const char* key) const {
    const std::string name = Get<std::string>(key);
    auto value = FromName(table, name);
    if (!value && Present(key)) {
      Broken(key,
             "unknown value '" + name + "' (expected " + NameList(table) + ")");
    }
    return value.value_or(std::begin(table)->value);
  }

  template <typename Table>
  std::vector<NamedEnum<Table>> Names(const Table& table,
                                      const char* key) const {
    std::vector<NamedEnum<Table>> values;
    for (const std::string& name : Get<std::vector<std::string>>(key)) {
      auto value = FromName(table, name);
      if (!value) {
        Broken(key, "unknown value '" + name + "'");
        return values;
      }
      values.push_back(*value);
    }
    return values;
  }

 private:
  static const json& Empty() {
    static const json empty = json::object();
    return empty;
  }

  // The key is there; a fault where it is not.
  bool Present(const char* key) const {
    if (j_.contains(key)) return true;
    Missing(key);
    return false;
  }

  void Fail(const std::string& path, const char* expected,
            const json& got) const {
    fault_->Say("key '" + path + "': expected " + expected + ", got " +
                (got.is_number() ? got.dump() : std::string(got.type_name())));
  }

  // The value as a T, or T{} and a fault where it is none.
  template <typename T>
  T As(const json& v, const std::string& path) const {
    if constexpr (std::is_same_v<T, std::string>) {
      if (v.is_string()) return v.get<std::string>();
      Fail(path, "a string", v);
    } else if constexpr (std::is_same_v<T, bool>) {
      if (v.is_boolean()) return v.get<bool>();
      Fail(path, "true or false", v);
    } else if constexpr (std::is_floating_point_v<T>) {
      if (v.is_number()) return v.get<T>();
      Fail(path, "a number", v);
    } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
      // nlohmann stores 2 as signed when it was built in code, unsigned when
      // parsed, and 2.0 as a double: JSON Schema's "integer" is all three.
      const std::optional<std::uint64_t> whole = WholeNumber(v);
      if (whole && *whole <= std::numeric_limits<T>::max()) {
        return static_cast<T>(*whole);
      }
      Fail(path, "a non-negative whole number", v);
    } else if constexpr (std::is_same_v<T, std::vector<std::string>> ||
                         std::is_same_v<T, std::vector<std::uint64_t>>) {
      if (!v.is_array()) {
        Fail(path, "a list", v);
        return T{};
      }
      T items;
      for (std::size_t i = 0; i < v.size(); ++i) {
        items.push_back(As<typename T::value_type>(
            v[i], path + "[" + std::to_string(i) + "]"));
      }
      return items;
    } else {
      static_assert(sizeof(T) == 0, "no reader for this type");
    }
    return T{};
  }

  const json& j_;
  std::string path_;
  Fault* fault_;
  bool strict_ = false;
};

// What a key of a field table reads as where the file lacks it.
template <typename T>
T Absent(Presence presence) {
  if constexpr (std::is_floating_point_v<T>) {
    if (presence == Presence::kIfKnown) {
      return std::numeric_limits<T>::quiet_NaN();
    }
  }
  return T{};
}

// The keys of a field table (result_fields.h) into `s`: each of the type its
// member has, absent only where its presence allows.
template <typename S, typename Fields>
void ReadFieldsInto(const ObjectReader& r, const Fields& fields, S& s) {
  ForEachField(fields, [&](const auto& field) {
    auto& value = s.*(field.member);
    using T = std::decay_t<decltype(value)>;
    if (field.presence == Presence::kDefaulted && !r.Has(field.key)) return;
    if constexpr (IsNamedField<std::decay_t<decltype(field)>>::value) {
      value = r.Name(field.names, field.key);
    } else if constexpr (IsOptional<T>::value) {
      r.Optional(field.key, value);
    } else if (field.presence == Presence::kIfKnown ||
               field.presence == Presence::kIfNonZero) {
      value = r.GetOr(field.key, Absent<T>(field.presence));
    } else {
      value = r.Get<T>(field.key);
    }
  });
}

// An object by its field table, its other members as S{} has them.
template <typename S, typename Fields>
S ReadFields(const ObjectReader& r, const Fields& fields) {
  S s{};
  ReadFieldsInto(r, fields, s);
  return s;
}

// Each run that measured something; as many as the repetitions.
std::vector<RunPoint> ReadRuns(const ObjectReader& r, std::size_t repetitions) {
  std::vector<RunPoint> runs;
  for (const ObjectReader& run : r.Objects("runs")) {
    runs.push_back(ReadFields<RunPoint>(run, RunPointFields()));
  }
  if (runs.size() != repetitions) {
    r.Broken("runs", std::to_string(runs.size()) + " runs, but " +
                         r.Path("repetitions") + " says " +
                         std::to_string(repetitions));
  }
  return runs;
}

VariantResult ReadVariant(const ObjectReader& r) {
  VariantResult v;
  ReadFieldsInto(r, VariantFields(), v);
  // A reference table knows only write+sync; the split is then unknown (NaN).
  v.write_ns = v.sync_ns = Summarize({});
  if (v.repetitions > 0) {
    v.total_ns = ReadFields<Summary>(r.Object("write_sync"), SummaryFields());
    if (r.Has("write")) {
      v.write_ns = ReadFields<Summary>(r.Object("write"), SummaryFields());
    }
    if (r.Has("sync")) {
      v.sync_ns = ReadFields<Summary>(r.Object("sync"), SummaryFields());
    }
  }
  if (r.Has("histograms")) {
    Result<VariantHistograms> histograms =
        ReadHistograms(r.Raw("histograms"), r.Path("histograms"));
    if (histograms) {
      v.histograms = std::move(histograms).value();
    } else {
      r.Refused(histograms.error().detail);
    }
  }
  if (r.Has("device_per_write")) {
    v.device = ReadFields<DevicePerOp>(r.Object("device_per_write"),
                                       DevicePerOpFields());
  }
  if (r.Has("device_background_per_write")) {
    v.background = ReadFields<DevicePerOp>(
        r.Object("device_background_per_write"), DevicePerOpFields());
  }
  if (r.Has("device_requests")) {
    const ObjectReader d = r.Object("device_requests");
    v.device_requests = DeviceRequests{
        ReadFields<DevicePerOp>(d.Object("file"), DevicePerOpFields()),
        ReadFields<DevicePerOp>(d.Object("filesystem"), DevicePerOpFields()),
        ReadFields<DevicePerOp>(d.Object("others"), DevicePerOpFields()),
        d.Get<double>("device_ns")};
  }
  if (r.Has("process_per_write")) {
    v.process = ReadFields<ProcessPerOp>(r.Object("process_per_write"),
                                         ProcessPerOpFields());
  }
  if (r.Has("runs")) v.runs = ReadRuns(r, v.repetitions);
  if (r.Has("file_placement")) {
    v.placement = ReadFields<MeanPlacement>(r.Object("file_placement"),
                                            PlacementFields());
  }
  if (r.Has("error")) {
    const ObjectReader e = r.Object("error");
    v.error = e.Get<std::string>("message");
    v.error_errno = static_cast<int>(e.GetOr<unsigned>("errno", 0));
  }
  return v;
}

// An interval with its estimate and method; schema 1 knew only low and high
// of a delta-method interval, next to a Mann-Whitney p.
GainTest ReadTest(const ObjectReader& i, const ObjectReader& pair,
                  double gain_pct) {
  GainTest t;
  t.method = i.Has("method") ? i.Name(kTestMethods, "method")
                             : TestMethod::kDeltaRatio;
  t.estimate_pct = i.GetOr("estimate_pct", gain_pct);
  t.interval_pct = {i.Get<double>("low"), i.Get<double>("high")};
  t.p_value =
      i.Has("p_value") ? i.Get<double>("p_value") : pair.GetOr("p_value", 1.0);
  if (!(t.p_value >= 0 && t.p_value <= 1)) {
    (i.Has("p_value") ? i : pair)
        .Broken("p_value", "a p-value is between 0 and 1");
  }
  for (const double bound :
       {t.estimate_pct, t.interval_pct.low, t.interval_pct.high}) {
    if (!(bound > -100)) {
      i.Broken("low", "a gain in percent is more than -100");
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
void CheckGain(const ObjectReader& r, const char* key,
               const std::optional<double>& gain) {
  if (gain && !(std::isfinite(*gain) && *gain > -100)) {
    r.Broken(key, "a gain in percent is finite and more than -100");
  }
}

// A pair without shift_bytes: no shift is this large (options bound it).
constexpr std::uint64_t kShiftUnsaid = ~std::uint64_t{0};

// Size, sync method, I/O path, layout and cache of a pair.
PairSpec ReadPairSpec(const ObjectReader& r) {
  PairSpec spec{};
  ReadFieldsInto(r, PairSpecFields(), spec);
  if (spec.size < 1 || spec.size > kMaxSizeBytes) {
    r.Broken("size_bytes",
             "must be between 1 and " + std::to_string(kMaxSizeBytes));
  }
  // Files from before a pair said its shift had one: the settings' (set by
  // the caller when absent here).
  spec.shift = r.GetOr<std::uint64_t>("shift_bytes", kShiftUnsaid);
  return spec;
}

// The gains as the file's version names them. Before version 3, gain_pct
// was Derby's gain of means and median_gain_pct the gain of medians; since,
// gain_pct is the gain every table prints (the interval's estimate, else the
// gain of means), derived again from them, and the other two have names of
// their own.
void ReadGains(const ObjectReader& r, std::uint64_t version, PairResult& p) {
  const bool named = version >= 3;
  const char* means = named ? "means_gain_pct" : "gain_pct";
  const char* medians = named ? "medians_gain_pct" : "median_gain_pct";
  r.Optional(means, p.means_gain_pct);
  r.Optional(medians, p.medians_gain_pct);
  CheckGain(r, means, p.means_gain_pct);
  CheckGain(r, medians, p.medians_gain_pct);
  if (named && r.Has("gain_pct") && !p.means_gain_pct) {
    r.Broken("means_gain_pct",
             "a pair with a gain_pct has one since version 3");
  }
  if (named) {
    std::optional<double> shown;
    r.Optional("gain_pct", shown);
    CheckGain(r, "gain_pct", shown);
  }
}

// The tail's gain and its verdict. A file from before it has none, and
// prints as it did: without a word of it.
void ReadTail(const ObjectReader& r, PairResult& p) {
  if (!r.Has("tail_gain")) return;
  const ObjectReader t = r.Object("tail_gain");
  if (!t.Has("low")) {
    p.tail.why_not = t.Get<std::string>("reason");
    return;
  }
  p.tail.test = ReadTest(t, t, 0);
  p.tail_verdict = t.Has("verdict") ? t.Name(kVerdicts, "verdict")
                                    : Decide(p.tail, p.unaligned.repetitions,
                                             p.aligned.repetitions);
}

// The gains, the interval (or why there is none) and the cross-check.
void ReadInference(const ObjectReader& r, std::uint64_t version,
                   PairResult& p) {
  if (r.Has("p_value")) {
    const double p_value = r.Get<double>("p_value");
    if (!(p_value >= 0 && p_value <= 1)) {
      r.Broken("p_value", "a p-value is between 0 and 1");
    }
  }
  ReadGains(r, version, p);
  const double gain = p.means_gain_pct.value_or(0);
  if (r.Has("gain_interval_pct")) {
    p.inference.test = ReadTest(r.Object("gain_interval_pct"), r, gain);
  } else {
    p.inference.why_not = r.GetOr<std::string>("no_interval_reason", "");
  }
  if (r.Has("cross_check")) {
    const ObjectReader c = r.Object("cross_check");
    if (c.Has("low")) {
      p.cross_check.test = ReadTest(c, c, gain);
    } else {
      p.cross_check.why_not = c.Get<std::string>("reason");
    }
  }
  ReadTail(r, p);
}

// Schema 1 named the only undecided case after its reason, and files before
// the variant had one name called it "shifted".
Verdict ReadVerdict(const ObjectReader& r) {
  const std::string verdict = r.Get<std::string>("verdict");
  if (verdict == "undecided: one repetition") return Verdict::kUndecided;
  if (verdict == "shifted faster") return Verdict::kUnalignedFaster;
  return r.Name(kVerdicts, "verdict");
}

// Each pair's shift is one of the settings' shifts; a pair that does not say
// its own (every file from before shifts were a list) has the settings' one.
void ShiftsOfPairs(const ObjectReader& r, Report& report) {
  const std::vector<std::uint64_t>& shifts = report.settings.shifts;
  const std::vector<ObjectReader> pairs = r.Objects("pairs");
  for (std::size_t i = 0; i < report.pairs.size(); ++i) {
    std::uint64_t& shift = report.pairs[i].spec.shift;
    if (shift == kShiftUnsaid && shifts.size() == 1) shift = shifts.front();
    if (std::find(shifts.begin(), shifts.end(), shift) == shifts.end()) {
      pairs[i].Broken(
          "shift_bytes",
          shift == kShiftUnsaid
              ? "is missing where settings.shift_bytes lists several"
              : "is not one of settings.shift_bytes");
    }
  }
}

PairResult ReadPair(const ObjectReader& r, std::uint64_t version) {
  PairResult p;
  p.spec = ReadPairSpec(r);
  p.unaligned = ReadVariant(r.Object("unaligned"));
  p.aligned = ReadVariant(r.Object("aligned"));
  ReadFieldsInto(r, PairFields(), p);
  if (r.Has("mechanisms")) p.mechanisms = r.Names(kMechanisms, "mechanisms");
  if (r.Has("per_commit")) {
    const ObjectReader per_commit = r.Object("per_commit");
    p.unaligned.per_commit = ReadFields<CommitBytes>(
        per_commit.Object("unaligned"), CommitBytesFields());
    p.aligned.per_commit = ReadFields<CommitBytes>(per_commit.Object("aligned"),
                                                   CommitBytesFields());
  }
  ReadInference(r, version, p);
  if (r.Has("verdict")) p.verdict = ReadVerdict(r);

  // How the rounds of --budget went for the pair.
  if (r.Has("rounds")) {
    p.rounds = ReadFields<PairRounds>(r.Object("rounds"), RoundsFields());
  }

  return p;
}

// The one rule of settings.log the schema says only in words: a chunk larger
// than a record header (ReadLogSettings reads the object afterwards by the
// case file's rules).
void CheckChunk(const ObjectReader& log) {
  const std::uint64_t chunk = log.Get<std::uint64_t>("chunk_bytes");
  if (chunk != 0 && chunk <= log.Get<std::uint64_t>("record_header_bytes")) {
    log.Broken("chunk_bytes", "must be larger than record_header_bytes");
  }
}

// What the result keeps of the trace it replayed; the commits stay in the
// trace.
std::shared_ptr<Replay> ReadReplay(const ObjectReader& t, std::uint64_t shift) {
  auto replay = std::make_shared<Replay>();
  ReadFieldsInto(t, ReplayFields(), *replay);
  ReadFieldsInto(t.Object("program"), ReplayProgramFields(), *replay);
  replay->shift = shift;
  // What each variant is; results before whole blocks lack it.
  if (t.Has("variants")) {
    const ObjectReader variants = t.Object("variants");
    for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
      const ObjectReader one = variants.Object(NameOf(kVariants, v).data());
      ReadFieldsInto(
          one, ReplayVariantFields(),
          v == Variant::kUnaligned ? replay->unaligned : replay->aligned);
    }
  }
  return replay;
}

// Through the settings table, by the same parsers as case files.
Settings ReadSettings(const ObjectReader& r) {
  Settings s;
  for (const Option& option : SettingOptions()) {
    if (option.recorded == Recorded::kNo) continue;
    const std::string key(option.result_key);
    if (!r.Has(key.c_str())) {
      if (option.recorded != Recorded::kOptional) r.Missing(key.c_str());
      continue;
    }
    const ValueOrigin origin{"", "key '" + r.Path(key.c_str()) + "': "};
    Status read = ReadRecordedOption(option, r.Raw(key.c_str()), origin, s);
    if (!read) {
      r.Refused(read.error().detail);
      continue;
    }
    // The bounds of a run's settings are the bounds of a result's: a file
    // with 0 writes describes no run alignbench could have made. A text's
    // length is not: it is bounded to leave room beside it when measuring,
    // and a result is only printed.
    if (std::holds_alternative<field::Text>(option.field)) continue;
    if (Status bounded = CheckOption(option, s); !bounded) {
      r.Broken(key.c_str(), bounded.error().detail);
    }
  }
  // What follows reads the settings: none are there to read past a fault.
  if (r.failed()) return s;
  if (r.Has("case")) ReadFieldsInto(r.Object("case"), CaseFields(), s);
  if (r.Has("replay"))
    s.replay = ReadReplay(r.Object("replay"), s.shifts.front());
  if (r.strict() && r.Has("log")) CheckChunk(r.Object("log"));
  return s;
}

// The fields of one section of the environment, as the field table lists
// them.
void ReadSection(const ObjectReader& r, EnvSection section, TargetInfo& t) {
  for (const EnvField& field : EnvFields()) {
    if (field.section != section) continue;
    if (!field.required && !r.Has(field.key)) continue;
    if (!field.set(t, r.Value(field.key, field.kind))) {
      r.Broken(field.key, "out of range");
    }
  }
}

TargetInfo ReadEnvironment(const ObjectReader& r) {
  TargetInfo t;
  ReadSection(r.Object("host"), EnvSection::kHost, t);
  const ObjectReader target = r.Object("target");
  ReadSection(target, EnvSection::kTarget, t);
  if (target.Has("device")) {
    ReadSection(target.Object("device"), EnvSection::kDevice, t);
  }
  // Without a device the reason is given, with one it is not.
  if (target.strict() &&
      target.Has("device") == target.Has("device_unavailable_reason")) {
    target.Broken("device_unavailable_reason",
                  target.Has("device")
                      ? "only without a device"
                      : "is missing: device is null, so say why");
  }
  t.no_device_reason =
      target.GetOr<std::string>("device_unavailable_reason", "");
  return t;
}

// How the verdicts were made; what a file before version 3 lacks (the
// interval in the printers' words) stays as this build says it.
StatisticsUsed ReadStatistics(const ObjectReader& r) {
  StatisticsUsed s;
  ReadFieldsInto(r, StatisticsFields(), s);
  s.rerun_significance_level = std::nullopt;
  r.Optional("rerun_significance_level", s.rerun_significance_level);
  return s;
}

Report ReadReport(const ObjectReader& r, std::uint64_t version) {
  Report report;
  ReadFieldsInto(r.Object("tool"), ToolFields(), report);
  ReadFieldsInto(r, ReportFields(), report);
  report.settings = ReadSettings(r.Object("settings"));
  report.target = ReadEnvironment(r.Object("environment"));
  if (r.Has("statistics"))
    report.statistics = ReadStatistics(r.Object("statistics"));
  for (const ObjectReader& pair : r.Objects("pairs"))
    report.pairs.push_back(ReadPair(pair, version));
  ShiftsOfPairs(r, report);
  if (report.pairs.empty()) {
    r.Broken("pairs", "a result has at least one pair");
  }
  if (r.Has("device_account")) {
    report.device_account = ReadFields<DeviceAccountSource>(
        r.Object("device_account"), DeviceAccountFields());
  }
  if (r.Has("reference"))
    report.reference =
        ReadFields<ReferenceSource>(r.Object("reference"), ReferenceFields());
  return report;
}

// --- the rules of a run, which a file that describes one keeps -------------

// A value as JSON text for a message; text that is not UTF-8 (FromJson takes
// documents built in code) is replaced, not thrown at.
std::string Dumped(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// "key 'alignbench.settings.writers' (2)", or "" where the file lacks it.
std::string KeyWithValue(const json& object, const std::string& path,
                         std::string_view key) {
  if (!object.contains(key) || object.at(key).is_null()) return "";
  const json& value = object.at(key);
  return "key '" + path + "." + std::string(key) + "' (" +
         (value.is_object() ? std::string("given") : Dumped(value)) + ")";
}

// "key 'a' (1) and key 'b' (2)", of the keys `object` has.
std::string KeysText(const json& object, const std::string& path,
                     const std::vector<std::string_view>& keys) {
  std::vector<std::string> named;
  for (std::string_view key : keys) {
    std::string one = KeyWithValue(object, path, key);
    if (!one.empty()) named.push_back(std::move(one));
  }
  std::string text;
  for (std::size_t i = 0; i < named.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == named.size() ? " and " : ", ") + named[i];
  }
  return text;
}

// The settings held to the rules every run keeps (BrokenRule: the same that
// Validate holds the command line and case files to), named by their keys.
Status CheckSettingsRules(const json& object, const Settings& settings,
                          const std::string& origin) {
  const std::optional<SettingsRule> broken = BrokenRule(settings);
  if (!broken) return Ok{};
  std::vector<std::string_view> keys;
  for (std::string_view name : broken->reads) {
    const Option* option = FindOption(name);
    keys.push_back(option != nullptr ? option->result_key : name);
  }
  return PlainError(
      ErrorKind::kUsage, "read " + origin,
      "not an alignbench result: " +
          KeysText(object.at("settings"), "alignbench.settings", keys) +
          ": no run has them (the rule of option " + broken->option + ": " +
          broken->why + ")");
}

// Atomic write units as statx and the queue say them: none (both 0) or the
// smallest at most the largest; statx's each a power of two.
std::optional<std::string> AtomicUnitsRule(std::optional<std::uint64_t> min,
                                           std::optional<std::uint64_t> max,
                                           bool powers_of_two) {
  if (!min || !max) return std::nullopt;
  if ((*min == 0) != (*max == 0)) return "0 (none offered) in both or neither";
  if (*min > *max) return "the smallest atomic write is at most the largest";
  const auto power = [](std::uint64_t n) { return (n & (n - 1)) == 0; };
  if (powers_of_two && !(power(*min) && power(*max))) {
    return "each a power of two, as statx gives them";
  }
  return std::nullopt;
}

Status CheckAtomicUnits(const json& object, const TargetInfo& t,
                        const std::string& origin) {
  const std::vector<std::string_view> keys = {"atomic_write_unit_min_bytes",
                                              "atomic_write_unit_max_bytes"};
  std::string path = "alignbench.environment.target";
  const json* at = &object.at("environment").at("target");
  std::optional<std::string> rule =
      AtomicUnitsRule(t.atomic_write_unit_min, t.atomic_write_unit_max, true);
  if (!rule && t.device) {
    path += ".device";
    at = &at->at("device");
    rule = AtomicUnitsRule(t.device->atomic_write_unit_min_bytes,
                           t.device->atomic_write_unit_max_bytes, false);
  }
  if (!rule) return Ok{};
  return PlainError(
      ErrorKind::kUsage, "read " + origin,
      "not an alignbench result: " + KeysText(*at, path, keys) + ": " + *rule);
}

// A unit search's answer, derived again from the pairs: a file whose
// measured unit is not what its pairs say is refused, since a stranger reads
// the number and not the pairs.
Status CheckUnit(const json& object, Report& report,
                 const std::string& origin) {
  if (!object.contains("unit")) return Ok{};
  UnitFinding found =
      FindUnit(report.pairs, report.target, report.settings.precision_points);
  const json& unit = object.at("unit");
  const json said = unit.is_object()
                        ? unit.value("measured_bytes", json("none"))
                        : json("none");
  const json derived =
      found.measured_bytes ? json(*found.measured_bytes) : json(nullptr);
  if (said != derived) {
    return PlainError(ErrorKind::kUsage, "read " + origin,
                      "not an alignbench result: key "
                      "'alignbench.unit.measured_bytes' (" +
                          Dumped(said) + ") is not the unit its pairs name (" +
                          Dumped(derived) + ")");
  }
  report.unit = std::move(found);
  return Ok{};
}

// Versions start at 1; 2.0 is 2, as JSON Schema reads an integer.
std::uint64_t SchemaVersion(const json& object, Fault& fault) {
  const ObjectReader r(object, "alignbench", fault);
  const std::uint64_t version = r.Get<std::uint64_t>("schema_version");
  if (version < 1 && !r.failed()) {
    r.Broken("schema_version", "0 is no version (the first is 1)");
  }
  return version;
}

// A document that is no result of ours, and why.
Error NotOurs(const std::string& origin, const std::string& why) {
  return PlainError(ErrorKind::kUsage, "read " + origin,
                    "not an alignbench result: " + why);
}

// The version a whole file claims, or 0 when it says none a reader takes
// (FromJson then says what is wrong).
std::uint64_t ClaimedVersion(const json& doc) {
  const json& version =
      doc.at("alignbench").is_object()
          ? doc.at("alignbench").value("schema_version", json())
          : json();
  return WholeNumber(version).value_or(0);
}

// The alignbench object as a Report; `checked`: held to the schema already,
// with the rest of its file.
Result<Report> ReadAlignbench(const json& object, const std::string& origin,
                              bool checked) {
  Fault fault;
  const std::uint64_t version = SchemaVersion(object, fault);
  if (fault.found()) return NotOurs(origin, fault.what());
  if (version > static_cast<std::uint64_t>(kSchemaVersion)) {
    Error error =
        PlainError(ErrorKind::kUsage, "read " + origin,
                   "schema_version " + std::to_string(version) +
                       " is newer than this alignbench understands (" +
                       std::to_string(kSchemaVersion) + ")");
    error.hint = "use a newer alignbench to read it";
    return error;
  }
  const bool strict = version >= 2;
  if (strict && !checked) {
    if (auto broken = SchemaViolation(ResultSchema(), object, "alignbench",
                                      "/$defs/alignbench")) {
      return NotOurs(origin, "key '" + broken->path + "': " + broken->what);
    }
  }
  Report report =
      ReadReport(ObjectReader(object, "alignbench", fault, strict), version);
  if (fault.found()) return NotOurs(origin, fault.what());
  if (Status log = ReadLogSettings(object, origin, report); !log) {
    return log.error();
  }
  if (Status rules = CheckSettingsRules(object, report.settings, origin);
      !rules) {
    return rules.error();
  }
  if (Status units = CheckAtomicUnits(object, report.target, origin); !units) {
    return units.error();
  }
  // Files before version 3 did not record what the printers read.
  RecordForPrinters(report);
  if (Status unit = CheckUnit(object, report, origin); !unit) {
    return unit.error();
  }
  return report;
}

// A file of a version the schema describes, held to the whole schema: the
// alignbench object, and beside it only Google Benchmark's context and
// entries.
Status CheckDocument(const json& doc, const std::string& path) {
  // Versions 2 and 3 are the schema's; 1 came before it, and a newer one is
  // refused as it is read.
  const std::uint64_t version = ClaimedVersion(doc);
  if (version < 2 || version > static_cast<std::uint64_t>(kSchemaVersion)) {
    return Ok{};
  }
  auto broken = SchemaViolation(ResultSchema(), doc);
  if (!broken) return Ok{};
  return PlainError(
      ErrorKind::kUsage, "read " + path,
      "not an alignbench result: key '" + broken->path + "': " + broken->what);
}

Result<Report> LoadResultFileUnguarded(const std::string& path,
                                       json* document) {
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
  if (!doc.is_object() || !doc.contains("alignbench")) {
    return PlainError(
        ErrorKind::kUsage, "read " + path,
        "no \"alignbench\" object: not an alignbench result file");
  }
  if (Status checked = CheckDocument(doc, path); !checked) {
    return checked.error();
  }
  // As read: JSON text escapes what the printers' escapes are for.
  if (document) *document = doc;
  EscapeControlStrings(doc);  // its text is printed by show and compare
  return ReadAlignbench(doc.at("alignbench"), path, true);
}

}  // namespace

Result<Report> FromJson(const json& object, const std::string& origin) {
  return ReadAlignbench(object, origin, false);
}

Result<Report> LoadResultFile(const std::string& path, json* document) {
  // A result file may be 64 MiB of JSON, several times that parsed: under a
  // memory limit this is where show and compare run out.
  try {
    return LoadResultFileUnguarded(path, document);
  } catch (const std::bad_alloc&) {
    Error error =
        SystemError(ErrorKind::kSetup, "read result file", path, ENOMEM);
    error.hint = OutOfMemoryHint("read a smaller result file");
    return error;
  }
}

}  // namespace alignbench
