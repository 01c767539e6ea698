// Writes in flight through io_uring (liburing), as a direct-I/O log keeps
// them: a batch submitted at once, at most the ring's depth in flight, and
// every completion awaited before the caller goes on. Writes that share a
// block go in order: a chain (IOSQE_IO_LINK) is one write in flight at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "lib/base/error.h"
#include "lib/io/file_ops.h"

struct io_uring;

namespace alignbench {

// One write of a batch: its file, bytes, place and pwritev2 flags
// (RWF_DSYNC, RWF_ATOMIC).
struct RingWrite {
  int fd = -1;
  const char* bytes = nullptr;
  std::uint64_t length = 0;
  std::uint64_t offset = 0;
  int rwf = 0;
  // The next write of the batch waits for this one: they write a block in
  // common, and two writes in flight at once may land in either order.
  bool then_next = false;
};

class Uring final {
 public:
  // A ring for `depth` writes (or chains) in flight, or io_uring_setup's
  // errno. Every call on the ring goes through `ops`, which must outlive it.
  static Result<Uring> Open(unsigned depth, FileOps& ops = SystemFileOps());

  // The batch's writes, up to the depth of them (or of their chains) in
  // flight at a time, each awaited; a write the kernel did short is finished
  // with pwritev2. The first write that failed and its errno, or nothing.
  struct Failure {
    std::size_t index;
    int errno_value;
  };
  std::optional<Failure> WriteAll(const RingWrite* writes, std::size_t count);

 private:
  struct Close {
    FileOps* ops;
    void operator()(io_uring* ring) const;
  };
  std::size_t QueueChain(const RingWrite* writes, std::size_t count,
                         std::size_t first);
  Uring(std::unique_ptr<io_uring, Close> ring, unsigned depth)
      : ring_(std::move(ring)), depth_(depth) {}
  FileOps& ops() const { return *ring_.get_deleter().ops; }

  std::unique_ptr<io_uring, Close> ring_;
  unsigned depth_;
};

}  // namespace alignbench
