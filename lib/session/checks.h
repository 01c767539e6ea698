// Whatever a session can be refused for, refused before a write is timed:
// in every directory, the test files of dead runs swept, room for the largest
// run of the plan and a test file we can create; every result path writable,
// and never the case file the settings were read from.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/settings.h"
#include "lib/session/session_options.h"

namespace alignbench {

// The result paths, one per directory (ResultPaths; none without --out),
// or the first refusal. What was swept is said on `log`.
Result<std::vector<std::string>> CheckBeforeMeasuring(
    const SessionOptions& options, const std::vector<PairSpec>& plan,
    std::ostream& log);

}  // namespace alignbench
