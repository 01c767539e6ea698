// What the files `alignbench record` traces were before tracing began: their
// sizes, which were mostly unwritten (fallocated, never written), and for
// --pid the ones the processes already hold open, with their flags and
// positions. A trace tells new, preallocated and recycled log files apart
// from these (lib/config/trace_file.h).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/trace/strace_reader.h"

namespace alignbench {

// Whether more than half of the regular file at `path` is unwritten extents
// (fallocated, never written), by FS_IOC_FIEMAP; nothing where the
// filesystem cannot say (tmpfs, NFS) or the file is empty or missing.
std::optional<bool> MostlyUnwritten(const std::string& path);

// The globs of --file made absolute (from the working directory) and
// resolved as strace names files (symbolic links and ".." before the first
// wildcard); the sizes and unwritten state of the regular files they match
// now go into `options`. An empty pattern is refused.
Result<std::vector<std::string>> AbsoluteGlobs(
    const std::vector<std::string>& given, StraceOptions& options);

// The files the processes already have open that options.globs select, with
// their flags and positions, sizes and unwritten state, into `options`.
void OpenBefore(const std::vector<pid_t>& pids, StraceOptions& options);

}  // namespace alignbench
