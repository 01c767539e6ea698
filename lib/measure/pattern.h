// The write pattern of DESIGN.md §2 as data: where each operation of a run
// writes. aligned: write k at k·S. shifted: an untimed header of `shift` bytes,
// then write k at shift + k·S.
#pragma once

#include <cstdint>

#include "lib/config/axes.h"

namespace alignbench {

struct WritePattern {
  Variant variant;
  std::uint64_t size;   // S, bytes per write
  std::uint64_t shift;  // header bytes before the first shifted write

  std::uint64_t HeaderBytes() const {
    return variant == Variant::kShifted ? shift : 0;
  }
  std::uint64_t OffsetOf(std::uint64_t k) const {
    return HeaderBytes() + k * size;
  }
  // Bytes the file spans after `writes` operations.
  std::uint64_t EndAfter(std::uint64_t writes) const {
    return OffsetOf(writes);
  }
};

}  // namespace alignbench
