#include "lib/config/schedule.h"

#include <utility>

namespace alignbench {

std::uint64_t Scheduler::Below(std::uint64_t n) {
  // Rejection keeps every value equally likely: draws from the top partial
  // stretch of the generator's range would favour small values.
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t draw;
  do draw = rng_();
  while (draw >= limit);
  return draw % n;
}

std::vector<ScheduledRun> Scheduler::Next(
    const std::vector<std::uint64_t>& blocks_per_pair,
    std::size_t first_block) {
  std::vector<std::size_t> blocks;  // one entry per block: its pair
  for (std::size_t pair = 0; pair < blocks_per_pair.size(); ++pair) {
    blocks.insert(blocks.end(), blocks_per_pair[pair], pair);
  }
  for (std::size_t i = blocks.size(); i > 1; --i) {  // Fisher–Yates
    std::swap(blocks[i - 1], blocks[Below(i)]);
  }
  std::vector<ScheduledRun> runs;
  runs.reserve(2 * blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const bool aligned_first = Below(2) == 1;
    const std::size_t block = first_block + b;
    runs.push_back({blocks[b],
                    aligned_first ? Variant::kAligned : Variant::kUnaligned,
                    block});
    runs.push_back({blocks[b],
                    aligned_first ? Variant::kUnaligned : Variant::kAligned,
                    block});
  }
  return runs;
}

std::uint64_t FreshSeed() {
  std::random_device device;
  return ((static_cast<std::uint64_t>(device()) << 32) ^ device()) & kMaxSeed;
}

}  // namespace alignbench
