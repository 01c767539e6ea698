// The cells of the printers' columns.
#include "lib/render/cells.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("JavaDouble prints the shortest round-trip digits with a decimal") {
  CHECK(JavaDouble(10.0) == "10.0");
  CHECK(JavaDouble(18.359375) == "18.359375");
  CHECK(JavaDouble(3.09423347398031) == "3.09423347398031");
  CHECK(JavaDouble(-0.8169219547775413) == "-0.8169219547775413");
  CHECK(JavaDouble(0.5) == "0.5");
}

TEST_CASE("Sizes print as Derby did, and cells pad to their column") {
  CHECK(SizeColumn(4096) == "4");
  CHECK(SizeColumn(65536) == "64");
  CHECK(SizeColumn(512) == "512");
  CHECK(Pad("ab", 4) == "  ab");
  CHECK(Pad("abcdef", 4) == "abcdef");
}
