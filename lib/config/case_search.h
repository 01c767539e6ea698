// Where `--case NAME` is looked for, so that an installed alignbench runs
// `--case derby-2004` as well as `--case cases/derby-2004.json`.
#pragma once

#include <string>
#include <vector>

#include "lib/base/error.h"

namespace alignbench {

// The places NAME is tried, in order: NAME itself (a path, as given); then,
// for a bare name (no '/'), NAME.json in the cases directory installed beside
// the executable (EXE_DIR/../share/alignbench/cases) and, for a binary inside
// the build tree it was built in, the source tree's cases/.
std::vector<std::string> CaseCandidates(const std::string& name,
                                        const std::string& executable);

// The first candidate that exists; a path that does not is returned as given
// (its reader says ENOENT); a bare name found nowhere is a usage error that
// lists every place tried.
Result<std::string> FindCaseFile(const std::string& name);

}  // namespace alignbench
