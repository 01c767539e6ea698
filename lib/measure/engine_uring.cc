// Writes in flight through io_uring (--queue-depth, direct I/O): a step's
// writes queued as the ring's writes, a write that starts in the block the one
// before ends in linked after it, then submitted together, at most the depth
// in flight, and every completion awaited in Commit (Uring::WriteAll).
#include <cassert>
#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "lib/io/uring.h"
#include "lib/measure/engine.h"

namespace alignbench {
namespace {

class UringEngine final : public WriteEngine {
 public:
  UringEngine(Uring ring, std::size_t commits, LogWriter& writer)
      : ring_(std::move(ring)), writer_(writer) {
    // Step() allocates nothing: a commit writes at most 4 times.
    in_flight_.reserve(4 * commits);
  }
  bool Batched() const override { return true; }
  Status Queue(const Op& op, const char* bytes, std::size_t commit) override;
  Status Commit() override;

 private:
  Uring ring_;
  LogWriter& writer_;
  std::vector<RingWrite> in_flight_;
};

Status UringEngine::Queue(const Op& op, const char* bytes, std::size_t) {
  Result<RingWrite> write =
      writer_.LogWrite(op.Bytes(), bytes, writer_.RwfOf(op));
  if (!write) {
    in_flight_.clear();
    return write.error();
  }
  // Staged writes share a block with the write before: that one first.
  if (!in_flight_.empty()) {
    RingWrite& before = in_flight_.back();
    const RingWrite& next = write.value();
    before.then_next = before.fd == next.fd &&
                       next.offset < before.offset + before.length &&
                       before.offset < next.offset + next.length;
  }
  // A commit writes at most 4 times (Uring's entries per slot): Step()
  // allocates nothing.
  assert(in_flight_.size() < in_flight_.capacity());
  in_flight_.push_back(write.value());
  return Ok{};
}

Status UringEngine::Commit() {
  const auto failed = ring_.WriteAll(in_flight_.data(), in_flight_.size());
  if (!failed) {
    in_flight_.clear();
    return Ok{};
  }
  const RingWrite w = in_flight_[failed->index];
  in_flight_.clear();
  return writer_.WriteError(
      SystemError(ErrorKind::kIo, "io_uring write", writer_.LogPath(),
                  failed->errno_value, static_cast<std::int64_t>(w.offset)),
      Extent{w.offset, w.length});
}

// What to do when the ring of --queue-depth cannot be had, by
// io_uring_setup's errno (io_uring_setup(2)); empty leaves the errno table's
// hint.
std::string RingHint(int err) {
  switch (err) {
    case ENOSYS:
      return "this kernel has no io_uring (built without CONFIG_IO_URING): "
             "--queue-depth 1 writes one at a time";
    case EPERM:
    case EACCES:
      return "io_uring is not open to this process (sysctl "
             "kernel.io_uring_disabled, a container's seccomp filter): "
             "--queue-depth 1 writes one at a time";
    case ENOMEM:
      return "the ring's memory could not be had (locked memory before "
             "Linux 5.12: ulimit -l; else free memory): raise the limit or use "
             "a smaller --queue-depth";
    case EMFILE:
    case ENFILE:
      return "too many open files (ulimit -n): raise the limit";
    case EINVAL:
      return "the kernel refused a ring of this size: use a smaller "
             "--queue-depth";
    default:
      return "";
  }
}

}  // namespace

Result<std::unique_ptr<WriteEngine>> StartUringEngine(unsigned depth,
                                                      std::size_t commits,
                                                      FileOps& ops,
                                                      LogWriter& writer) {
  Result<Uring> ring = Uring::Open(depth, ops);
  if (!ring) {
    Error error = ring.error();
    error.hint = RingHint(error.errno_value);
    return error;
  }
  return std::unique_ptr<WriteEngine>(
      new UringEngine(std::move(ring).value(), commits, writer));
}

}  // namespace alignbench
