// A report as CSV for spreadsheets and gnuplot: one row per pair, its axes,
// times, gains, interval, p, verdict and device counters. Several results:
// one row per result and pair, the pair's columns from the same table.
#pragma once

#include <ostream>

#include "lib/render/many_view.h"
#include "lib/render/report_view.h"

namespace alignbench {

void RenderCsv(std::ostream& out, const ReportView& view);

// The label, the fields that differ as field_* columns, the pair's axes,
// gain, interval, p and verdict, and the run conditions last.
void RenderManyCsv(std::ostream& out, const ManyView& view);

}  // namespace alignbench
