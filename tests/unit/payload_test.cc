// The bytes each write carries: distinct from write to write, the same from
// run to run, in bounded memory.
#include "lib/measure/payload.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <string>

using namespace alignbench;

namespace {

std::string BytesOf(Payload& payload, std::uint64_t k, std::size_t size) {
  return std::string(payload.For(k), size);
}

}  // namespace

TEST_CASE("Two consecutive writes of a run carry different bytes") {
  for (std::size_t size : {512u, 4096u, 65536u, 524288u}) {
    INFO("size " << size);
    Payload payload(size, 4096, 128);
    std::string previous = BytesOf(payload, 0, size);
    for (std::uint64_t k = 1; k < 300; ++k) {  // past the ring's end too
      const std::string bytes = BytesOf(payload, k, size);
      REQUIRE(bytes != previous);
      previous = bytes;
    }
  }
}

TEST_CASE("No 4 KiB block repeats within a run, also beyond the ring") {
  const std::size_t size = 512 << 10;  // a small ring: 2 slots of 1 MiB
  Payload payload(size, 4096, 40);
  REQUIRE(payload.Slots() < 40);
  std::set<std::string> blocks;
  for (std::uint64_t k = 0; k < 40; ++k) {
    const char* bytes = payload.For(k);
    for (std::size_t at = 0; at < size; at += 4096) {
      REQUIRE(blocks.insert(std::string(bytes + at, 4096)).second);
    }
  }
}

TEST_CASE("The same run twice carries the same bytes (fixed seed)") {
  Payload first(8192, 4096, 64), second(8192, 4096, 64);
  for (std::uint64_t k = 0; k < 200; ++k) {
    REQUIRE(BytesOf(first, k, 8192) == BytesOf(second, k, 8192));
  }
}

TEST_CASE("Slots are aligned and the ring is bounded") {
  Payload payload(1000, 4096, 10);
  CHECK(payload.Slots() == 10);
  for (std::uint64_t k = 0; k < 10; ++k) {
    CHECK(reinterpret_cast<std::uintptr_t>(payload.For(k)) % 4096 == 0);
  }
  // A million-write run: the ring stays within its bound, nothing per write.
  Payload million(4096, 4096, 1'000'000);
  CHECK(million.Bytes() <= Payload::kMaxBytes);
  CHECK(Payload(16 << 20, 4096, 1'000'000).Slots() == 2);  // at least two
}
