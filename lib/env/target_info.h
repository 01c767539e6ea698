// What the environment probe knows of a target directory: the host, the
// filesystem and the block device under it, each fact empty where it is
// unknown. Apart from probe.h so that the parts of the probe in other files
// (layer_probe.h) can fill these without including the probe itself.
#pragma once

#include <cstdint>
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
  // sysconf(_SC_PAGESIZE): the page cache's unit, what a buffered write
  // smaller than it reads first where the page is not cached.
  std::optional<std::uint64_t> page_bytes;
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
  // alignment_offset of the partition (or the disk): how far its first byte
  // lies past a boundary of the physical sectors; 0 where it starts on one.
  std::optional<std::uint64_t> alignment_offset_bytes;
  // A partition's first byte on its disk (sysfs start, in 512-byte sectors).
  std::optional<std::uint64_t> partition_start_bytes;
  // Loop devices: where in the backing file the device begins, whether the
  // loop reads and writes it with direct I/O, and the block of the backing
  // file's filesystem (statfs f_bsize): the grid the offset must keep.
  std::optional<std::uint64_t> loop_offset_bytes;
  std::optional<bool> loop_direct_io;
  std::optional<std::uint64_t> loop_backing_block_bytes;
  // md devices: the chunk each disk takes in turn, and how many disks.
  std::optional<std::uint64_t> md_chunk_bytes;
  std::optional<std::uint64_t> md_raid_disks;
  // Device-mapper devices: the mapping's name ("vg-lv").
  std::optional<std::string> dm_name;
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
  // The filesystem's units: statfs's block and fragment; ext4's bigalloc
  // cluster (from the superblock, which needs the device readable: root);
  // xfs's stripe unit and width (XFS_IOC_FSGEOMETRY, 0: none); btrfs's
  // sector and node (/sys/fs/btrfs/FSID).
  std::optional<std::uint64_t> fs_block_bytes;
  std::optional<std::uint64_t> fs_fragment_bytes;
  std::optional<bool> ext4_bigalloc;
  std::optional<std::uint64_t> ext4_cluster_bytes;
  std::optional<std::uint64_t> xfs_sunit_bytes;
  std::optional<std::uint64_t> xfs_swidth_bytes;
  std::optional<std::uint64_t> btrfs_sectorsize_bytes;
  std::optional<std::uint64_t> btrfs_nodesize_bytes;
  // Where a layer starts off the grid of the one below, in sentences joined
  // by "; " (OffGrid in layer_units.h); absent where every known layer fits.
  std::optional<std::string> off_grid;
  // Which layer's unit could not be had and why ("ext4 cluster: open
  // /dev/loop0: Permission denied"), joined by "; ".
  std::optional<std::string> units_unknown;
  HostInfo host;

  // The offset alignment O_DIRECT needs: statx's answer, else the logical block
  // size, else 4096 (a safe guess: no device needs more).
  std::uint64_t DirectAlignment() const;
  // "/mnt (ext4 /dev/loop0)": the ioping-style name of the target.
  std::string Title() const;
};

}  // namespace alignbench
