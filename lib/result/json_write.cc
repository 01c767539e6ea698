// Writing the `alignbench` object: units in key names, unknown facts absent.
#include <algorithm>
#include <cmath>

#include "lib/config/options.h"
#include "lib/result/env_fields.h"
#include "lib/result/json_histogram.h"
#include "lib/result/log_settings_json.h"
#include "lib/result/result_fields.h"
#include "lib/result/result_json.h"
#include "lib/stats/compare.h"

namespace alignbench {
namespace {

using nlohmann::json;

template <typename T>
void Put(json& j, const char* key, const std::optional<T>& value) {
  if (value) j[key] = *value;
}
template <typename E, std::size_t N>
json NameArray(const Named<E> (&table)[N], const std::vector<E>& values) {
  json list = json::array();
  for (E value : values) list.push_back(NameOf(table, value));
  return list;
}
// An object from its field table (result_fields.h): what is unknown, zero or
// empty where its presence says so is left out.
template <typename S, typename Fields>
json FieldsJson(const S& s, const Fields& fields) {
  json j = json::object();
  ForEachField(fields, [&](const auto& field) {
    const auto& value = s.*(field.member);
    using T = std::decay_t<decltype(value)>;
    if constexpr (IsNamedField<std::decay_t<decltype(field)>>::value) {
      j[field.key] = NameOf(field.names, value);
    } else if constexpr (IsOptional<T>::value) {
      if (value) j[field.key] = *value;
    } else {
      if (field.presence == Presence::kIfNonZero && value == T{}) return;
      if constexpr (std::is_floating_point_v<T>) {
        if (field.presence == Presence::kIfKnown && !std::isfinite(value))
          return;
      }
      j[field.key] = value;
    }
  });
  return j;
}
// A reference table printed only the mean: its other statistics are unknown.
json SummaryJson(const Summary& s) { return FieldsJson(s, SummaryFields()); }
json DevicePerOpJson(const DevicePerOp& d) {
  return FieldsJson(d, DevicePerOpFields());
}
// The device's requests per write told apart, and the time they held it.
json DeviceRequestsJson(const DeviceRequests& d) {
  return {{"file", DevicePerOpJson(d.file)},
          {"filesystem", DevicePerOpJson(d.filesystem)},
          {"others", DevicePerOpJson(d.others)},
          {"device_ns", d.device_ns}};
}
json VariantJson(const VariantResult& v) {
  json j = FieldsJson(v, VariantFields());
  if (v.repetitions > 0) {
    j["write_sync"] = SummaryJson(v.total_ns);
    // A reference table knows only write+sync; its split is unknown, hence
    // absent.
    if (std::isfinite(v.write_ns.mean)) j["write"] = SummaryJson(v.write_ns);
    if (std::isfinite(v.sync_ns.mean)) j["sync"] = SummaryJson(v.sync_ns);
  }
  if (v.histograms.total_ns.count > 0) {
    j["histograms"] = HistogramsJson(v.histograms);
  }
  if (v.device) j["device_per_write"] = DevicePerOpJson(*v.device);
  if (v.background) {
    j["device_background_per_write"] = DevicePerOpJson(*v.background);
  }
  if (v.device_requests) {
    j["device_requests"] = DeviceRequestsJson(*v.device_requests);
  }
  if (v.process) {
    j["process_per_write"] = FieldsJson(*v.process, ProcessPerOpFields());
  }
  if (!v.runs.empty()) {
    json runs = json::array();
    for (const RunPoint& run : v.runs) {
      runs.push_back(FieldsJson(run, RunPointFields()));
    }
    j["runs"] = std::move(runs);
  }
  if (v.placement) {
    j["file_placement"] = FieldsJson(*v.placement, PlacementFields());
  }
  if (v.error) {
    j["error"] = {{"message", *v.error}};
    if (v.error_errno != 0) {
      j["error"]["errno"] = v.error_errno;
      j["error"]["errno_name"] = ErrnoName(v.error_errno);
    }
  }
  return j;
}
json IntervalJson(const GainTest& t) {
  json j = {{"low", t.interval_pct.low},
            {"high", t.interval_pct.high},
            {"estimate_pct", t.estimate_pct},
            {"method", NameOf(kTestMethods, t.method)},
            {"units", t.units}};
  Put(j, "df", t.df);
  return j;
}
json CrossCheckJson(const Inference& i) {
  if (!i.test) return {{"reason", i.why_not}};
  json j = IntervalJson(*i.test);
  j["p_value"] = i.test->p_value;
  return j;
}
json CommitBytesJson(const CommitBytes& b) {
  return FieldsJson(b, CommitBytesFields());
}
// A log case's or a replay's bytes per commit, each side's as recorded for
// the printers, or from the rules where the report has not been through
// them; nothing for Derby's sweep.
json PerCommitJson(const PairResult& p, const Settings& s) {
  json j = json::object();
  for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
    const VariantResult& side = p.Of(v);
    if (!side.per_commit && !s.log && !s.replay) return nullptr;
    j[std::string(NameOf(kVariants, v))] =
        CommitBytesJson(side.per_commit.value_or(PerCommit(s, p.spec, v)));
  }
  return j;
}
json PairJson(const PairResult& p, const Settings& s) {
  json j = FieldsJson(p.spec, PairSpecFields());
  j.update(FieldsJson(p, PairFields()));
  j["shift_bytes"] = p.spec.shift;
  j["unaligned"] = VariantJson(p.unaligned);
  j["aligned"] = VariantJson(p.aligned);
  Put(j, "gain_pct", p.ShownGainPct());
  Put(j, "means_gain_pct", p.means_gain_pct);
  Put(j, "medians_gain_pct", p.medians_gain_pct);
  if (p.inference.test) {
    j["gain_interval_pct"] = IntervalJson(*p.inference.test);
    j["p_value"] = p.inference.test->p_value;
  } else if (p.Measured()) {
    j["no_interval_reason"] = p.inference.why_not;
  }
  if (p.Measured() && (p.cross_check.test || !p.cross_check.why_not.empty())) {
    j["cross_check"] = CrossCheckJson(p.cross_check);
  }
  if (p.Measured() && (p.tail.test || !p.tail.why_not.empty())) {
    j["tail_gain"] = CrossCheckJson(p.tail);
    if (p.tail.test && p.tail_verdict) {
      j["tail_gain"]["verdict"] = NameOf(kVerdicts, *p.tail_verdict);
    }
  }
  if (p.verdict) {
    j["verdict"] = NameOf(kVerdicts, *p.verdict);
    if (*p.verdict == Verdict::kUndecided) j["verdict_reason"] = VerdictText(p);
  }
  if (!p.mechanisms.empty()) {
    json names = json::array();
    for (Mechanism m : p.mechanisms) names.push_back(NameOf(kMechanisms, m));
    j["mechanisms"] = std::move(names);
  }
  if (json per_commit = PerCommitJson(p, s); !per_commit.is_null()) {
    j["per_commit"] = std::move(per_commit);
  }

  if (p.rounds) j["rounds"] = FieldsJson(*p.rounds, RoundsFields());

  return j;
}
json SettingsJson(const Settings& s) {
  json j = json::object();
  for (const Option& option : SettingOptions()) {
    if (option.recorded == Recorded::kNo) continue;
    json value = RecordOption(option, s);
    if (!value.is_null()) j[std::string(option.result_key)] = std::move(value);
  }
  if (!s.case_name.empty()) j["case"] = FieldsJson(s, CaseFields());
  if (s.replay) {
    const Replay& r = *s.replay;
    json replay = FieldsJson(r, ReplayFields());
    replay["program"] = FieldsJson(r, ReplayProgramFields());
    for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
      replay["variants"][std::string(NameOf(kVariants, v))] =
          FieldsJson(r.Of(v), ReplayVariantFields());
    }
    j["replay"] = std::move(replay);
  }
  return j;
}
json FieldJson(const FieldValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) return *text;
  if (const auto* yes = std::get_if<bool>(&value)) return *yes;
  return std::get<std::uint64_t>(value);
}
}  // namespace

json EnvironmentJson(const TargetInfo& t) {
  json sections = {{"host", json::object()}, {"target", json::object()}};
  if (t.device) sections["device"] = json::object();
  for (const EnvField& field : EnvFields()) {
    const FieldValue value = field.get(t);
    if (std::holds_alternative<std::monostate>(value)) continue;
    sections[SectionKey(field.section)][field.key] = FieldJson(value);
  }
  json target = std::move(sections["target"]);
  if (t.device) {
    target["device"] = std::move(sections["device"]);
  } else {
    target["device"] = nullptr;
    target["device_unavailable_reason"] = t.no_device_reason;
  }
  return {{"host", std::move(sections["host"])}, {"target", target}};
}

namespace {

// A unit search's answer: the measured unit, each shift's cost and what
// showed it, and every layer's declared unit. A reader derives it again from
// the pairs and holds the file to it.
json UnitJson(const UnitFinding& unit) {
  json shifts = json::array();
  for (const ShiftJudgement& j : unit.shifts) {
    json shift = {{"shift_bytes", j.shift},
                  {"cost", NameOf(kShiftCosts, j.cost)},
                  {"by_time", j.by_time},
                  {"by_counters", j.by_counters}};
    Put(shift, "pair", j.pair);
    shifts.push_back(std::move(shift));
  }
  json declared = json::array();
  for (const LayerUnit& layer : unit.declared) {
    declared.push_back({{"layer", layer.layer}, {"bytes", layer.bytes}});
  }
  json out = {{"measured_bytes", nullptr},
              {"shifts", std::move(shifts)},
              {"declared", std::move(declared)}};
  if (unit.measured_bytes) out["measured_bytes"] = *unit.measured_bytes;
  return out;
}

// How the verdicts were made: the table's keys, the level a verdict is firm
// at as it applies, and each rule in words.
json StatisticsJson(const StatisticsUsed& s) {
  json j = FieldsJson(s, StatisticsFields());
  j["confidence_level"] = kConfidenceLevel;
  j["rerun_significance_level"] = s.FirmLevel();
  j["interval"] =
      s.interval_of +
      ": exp of the interval of log ratios, minus 1, in percent; its "
      "estimate is estimate_pct (the Hodges-Lehmann estimate), which "
      "each pair's gain_pct repeats; Derby's gain of arithmetic means "
      "is means_gain_pct";
  j["test"] =
      "two-sided, from the same test and critical value as the interval: p "
      "is below the significance level exactly when the interval excludes 0";
  j["verdict"] = "needs " + std::to_string(s.min_runs_for_verdict) +
                 "+ runs of each variant; then the side of 0 the interval lies "
                 "on, firm ('aligned faster', 'unaligned faster') where p is "
                 "below rerun_significance_level too and leaning ('leans "
                 "aligned', 'leans unaligned') where it is not, or no "
                 "significant difference when it contains 0";
  return j;
}

}  // namespace

json ToJson(const Report& r) {
  json pairs = json::array();
  for (const PairResult& pair : r.pairs)
    pairs.push_back(PairJson(pair, r.settings));
  json tool = FieldsJson(r, ToolFields());
  tool["name"] = "alignbench";
  json j = FieldsJson(r, ReportFields());
  j["schema_version"] = kSchemaVersion;
  j["tool"] = std::move(tool);
  j["settings"] = SettingsJson(r.settings);
  j["statistics"] = StatisticsJson(r.statistics);
  j["environment"] = EnvironmentJson(r.target);
  j["pairs"] = std::move(pairs);
  if (r.reference) j["reference"] = FieldsJson(*r.reference, ReferenceFields());
  if (r.unit) j["unit"] = UnitJson(*r.unit);
  if (r.device_account) {
    j["device_account"] = FieldsJson(*r.device_account, DeviceAccountFields());
  }
  AddLogJson(r, j);
  return j;
}

std::string ResultDocumentText(const json& document, bool ascii) {
  return OneLineNumberArrays(
             document.dump(1, ' ', ascii, json::error_handler_t::replace)) +
         "\n";
}

}  // namespace alignbench
