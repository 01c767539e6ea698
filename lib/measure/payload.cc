#include "lib/measure/payload.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace alignbench {
namespace {

std::size_t SlotsFor(std::size_t stride, std::uint64_t writes) {
  const std::uint64_t fit =
      Payload::kMaxBytes / std::max<std::size_t>(stride, 1);
  return static_cast<std::size_t>(
      std::max<std::uint64_t>(2, std::min<std::uint64_t>(writes, fit)));
}

std::size_t Stride(std::size_t size, std::size_t alignment) {
  return std::max<std::size_t>(1, (size + alignment - 1) / alignment) *
         alignment;
}

}  // namespace

Payload::Payload(std::size_t size, std::size_t alignment, std::uint64_t writes)
    : size_(size),
      stride_(Stride(size, alignment)),
      slots_(SlotsFor(stride_, writes)),
      ring_(stride_ * slots_, alignment) {
  assert(slots_ >= 2 && stride_ % alignment == 0);
}

const char* Payload::For(std::uint64_t k) {
  char* slot = ring_.data() + (k % slots_) * stride_;
  if (k >= slots_) {
    // The slot's second and later rounds: the write's number in each block.
    constexpr std::size_t kBlock = 4096;
    for (std::size_t at = 0; at + sizeof k <= size_; at += kBlock) {
      std::memcpy(slot + at, &k, sizeof k);
    }
  }
  constexpr std::size_t kCacheLine = 64;
  for (std::size_t at = 0; at < size_; at += kCacheLine) {
    touched_ ^= static_cast<unsigned char>(slot[at]);
  }
  return slot;
}

}  // namespace alignbench
