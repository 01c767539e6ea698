// What the probe knows of a target, apart from how it learns it: the
// O_DIRECT alignment it falls back to, and the target's name in titles.
#include "lib/env/target_info.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("O_DIRECT's alignment: statx's, else the logical block, else 4096") {
  TargetInfo t;
  CHECK(t.DirectAlignment() == 4096);
  t.device.emplace();
  t.device->logical_block_bytes = 512;
  CHECK(t.DirectAlignment() == 512);
  t.dio_offset_align = 4096;
  CHECK(t.DirectAlignment() == 4096);
}

TEST_CASE("A target's title names its filesystem and device") {
  TargetInfo t;
  t.dir = "/mnt";
  CHECK(t.Title() == "/mnt (unknown-fs)");
  t.fs_type = "tmpfs";
  t.mount_source = "tmpfs";
  CHECK(t.Title() == "/mnt (tmpfs tmpfs)");
  t.fs_type = "ext4";
  t.device.emplace();
  t.device->disk = "loop0";
  t.device->partition = "loop0p1";
  CHECK(t.Title() == "/mnt (ext4 /dev/loop0p1)");
}
