// A case file's "requires" checked against the probed target: every
// requirement that is not met is named in one setup error (exit 2), before
// anything is measured.
#pragma once

#include <vector>

#include "lib/base/error.h"
#include "lib/config/settings.h"
#include "lib/env/probe.h"

namespace alignbench {

// "block device": the probe found a block device under the directory.
// "root": the effective user id is 0. "O_DIRECT": a private test file in the
// directory opens with O_DIRECT (the open is tried, not guessed from statx).
Status CheckRequirements(const std::vector<Requirement>& requirements,
                         const TargetInfo& target);

}  // namespace alignbench
