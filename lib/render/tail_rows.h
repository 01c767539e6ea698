// The tail of the distribution as the printers show it: rows of percentiles
// per pair for `show` and the run's table, from the view.
#pragma once

#include <cstddef>
#include <ostream>
#include <vector>

#include "lib/render/report_view.h"

namespace alignbench {

// The tail's gain of a group's pairs (or why there is none), then their
// percentiles in ms per write+sync, each variant a row; where no variant has
// a p99.9 (fewer than 1000 writes), one line that says so instead.
void RenderTailRows(std::ostream& out, const GroupView& group);

}  // namespace alignbench
