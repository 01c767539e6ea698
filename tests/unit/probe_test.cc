#include "lib/env/probe.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("statfs magic numbers name the filesystems a chroot may hide") {
  CHECK(FsTypeOfMagic(0xEF53) == "ext2/ext3/ext4");
  CHECK(FsTypeOfMagic(0x58465342) == "xfs");
  CHECK(FsTypeOfMagic(0x9123683E) == "btrfs");
  CHECK(FsTypeOfMagic(0x01021994) == "tmpfs");
  CHECK(FsTypeOfMagic(0x6969) == "nfs");
  CHECK(FsTypeOfMagic(0x794C7630) == "overlay");
  CHECK(FsTypeOfMagic(0x2FC12FC1) == "zfs");
  CHECK(FsTypeOfMagic(0xF2F52010) == "f2fs");
}

TEST_CASE("an unknown magic number names nothing, never a guess") {
  CHECK_FALSE(FsTypeOfMagic(0).has_value());
  CHECK_FALSE(FsTypeOfMagic(0x12345678).has_value());
}
