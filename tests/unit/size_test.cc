// Byte sizes: a table of good inputs and a table of bad ones.
#include "lib/config/size.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("ParseByteSize accepts what people write") {
  const std::pair<const char*, std::uint64_t> good[] = {
      {"0", 0},          {"1", 1},           {"4096", 4096},   {"4K", 4096},
      {"4k", 4096},      {"4KiB", 4096},     {"512K", 524288}, {"1M", 1048576},
      {"1MiB", 1048576}, {"2G", 2ull << 30}, {" 8K ", 8192},   {"24B", 24},
  };
  for (const auto& [text, expected] : good) {
    INFO(text);
    const auto parsed = ParseByteSize(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == expected);
  }
}

TEST_CASE("ParseByteSize refuses bad input with a reason") {
  const std::pair<const char*, const char*> bad[] = {
      {"", "expected a number"},
      {"K", "expected a number"},
      {"-4K", "negative"},
      {"4Q", "unknown suffix 'Q'"},
      {"4KB", "unknown suffix"},
      {"1.5K", "unknown suffix '.5K'"},
      {"99999999999999999999", "too large"},
      {"17179869184G", "too large"},
      {"abc", "expected a number"},
  };
  for (const auto& [text, reason] : bad) {
    INFO(text);
    const auto parsed = ParseByteSize(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().kind == ErrorKind::kUsage);
    CHECK_THAT(parsed.error().Message(), Catch::Contains(reason));
  }
}

TEST_CASE("ParseSizeList: lists and power-of-two ranges in either direction") {
  using V = std::vector<std::uint64_t>;
  CHECK(ParseSizeList("512K,4K,1K").value() == V{524288, 4096, 1024});
  CHECK(ParseSizeList("1K..8K").value() == V{1024, 2048, 4096, 8192});
  CHECK(ParseSizeList("8K..1K").value() == V{8192, 4096, 2048, 1024});
  CHECK(ParseSizeList("4K..4K").value() == V{4096});
  CHECK(ParseSizeList("12K,1K..2K").value() == V{12288, 1024, 2048});
  CHECK(ParseSizeList("1K..512K").value().size() == 10);
}

TEST_CASE("ParseSizeList refuses broken lists and ranges") {
  for (const char* text :
       {"", "4K,", ",4K", "1K..12K", "0..4K", "4K..", "..4K", "4K,,8K"}) {
    INFO(text);
    CHECK_FALSE(ParseSizeList(text).ok());
  }
}

TEST_CASE("FormatSize prints the shortest exact form") {
  CHECK(FormatSize(524288) == "512K");
  CHECK(FormatSize(1048576) == "1M");
  CHECK(FormatSize(12288) == "12K");
  CHECK(FormatSize(1000) == "1000");
  CHECK(FormatSize(0) == "0");
  CHECK(FormatSize(1ull << 30) == "1G");
}
