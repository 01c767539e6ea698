#include "lib/render/log_columns.h"

#include "lib/base/text.h"
#include "lib/pairs/log_case.h"

namespace alignbench {

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

}  // namespace alignbench
