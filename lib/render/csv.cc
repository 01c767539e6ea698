#include "lib/render/csv.h"

#include <cmath>
#include <functional>
#include <vector>

#include "lib/render/cells.h"

namespace alignbench {
namespace {

std::string Number(std::optional<double> v) {
  return v && std::isfinite(*v) ? Printf("%.9g", *v) : std::string();
}

// A variant's write+sync statistic in ms, empty where it never ran.
std::function<std::string(const RowView&)> Ms(
    VariantResult PairResult::*variant, double Summary::*field) {
  return [=](const RowView& row) {
    const VariantResult& v = (*row.pair).*variant;
    return v.repetitions > 0 ? Number(v.total_ns.*field / 1e6) : std::string();
  };
}

// A variant's device counter per write, empty without counters.
std::function<std::string(const RowView&)> Device(
    VariantResult PairResult::*variant, double DevicePerOp::*field) {
  return [=](const RowView& row) {
    const VariantResult& v = (*row.pair).*variant;
    return v.device ? Number((*v.device).*field) : std::string();
  };
}

// A figure of the pair's test, empty without one.
std::function<std::string(const RowView&)> Test(
    double (*field)(const GainTest&)) {
  return [=](const RowView& row) {
    const auto& test = row.pair->inference.test;
    return test ? Number(field(*test)) : std::string();
  };
}

struct Column {
  const char* name;
  std::function<std::string(const RowView&)> cell;
};

// The columns, in order: the header and every row are made from this table.
const std::vector<Column>& Columns() {
  using P = PairResult;
  static const std::vector<Column> columns = {
      {"size_bytes",
       [](const RowView& r) { return std::to_string(r.pair->spec.size); }},
      {"sync",
       [](const RowView& r) {
         return std::string(NameOf(kSyncMethods, r.pair->spec.sync));
       }},
      {"io",
       [](const RowView& r) {
         return std::string(NameOf(kIoModes, r.pair->spec.io));
       }},
      {"layout",
       [](const RowView& r) {
         return std::string(NameOf(kLayouts, r.pair->spec.layout));
       }},
      {"cache",
       [](const RowView& r) {
         return std::string(NameOf(kCacheStates, r.pair->spec.cache));
       }},
      {"unaligned_mean_ms", Ms(&P::unaligned, &Summary::mean)},
      {"aligned_mean_ms", Ms(&P::aligned, &Summary::mean)},
      {"unaligned_p99_ms", Ms(&P::unaligned, &Summary::p99)},
      {"aligned_p99_ms", Ms(&P::aligned, &Summary::p99)},
      {"means_gain_pct",
       [](const RowView& r) { return Number(r.pair->means_gain_pct); }},
      {"medians_gain_pct",
       [](const RowView& r) { return Number(r.pair->medians_gain_pct); }},
      {"gain_low_pct",
       Test([](const GainTest& t) { return t.interval_pct.low; })},
      {"gain_high_pct",
       Test([](const GainTest& t) { return t.interval_pct.high; })},
      {"p_value", Test([](const GainTest& t) { return t.p_value; })},
      {"verdict", [](const RowView& r) { return r.verdict_words; }},
      {"unaligned_reads_per_write", Device(&P::unaligned, &DevicePerOp::reads)},
      {"aligned_reads_per_write", Device(&P::aligned, &DevicePerOp::reads)},
      {"unaligned_written_kib_per_write",
       Device(&P::unaligned, &DevicePerOp::kib_written)},
      {"aligned_written_kib_per_write",
       Device(&P::aligned, &DevicePerOp::kib_written)},
      {"interval_estimate_pct",
       Test([](const GainTest& t) { return t.estimate_pct; })},
      {"atomic_writes", [](const RowView& r) { return r.atomic; }},
      // The gain the table prints, under the result file's name for it; last,
      // so that a reader by position finds the columns where they were.
      {"gain_pct",
       [](const RowView& r) { return Number(r.pair->ShownGainPct()); }},
  };
  return columns;
}

}  // namespace

void RenderCsv(std::ostream& out, const ReportView& v) {
  const std::vector<Column>& columns = Columns();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    out << (c == 0 ? "" : ",") << columns[c].name;
  }
  out << "\n";
  for (const GroupView& group : v.groups) {
    for (const RowView& row : group.rows) {
      for (std::size_t c = 0; c < columns.size(); ++c) {
        out << (c == 0 ? "" : ",") << columns[c].cell(row);
      }
      out << "\n";
    }
  }
}

}  // namespace alignbench
