#include "lib/io/space.h"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstdint>

namespace alignbench {

Status CheckFreeSpace(const std::string& dir, std::uint64_t bytes) {
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) {
    Error error = SystemError(ErrorKind::kSetup, "statvfs", dir, errno);
    // Other errors (EIO from a shut-down filesystem) get the errno table's.
    if (error.errno_value == ENOENT) {
      error.hint = "--dir must name an existing directory";
    }
    return error;
  }
  if (fs.f_blocks == 0) {
    // proc, sysfs, cgroup, debugfs: "0 bytes free" would send the user looking
    // for space that was never there.
    return PlainError(ErrorKind::kSetup, "--dir " + dir,
                      "a virtual filesystem without storage (such as /proc or "
                      "/sys) is no place for a test file; choose a directory "
                      "on the disk you want to measure");
  }
  const std::uint64_t available =
      static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  // A margin of 1 MiB for the filesystem's metadata; saturated, so that a
  // size near 2^64 cannot wrap round to a small need.
  constexpr std::uint64_t kMargin = 1u << 20;
  const std::uint64_t needed =
      bytes > UINT64_MAX - kMargin ? UINT64_MAX : bytes + kMargin;
  if (available < needed) {
    Error error =
        SystemError(ErrorKind::kSetup, "check free space", dir, ENOSPC);
    error.hint =
        "the plan needs " + std::to_string(needed) + " bytes, " +
        std::to_string(available) +
        " are available; free space, or use fewer --writes or smaller --sizes";
    return error;
  }
  return Ok{};
}

}  // namespace alignbench
