#include "lib/env/layer_probe.h"

#include <fcntl.h>
#include <linux/btrfs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <string>
#include <vector>

#include "lib/env/layer_units.h"
#include "lib/io/fd.h"
#include "lib/io/file_io.h"

namespace alignbench {
namespace {

// struct xfs_fsop_geom_v1 of the kernel's fs/xfs/libxfs/xfs_fs.h, for
// XFS_IOC_FSGEOMETRY_V1: the oldest geometry call, which every kernel keeps,
// and already holds the block, stripe unit and stripe width. Declared here
// so that the build needs no xfslibs-dev.
struct XfsGeometryV1 {
  std::uint32_t blocksize;
  std::uint32_t rtextsize;
  std::uint32_t agblocks;
  std::uint32_t agcount;
  std::uint32_t logblocks;
  std::uint32_t sectsize;
  std::uint32_t inodesize;
  std::uint32_t imaxpct;
  std::uint64_t datablocks;
  std::uint64_t rtblocks;
  std::uint64_t rtextents;
  std::uint64_t logstart;
  unsigned char uuid[16];
  std::uint32_t sunit;  // in filesystem blocks
  std::uint32_t swidth;
  std::int32_t version;
  std::uint32_t flags;
  std::uint32_t logsectsize;
  std::uint32_t rtsectsize;
  std::uint32_t dirblocksize;
};
static_assert(sizeof(XfsGeometryV1) == 112, "struct xfs_fsop_geom_v1");
static_assert(offsetof(XfsGeometryV1, sunit) == 80, "xfs_fsop_geom_v1.sunit");
const unsigned long kXfsFsGeometryV1 = _IOR('X', 100, XfsGeometryV1);

// What could not be had, "what: why" each.
using Unknowns = std::vector<std::string>;

Result<std::string> ReadAttribute(const std::string& path) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return SystemError(ErrorKind::kSetup, "open", path, errno);
  char buffer[256];
  const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
  if (n < 0) return SystemError(ErrorKind::kSetup, "read", path, errno);
  return std::string(buffer, static_cast<std::size_t>(n));
}

// A count from sysfs, or nullopt with the reason among the unknowns.
std::optional<std::uint64_t> SysfsCount(const std::string& path,
                                        const std::string& what,
                                        Unknowns& unknowns) {
  const Result<std::string> text = ReadAttribute(path);
  if (!text) {
    unknowns.push_back(what + ": " + text.error().Message());
    return std::nullopt;
  }
  const std::optional<std::uint64_t> count = ParseSysfsCount(text.value());
  if (!count) {
    std::string shown = text.value();
    while (!shown.empty() && shown.back() == '\n') shown.pop_back();
    unknowns.push_back(
        what + ": " + path + " says '" + shown + "'" +
        (shown == "-1" ? " (the layers below do not line up)" : ""));
  }
  return count;
}

bool Exists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

void LoopUnits(DeviceInfo& d, const std::string& sys, Unknowns& unknowns) {
  d.loop_offset_bytes =
      SysfsCount(sys + "/loop/offset", "loop offset", unknowns);
  if (auto dio = SysfsCount(sys + "/loop/dio", "loop direct I/O", unknowns)) {
    d.loop_direct_io = *dio != 0;
  }
  if (!d.backing_file) {
    unknowns.push_back("loop backing block: no backing file named");
    return;
  }
  struct statfs below {};
  if (::statfs(d.backing_file->c_str(), &below) != 0) {
    unknowns.push_back(
        "loop backing block: " +
        SystemError(ErrorKind::kSetup, "statfs", *d.backing_file, errno)
            .Message());
  } else if (below.f_bsize > 0) {
    d.loop_backing_block_bytes = static_cast<std::uint64_t>(below.f_bsize);
  }
}

void DeviceUnits(DeviceInfo& d, Unknowns& unknowns) {
  const std::string sys = "/sys/block/" + d.disk;
  const std::string own = d.partition ? sys + "/" + *d.partition : sys;
  d.alignment_offset_bytes =
      SysfsCount(own + "/alignment_offset", "alignment offset", unknowns);
  if (d.partition) {
    // sysfs counts a partition's start in 512-byte sectors, whatever the
    // device's logical block.
    if (auto start = SysfsCount(own + "/start", "partition start", unknowns)) {
      d.partition_start_bytes = *start * 512;
    }
  }
  if (Exists(sys + "/loop")) LoopUnits(d, sys, unknowns);
  if (Exists(sys + "/md")) {
    d.md_chunk_bytes = SysfsCount(sys + "/md/chunk_size", "md chunk", unknowns);
    d.md_raid_disks =
        SysfsCount(sys + "/md/raid_disks", "md raid disks", unknowns);
  }
  if (Exists(sys + "/dm")) {
    const Result<std::string> name = ReadAttribute(sys + "/dm/name");
    if (name) {
      std::string text = name.value();
      while (!text.empty() && text.back() == '\n') text.pop_back();
      if (!text.empty()) d.dm_name = text;
    } else {
      unknowns.push_back("dm name: " + name.error().Message());
    }
  }
}

// The block device node that holds the directory's filesystem: the mount
// source, else /dev/NAME, each only where it is that very device. Only
// under /dev, which root alone changes: a path another user could swap
// between the check and the open might lead to a device that opening
// disturbs (a tape rewinds).
Result<std::string> DeviceNode(const TargetInfo& t, dev_t fs_dev) {
  std::vector<std::string> candidates;
  if (t.mount_source && t.mount_source->rfind("/dev/", 0) == 0) {
    candidates.push_back(*t.mount_source);
  }
  if (t.device) {
    candidates.push_back("/dev/" +
                         t.device->partition.value_or(t.device->disk));
  }
  for (const std::string& path : candidates) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode) &&
        st.st_rdev == fs_dev) {
      return path;
    }
  }
  return PlainError(ErrorKind::kSetup, "ext4 superblock",
                    "no device node of the filesystem's device found");
}

Result<Ext4Units> ReadExt4(const TargetInfo& t, dev_t fs_dev) {
  Result<std::string> node = DeviceNode(t, fs_dev);
  if (!node) return node.error();
  const std::string& path = node.value();
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) {
    const int err = errno;
    Error error = SystemError(ErrorKind::kSetup, "open", path, err);
    if (err == EACCES || err == EPERM) {
      // Root may be refused as well, by a device cgroup or a security
      // module: then asking for root would not help.
      error.hint = ::geteuid() != 0 ? "reading the superblock needs root"
                                    : "refused to root too (a device cgroup "
                                      "or security module)";
    }
    return error;
  }
  unsigned char bytes[kExt4SuperblockBytes];
  if (Status read =
          PreadAll(fd.get(), bytes, sizeof bytes, kExt4SuperblockOffset, path);
      !read) {
    return read.error();
  }
  return ParseExt4Superblock(bytes, sizeof bytes);
}

void FillExt4(TargetInfo& t, dev_t fs_dev, Unknowns& unknowns) {
  const Result<Ext4Units> units = ReadExt4(t, fs_dev);
  if (!units) {
    unknowns.push_back("ext4 cluster: " + units.error().Message());
    return;
  }
  t.ext4_bigalloc = units.value().bigalloc;
  t.ext4_cluster_bytes = units.value().cluster_bytes;
}

void XfsUnits(TargetInfo& t, int dir_fd, Unknowns& unknowns) {
  XfsGeometryV1 geometry{};
  if (::ioctl(dir_fd, kXfsFsGeometryV1, &geometry) != 0) {
    unknowns.push_back("xfs stripe: " + SystemError(ErrorKind::kSetup,
                                                    "XFS_IOC_FSGEOMETRY_V1",
                                                    t.dir, errno)
                                            .Message());
    return;
  }
  t.xfs_sunit_bytes =
      std::uint64_t{geometry.sunit} * std::uint64_t{geometry.blocksize};
  t.xfs_swidth_bytes =
      std::uint64_t{geometry.swidth} * std::uint64_t{geometry.blocksize};
}

// The sizes from /sys/fs/btrfs/FSID, the FSID from BTRFS_IOC_FS_INFO (which
// statfs's f_fsid is not: btrfs folds the subvolume into it).
void BtrfsUnits(TargetInfo& t, int dir_fd, Unknowns& unknowns) {
  btrfs_ioctl_fs_info_args info{};
  if (::ioctl(dir_fd, BTRFS_IOC_FS_INFO, &info) != 0) {
    unknowns.push_back(
        "btrfs sector and node: " +
        SystemError(ErrorKind::kSetup, "BTRFS_IOC_FS_INFO", t.dir, errno)
            .Message());
    return;
  }
  const std::string sys = "/sys/fs/btrfs/" + UuidText(info.fsid);
  t.btrfs_sectorsize_bytes =
      SysfsCount(sys + "/sectorsize", "btrfs sectorsize", unknowns);
  t.btrfs_nodesize_bytes =
      SysfsCount(sys + "/nodesize", "btrfs nodesize", unknowns);
}

void FsUnits(TargetInfo& t, Unknowns& unknowns) {
  const std::string dir = t.real_dir.value_or(t.dir);
  const UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  struct statfs fs {};
  struct stat st {};
  if (!fd.valid() || ::fstatfs(fd.get(), &fs) != 0 ||
      ::fstat(fd.get(), &st) != 0) {
    unknowns.push_back(
        "filesystem block: " +
        SystemError(ErrorKind::kSetup, "statfs", dir, errno).Message());
    return;
  }
  if (fs.f_bsize > 0) t.fs_block_bytes = static_cast<std::uint64_t>(fs.f_bsize);
  if (fs.f_frsize > 0) {
    t.fs_fragment_bytes = static_cast<std::uint64_t>(fs.f_frsize);
  }
  const std::string type = t.fs_type.value_or("");
  if (type.rfind("ext", 0) == 0) FillExt4(t, st.st_dev, unknowns);
  if (type == "xfs") XfsUnits(t, fd.get(), unknowns);
  if (type == "btrfs") BtrfsUnits(t, fd.get(), unknowns);
}

std::optional<std::string> Joined(const std::vector<std::string>& parts) {
  if (parts.empty()) return std::nullopt;
  std::string text;
  for (const std::string& part : parts) {
    text += (text.empty() ? "" : "; ") + part;
  }
  return text;
}

}  // namespace

void ProbeLayerUnits(TargetInfo& info) {
  Unknowns unknowns;
  FsUnits(info, unknowns);
  if (info.device) DeviceUnits(*info.device, unknowns);
  info.off_grid = Joined(OffGrid(info));
  info.units_unknown = Joined(unknowns);
}

}  // namespace alignbench
