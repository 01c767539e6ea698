// The text report with every detail, as --details prints it: per group of
// axes the table with means, gains, intervals, p and verdicts, the device I/O
// of each variant, the tails, the means that point elsewhere, why each pair
// costs what it does and its runs far off the others; the notes, and the
// legend of the columns and the statistic.
#pragma once

#include <ostream>

#include "lib/render/report_view.h"

namespace alignbench {

void RenderDetailed(std::ostream& out, const ReportView& view);

}  // namespace alignbench
