// A report as markdown for a bug report: the environment in one line, the
// settings, per group of axes the table (with device reads and KiB written)
// and as lists the means that point elsewhere, the why-lines and the runs far
// off the others, the notes, and what the columns mean.
#pragma once

#include <ostream>

#include "lib/result/report.h"

namespace alignbench {

void RenderMarkdown(std::ostream& out, const Report& report);

}  // namespace alignbench
