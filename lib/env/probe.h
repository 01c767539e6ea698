// The environment probe of a target directory: which filesystem, which block
// device and disk, and the device facts that decide a result (sector sizes,
// write cache, direct-I/O alignment). Every field may be unknown: then it is
// empty and, where it helps, a reason says why. Nothing here writes, except one
// private test file for statx (STATX_DIOALIGN, STATX_WRITE_ATOMIC).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "lib/env/target_info.h"

namespace alignbench {

TargetInfo ProbeTarget(const std::string& dir);

// The kernel's write-cache setting of `device` now ("write back", "write
// through"), read again from sysfs; nullopt where it cannot be read.
std::optional<std::string> ReadWriteCache(const DeviceInfo& device);
HostInfo ProbeHost();

// The filesystem type named by statfs(2)'s f_type, for where mountinfo does
// not show the mount (a chroot hides "/"); nullopt for a magic number not in
// the table. ext2, ext3 and ext4 share one magic number: "ext2/ext3/ext4".
std::optional<std::string> FsTypeOfMagic(std::uint64_t magic);

}  // namespace alignbench
