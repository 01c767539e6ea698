// Why a pair came out as it did, in words, from the device counters and the
// settings. Makes only claims the counters support, and says when they cannot
// explain the gain.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/base/named.h"

namespace alignbench {

struct PairResult;

// What the device counters show a measured pair's writes did. Explain says
// each in a sentence; the run's summary line names the most common.
enum class Mechanism {
  kReadOnWrite,
  kExtraBlock,
  kMetadataCommits,
  kBusyDisk,
  kNoCounters,
  kSameIo,
  kUnexplained,
};
inline constexpr Named<Mechanism> kMechanisms[] = {
    {"read-on-write", Mechanism::kReadOnWrite,
     "shifted writes read the partly overwritten block first"},
    {"one more block written", Mechanism::kExtraBlock,
     "a shift spreads each write over one more block"},
    {"metadata commits", Mechanism::kMetadataCommits,
     "journal and file-size commits, alike for both, dominate"},
    {"busy disk", Mechanism::kBusyDisk,
     "the disk's own traffic swamps the counters"},
    {"no device counters", Mechanism::kNoCounters,
     "no block device under the directory"},
    {"same device I/O", Mechanism::kSameIo,
     "both variants did the same device I/O"},
    {"not explained by device I/O", Mechanism::kUnexplained,
     "a time difference the counters do not show"},
};

// The mechanisms of a measured pair, in the order Explain says them; empty
// for a pair that was not measured.
std::vector<Mechanism> MechanismsOf(const PairResult& pair);

std::string Explain(const PairResult& pair, std::uint64_t shift);

}  // namespace alignbench
