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

namespace alignbench {

struct HostInfo {
  std::optional<std::string> hostname;
  // uname -r
  std::optional<std::string> kernel;
  // PRETTY_NAME of /etc/os-release
  std::optional<std::string> distribution;
  std::optional<std::string> cpu_model;
  std::optional<unsigned> cpus;
  std::optional<std::uint64_t> memory_bytes;
};

struct DeviceInfo {
  // Name under /sys/block: "vda", "loop0", "dm-1"
  std::string disk;
  // "vda1" when the filesystem is on a partition
  std::optional<std::string> partition;
  // Loop devices: the image file
  std::optional<std::string> backing_file;
  std::optional<std::string> model;
  std::optional<std::string> vendor;
  std::optional<bool> rotational;
  std::optional<std::uint64_t> logical_block_bytes;
  std::optional<std::uint64_t> physical_block_bytes;
  std::optional<std::uint64_t> minimum_io_bytes;
  std::optional<std::uint64_t> optimal_io_bytes;
  // "write back" or "write through"
  std::optional<std::string> write_cache;
  std::optional<bool> fua;
  // The selected one, e.g. "none", "mq-deadline"
  std::optional<std::string> scheduler;
  // Stacked devices: what this disk is made of, one level down ("dm-0: vg-lv
  // on sda2", "md0: raid1 on sdb1 sdc1"); empty for a plain disk.
  std::optional<std::string> stack;
  // The queue's atomic write limits (Linux 6.11+, queue/atomic_write_*): what
  // one write the device itself keeps whole may span; 0 where it keeps none.
  std::optional<std::uint64_t> atomic_write_unit_min_bytes;
  std::optional<std::uint64_t> atomic_write_unit_max_bytes;
  std::optional<std::uint64_t> atomic_write_max_bytes;
  std::optional<std::uint64_t> atomic_write_boundary_bytes;
  // hdparm -W's answer for ATA disks where hdparm is installed: the drive's
  // own write cache, which the kernel's write_cache only mirrors.
  std::optional<bool> drive_write_cache;
  std::string StatPath() const { return "/sys/block/" + disk + "/stat"; }
};

struct TargetInfo {
  // As given
  std::string dir;
  std::optional<std::string> real_dir;
  std::optional<std::string> fs_type;
  std::optional<std::string> mount_point;
  std::optional<std::string> mount_source;
  std::optional<std::string> mount_options;
  // Where no block device takes the writes: what a sync does there (tmpfs:
  // nothing to write; sshfs: passed on to the server, or not), in a sentence.
  std::optional<std::string> sync_effect;
  std::optional<DeviceInfo> device;
  // Set when device is empty
  std::string no_device_reason;
  // statx STATX_DIOALIGN on a test file
  std::optional<std::uint64_t> dio_offset_align;
  std::optional<std::uint64_t> dio_mem_align;
  // statx STATX_WRITE_ATOMIC on the same file (Linux 6.11+): the sizes a
  // write with RWF_ATOMIC may have, each a power of two written at an offset
  // aligned to it; 0 where the filesystem offers none (ext4 without bigalloc).
  std::optional<std::uint64_t> atomic_write_unit_min;
  std::optional<std::uint64_t> atomic_write_unit_max;
  std::optional<std::uint64_t> atomic_write_segments_max;
  HostInfo host;

  // The offset alignment O_DIRECT needs: statx's answer, else the logical block
  // size, else 4096 (a safe guess: no device needs more).
  std::uint64_t DirectAlignment() const;
  // "/mnt (ext4 /dev/loop0)": the ioping-style name of the target.
  std::string Title() const;
};

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
