// Every layer's unit, the pure part: what an ext4 superblock says of its
// block and cluster, a sysfs number read strictly, and the rule that says
// where a layer starts off the grid of the one below. A write aligned to the
// filesystem's block still costs a read-modify-write when the filesystem (or
// the partition, or a loop device's offset) does not start on a boundary of
// the unit below, so the probe names each unit and each misfit in words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/base/error.h"
#include "lib/env/target_info.h"

namespace alignbench {

// What an ext4 (or ext2/ext3) superblock says of its allocation units.
struct Ext4Units {
  std::uint64_t block_bytes = 0;
  // The bigalloc cluster; equal to the block where bigalloc is off.
  std::uint64_t cluster_bytes = 0;
  bool bigalloc = false;
};

// Where the superblock lies on the device, and how many bytes of it the
// parser reads.
inline constexpr std::uint64_t kExt4SuperblockOffset = 1024;
inline constexpr std::size_t kExt4SuperblockBytes = 1024;

// The superblock's bytes as they lie at byte 1024 of the device (at least up
// to s_feature_ro_compat). An error where the magic number is not ext's or a
// size is out of what the kernel mounts.
Result<Ext4Units> ParseExt4Superblock(const unsigned char* bytes,
                                      std::size_t size);

// A sysfs attribute holding one non-negative decimal number ("4096\n"):
// nullopt for anything else, a negative one included (alignment_offset is -1
// where the kernel found the layers below misaligned).
std::optional<std::uint64_t> ParseSysfsCount(std::string_view text);

// The 16 bytes of a btrfs fsid as the directory name under /sys/fs/btrfs:
// "1b7c...-...", lower-case, dashed as a UUID.
std::string UuidText(const unsigned char (&bytes)[16]);

// Where a layer starts off the grid of the one below, one sentence each,
// from what the probe knew (an unknown unit judges nothing): a loop device's
// offset (with a partition's start on it) against the blocks of its backing
// file's filesystem, a partition's start against the physical sector, a
// non-zero alignment_offset, and a filesystem block smaller than the
// physical sector.
std::vector<std::string> OffGrid(const TargetInfo& target);

// One layer's unit as the probe read it: "page" 4096, "filesystem block"
// 4096, "xfs stripe width" 262144.
struct LayerUnit {
  std::string layer;
  std::uint64_t bytes = 0;
};

// Every unit a layer of the target declares, bottom of the stack last: the
// page, the filesystem's block, cluster, stripe or node, the direct I/O
// alignment, the device's sectors and minimum and optimal I/O, an md chunk.
// What the probe could not read is left out, never guessed; a 0 (no stripe,
// no optimal size) declares nothing.
std::vector<LayerUnit> DeclaredUnits(const TargetInfo& target);

}  // namespace alignbench
