#include "lib/measure/pattern.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("Aligned writes start on block boundaries") {
  const WritePattern p{Variant::kAligned, 4096, 24};
  CHECK(p.HeaderBytes() == 0);
  CHECK(p.OffsetOf(0) == 0);
  CHECK(p.OffsetOf(1) == 4096);
  CHECK(p.OffsetOf(127) == 127 * 4096);
  CHECK(p.EndAfter(128) == 128 * 4096);
}

TEST_CASE("Shifted writes follow an untimed header of `shift` bytes") {
  const WritePattern p{Variant::kShifted, 1024, 24};
  CHECK(p.HeaderBytes() == 24);
  CHECK(p.OffsetOf(0) == 24);
  CHECK(p.OffsetOf(3) == 24 + 3 * 1024);
  CHECK(p.EndAfter(128) == 24 + 128 * 1024);
}

TEST_CASE("A zero shift makes both variants the same pattern (A/A runs)") {
  const WritePattern shifted{Variant::kShifted, 8192, 0};
  const WritePattern aligned{Variant::kAligned, 8192, 0};
  for (std::uint64_t k = 0; k < 5; ++k)
    CHECK(shifted.OffsetOf(k) == aligned.OffsetOf(k));
}
