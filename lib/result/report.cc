#include "lib/result/report.h"

#include "lib/pairs/explain.h"

namespace alignbench {

bool RecordReplayBytes(Report& report) {
  const auto& replay = report.settings.replay;
  if (!replay || replay->aligned.name.empty()) return false;
  for (PairResult& pair : report.pairs) {
    for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
      VariantResult& side = pair.Of(v);
      if (!side.per_commit) {
        side.per_commit = PerCommit(report.settings, pair.spec, v);
      }
    }
  }
  return true;
}

void RecordForPrinters(Report& report) {
  if (report.settings.log) {
    if (!report.log_words) report.log_words = WordsOf(report.settings);
    for (PairResult& pair : report.pairs) {
      for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
        VariantResult& side = pair.Of(v);
        if (!side.per_commit)
          side.per_commit = PerCommit(report.settings, pair.spec, v);
      }
    }
  }
  RecordReplayBytes(report);
  for (PairResult& pair : report.pairs) {
    if (pair.mechanisms.empty()) pair.mechanisms = MechanismsOf(pair);
  }
}

}  // namespace alignbench
