// Where a result goes (--out), so that nothing is clobbered and nothing
// measured is lost. Everything that can be checked is checked before a single
// write is timed: the path, what is there now, and the directory's taking of
// the very temporary file the result will be written through. At the end the
// result is written atomically; if that still fails, it is kept in a fallback
// file and the caller is told where.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"

namespace alignbench {

// Replace an existing regular file at --out only when asked (--force).
enum class Overwrite { kRefuse, kReplace };

// Refused: an empty path; anything at `path` that is not a regular file (a
// directory, a device such as /dev/null, a FIFO, a socket, a symbolic link);
// a regular file, unless kReplace; the same file as one of `inputs` (the case
// file being run). Then the temporary file beside `path` is created and
// removed again, which finds a parent that is not a directory, a name too
// long, a read-only or foreign directory.
Status CheckResultPath(const std::string& path, Overwrite overwrite,
                       const std::vector<std::string>& inputs);

// Where each directory's result goes when --out is given with several --dir:
// "r.json" becomes "r-in-LABEL.json", LABEL the directory's last name made safe
// for a file name ("dir2" for "/"), with the position added where two labels
// would be the same; never "r.tmp.json", which reads as a temporary file of
// /tmp's result. One directory: `out` itself.
std::vector<std::string> ResultPaths(const std::string& out,
                                     const std::vector<std::string>& dirs);

struct SaveOutcome {
  // Of writing `path`
  Status status;
  // Where the text went instead
  std::optional<std::string> fallback;
};

// Writes `text` to `path` through a temporary name in the same directory
// (fsync, then rename). With kRefuse a file that appeared meanwhile is not
// replaced. With kReplace what is at `path` at the rename is checked again,
// without a window where the filesystem has RENAME_EXCHANGE: anything but a
// regular file (a FIFO, device, symbolic link, directory that took its place
// while measuring) is left as it was and the save fails. Without
// RENAME_EXCHANGE (some network and FUSE filesystems) the check is an
// fstatat just before rename(2), and something put there between the two is
// replaced.
Status WriteResultFile(const std::string& path, const std::string& text,
                       Overwrite overwrite);

// WriteResultFile, and on failure the text goes to
// alignbench-WHAT-PID-RANDOM.json (64 random bits, so nobody can plant it)
// in the first of these that takes it: the current directory, $TMPDIR, /tmp.
// The fallback and every place tried are named by absolute path. `what`: the
// kind of file ("result", "trace") and, in the hint, what it keeps.
SaveOutcome SaveResult(const std::string& path, const std::string& text,
                       Overwrite overwrite, const std::string& what = "result",
                       const std::string& keeps = "the measurement");

}  // namespace alignbench
