// The tail of the distribution as the printers show it: rows of percentiles
// per pair for `show` and the run's table, and, for `compare`, one line per
// pair with the percentile that moved most between two results.
#pragma once

#include <cstddef>
#include <ostream>
#include <vector>

#include "lib/render/report_view.h"
#include "lib/result/report.h"

namespace alignbench {

// The tail's gain of a group's pairs (or why there is none), then their
// percentiles in ms per write+sync, each variant a row; where no variant has
// a p99.9 (fewer than 1000 writes), one line that says so instead.
void RenderTailRows(std::ostream& out, const GroupView& group);

// One line per pair of BASE that NEW has too: its most moved percentile.
void RenderPercentileMoves(std::ostream& out, const Report& base,
                           const Report& next);

}  // namespace alignbench
