#include "lib/render/csv.h"

#include <cmath>

#include "lib/render/cells.h"
#include "lib/render/log_columns.h"

namespace alignbench {

void RenderCsv(std::ostream& out, const Report& r) {
  out << "size_bytes,sync,io,layout,cache,unaligned_mean_ms,aligned_mean_ms,"
         "unaligned_p99_ms,aligned_p99_ms,gain_pct,median_gain_pct,gain_low_"
         "pct,gain_high_pct,"
         "p_value,"
         "verdict,unaligned_reads_per_write,aligned_reads_per_write,"
         "unaligned_written_kib_per_write,aligned_written_kib_per_write,"
         "interval_estimate_pct\n";
  auto number = [](std::optional<double> v) {
    return v && std::isfinite(*v) ? Printf("%.9g", *v) : std::string();
  };
  auto device = [&](const VariantResult& v, double DevicePerOp::*field) {
    return v.device ? number((*v.device).*field) : std::string();
  };
  for (const PairResult& p : r.pairs) {
    const std::optional<GainTest>& test = p.inference.test;
    auto ms = [&](const VariantResult& v, double Summary::*field) {
      return v.repetitions > 0 ? number(v.total_ns.*field / 1e6)
                               : std::string();
    };
    out << p.spec.size << "," << NameOf(kSyncMethods, p.spec.sync) << ","
        << NameOf(kIoModes, p.spec.io) << "," << NameOf(kLayouts, p.spec.layout)
        << "," << NameOf(kCacheStates, p.spec.cache) << ","
        << ms(p.unaligned, &Summary::mean) << ","
        << ms(p.aligned, &Summary::mean) << ","
        << ms(p.unaligned, &Summary::p99) << "," << ms(p.aligned, &Summary::p99)
        << "," << number(p.gain_pct) << "," << number(p.median_gain_pct) << ","
        << (test ? number(test->interval_pct.low) : "") << ","
        << (test ? number(test->interval_pct.high) : "") << ","
        << (test ? number(test->p_value) : "") << "," << VerdictWords(r, p)
        << "," << device(p.unaligned, &DevicePerOp::reads) << ","
        << device(p.aligned, &DevicePerOp::reads) << ","
        << device(p.unaligned, &DevicePerOp::kib_written) << ","
        << device(p.aligned, &DevicePerOp::kib_written) << ","
        << (test ? number(test->estimate_pct) : "") << "\n";
  }
}

}  // namespace alignbench
