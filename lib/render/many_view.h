// N results as one table (a fleet, or the directories of one run), built once
// from their report views: a row per pair any result has, a column group per
// result whose cells are that result's RowView (gain, interval, verdict, and
// the figures CSV prints), then what others did beside each run and every
// setting and environment fact that differs between them. The writers of
// writers.h lay it out, each format beside its one-result writer. Results come
// with a label each, so that a caller that measured several directories
// itself can pass them without files.
#pragma once

#include <string>
#include <vector>

#include "lib/render/differences.h"
#include "lib/render/report_view.h"
#include "lib/result/report.h"

namespace alignbench {

struct LabeledReport {
  // Names the result's column group; unique within one table.
  std::string label;
  Report report;
};

// "host / disk model / directory" from what the result says ("?" for an
// unknown part; the disk's name when its model is unknown).
std::string ResultLabel(const Report& report);

// Labels the reports by ResultLabel; where two labels agree, each of those
// gets its origin appended ("… (fleet-x/hostA/data.json)"), so that copies of
// one result stay apart.
std::vector<LabeledReport> LabelResults(
    std::vector<Report> reports, const std::vector<std::string>& origins);

// A row: a pair's name ("4K", and its axes and shift where those vary between
// rows) and each result's row of it, null where a result has no such pair.
struct ManyRow {
  std::string name;
  std::vector<const RowView*> cells;
};

struct ManyView {
  // The results' labels, raw (each writer quotes them its way), and their
  // views, which the rows point into.
  std::vector<std::string> labels;
  std::vector<ReportView> views;
  std::vector<ManyRow> rows;
  // Each result's run conditions in words (ConditionsText), and where only
  // some were measured beside others' traffic, which, as a warning.
  std::vector<std::string> conditions;
  std::string busy_warning;
  std::vector<Difference> differences;  // escaped

  ManyView() = default;
  // The rows point into `views`: a copy would point into the original.
  ManyView(const ManyView&) = delete;
  ManyView& operator=(const ManyView&) = delete;
  ManyView(ManyView&&) = default;
  ManyView& operator=(ManyView&&) = default;
};

ManyView ManyViewOf(const std::vector<LabeledReport>& results);

}  // namespace alignbench
