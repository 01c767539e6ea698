#include "lib/result/log_settings_json.h"

#include <algorithm>
#include <iterator>

#include "lib/pairs/log_case.h"

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
    {"fill_sync", "fill_sync"},
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
  // Written only where it differs from what files before it did.
  if (r.fill_sync != FillSync::kEnd) {
    j["fill_sync"] = NameOf(kFillSyncs, r.fill_sync);
  }
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
    // The printers' words, not rules: read by ReadLogSettings itself.
    if (key == "labels" || key == "rules_text" || key == "contrast_meaning") {
      continue;
    }
    // A structured binding is captured by name only from C++20 on (clang 14
    // refuses it): by a reference of its own.
    const std::string& name = key;
    const auto* match =
        std::find_if(std::begin(kResultKeys), std::end(kResultKeys),
                     [&name](const auto& k) { return name == k.first; });
    if (match == std::end(kResultKeys)) return bad("." + key + "': unknown");
    if (!value.is_primitive()) return bad("." + key + "': expected a value");
    keys[match->second] = value;
  }
  return keys;
}

// The printers' words recorded with settings.log. What a file lacks (the
// rules' and the contrast's words before version 3, or every word of a file
// that lost them) is derived from its settings, as the printers once did.
Status ReadWords(const json& log, const std::string& origin, Report& report) {
  auto text = [&origin](const json& object, const char* key,
                        std::string& out) -> Status {
    if (!object.contains(key)) return Ok{};
    if (!object[key].is_string()) {
      return PlainError(ErrorKind::kUsage, "read " + origin,
                        "key 'alignbench.settings.log." + std::string(key) +
                            "': expected a string");
    }
    out = object[key].get<std::string>();
    return Ok{};
  };
  LogCaseWords words = WordsOf(report.settings);
  if (log.contains("labels")) {
    const json& labels = log["labels"];
    if (!labels.is_object()) {
      return PlainError(ErrorKind::kUsage, "read " + origin,
                        "key 'alignbench.settings.log.labels': expected an "
                        "object");
    }
    if (Status s = text(labels, "unaligned", words.unaligned_label); !s) {
      return s;
    }
    if (Status s = text(labels, "aligned", words.aligned_label); !s) return s;
  }
  if (Status s = text(log, "rules_text", words.rules); !s) return s;
  if (Status s = text(log, "contrast_meaning", words.contrast_meaning); !s) {
    return s;
  }
  report.log_words = std::move(words);
  return Ok{};
}

}  // namespace

void AddLogJson(const Report& r, json& alignbench) {
  if (!r.settings.log) return;
  const LogCaseWords words = r.log_words.value_or(WordsOf(r.settings));
  json& log = alignbench["settings"]["log"] = LogObject(*r.settings.log);
  log["labels"] = {{"unaligned", words.unaligned_label},
                   {"aligned", words.aligned_label}};
  log["rules_text"] = words.rules;
  log["contrast_meaning"] = words.contrast_meaning;
}

Status ReadLogSettings(const json& alignbench, const std::string& origin,
                       Report& report) {
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
  report.settings.log = w.value();
  return ReadWords(*log, origin, report);
}

}  // namespace alignbench
