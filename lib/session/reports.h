// The session's reports, one per directory: started before the first run
// (who made it, how, when, with what settings, where: the probe of the
// directory, refused where a case's requirement is not met) and finished
// after the last (the pairs from the runs, their warnings, what stopped the
// runs).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/settings.h"
#include "lib/result/report.h"
#include "lib/session/session_options.h"
#include "lib/session/stages.h"

namespace alignbench {

// One report per directory of `options`, in their order; each target's line,
// then the plan's size, said on `log`.
Result<std::vector<Report>> StartReports(const SessionOptions& options,
                                         std::size_t pairs, std::ostream& log);

// Report `dir` of the stages' directories made whole: its pairs of `plan`
// from the runs (moved out of `stages`), their warnings and rounds, the
// runner's warnings, and the write cache read again.
void FinishReport(Report& report, std::size_t dir,
                  const std::vector<PairSpec>& plan, StagesResult& stages,
                  const std::vector<std::string>& runner_warnings);

}  // namespace alignbench
