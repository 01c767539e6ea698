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
std::function<std::string(const RowView&)> Ms(SideView RowView::*side,
                                              double Summary::*field) {
  return [=](const RowView& row) {
    const SideView& v = row.*side;
    return v.ran ? Number(v.total_ns.*field / 1e6) : std::string();
  };
}

// A variant's device counter per write, empty without counters.
std::function<std::string(const RowView&)> Device(SideView RowView::*side,
                                                  double DevicePerOp::*field) {
  return [=](const RowView& row) {
    const SideView& v = row.*side;
    return v.device ? Number((*v.device).*field) : std::string();
  };
}

// A figure of the pair's test, empty without one.
std::function<std::string(const RowView&)> Test(
    double (*field)(const GainTest&)) {
  return [=](const RowView& row) {
    return row.test ? Number(field(*row.test)) : std::string();
  };
}

struct Column {
  const char* name;
  std::function<std::string(const RowView&)> cell;
};

// The columns, in order: the header and every row are made from this table.
const std::vector<Column>& Columns() {
  using R = RowView;
  static const std::vector<Column> columns = {
      {"size_bytes",
       [](const RowView& r) { return std::to_string(r.size_bytes); }},
      {"sync", [](const RowView& r) { return r.sync; }},
      {"io", [](const RowView& r) { return r.io; }},
      {"layout", [](const RowView& r) { return r.layout; }},
      {"cache", [](const RowView& r) { return r.cache; }},
      {"unaligned_mean_ms", Ms(&R::unaligned, &Summary::mean)},
      {"aligned_mean_ms", Ms(&R::aligned, &Summary::mean)},
      {"unaligned_p99_ms", Ms(&R::unaligned, &Summary::p99)},
      {"aligned_p99_ms", Ms(&R::aligned, &Summary::p99)},
      {"means_gain_pct",
       [](const RowView& r) { return Number(r.means_gain_pct); }},
      {"medians_gain_pct",
       [](const RowView& r) { return Number(r.medians_gain_pct); }},
      {"gain_low_pct",
       Test([](const GainTest& t) { return t.interval_pct.low; })},
      {"gain_high_pct",
       Test([](const GainTest& t) { return t.interval_pct.high; })},
      {"p_value", Test([](const GainTest& t) { return t.p_value; })},
      {"verdict", [](const RowView& r) { return CsvField(r.verdict_words); }},
      {"unaligned_reads_per_write", Device(&R::unaligned, &DevicePerOp::reads)},
      {"aligned_reads_per_write", Device(&R::aligned, &DevicePerOp::reads)},
      {"unaligned_written_kib_per_write",
       Device(&R::unaligned, &DevicePerOp::kib_written)},
      {"aligned_written_kib_per_write",
       Device(&R::aligned, &DevicePerOp::kib_written)},
      {"interval_estimate_pct",
       Test([](const GainTest& t) { return t.estimate_pct; })},
      {"atomic_writes", [](const RowView& r) { return r.atomic; }},
      // The gain the table prints, under the result file's name for it; last,
      // so that a reader by position finds the columns where they were.
      {"gain_pct", [](const RowView& r) { return Number(r.shown_gain_pct); }},
  };
  return columns;
}

// The pair's columns of the N-way table, from the same table: its name
// there, and the column's here.
const std::vector<Column>& ManyColumns() {
  static const std::vector<Column> columns = [] {
    const std::pair<const char*, const char*> names[] = {
        {"size_bytes", "size_bytes"},
        {"sync", "sync"},
        {"io", "io"},
        {"layout", "layout"},
        {"cache", "cache"},
        {"gain_pct", "gain_pct"},
        {"gain_low_pct", "gain_low_pct"},
        {"gain_high_pct", "gain_high_pct"},
        {"estimate_pct", "interval_estimate_pct"},
        {"p_value", "p_value"},
        {"verdict", "verdict"},
    };
    std::vector<Column> picked;
    for (const auto& [name, from] : names) {
      for (const Column& column : Columns()) {
        if (std::string(column.name) == from)
          picked.push_back({name, column.cell});
      }
    }
    return picked;
  }();
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

void RenderManyCsv(std::ostream& out, const ManyView& m) {
  out << "label";
  // Prefixed: "sync" is also a pair's column.
  for (const Difference& d : m.differences) {
    std::string column = "field_" + d.name;
    for (char& c : column) c = c == ' ' ? '_' : c;
    out << "," << CsvField(column);
  }
  for (const Column& column : ManyColumns()) out << "," << column.name;
  out << ",run_conditions\n";
  for (std::size_t g = 0; g < m.labels.size(); ++g) {
    for (const ManyRow& row : m.rows) {
      if (!row.cells[g]) continue;
      out << CsvField(m.labels[g]);
      for (const Difference& d : m.differences) {
        out << "," << CsvField(d.texts[g]);
      }
      for (const Column& column : ManyColumns()) {
        out << "," << column.cell(*row.cells[g]);
      }
      out << "," << CsvField(m.conditions[g]) << "\n";
    }
  }
}

}  // namespace alignbench
