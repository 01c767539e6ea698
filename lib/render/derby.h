// Derby's rows as the 2004-05 mailing list printed them: "size | unaligned |
// aligned | gain%", the times and the gain of means as Java printed doubles.
#pragma once

#include <ostream>

#include "lib/render/report_view.h"

namespace alignbench {

void RenderDerby(std::ostream& out, const ReportView& view);

}  // namespace alignbench
