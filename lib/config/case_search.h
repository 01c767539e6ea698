// Where `--case NAME` is looked for, so that an installed alignbench runs
// `--case derby-2004` as well as `--case cases/derby-2004.json`.
#pragma once

#include <string>
#include <vector>

#include "lib/base/error.h"

namespace alignbench {

// The places NAME is tried, in order. A path (with a '/') only as given. A
// bare name: NAME.json in the cases directory installed beside the
// executable (EXE_DIR/../share/alignbench/cases), for a binary inside the
// build tree it was built in the source tree's cases/, and last NAME in the
// working directory, so that a shipped case is never shadowed by a file of
// that name where the command happens to run.
std::vector<std::string> CaseCandidates(const std::string& name,
                                        const std::string& executable);

// The first candidate that exists; a path that does not is returned as given
// (its reader says ENOENT); a bare name found nowhere is a usage error that
// lists every place tried.
Result<std::string> FindCaseFile(const std::string& name);

}  // namespace alignbench
