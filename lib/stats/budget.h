// --budget as a two-stage design (DESIGN.md §7, stopping rules): the first
// stage's variance decides, once, how many more blocks each pair needs for the
// precision asked; the second stage runs them if they fit the time left; the
// verdict is then made once, on that fixed sample. Adding rounds until an
// interval happens to be narrow would inflate false positives.
#pragma once

#include <cstdint>
#include <vector>

namespace alignbench {

struct PairNeed {
  std::uint64_t blocks_done = 0;
  // For the precision, from the first stage
  std::uint64_t blocks_needed = 0;
  // Measured in the first stage
  double seconds_per_block = 0;
};

struct SecondStage {
  // Per pair; 0 for the others
  std::vector<std::uint64_t> extra_blocks;
  // Needs more blocks than the budget fits
  std::vector<bool> out_of_budget;
};

// Cheapest pairs first, as many as fit in `seconds_left`: a pair either gets
// every block it needs or none, so that no pair is left half-way.
SecondStage PlanSecondStage(const std::vector<PairNeed>& needs,
                            double seconds_left);

}  // namespace alignbench
