// lib/io/space.h: CheckFreeSpace accepts what fits and refuses, with ENOSPC,
// what no filesystem can hold; a directory that is missing or has no storage
// is refused too.
#include "lib/io/space.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdint>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

TEST_CASE("space: a small size fits, an impossible one is ENOSPC") {
  TempDir dir;
  CHECK(CheckFreeSpace(dir.path(), 0));
  CHECK(CheckFreeSpace(dir.path(), 4096));
  const Status huge = CheckFreeSpace(dir.path(), std::uint64_t{1} << 62);
  REQUIRE_FALSE(huge);
  CHECK(huge.error().kind == ErrorKind::kSetup);
  CHECK(huge.error().errno_value == ENOSPC);
  // Within 1 MiB of 2^64 the margin must not wrap the need round to a small
  // number.
  CHECK_FALSE(CheckFreeSpace(dir.path(), UINT64_MAX));
  CHECK_FALSE(CheckFreeSpace(dir.path(), UINT64_MAX - 1000));
}

TEST_CASE("space: no storage and no directory are refused") {
  const Status proc = CheckFreeSpace("/proc", 1);
  REQUIRE_FALSE(proc);
  CHECK(proc.error().errno_value == 0);
  const Status missing = CheckFreeSpace("/nonexistent/alignbench", 1);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().errno_value == ENOENT);
}
