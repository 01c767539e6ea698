// Every layer's unit read from this machine: what any directory has (a page,
// a filesystem block), and a directory that cannot be probed left unknown
// with its reason, never 0. The units of real stacks (loop offsets,
// partitions, ext4 bigalloc, xfs stripes, btrfs) are held to what mkfs and
// losetup set in tests/integration/stack_units.sh, which needs root.
#include "lib/env/layer_probe.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "lib/env/probe.h"

using namespace alignbench;

TEST_CASE("Any directory has a page and a filesystem block") {
  const TargetInfo t = ProbeTarget(ALIGNBENCH_SOURCE_DIR);
  REQUIRE(t.host.page_bytes.has_value());
  CHECK(*t.host.page_bytes ==
        static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)));
  REQUIRE(t.fs_block_bytes.has_value());
  CHECK(*t.fs_block_bytes > 0);
  REQUIRE(t.fs_fragment_bytes.has_value());
  CHECK(*t.fs_fragment_bytes > 0);
  if (t.device) CHECK(t.device->alignment_offset_bytes.has_value());
}

TEST_CASE("A directory that cannot be probed leaves its units unknown") {
  TargetInfo t;
  t.dir = "/nonexistent/alignbench-layer-probe-test";
  t.fs_type = "ext4";
  ProbeLayerUnits(t);
  CHECK_FALSE(t.fs_block_bytes.has_value());
  CHECK_FALSE(t.ext4_cluster_bytes.has_value());
  CHECK_FALSE(t.off_grid.has_value());
  REQUIRE(t.units_unknown.has_value());
  CHECK_THAT(*t.units_unknown,
             Catch::StartsWith("filesystem block: statfs "
                               "/nonexistent/alignbench-layer-probe-test: "
                               "No such file or directory"));
}

TEST_CASE("A device that is not there leaves its units unknown, with why") {
  TargetInfo t;
  t.dir = ALIGNBENCH_SOURCE_DIR;
  t.device.emplace();
  t.device->disk = "alignbench-no-such-disk";
  ProbeLayerUnits(t);
  CHECK_FALSE(t.device->alignment_offset_bytes.has_value());
  REQUIRE(t.units_unknown.has_value());
  CHECK_THAT(*t.units_unknown,
             Catch::Contains("alignment offset: open "
                             "/sys/block/alignbench-no-such-disk/"
                             "alignment_offset: No such file or directory"));
}
