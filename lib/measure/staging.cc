#include "lib/measure/staging.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace alignbench {

Staging::Staging(std::size_t buffers, std::size_t size,
                 std::size_t memory_alignment, std::uint64_t block,
                 std::uint64_t header)
    : block_(block) {
  assert(buffers >= 2 && size >= 2 * block);
  for (std::size_t k = 0; k < buffers; ++k) {
    stages_.emplace_back(size, memory_alignment);
  }
  char* held = stages_[held_].data();
  std::memset(held, 0, block);
  std::memset(held, 'H', std::min<std::uint64_t>(header, block));
  held_to_ = block;
}

Result<RingWrite> Staging::Stage(Extent extent, const char* bytes, int rwf,
                                 int fd, const std::string& path,
                                 FileOps& ops) {
  assert(!stages_.empty());
  const std::uint64_t a = block_;
  const std::uint64_t offset = extent.offset;
  const std::uint64_t size = extent.length;
  const std::uint64_t start = offset / a * a;
  const std::uint64_t end = (offset + size + a - 1) / a * a;
  const std::size_t next = (held_ + 1) % stages_.size();
  // Buffers sized as Allocate claims: the longest write and its two partial
  // blocks.
  assert(end - start <= stages_[next].size());
  char* stage = stages_[next].data();
  if (start >= held_from_ && start + a <= held_to_) {
    std::memcpy(stage, stages_[held_].data() + (start - held_from_), a);
  } else if (Status read =
                 PreadAll(fd, stage, a, static_cast<off_t>(start), path, ops);
             !read) {
    return read.error();
  }
  std::memcpy(stage + (offset - start), bytes, size);
  std::memset(stage + (offset - start) + size, 0, end - (offset + size));
  held_ = next;
  held_from_ = start;
  held_to_ = end;
  // What O_DIRECT takes: whole blocks at a block's start.
  assert(start % a == 0 && (end - start) % a == 0);
  return RingWrite{fd, stage, end - start, start, rwf};
}

}  // namespace alignbench
