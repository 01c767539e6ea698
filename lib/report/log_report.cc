#include "lib/report/log_report.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "lib/base/text.h"
#include "lib/measure/pattern.h"
#include "lib/report/explain.h"

namespace alignbench {
namespace {

using nlohmann::json;

// The result's keys (units in their names) and the case file's, one to one,
// so that reading a result back goes through the case file's parser.
constexpr std::pair<const char*, const char*> kResultKeys[] = {
    {"contrast", "contrast"},
    {"header_bytes", "header"},
    {"record_header_bytes", "record_header"},
    {"block_bytes", "block"},
    {"chunk_bytes", "chunk"},
    {"pad_bytes", "pad"},
    {"fill_bytes", "fill"},
    {"aligned_bytes", "aligned"},
    {"unaligned_file", "unaligned"},
    {"aligned_file", "aligned"}};

json LogObject(const LogWorkload& w) {
  const LogRules& r = w.rules;
  json j = {{"contrast", NameOf(kLogContrasts, w.contrast)},
            {"header_bytes", r.header},
            {"record_header_bytes", r.record_header},
            {"block_bytes", r.block},
            {"chunk_bytes", r.chunk},
            {"pad_bytes", r.pad},
            {"fill_bytes", r.fill}};
  if (w.contrast == LogContrast::kFile) {
    j["unaligned_file"] = NameOf(kFileStates, w.unaligned_file);
    j["aligned_file"] = NameOf(kFileStates, w.aligned_file);
  } else if (w.contrast != LogContrast::kFraming) {
    j["aligned_bytes"] = w.aligned_bytes;
  }
  return j;
}

// settings.log of a result as a case file's "log" object. Only scalars are
// copied: a nested value of a stranger's file could recurse off the stack.
Result<json> CaseKeys(const json& log, const std::string& origin) {
  auto bad = [&origin](const std::string& why) {
    return PlainError(ErrorKind::kUsage, "read " + origin,
                      "key 'alignbench.settings.log" + why);
  };
  if (!log.is_object()) return bad("': expected an object");
  json keys = json::object();
  for (const auto& [key, value] : log.items()) {
    if (key == "labels") continue;
    const auto* match =
        std::find_if(std::begin(kResultKeys), std::end(kResultKeys),
                     [&key](const auto& k) { return key == k.first; });
    if (match == std::end(kResultKeys)) return bad("." + key + "': unknown");
    if (!value.is_primitive()) return bad("." + key + "': expected a value");
    keys[match->second] = value;
  }
  return keys;
}

struct Sides {
  const DevicePerOp& first;
  const DevicePerOp& second;
  std::string first_name;
  std::string second_name;
};

// The variant with more reads than the other, and why a cold page costs one.
std::string ReadSentence(const Sides& s) {
  const double diff = s.first.reads - s.second.reads;
  if (std::fabs(diff) < 0.1) return "";
  const bool first = diff > 0;
  return (first ? s.first_name : s.second_name) + ": +" +
         Fixed(std::fabs(diff)) + " device reads (" +
         Fixed(std::fabs(s.first.kib_read - s.second.kib_read)) +
         " KiB) per commit: its writes cover part of a page that is not "
         "cached, so the kernel reads that page before it can write "
         "(read-on-write).";
}

std::string WrittenSentence(const Sides& s) {
  const double diff = s.first.kib_written - s.second.kib_written;
  if (std::fabs(diff) < 0.5) return "";
  const bool first = diff > 0;
  return (first ? s.first_name : s.second_name) + ": +" +
         Fixed(std::fabs(diff)) + " KiB written per commit (" +
         Fixed(first ? s.first.kib_written : s.second.kib_written) + " vs " +
         Fixed(first ? s.second.kib_written : s.first.kib_written) + " KiB).";
}

// Journal commits: a growing file's size must reach the disk at each sync.
std::string JournalSentence(const Sides& s, const LogWorkload& w) {
  const double diff = s.first.writes - s.second.writes;
  if (std::fabs(diff) < 0.5) return "";
  std::string flushes;
  if (s.first.flushes && s.second.flushes) {
    flushes = " and " + Fixed(std::fabs(*s.first.flushes - *s.second.flushes)) +
              " flushes";
  }
  std::string why = ".";
  if (w.contrast == LogContrast::kFile) {
    why =
        ": the journal commits a growing file's new size at each sync; a "
        "file written before does not change size.";
  }
  return (diff > 0 ? s.first_name : s.second_name) + ": +" +
         Fixed(std::fabs(diff)) + " device writes" + flushes + " per commit" +
         why;
}

// What the rules make each variant write, beyond what was asked.
std::string RuleSentence(const Settings& s, const PairSpec& pair) {
  const LogWorkload w = WorkloadOf(s);
  const CommitBytes first = PerCommit(s, pair, Variant::kShifted);
  const CommitBytes second = PerCommit(s, pair, Variant::kAligned);
  const bool same = first.written == second.written;
  std::string text;
  for (Variant v : {Variant::kShifted, Variant::kAligned}) {
    const CommitBytes b = v == Variant::kShifted ? first : second;
    if (b.written <= b.asked + 0.5 || (same && v == Variant::kAligned)) {
      continue;
    }
    const LogRules r = RulesFor(w, v);
    std::string how = "record headers";
    if (r.block > 0) how = "the partly filled last block written again";
    if (r.pad > 0) how += ", write-ahead padding";
    if (r.fill > 0) how += ", the last record repeated to a sector boundary";
    if (!text.empty()) text += " ";
    text += (same ? std::string("both") : ColumnLabel(s, v)) + " write" +
            (same ? "" : "s") + " " + Fixed(b.written, 0) +
            " B per commit for " + Fixed(b.asked, 0) + " B asked (" + how +
            ").";
  }
  return text;
}

std::string VerdictNote(const PairResult& pair) {
  if (!pair.verdict || *pair.verdict == Verdict::kUndecided) {
    return "No verdict (" + VerdictText(pair) + ").";
  }
  if (*pair.verdict == Verdict::kNoSignificantDifference) {
    return "No significant time difference.";
  }
  return "";
}

std::string ExplainLog(const Settings& s, const PairResult& pair) {
  const DevicePerOp& du = *pair.unaligned.device;
  const DevicePerOp& da = *pair.aligned.device;
  const LogWorkload w = WorkloadOf(s);
  const Sides sides{du, da, ColumnLabel(s, Variant::kShifted),
                    ColumnLabel(s, Variant::kAligned)};
  std::string text;
  for (const std::string& sentence :
       {RuleSentence(s, pair.spec), ReadSentence(sides), WrittenSentence(sides),
        JournalSentence(sides, w), VerdictNote(pair)}) {
    if (sentence.empty()) continue;
    if (!text.empty()) text += " ";
    text += sentence;
  }
  return text.empty() ? "both variants did the same device I/O." : text;
}

}  // namespace

CommitBytes PerCommit(const Settings& s, const PairSpec& pair,
                      Variant variant) {
  const WritePattern pattern(RulesFor(WorkloadOf(s), variant), pair.size);
  const WritePattern::Totals t = pattern.Over(s.warmup, s.writes);
  const double n = static_cast<double>(s.writes);
  return {static_cast<double>(t.asked) / n, static_cast<double>(t.written) / n};
}

std::string ColumnLabel(const Settings& s, Variant variant) {
  return VariantLabel(WorkloadOf(s), variant);
}

std::string CommitCell(const Settings& s, const PairSpec& pair,
                       Variant variant) {
  if (!s.log) return "";
  const CommitBytes b = PerCommit(s, pair, variant);
  return "  asked " + Fixed(b.asked, 0) + " B, wrote " + Fixed(b.written, 0) +
         " B";
}

std::string RulesText(const Settings& s) {
  if (!s.log) return "shift " + std::to_string(s.shift) + " B";
  const LogWorkload& w = *s.log;
  const LogRules& r = w.rules;
  std::string text = "log rules:";
  const std::pair<const char*, std::uint64_t> rules[] = {
      {"header", r.header}, {"record header", r.record_header},
      {"block", r.block},   {"chunk", r.chunk},
      {"pad", r.pad},       {"fill", r.fill}};
  for (const auto& [name, bytes] : rules) {
    if (bytes > 0)
      text += " " + std::string(name) + " " + std::to_string(bytes) + " B,";
  }
  text += " contrast " + std::string(NameOf(kLogContrasts, w.contrast));
  if (w.contrast == LogContrast::kPad || w.contrast == LogContrast::kFill) {
    text += " " + std::to_string(w.aligned_bytes) + " B";
  }
  if (w.contrast == LogContrast::kFile) {
    text += " (the layout is each variant's file state)";
  }
  return text;
}

std::string LabelledVerdict(const Settings& s, const PairResult& pair) {
  if (!s.log || !pair.verdict) return VerdictText(pair);
  if (*pair.verdict == Verdict::kAlignedFaster) {
    return ColumnLabel(s, Variant::kAligned) + " faster";
  }
  if (*pair.verdict == Verdict::kShiftedFaster) {
    return ColumnLabel(s, Variant::kShifted) + " faster";
  }
  return VerdictText(pair);
}

std::string LogFooter(const Settings& s) {
  if (!s.log) return "";
  const LogWorkload& w = *s.log;
  return "log-append workload, one write + sync per commit; the variants "
         "differ in " +
         std::string(NameOf(kLogContrasts, w.contrast)) + ": " +
         std::string(HelpOf(kLogContrasts, w.contrast)) +
         ".\nasked: bytes the application appended per commit; wrote: bytes "
         "the log writer wrote for them.\n";
}

void ExplainLogPairs(const Settings& s, std::vector<PairResult>& pairs) {
  if (!s.log) return;
  for (PairResult& pair : pairs) {
    // Explain's words stand where the counters cannot say what the commits
    // did: no counters, or a disk busy without alignbench.
    const std::vector<Mechanism> found = MechanismsOf(pair);
    if (found.empty() || found.front() == Mechanism::kNoCounters ||
        found.front() == Mechanism::kBusyDisk) {
      continue;
    }
    pair.explanation = ExplainLog(s, pair);
  }
}

void AddLogJson(const Report& r, json& alignbench) {
  if (!r.settings.log) return;
  alignbench["settings"]["log"] = LogObject(*r.settings.log);
  json labels = {{"unaligned", ColumnLabel(r.settings, Variant::kShifted)},
                 {"aligned", ColumnLabel(r.settings, Variant::kAligned)}};
  alignbench["settings"]["log"]["labels"] = labels;
  json& pairs = alignbench["pairs"];
  for (std::size_t i = 0; i < r.pairs.size() && i < pairs.size(); ++i) {
    json per_commit = json::object();
    for (Variant v : {Variant::kShifted, Variant::kAligned}) {
      const CommitBytes b = PerCommit(r.settings, r.pairs[i].spec, v);
      per_commit[std::string(NameOf(kVariants, v))] = {
          {"asked_bytes", b.asked}, {"written_bytes", b.written}};
    }
    pairs[i]["per_commit"] = per_commit;
  }
}

Status ReadLogSettings(const json& alignbench, const std::string& origin,
                       Settings& settings) {
  const json* log = nullptr;
  if (alignbench.contains("settings") && alignbench["settings"].is_object() &&
      alignbench["settings"].contains("log")) {
    log = &alignbench["settings"]["log"];
  }
  if (log == nullptr) return Ok{};
  Result<json> keys = CaseKeys(*log, origin);
  if (!keys) return keys.error();
  Result<LogWorkload> w = ParseLogCase(keys.value(), origin, LogWorkload{});
  if (!w) return w.error();
  if (Status ok = ValidateLog(w.value()); !ok) return ok;
  settings.log = w.value();
  return Ok{};
}

}  // namespace alignbench
