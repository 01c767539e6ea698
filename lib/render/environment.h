// What the probe knows about a target, for `alignbench env`: one fact a line,
// by section (host, filesystem, device), "unknown" where it could not tell.
#pragma once

#include <ostream>

#include "lib/result/report.h"

namespace alignbench {

void RenderEnvironment(std::ostream& out, const TargetInfo& target);

}  // namespace alignbench
