// Why a pair came out as it did, in words, from the device counters and the
// settings. Makes only claims the counters support, and says when they cannot
// explain the gain.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/pairs/pair_result.h"

namespace alignbench {

// The mechanisms of a measured pair, in the order Explain says them; empty
// for a pair that was not measured.
std::vector<Mechanism> MechanismsOf(const PairResult& pair);

std::string Explain(const PairResult& pair, std::uint64_t shift);

// The idle windows counted a large part of some counter of either side: the
// mechanisms were read net of the disk's own traffic, or not at all, and
// Explain's words say which.
bool OthersCounted(const PairResult& pair);

}  // namespace alignbench
