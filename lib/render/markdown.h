// A report as markdown for a bug report: the environment in one line, the
// settings, per group of axes the table (times, gain, interval, verdict) and
// its details folded in <details> as a bug tracker shows them (Derby's gain
// of means, p, device reads and KiB written, the means that point elsewhere,
// the why-lines, the runs far off the others), the notes, and what the
// columns mean.
#pragma once

#include <ostream>

#include "lib/render/many_view.h"
#include "lib/render/report_view.h"

namespace alignbench {

void RenderMarkdown(std::ostream& out, const ReportView& view);

// Several results as one markdown table: the labels, per pair a column group
// per result, the run conditions as a list and the fields that differ.
void RenderManyMarkdown(std::ostream& out, const ManyView& view);

}  // namespace alignbench
