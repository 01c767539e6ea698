// What a run prints on stdout at its end, and `show` for one file: the report
// of one directory in the format asked (writers.h), or the N-way table of
// several (many_view.h); then the summary and the answer of each.
#pragma once

#include <ostream>
#include <vector>

#include "lib/render/writers.h"
#include "lib/result/report.h"

namespace alignbench {

// The end of a run: one directory's report as `show` prints it, or the N-way
// table of several directories (labelled by ResultLabel; their full reports
// are in their result files); then, except for CSV, the SummaryLine and the
// answer of each: one report's compact ones broken into lines of 80.
void RenderRun(std::ostream& out, const std::vector<Report>& reports,
               Format format, Detail detail = Detail::kFull);

}  // namespace alignbench
