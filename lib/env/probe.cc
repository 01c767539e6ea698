#include "lib/env/probe.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "lib/env/layer_probe.h"
#include "lib/env/mounts.h"
#include "lib/env/netfs.h"
#include "lib/io/command.h"
#include "lib/io/test_file.h"

namespace alignbench {
namespace {

std::optional<std::string> ReadLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == ' ' || line.back() == '\n'))
    line.pop_back();
  return line;
}

std::optional<std::uint64_t> ReadNumber(const std::string& path) {
  auto line = ReadLine(path);
  if (!line || line->empty()) return std::nullopt;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(line->c_str(), &end, 10);
  if (end == line->c_str()) return std::nullopt;
  return value;
}

std::optional<std::string> RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) return std::nullopt;
  return std::string(resolved);
}

std::string Basename(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

// The selected scheduler is the bracketed word of "mq-deadline [none]".
std::optional<std::string> SelectedScheduler(const std::string& path) {
  auto line = ReadLine(path);
  if (!line) return std::nullopt;
  const auto open = line->find('['), close = line->find(']');
  if (open == std::string::npos || close == std::string::npos) return *line;
  return line->substr(open + 1, close - open - 1);
}

// The mount under real_dir: found by its path, or in a chroot, which hides its
// own "/", by the directory's device number (then the mount point, a path of
// another root, is left unknown).
void FillMount(TargetInfo& info, const std::string& real_dir) {
  struct stat st {};
  std::string devno;
  if (::stat(real_dir.c_str(), &st) == 0) {
    devno = std::to_string(major(st.st_dev)) + ":" +
            std::to_string(minor(st.st_dev));
  }
  const std::optional<FoundMount> found = MountOf(real_dir, devno);
  if (!found) return;
  if (found->by_path) info.mount_point = found->entry.point;
  info.fs_type = found->entry.fs_type;
  info.mount_source = found->entry.source;
  info.mount_options = found->entry.options;
}

// Device-mapper and md devices list what they are built from in slaves/.
std::optional<std::string> StackOf(const std::string& disk) {
  const std::string base = "/sys/block/" + disk;
  DIR* slaves = ::opendir((base + "/slaves").c_str());
  if (slaves == nullptr) return std::nullopt;
  std::vector<std::string> names;
  while (const dirent* entry = ::readdir(slaves)) {
    if (entry->d_name[0] != '.') names.push_back(entry->d_name);
  }
  ::closedir(slaves);
  if (names.empty()) return std::nullopt;
  std::sort(names.begin(), names.end());
  std::string stack = disk + ":";
  if (auto name = ReadLine(base + "/dm/name")) stack += " " + *name;
  if (auto level = ReadLine(base + "/md/level")) stack += " " + *level;
  stack += " on";
  for (const std::string& name : names) stack += " " + name;
  return stack;
}

// The drive's own write cache as hdparm -W reports it ("write-caching =  1
// (on)"), for sd* disks when hdparm is installed; nothing otherwise. No shell
// sees the device's name.
std::optional<bool> HdparmWriteCache(const std::string& disk) {
  if (disk.rfind("sd", 0) != 0) return std::nullopt;
  const CommandOutput out =
      RunCommand({"hdparm", "-W", "/dev/" + disk}, OutputStream::kStdout, 5000);
  if (!out.exited) return std::nullopt;
  const std::size_t at = out.text.find("write-caching =");
  if (at == std::string::npos) return std::nullopt;
  const std::size_t end = out.text.find('\n', at);
  return out.text.substr(at, end - at).find("(on)") != std::string::npos;
}

// /sys/dev/block/MAJ:MIN resolves to .../block/<disk>[/<partition>].
std::optional<DeviceInfo> DeviceFromNumber(dev_t number) {
  const std::string link = "/sys/dev/block/" + std::to_string(major(number)) +
                           ":" + std::to_string(minor(number));
  auto sys_path = RealPath(link);
  if (!sys_path) return std::nullopt;
  DeviceInfo device;
  std::string disk_path = *sys_path;
  if (::access((disk_path + "/partition").c_str(), F_OK) == 0) {
    device.partition = Basename(disk_path);
    disk_path = disk_path.substr(0, disk_path.rfind('/'));
  }
  device.disk = Basename(disk_path);
  const std::string q = "/sys/block/" + device.disk + "/queue/";
  device.backing_file =
      ReadLine("/sys/block/" + device.disk + "/loop/backing_file");
  device.model = ReadLine("/sys/block/" + device.disk + "/device/model");
  device.vendor = ReadLine("/sys/block/" + device.disk + "/device/vendor");
  if (auto rotational = ReadNumber(q + "rotational"))
    device.rotational = *rotational != 0;
  device.logical_block_bytes = ReadNumber(q + "logical_block_size");
  device.physical_block_bytes = ReadNumber(q + "physical_block_size");
  device.minimum_io_bytes = ReadNumber(q + "minimum_io_size");
  device.optimal_io_bytes = ReadNumber(q + "optimal_io_size");
  if (device.optimal_io_bytes == 0u)
    device.optimal_io_bytes.reset();  // 0: not reported
  device.write_cache = ReadLine(q + "write_cache");
  if (auto fua = ReadNumber(q + "fua")) device.fua = *fua != 0;
  device.scheduler = SelectedScheduler(q + "scheduler");
  device.atomic_write_unit_min_bytes =
      ReadNumber(q + "atomic_write_unit_min_bytes");
  device.atomic_write_unit_max_bytes =
      ReadNumber(q + "atomic_write_unit_max_bytes");
  device.atomic_write_max_bytes = ReadNumber(q + "atomic_write_max_bytes");
  device.atomic_write_boundary_bytes =
      ReadNumber(q + "atomic_write_boundary_bytes");
  device.stack = StackOf(device.disk);
  device.drive_write_cache = HdparmWriteCache(device.disk);
  return device;
}

// Where mountinfo names no mount for the directory, statfs still knows the
// filesystem's type.
void FillFsTypeFromStatfs(TargetInfo& info) {
  if (info.fs_type) return;
  struct statfs fs {};
  if (::statfs(info.dir.c_str(), &fs) != 0) return;
  // f_type is a signed word: keep the 32 bits the magic numbers have.
  info.fs_type =
      FsTypeOfMagic(static_cast<std::uint64_t>(fs.f_type) & 0xFFFFFFFFu);
}

void FillDevice(TargetInfo& info) {
  struct stat st {};
  if (::stat(info.dir.c_str(), &st) != 0) {
    info.no_device_reason = "cannot stat the directory";
    return;
  }
  info.device = DeviceFromNumber(st.st_dev);
  // btrfs and some others report an anonymous device number; the mount source
  // names the real one.
  if (!info.device && info.mount_source &&
      info.mount_source->rfind("/dev/", 0) == 0) {
    struct stat source {};
    if (::stat(info.mount_source->c_str(), &source) == 0 &&
        S_ISBLK(source.st_mode)) {
      info.device = DeviceFromNumber(source.st_rdev);
    }
  }
  if (!info.device) {
    const std::string fs = info.fs_type.value_or("unknown filesystem");
    const std::string kind = StorageKind(fs);
    info.no_device_reason =
        kind == kNetworkFs ? "no local block device takes these writes (" + fs +
                                 ", a network filesystem: they go to its "
                                 "server): device counters see none of them"
        : kind == kMemory
            ? "no block device under this directory (" + fs +
                  ": the writes stay in memory): no device counters"
            : "no block device under this directory (" + fs +
                  "): device counters are not available";
  }
}

// struct statx as Linux 6.11 lays it out: glibc 2.36's has no names for
// the atomic write units, which follow the direct-I/O alignment.
struct StatxWithAtomic {
  std::uint32_t mask;
  std::uint32_t head[35];  // stx_blksize to stx_dev_minor
  std::uint64_t mnt_id;
  std::uint32_t dio_mem_align;
  std::uint32_t dio_offset_align;
  std::uint64_t subvol;
  std::uint32_t atomic_write_unit_min;
  std::uint32_t atomic_write_unit_max;
  std::uint32_t atomic_write_segments_max;
  std::uint32_t tail[19];
};
static_assert(sizeof(StatxWithAtomic) == 256, "the kernel's struct statx");
static_assert(offsetof(StatxWithAtomic, dio_mem_align) == 0x98,
              "stx_dio_mem_align");
static_assert(offsetof(StatxWithAtomic, atomic_write_unit_min) == 0xa8,
              "stx_atomic_write_unit_min");
constexpr unsigned kStatxDioAlign = 0x2000;      // STATX_DIOALIGN
constexpr unsigned kStatxWriteAtomic = 0x10000;  // STATX_WRITE_ATOMIC

// What statx says of a private test file: the alignment O_DIRECT needs and
// the atomic writes the filesystem takes. A kernel that does not know a
// mask bit leaves it clear, and the fact unknown.
void FillStatx(TargetInfo& info) {
  Result<TestFile> file = TestFile::Create(info.dir);
  if (!file) return;  // an unwritable directory fails later with a clear error
  StatxWithAtomic stx{};
  if (::syscall(SYS_statx, file.value().fd(), "", AT_EMPTY_PATH,
                kStatxDioAlign | kStatxWriteAtomic, &stx) != 0) {
    return;
  }
  if ((stx.mask & kStatxDioAlign) && stx.dio_offset_align != 0) {
    info.dio_offset_align = stx.dio_offset_align;
    info.dio_mem_align = stx.dio_mem_align;
  }
  if (stx.mask & kStatxWriteAtomic) {
    info.atomic_write_unit_min = stx.atomic_write_unit_min;
    info.atomic_write_unit_max = stx.atomic_write_unit_max;
    info.atomic_write_segments_max = stx.atomic_write_segments_max;
  }
}

}  // namespace

std::optional<std::string> FsTypeOfMagic(std::uint64_t magic) {
  // The values of <linux/magic.h>, which not every libc exports (zfs is not
  // in the kernel's header at all).
  static constexpr struct {
    std::uint64_t magic;
    const char* name;
  } kTable[] = {
      {0xEF53, "ext2/ext3/ext4"}, {0x58465342, "xfs"},  {0x9123683E, "btrfs"},
      {0x01021994, "tmpfs"},      {0x6969, "nfs"},      {0x794C7630, "overlay"},
      {0x2FC12FC1, "zfs"},        {0xF2F52010, "f2fs"},
  };
  for (const auto& entry : kTable) {
    if (entry.magic == magic) return std::string(entry.name);
  }
  return std::nullopt;
}

HostInfo ProbeHost() {
  HostInfo host;
  struct utsname names {};
  if (::uname(&names) == 0) {
    host.hostname = names.nodename;
    host.kernel = names.release;
  }
  std::ifstream os("/etc/os-release");
  for (std::string line; std::getline(os, line);) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string value = line.substr(12);
      if (value.size() >= 2 && value.front() == '"')
        value = value.substr(1, value.size() - 2);
      host.distribution = value;
    }
  }
  std::ifstream cpu("/proc/cpuinfo");
  for (std::string line; std::getline(cpu, line);) {
    if (line.rfind("model name", 0) == 0 &&
        line.find(':') != std::string::npos) {
      host.cpu_model = line.substr(line.find(':') + 2);
      break;
    }
  }
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus > 0) host.cpus = static_cast<unsigned>(cpus);
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (page > 0) host.page_bytes = static_cast<std::uint64_t>(page);
  if (pages > 0 && page > 0) {
    host.memory_bytes =
        static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
  }
  return host;
}

TargetInfo ProbeTarget(const std::string& dir) {
  TargetInfo info;
  info.dir = dir;
  info.real_dir = RealPath(dir);
  if (info.real_dir) FillMount(info, *info.real_dir);
  FillFsTypeFromStatfs(info);
  FillDevice(info);
  if (!info.device && info.fs_type) {
    info.sync_effect =
        SyncEffect(*info.fs_type, info.mount_source.value_or(""),
                   info.mount_point.value_or(info.real_dir.value_or(dir)));
  }
  FillStatx(info);
  ProbeLayerUnits(info);
  info.host = ProbeHost();
  return info;
}

std::optional<std::string> ReadWriteCache(const DeviceInfo& device) {
  return ReadLine("/sys/block/" + device.disk + "/queue/write_cache");
}

}  // namespace alignbench
