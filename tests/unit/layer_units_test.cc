// Every layer's unit, the pure part: the ext4 superblock from its bytes, sysfs
// numbers read strictly, btrfs's fsid as its sysfs name, and the off-grid
// rule on hand-made stacks.
#include "lib/env/layer_units.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

using namespace alignbench;

namespace {

void PutLe32(std::vector<unsigned char>& bytes, std::size_t at,
             std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = (value >> (8 * i)) & 0xFF;
}

// A superblock as mkfs.ext4 lays it out at byte 1024: magic 0xEF53 at 0x38,
// the block and cluster logs at 0x18 and 0x1C, ro_compat at 0x64.
std::vector<unsigned char> Superblock(std::uint32_t log_block,
                                      std::uint32_t log_cluster,
                                      std::uint32_t ro_compat) {
  std::vector<unsigned char> bytes(kExt4SuperblockBytes, 0);
  bytes[0x38] = 0x53;
  bytes[0x39] = 0xEF;
  PutLe32(bytes, 0x18, log_block);
  PutLe32(bytes, 0x1C, log_cluster);
  PutLe32(bytes, 0x64, ro_compat);
  return bytes;
}

DeviceInfo Disk(std::uint64_t logical, std::uint64_t physical) {
  DeviceInfo d;
  d.disk = "loop0";
  d.logical_block_bytes = logical;
  d.physical_block_bytes = physical;
  d.alignment_offset_bytes = 0;
  return d;
}

}  // namespace

TEST_CASE("An ext4 superblock gives the block, and the cluster with bigalloc") {
  // 4 KiB blocks, 16 KiB clusters, sparse_super (0x1) beside bigalloc.
  const auto big = Superblock(2, 4, 0x0200 | 0x1);
  Result<Ext4Units> units = ParseExt4Superblock(big.data(), big.size());
  REQUIRE(units.ok());
  CHECK(units.value().block_bytes == 4096);
  CHECK(units.value().cluster_bytes == 16384);
  CHECK(units.value().bigalloc);

  // Without bigalloc the cluster is the block, whatever the field says.
  const auto plain = Superblock(0, 0, 0x1 | 0x2);
  units = ParseExt4Superblock(plain.data(), plain.size());
  REQUIRE(units.ok());
  CHECK(units.value().block_bytes == 1024);
  CHECK(units.value().cluster_bytes == 1024);
  CHECK_FALSE(units.value().bigalloc);
}

TEST_CASE("A damaged or foreign superblock is an error, never a size") {
  auto bytes = Superblock(2, 4, 0x0200);
  CHECK_FALSE(ParseExt4Superblock(bytes.data(), 0x60).ok());  // too short
  bytes[0x38] = 0;
  const Result<Ext4Units> foreign =
      ParseExt4Superblock(bytes.data(), bytes.size());
  REQUIRE_FALSE(foreign.ok());
  CHECK_THAT(foreign.error().Message(), Catch::Contains("magic"));
  const auto huge_block = Superblock(7, 7, 0);
  CHECK_FALSE(ParseExt4Superblock(huge_block.data(), huge_block.size()).ok());
  const auto huge_cluster = Superblock(2, 21, 0x0200);
  CHECK_FALSE(
      ParseExt4Superblock(huge_cluster.data(), huge_cluster.size()).ok());
  const auto small_cluster = Superblock(2, 1, 0x0200);
  CHECK_FALSE(
      ParseExt4Superblock(small_cluster.data(), small_cluster.size()).ok());
}

TEST_CASE("A sysfs count is a plain decimal, or nothing") {
  CHECK(ParseSysfsCount("4096\n") == std::uint64_t{4096});
  CHECK(ParseSysfsCount("0") == std::uint64_t{0});
  CHECK(ParseSysfsCount("18446744073709551615\n") == UINT64_MAX);
  CHECK_FALSE(ParseSysfsCount("18446744073709551616").has_value());
  // alignment_offset says -1 where the layers below do not line up.
  CHECK_FALSE(ParseSysfsCount("-1\n").has_value());
  CHECK_FALSE(ParseSysfsCount("").has_value());
  CHECK_FALSE(ParseSysfsCount("\n").has_value());
  CHECK_FALSE(ParseSysfsCount("4k").has_value());
  CHECK_FALSE(ParseSysfsCount(" 12").has_value());
}

TEST_CASE("A btrfs fsid is named as a UUID under /sys/fs/btrfs") {
  const unsigned char fsid[16] = {0x1b, 0x7c, 0x00, 0xff, 0x12, 0x34,
                                  0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
                                  0x01, 0x02, 0x03, 0x04};
  CHECK(UuidText(fsid) == "1b7c00ff-1234-5678-9abc-def001020304");
}

TEST_CASE("A stack whose layers all start on the grid below says nothing") {
  TargetInfo t;
  t.device = Disk(4096, 4096);
  t.device->loop_offset_bytes = 0;
  t.device->loop_backing_block_bytes = 4096;
  t.fs_block_bytes = 4096;
  CHECK(OffGrid(t).empty());
  // Unknown units judge nothing.
  CHECK(OffGrid(TargetInfo{}).empty());
}

TEST_CASE("A loop offset off its backing file's blocks is named") {
  TargetInfo t;
  t.device = Disk(512, 512);
  t.device->loop_offset_bytes = 512;
  t.device->loop_backing_block_bytes = 4096;
  t.fs_block_bytes = 4096;
  CHECK(OffGrid(t) ==
        std::vector<std::string>{"loop offset 512 B: not a multiple of the "
                                 "4096-byte blocks below"});
  t.device->loop_offset_bytes = 8192;
  CHECK(OffGrid(t).empty());
}

TEST_CASE("A partition off the grid: of the loop's backing file, of sectors") {
  TargetInfo t;
  t.device = Disk(512, 512);
  t.device->partition = "loop0p1";
  t.device->partition_start_bytes = 512;
  t.device->loop_offset_bytes = 0;
  t.device->loop_backing_block_bytes = 4096;
  CHECK(OffGrid(t) == std::vector<std::string>{
                          "partition start 512 B on loop0 (byte 512 of its "
                          "backing file): not a multiple of the 4096-byte "
                          "blocks below"});
  // A 512e disk: the partition's start names the misfit, and its
  // alignment_offset, which says the same, adds no second sentence.
  TargetInfo disk;
  disk.device = Disk(512, 4096);
  disk.device->disk = "sda";
  disk.device->partition = "sda1";
  disk.device->partition_start_bytes = 63 * 512;
  disk.device->alignment_offset_bytes = 512;
  CHECK(OffGrid(disk) ==
        std::vector<std::string>{"partition start 32256 B: not a multiple of "
                                 "the 4096-byte physical sector"});
}

TEST_CASE("A non-zero alignment offset and a small filesystem block") {
  TargetInfo t;
  t.device = Disk(512, 4096);
  t.device->disk = "sdb";
  t.device->alignment_offset_bytes = 3584;
  t.fs_block_bytes = 1024;
  const std::vector<std::string> said = OffGrid(t);
  REQUIRE(said.size() == 2);
  CHECK(said[0] ==
        "alignment offset 3584 B: sdb starts off the grid of its 4096-byte "
        "physical sectors");
  CHECK_THAT(said[1],
             Catch::StartsWith("filesystem block 1024 B: smaller than the "
                               "4096-byte physical sector"));
}
