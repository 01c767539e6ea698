// Why a pair came out as it did, in words, from the device counters and the
// settings. Makes only claims the counters support, and says when they cannot
// explain the gain.
#pragma once

#include <cstdint>
#include <string>

namespace alignbench {

struct PairResult;

std::string Explain(const PairResult& pair, std::uint64_t shift);

}  // namespace alignbench
