// The case file a recorded trace corresponds to (`alignbench record` writes
// it beside the trace): where the commits fit the log rules, the same
// commits measured as recorded against the same commits without the header.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "lib/config/trace_file.h"

namespace alignbench {

// One traced file, each commit one run of contiguous writes then one sync
// call, every commit the same length and starting where the one before
// ended (a header before the first). Nothing where they do not; nothing
// either where the case would be one `--case` refuses (more writes to a
// sync than --commits-per-sync takes), and then `why_not` says so. Every
// case returned is one ApplyCaseText and Validate accept.
std::optional<nlohmann::json> CaseOfTrace(const Trace& trace,
                                          const std::string& name,
                                          std::string* why_not = nullptr);

}  // namespace alignbench
