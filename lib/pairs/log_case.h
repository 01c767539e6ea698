// A log-append workload's pairs (lib/config/log_rules.h): the variants'
// names, the bytes asked for and written per commit (from the writer's rules,
// not measured: the pattern is deterministic), and the explanation that names
// the mechanism. Sees pairs and settings, never a descriptor.
#pragma once

#include <string>
#include <vector>

#include "lib/pairs/pair_result.h"

namespace alignbench {

// Per timed commit of one variant of a pair.
struct CommitBytes {
  double asked = 0;
  double written = 0;
};
CommitBytes PerCommit(const Settings& settings, const PairSpec& pair,
                      Variant variant);

// The heading of a variant's column: "unaligned", "padded", "recycled".
std::string ColumnLabel(const Settings& settings, Variant variant);

// Replaces the explanation of each measured pair of a log case with one that
// names the mechanism: read-on-write, the tail block written twice, padding
// bytes, journal commits of a growing file. Derby's sweep is left alone.
void ExplainLogPairs(const Settings& settings, std::vector<PairResult>& pairs);

}  // namespace alignbench
