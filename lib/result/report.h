// A whole result: who produced it, with which settings, where, and the pairs.
// Everything the table, the exports and `show`/`compare` need is here, and
// survives a JSON round trip.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/config/settings.h"
#include "lib/env/probe.h"
#include "lib/pairs/pairs.h"

namespace alignbench {

// 2: run-level statistics (welch-log), per-run records, the seed. Readers
// still take 1.
inline constexpr int kSchemaVersion = 2;

// Where a result came from when alignbench did not measure it: a table
// printed elsewhere (the 2004-05 Derby mailing list), converted by
// scripts/reference-tables. Such a result has means only.
struct ReferenceSource {
  // Where it was published
  std::string source;
  // What measured it
  std::string program;
  // How it was run
  std::string command;
  // Machine and OS, as reported
  std::string platform;
  // Disk and write cache, as reported
  std::string disk;
  // What is assumed rather than reported
  std::string notes;
};

struct Report {
  std::string tool_version;
  // Unknown outside a git checkout
  std::optional<std::string> git_revision;
  std::vector<std::string> command_line;
  // ISO 8601 UTC; unknown for tables
  std::optional<std::string> started_at;
  // ISO 8601 UTC
  std::optional<std::string> finished_at;
  // False when interrupted or stopped by an error
  bool complete = true;
  Settings settings;
  TargetInfo target;
  std::vector<PairResult> pairs;
  std::vector<std::string> warnings;
  std::vector<std::string> errors;
  // Set for converted tables only
  std::optional<ReferenceSource> reference;
};

}  // namespace alignbench
