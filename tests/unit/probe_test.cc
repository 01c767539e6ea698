#include "lib/env/probe.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <utility>

using namespace alignbench;

TEST_CASE("statfs magic numbers name the filesystems a chroot may hide") {
  // The values of <linux/magic.h> (zfs: its own headers).
  const std::pair<std::uint64_t, const char*> known[] = {
      {0xEF53, "ext2/ext3/ext4"}, {0x58465342, "xfs"},  {0x9123683E, "btrfs"},
      {0x01021994, "tmpfs"},      {0x6969, "nfs"},      {0x794C7630, "overlay"},
      {0x2FC12FC1, "zfs"},        {0xF2F52010, "f2fs"},
  };
  for (const auto& [magic, name] : known) {
    INFO(name);
    CHECK(FsTypeOfMagic(magic) == name);
  }
}

TEST_CASE("an unknown magic number names nothing, never a guess") {
  CHECK_FALSE(FsTypeOfMagic(0).has_value());
  CHECK_FALSE(FsTypeOfMagic(0x12345678).has_value());
}
