// A log-append workload's pairs (lib/config/log_rules.h): the variants'
// names, the bytes asked for and written per commit (from the writer's rules,
// not measured: the pattern is deterministic), and the explanation that names
// the mechanism. Sees pairs and settings, never a descriptor.
#pragma once

#include <string>
#include <vector>

#include "lib/pairs/pair_result.h"

namespace alignbench {

// Per timed commit of one variant of a pair, from the writer's rules or a
// replay's commits.
CommitBytes PerCommit(const Settings& settings, const PairSpec& pair,
                      Variant variant);

// The heading of a variant's column: "unaligned", "padded", "recycled".
std::string ColumnLabel(const Settings& settings, Variant variant);

// The words a log case's printers use, fixed when its result is made, so
// that a later change of the rules' tables cannot change how it prints.
struct LogCaseWords {
  // The variants' column headings (ColumnLabel)
  std::string unaligned_label;
  std::string aligned_label;
  // "log rules: header 2048 B, block 512 B, contrast pad 8192 B"
  std::string rules;
  // What the variants differ in: the contrast's name and what it means
  std::string contrast;
  std::string contrast_meaning;
};
// For a log case (settings.log set).
LogCaseWords WordsOf(const Settings& settings);

// Replaces the explanation of each measured pair of a log case with one that
// names the mechanism: read-on-write, the tail block written twice, padding
// bytes, journal commits of a growing file. Derby's sweep is left alone.
void ExplainLogPairs(const Settings& settings, std::vector<PairResult>& pairs);

}  // namespace alignbench
