// alignbench record (declared with the other subcommands in subcommands.h,
// defined in record.cc): a program's writes and syncs to its log file(s),
// traced with strace and saved as a trace (lib/config/trace.h) under --out's
// rules; where the commits fit a case's rules, the case file beside it. Here:
// the parts of it that need no process.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "lib/config/trace.h"

namespace alignbench {

// The case file a trace corresponds to, where its commits fit the log rules:
// one traced file, each commit one run of contiguous writes then one sync
// call, every commit the same length and starting where the one before
// ended (a header before the first). Nothing where they do not.
std::optional<nlohmann::json> CaseOfTrace(const Trace& trace,
                                          const std::string& name);

// Whether more than half of the regular file at `path` is unwritten extents
// (fallocated, never written), by FS_IOC_FIEMAP; nothing where the
// filesystem cannot say (tmpfs, NFS) or the file is empty or missing.
std::optional<bool> MostlyUnwritten(const std::string& path);

// Where the trace goes when --out is not given: PROGRAM.trace.json.
std::string DefaultTracePath(const std::string& program);

}  // namespace alignbench
