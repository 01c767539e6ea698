// A direct-I/O log's buffer, as a database keeps it under O_DIRECT (InnoDB's
// and Derby's log buffers): a write of the log off the direct-I/O alignment
// (--direct-unaligned stage) goes out as the whole aligned blocks around it,
// built in memory. The partly filled block it starts in is the one the write
// before ended in, which the writer still has (the header block for the first
// write), or any block the write before wrote where a log writes its partly
// filled block again (MariaDB's redo, moved by a replay's shift, spans three
// blocks and starts again in the middle one); after its end the last block is
// zeros, the log's free space. Nothing is read back in the timed span. Only a
// head block the writer does not hold (never, for these sequential patterns)
// is read from the file. With writes in flight, each has its own buffer, and
// the write that starts in the block the one before ends in waits for it (the
// io_uring engine links them), as a log that keeps its blocks in order must.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/op.h"
#include "lib/io/file_io.h"
#include "lib/io/file_ops.h"
#include "lib/io/uring.h"

namespace alignbench {

class Staging final {
 public:
  // No buffers: nothing is ever staged.
  Staging() = default;
  // `buffers` (at least 2: one per write in flight and one for the blocks the
  // last write wrote) of `size` bytes each at a multiple of
  // `memory_alignment`, for blocks of `block` bytes; the writer holds the
  // header block: the header's first `header` bytes ('H'), then zeros. Throws
  // std::bad_alloc as AlignedBuffer does.
  Staging(std::size_t buffers, std::size_t size, std::size_t memory_alignment,
          std::uint64_t block, std::uint64_t header);

  bool Empty() const { return stages_.empty(); }
  // The write of `bytes` over `extent` of the file open as `fd`, as the
  // whole blocks it touches; the head block read through `ops` where the
  // writer does not hold it.
  Result<RingWrite> Stage(Extent extent, const char* bytes, int rwf, int fd,
                          const std::string& path, FileOps& ops);

 private:
  std::vector<AlignedBuffer> stages_;
  std::uint64_t block_ = 0;
  // The blocks the last write wrote, [held_from_, held_to_), in
  // stages_[held_] (the next write stages into the buffer after it: nothing
  // is copied but the block it starts in).
  std::size_t held_ = 0;
  std::uint64_t held_from_ = 0;
  std::uint64_t held_to_ = 0;
};

}  // namespace alignbench
