// lib/io/uring.h: a batch of writes through io_uring lands where each says, a
// batch longer than the ring's depth too; writes chained because they share
// bytes land in order; a failed write is named with its errno.
#include "lib/io/uring.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <string>
#include <vector>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

// A ring of `depth` and an empty file "log" in a temporary directory, both
// gone with it; no ring where io_uring is closed to this process.
struct RingAndLog {
  explicit RingAndLog(unsigned depth) : ring(Uring::Open(depth)) {
    fd = ::open((dir.path() + "/log").c_str(), O_RDWR | O_CREAT, 0600);
    REQUIRE(fd >= 0);
  }
  ~RingAndLog() { ::close(fd); }
  // Says the skip where there is no ring.
  bool Skipped() const {
    if (ring) return false;
    WARN("SKIPPED: io_uring not open to this process: "
         << ring.error().Message());
    return true;
  }
  TempDir dir;
  Result<Uring> ring;
  int fd = -1;
};

}  // namespace

TEST_CASE("uring: a batch of writes, more than the depth") {
  RingAndLog rig(2);
  if (rig.Skipped()) return;
  Uring& ring = rig.ring.value();
  const int fd = rig.fd;
  const std::string bytes = "abcde";
  std::vector<RingWrite> writes;
  for (std::uint64_t k = 0; k < bytes.size(); ++k) {  // backwards on purpose
    const std::uint64_t at = bytes.size() - 1 - k;
    writes.push_back({fd, bytes.data() + at, 1, at * 3, 0});
  }
  CHECK_FALSE(ring.WriteAll(writes.data(), writes.size()));
  std::string file(13, '?');
  CHECK(::pread(fd, file.data(), file.size(), 0) == 13);
  CHECK(file == std::string("a\0\0b\0\0c\0\0d\0\0e", 13));

  writes[3].fd = -1;
  const auto failed = ring.WriteAll(writes.data(), writes.size());
  REQUIRE(failed);
  CHECK(failed->index == 3);
  CHECK(failed->errno_value == EBADF);
}

TEST_CASE("uring: a chain of writes that share bytes lands in order") {
  RingAndLog rig(4);
  if (rig.Skipped()) return;
  Uring& ring = rig.ring.value();
  const int fd = rig.fd;
  // Each write covers the last byte of the one before: in order, every byte
  // is its last writer's.
  const std::string bytes = "aaaabbbbccccdddd";
  for (int round = 0; round < 50; ++round) {
    std::vector<RingWrite> writes;
    for (std::uint64_t k = 0; k < 4; ++k) {
      writes.push_back({fd, bytes.data() + 4 * k, 4, 3 * k, 0, k < 3});
    }
    REQUIRE_FALSE(ring.WriteAll(writes.data(), writes.size()));
    std::string file(13, '?');
    REQUIRE(::pread(fd, file.data(), file.size(), 0) == 13);
    CHECK(file == "aaabbbcccdddd");
  }
  // A chain's failed write is the batch's failure; the writes after it in
  // the chain are cancelled, and the ring serves the next batch.
  char file_end[1];
  const std::string z = "zzzz";
  std::vector<RingWrite> writes;
  for (std::uint64_t k = 0; k < 4; ++k) {
    writes.push_back({k == 1 ? -1 : fd, z.data(), 4, 20 + 3 * k, 0, k < 3});
  }
  const auto failed = ring.WriteAll(writes.data(), writes.size());
  REQUIRE(failed);
  CHECK(failed->index == 1);
  CHECK(failed->errno_value == EBADF);
  CHECK(::pread(fd, file_end, 1, 26) == 0);  // writes 2 and 3 never ran
  writes[1].fd = fd;
  CHECK_FALSE(ring.WriteAll(writes.data(), writes.size()));
  CHECK(::pread(fd, file_end, 1, 30) == 1);
}
