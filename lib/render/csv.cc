#include "lib/render/csv.h"

#include <cmath>
#include <functional>
#include <vector>

#include "lib/render/cells.h"
#include "lib/render/log_columns.h"

namespace alignbench {
namespace {

std::string Number(std::optional<double> v) {
  return v && std::isfinite(*v) ? Printf("%.9g", *v) : std::string();
}

// A variant's write+sync statistic in ms, empty where it never ran.
std::function<std::string(const Report&, const PairResult&)> Ms(
    VariantResult PairResult::*variant, double Summary::*field) {
  return [=](const Report&, const PairResult& p) {
    const VariantResult& v = p.*variant;
    return v.repetitions > 0 ? Number(v.total_ns.*field / 1e6) : std::string();
  };
}

// A variant's device counter per write, empty without counters.
std::function<std::string(const Report&, const PairResult&)> Device(
    VariantResult PairResult::*variant, double DevicePerOp::*field) {
  return [=](const Report&, const PairResult& p) {
    const VariantResult& v = p.*variant;
    return v.device ? Number((*v.device).*field) : std::string();
  };
}

// A figure of the pair's test, empty without one.
std::function<std::string(const Report&, const PairResult&)> Test(
    double (*field)(const GainTest&)) {
  return [=](const Report&, const PairResult& p) {
    return p.inference.test ? Number(field(*p.inference.test)) : std::string();
  };
}

struct Column {
  const char* name;
  std::function<std::string(const Report&, const PairResult&)> cell;
};

// The columns, in order: the header and every row are made from this table.
const std::vector<Column>& Columns() {
  using P = PairResult;
  static const std::vector<Column> columns = {
      {"size_bytes",
       [](const Report&, const P& p) { return std::to_string(p.spec.size); }},
      {"sync",
       [](const Report&, const P& p) {
         return std::string(NameOf(kSyncMethods, p.spec.sync));
       }},
      {"io",
       [](const Report&, const P& p) {
         return std::string(NameOf(kIoModes, p.spec.io));
       }},
      {"layout",
       [](const Report&, const P& p) {
         return std::string(NameOf(kLayouts, p.spec.layout));
       }},
      {"cache",
       [](const Report&, const P& p) {
         return std::string(NameOf(kCacheStates, p.spec.cache));
       }},
      {"unaligned_mean_ms", Ms(&P::unaligned, &Summary::mean)},
      {"aligned_mean_ms", Ms(&P::aligned, &Summary::mean)},
      {"unaligned_p99_ms", Ms(&P::unaligned, &Summary::p99)},
      {"aligned_p99_ms", Ms(&P::aligned, &Summary::p99)},
      {"gain_pct",
       [](const Report&, const P& p) { return Number(p.gain_pct); }},
      {"median_gain_pct",
       [](const Report&, const P& p) { return Number(p.median_gain_pct); }},
      {"gain_low_pct",
       Test([](const GainTest& t) { return t.interval_pct.low; })},
      {"gain_high_pct",
       Test([](const GainTest& t) { return t.interval_pct.high; })},
      {"p_value", Test([](const GainTest& t) { return t.p_value; })},
      {"verdict",
       [](const Report& r, const P& p) { return VerdictWords(r, p); }},
      {"unaligned_reads_per_write", Device(&P::unaligned, &DevicePerOp::reads)},
      {"aligned_reads_per_write", Device(&P::aligned, &DevicePerOp::reads)},
      {"unaligned_written_kib_per_write",
       Device(&P::unaligned, &DevicePerOp::kib_written)},
      {"aligned_written_kib_per_write",
       Device(&P::aligned, &DevicePerOp::kib_written)},
      {"interval_estimate_pct",
       Test([](const GainTest& t) { return t.estimate_pct; })},
  };
  return columns;
}

}  // namespace

void RenderCsv(std::ostream& out, const Report& r) {
  const std::vector<Column>& columns = Columns();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    out << (c == 0 ? "" : ",") << columns[c].name;
  }
  out << "\n";
  for (const PairResult& p : r.pairs) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      out << (c == 0 ? "" : ",") << columns[c].cell(r, p);
    }
    out << "\n";
  }
}

}  // namespace alignbench
