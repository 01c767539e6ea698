// The bytes each write of a run carries: a ring of distinct slots filled once
// from a fixed seed while the run is prepared, so that no deduplicating or
// compressing layer sees one write's bytes again in the next, and the same run
// carries the same bytes every time. The ring is bounded (kMaxBytes): where a
// run has more writes than slots, a slot comes round again with the write's
// number stamped into the first 8 bytes of each 4 KiB block, so every block of
// every write still differs. For() does that stamping, and reads the slot
// through once so that it is in the CPU cache as a database's freshly
// written log buffer is; it is called before the clock starts, and nothing is
// allocated after construction.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/io/file_io.h"

namespace alignbench {

class Payload final {
 public:
  // At most this much for the ring, at least two slots whatever the size. A
  // ring that outgrows the CPU cache made each 4 KiB write 11 % slower than a
  // plain loop's on tmpfs (cold source bytes); the stamp keeps blocks distinct
  // however small the ring is.
  static constexpr std::size_t kMaxBytes = 1 << 20;

  // `writes`: how many writes the run does, warm-up included; slots beyond
  // that would never be used. Each slot starts at a multiple of `alignment`.
  Payload(std::size_t size, std::size_t alignment, std::uint64_t writes);

  // The bytes of write k of the run (warm-up included): `size` bytes.
  const char* For(std::uint64_t k);
  std::size_t Slots() const { return slots_; }
  // The bytes For() gives each write.
  std::size_t Size() const { return size_; }
  std::size_t Bytes() const { return ring_.size(); }

 private:
  std::size_t size_;
  // Size rounded up to the alignment
  std::size_t stride_;
  std::size_t slots_;
  AlignedBuffer ring_;
  // Where the reads that warm a slot go, so the compiler keeps them.
  unsigned char touched_ = 0;
};

}  // namespace alignbench
