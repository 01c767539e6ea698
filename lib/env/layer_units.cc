#include "lib/env/layer_units.h"

#include <cstdio>
#include <utility>

namespace alignbench {
namespace {

// Offsets in struct ext4_super_block, as the kernel's fs/ext4/ext4.h and
// e2fsprogs' ext2_fs.h lay it out (every field little-endian).
constexpr std::size_t kLogBlockSize = 0x18;    // s_log_block_size
constexpr std::size_t kLogClusterSize = 0x1C;  // s_log_cluster_size
constexpr std::size_t kMagic = 0x38;           // s_magic, 16 bits
constexpr std::size_t kRoCompat = 0x64;        // s_feature_ro_compat
constexpr std::uint16_t kExtMagic = 0xEF53;
constexpr std::uint32_t kRoCompatBigalloc = 0x0200;
// The kernel mounts blocks of 1 KiB << 0..6 (64 KiB) and clusters up to
// 1 KiB << 20 (1 GiB); a larger log is a damaged superblock.
constexpr std::uint32_t kMaxLogBlock = 6;
constexpr std::uint32_t kMaxLogCluster = 20;

std::uint32_t Le32(const unsigned char* at) {
  return static_cast<std::uint32_t>(at[0]) |
         static_cast<std::uint32_t>(at[1]) << 8 |
         static_cast<std::uint32_t>(at[2]) << 16 |
         static_cast<std::uint32_t>(at[3]) << 24;
}

Error Damaged(const std::string& detail) {
  return PlainError(ErrorKind::kSetup, "ext4 superblock", detail);
}

std::string Bytes(std::uint64_t n) { return std::to_string(n) + " B"; }

// The loop device's own grid: its offset, with a partition's start on it,
// against the blocks of the backing file's filesystem.
void LoopOffGrid(const DeviceInfo& d, std::vector<std::string>& out) {
  if (!d.loop_offset_bytes || !d.loop_backing_block_bytes) return;
  const std::uint64_t below = *d.loop_backing_block_bytes;
  if (below == 0) return;
  const std::string grid =
      "not a multiple of the " + std::to_string(below) + "-byte blocks below";
  if (*d.loop_offset_bytes % below != 0) {
    out.push_back("loop offset " + Bytes(*d.loop_offset_bytes) + ": " + grid);
    return;
  }
  if (!d.partition_start_bytes) return;
  const std::uint64_t into = *d.loop_offset_bytes + *d.partition_start_bytes;
  if (into % below != 0) {
    out.push_back("partition start " + Bytes(*d.partition_start_bytes) +
                  " on " + d.disk + " (byte " + std::to_string(into) +
                  " of its backing file): " + grid);
  }
}

// A partition's start, or else the device's alignment_offset, against the
// physical sector: one sentence for one misfit, which both would name.
void SectorOffGrid(const DeviceInfo& d, std::vector<std::string>& out) {
  const std::optional<std::uint64_t> physical = d.physical_block_bytes;
  if (physical && *physical != 0 && d.partition_start_bytes &&
      *d.partition_start_bytes % *physical != 0) {
    out.push_back("partition start " + Bytes(*d.partition_start_bytes) +
                  ": not a multiple of the " + std::to_string(*physical) +
                  "-byte physical sector");
    return;
  }
  if (d.alignment_offset_bytes && *d.alignment_offset_bytes != 0) {
    out.push_back("alignment offset " + Bytes(*d.alignment_offset_bytes) +
                  ": " + d.partition.value_or(d.disk) +
                  " starts off the grid of its " +
                  (physical ? std::to_string(*physical) + "-byte " : "") +
                  "physical sectors");
  }
}

}  // namespace

Result<Ext4Units> ParseExt4Superblock(const unsigned char* bytes,
                                      std::size_t size) {
  if (size < kRoCompat + 4) {
    return Damaged("only " + std::to_string(size) + " bytes read");
  }
  const std::uint16_t magic =
      static_cast<std::uint16_t>(bytes[kMagic] | bytes[kMagic + 1] << 8);
  if (magic != kExtMagic) return Damaged("no ext2/3/4 magic number");
  const std::uint32_t log_block = Le32(bytes + kLogBlockSize);
  const std::uint32_t log_cluster = Le32(bytes + kLogClusterSize);
  if (log_block > kMaxLogBlock) {
    return Damaged("block size log " + std::to_string(log_block));
  }
  Ext4Units units;
  units.block_bytes = std::uint64_t{1024} << log_block;
  units.bigalloc = (Le32(bytes + kRoCompat) & kRoCompatBigalloc) != 0;
  if (!units.bigalloc) {
    // Without bigalloc the kernel refuses a cluster other than the block.
    units.cluster_bytes = units.block_bytes;
    return units;
  }
  if (log_cluster > kMaxLogCluster || log_cluster < log_block) {
    return Damaged("cluster size log " + std::to_string(log_cluster));
  }
  units.cluster_bytes = std::uint64_t{1024} << log_cluster;
  return units;
}

std::optional<std::uint64_t> ParseSysfsCount(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::string UuidText(const unsigned char (&bytes)[16]) {
  std::string text;
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    std::snprintf(hex, sizeof hex, "%02x", bytes[i]);
    text += hex;
  }
  return text;
}

std::vector<std::string> OffGrid(const TargetInfo& target) {
  std::vector<std::string> out;
  if (target.device) {
    LoopOffGrid(*target.device, out);
    SectorOffGrid(*target.device, out);
  }
  const std::optional<std::uint64_t> physical =
      target.device ? target.device->physical_block_bytes : std::nullopt;
  if (target.fs_block_bytes && physical && *target.fs_block_bytes < *physical) {
    out.push_back("filesystem block " + Bytes(*target.fs_block_bytes) +
                  ": smaller than the " + std::to_string(*physical) +
                  "-byte physical sector, so writing one block rewrites a "
                  "sector in part");
  }
  return out;
}

std::vector<LayerUnit> DeclaredUnits(const TargetInfo& t) {
  const std::optional<DeviceInfo> none;
  const std::optional<DeviceInfo>& d = t.device ? t.device : none;
  const std::pair<const char*, std::optional<std::uint64_t>> units[] = {
      {"page", t.host.page_bytes},
      {"filesystem block", t.fs_block_bytes},
      {"ext4 cluster",
       t.ext4_bigalloc.value_or(false) ? t.ext4_cluster_bytes : std::nullopt},
      {"xfs stripe unit", t.xfs_sunit_bytes},
      {"xfs stripe width", t.xfs_swidth_bytes},
      {"btrfs sector", t.btrfs_sectorsize_bytes},
      {"btrfs node", t.btrfs_nodesize_bytes},
      {"direct I/O alignment", t.dio_offset_align},
      {"logical sector", d ? d->logical_block_bytes : std::nullopt},
      {"physical sector", d ? d->physical_block_bytes : std::nullopt},
      {"minimum I/O", d ? d->minimum_io_bytes : std::nullopt},
      {"optimal I/O", d ? d->optimal_io_bytes : std::nullopt},
      {"md chunk", d ? d->md_chunk_bytes : std::nullopt},
  };
  std::vector<LayerUnit> out;
  for (const auto& [layer, bytes] : units) {
    if (bytes && *bytes != 0) out.push_back({layer, *bytes});
  }
  return out;
}

}  // namespace alignbench
