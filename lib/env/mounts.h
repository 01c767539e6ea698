// The mount a directory is on, from the kernel's mountinfo tables. A chroot
// hides the mounts outside its root (its own "/" among them), so where the
// process's own table names no mount for the directory, the mount is found by
// the directory's device number, also in PID 1's table, which shows the whole
// machine's mounts as seen from the real root.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace alignbench {

// One line of /proc/PID/mountinfo (proc(5)), unescaped.
struct MountEntry {
  std::string devno;  // "254:0"
  std::string root;   // the mount's root within its filesystem
  std::string point;  // where it is mounted, as the reading process sees it
  std::string options;
  std::string fs_type;
  std::string source;
  // The filesystem's own options: a FUSE mount's user_id= names its owner.
  std::string super_options;
};

std::vector<MountEntry> ParseMountInfo(std::istream& in);

struct FoundMount {
  MountEntry entry;
  // False when found by device number: `entry.point` is then a path of another
  // root (PID 1's), not one this process can name.
  bool by_path = true;
};

// The entry of `own` with the longest mount point containing `real_dir`; else
// the entry of `own`, then of `machine`, whose device number is `devno`,
// preferring the mount of a filesystem's root to a bind mount of a part of it.
std::optional<FoundMount> FindMount(const std::vector<MountEntry>& own,
                                    const std::vector<MountEntry>& machine,
                                    const std::string& real_dir,
                                    const std::string& devno);

// FindMount over /proc/self/mountinfo and /proc/1/mountinfo.
std::optional<FoundMount> MountOf(const std::string& real_dir,
                                  const std::string& devno);

}  // namespace alignbench
