#include "lib/io/uring.h"

#include <liburing.h>

#include <cerrno>

namespace alignbench {

void Uring::Close::operator()(io_uring* ring) const {
  ops->RingExit(ring);
  delete ring;
}

// Submission entries per write in flight: a chain takes one slot in flight
// and an entry per write, and a commit writes at most this many times.
constexpr unsigned kEntriesPerSlot = 4;

Result<Uring> Uring::Open(unsigned depth, FileOps& ops) {
  auto ring = std::make_unique<io_uring>();
  if (const int rc = ops.RingInit(depth * kEntriesPerSlot, ring.get());
      rc < 0) {
    return SystemError(ErrorKind::kSetup, "io_uring_setup", "", -rc);
  }
  return Uring(std::unique_ptr<io_uring, Close>(ring.release(), Close{&ops}),
               depth);
}

namespace {

// The rest of a write io_uring did short, as PwriteAll would.
int FinishShort(const RingWrite& w, std::uint64_t done, FileOps& ops) {
  while (done < w.length) {
    const ssize_t n =
        ops.PwriteFlags(w.fd, w.bytes + done, w.length - done,
                        static_cast<off_t>(w.offset + done), w.rwf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<std::uint64_t>(n);
  }
  return 0;
}

}  // namespace

// Queues the chain of writes that starts at `first`: each linked to the next
// while it says so. The index after it, or `first` where the ring has no room.
std::size_t Uring::QueueChain(const RingWrite* writes, std::size_t count,
                              std::size_t first) {
  std::size_t end = first + 1;
  while (end < count && writes[end - 1].then_next) ++end;
  if (io_uring_sq_space_left(ring_.get()) < end - first) return first;
  for (std::size_t k = first; k < end; ++k) {
    io_uring_sqe* sqe = io_uring_get_sqe(ring_.get());
    const RingWrite& w = writes[k];
    io_uring_prep_write(sqe, w.fd, w.bytes, static_cast<unsigned>(w.length),
                        w.offset);
    sqe->rw_flags = w.rwf;
    if (k + 1 < end) sqe->flags |= IOSQE_IO_LINK;
    io_uring_sqe_set_data64(sqe, k);
  }
  return end;
}

std::optional<Uring::Failure> Uring::WriteAll(const RingWrite* writes,
                                              std::size_t count) {
  std::optional<Failure> failure;
  std::size_t queued = 0;
  std::size_t done = 0;
  std::size_t chains = 0;  // in flight
  while (done < count) {
    while (queued < count && chains < depth_) {
      const std::size_t next = QueueChain(writes, count, queued);
      // A chain longer than the whole ring can never be queued.
      if (next == queued && chains == 0) return Failure{queued, E2BIG};
      if (next == queued) break;
      queued = next;
      ++chains;
    }
    const int submitted = ops().RingSubmitAndWait(ring_.get(), 1);
    if (submitted < 0 && submitted != -EINTR) {
      return Failure{done, -submitted};
    }
    io_uring_cqe* cqe = nullptr;
    while (io_uring_peek_cqe(ring_.get(), &cqe) == 0) {
      const std::size_t index = io_uring_cqe_get_data64(cqe);
      const int res = cqe->res;
      io_uring_cqe_seen(ring_.get(), cqe);
      ++done;
      // A chain's writes complete in order, cancelled ones too: its last
      // frees its slot.
      if (index + 1 == count || !writes[index].then_next) --chains;
      const int error =
          res < 0 ? -res
                  : FinishShort(writes[index], static_cast<std::uint64_t>(res),
                                ops());
      if (error != 0 && (!failure || index < failure->index)) {
        failure = Failure{index, error};
      }
    }
  }
  return failure;
}

}  // namespace alignbench
