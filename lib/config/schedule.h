// The order runs are measured in, which alignbench owns so that what drifts on
// a shared disk (bursts, level shifts) hits both variants of a block alike. A
// block is one run of each variant of one pair, back to back, in random order
// inside the block; the blocks of all pairs are shuffled. The same seed gives
// the same order on every machine: the generator is std::mt19937_64, whose
// output the standard fixes, and the shuffle is written here rather than left
// to std::shuffle, whose algorithm is the library's choice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "lib/config/axes.h"

namespace alignbench {

struct ScheduledRun {
  // Index into the plan
  std::size_t pair;
  Variant variant;
  // Numbered in the order blocks are run, from first_block
  std::size_t block;
};

class Scheduler {
 public:
  explicit Scheduler(std::uint64_t seed) : rng_(seed) {}

  // blocks_per_pair[i] blocks of pair i, shuffled; block numbers start at
  // first_block. Successive calls continue the same random stream.
  std::vector<ScheduledRun> Next(
      const std::vector<std::uint64_t>& blocks_per_pair,
      std::size_t first_block);

 private:
  std::uint64_t Below(std::uint64_t n);  // uniform in [0, n), n > 0
  std::mt19937_64 rng_;
};

// Seeds stay below 2^53 so that every JSON reader (jq, JavaScript) reads
// them back exactly.
inline constexpr std::uint64_t kMaxSeed = (std::uint64_t{1} << 53) - 1;

// A seed for a run that was given none: from the system's entropy source.
std::uint64_t FreshSeed();

}  // namespace alignbench
