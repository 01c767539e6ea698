#include "lib/result/report.h"

#include "lib/pairs/explain.h"

namespace alignbench {

void RecordForPrinters(Report& report) {
  if (report.settings.log) {
    if (!report.log_words) report.log_words = WordsOf(report.settings);
    for (PairResult& pair : report.pairs) {
      for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
        VariantResult& side =
            v == Variant::kUnaligned ? pair.unaligned : pair.aligned;
        if (!side.per_commit)
          side.per_commit = PerCommit(report.settings, pair.spec, v);
      }
    }
  }
  for (PairResult& pair : report.pairs) {
    if (pair.mechanisms.empty()) pair.mechanisms = MechanismsOf(pair);
  }
}

}  // namespace alignbench
