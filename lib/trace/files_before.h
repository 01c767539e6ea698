// What the files `alignbench record` traces were before tracing began: their
// sizes, which were mostly unwritten (fallocated, never written), and for
// --pid the ones the processes already hold open, with their flags and
// positions. A trace tells new, preallocated and recycled log files apart
// from these (lib/config/trace_file.h).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/trace/strace_reader.h"

namespace alignbench {

// Where a regular file's bytes were before tracing began: its size, the bytes
// its blocks take (st_blocks: less than its size in a sparse file), and by
// FS_IOC_FIEMAP its extents and the bytes of them unwritten (fallocated,
// never written), which a filesystem that cannot say (tmpfs, NFS) leaves
// unknown. Nothing for a file empty or missing.
struct FileLayout {
  std::uint64_t size = 0;
  std::uint64_t allocated = 0;
  std::optional<std::uint64_t> extents;
  std::optional<std::uint64_t> unwritten;
};
std::optional<FileLayout> LayoutBefore(const std::string& path);

// Whether more than half of the regular file at `path` is unwritten extents
// (fallocated, never written), by FS_IOC_FIEMAP; nothing where the
// filesystem cannot say (tmpfs, NFS) or the file is empty or missing.
std::optional<bool> MostlyUnwritten(const std::string& path);

// The globs of --file made absolute (from the working directory) and
// resolved as strace names files (symbolic links and ".." before the first
// wildcard); the sizes, extents, unwritten and sparse state of the regular
// files they match now go into `options`. An empty pattern is refused.
Result<std::vector<std::string>> AbsoluteGlobs(
    const std::vector<std::string>& given, StraceOptions& options);

// The files the processes already have open that options.globs select, with
// their flags and positions, sizes and unwritten state, into `options`.
void OpenBefore(const std::vector<pid_t>& pids, StraceOptions& options);

}  // namespace alignbench
