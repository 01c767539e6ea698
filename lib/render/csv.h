// A report as CSV for spreadsheets and gnuplot: one row per pair, its axes,
// times, gains, interval, p, verdict and device counters.
#pragma once

#include <ostream>

#include "lib/render/report_view.h"

namespace alignbench {

void RenderCsv(std::ostream& out, const ReportView& view);

}  // namespace alignbench
