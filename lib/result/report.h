// A whole result: who produced it, with which settings, where, and the pairs.
// Everything the table, the exports and `show`/`compare` need is here, and
// survives a JSON round trip.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/config/settings.h"
#include "lib/env/probe.h"
#include "lib/pairs/log_case.h"
#include "lib/pairs/pairs.h"
#include "lib/pairs/unit_search.h"

namespace alignbench {

// 2: run-level statistics (welch-log), per-run records, the seed; later, as
// optional fields, what the printers read (settings.log.rules_text and
// contrast_meaning, statistics.interval_of, each pair's mechanisms), derived
// by the reader where a file lacks them. Readers still take 1.
// 3: one name per number: a pair's gain_pct is the gain every table prints
// (the interval's estimate, else the gain of means); Derby's gain of means
// is means_gain_pct (version 2's gain_pct) and the gain of the pooled
// medians medians_gain_pct (version 2's median_gain_pct).
inline constexpr int kSchemaVersion = 3;

// How the verdicts were made, as the result's "statistics" say; a file
// without them was made as this build makes them.
struct StatisticsUsed {
  TestMethod method = kVerdictMethod;
  // What the interval is of, in words (kVerdictInterval)
  std::string interval_of = std::string(kVerdictInterval);
  std::uint64_t min_runs_for_verdict = kMinRunsForVerdict;
  double significance_level = kSignificanceLevel;
  // The level a direction must reach to be firm rather than lean
  // (kRerunSignificanceLevel); absent in files written before 2026-12-06,
  // whose verdicts were firm at the significance level and never leaned.
  std::optional<double> rerun_significance_level = kRerunSignificanceLevel;
  // The level that makes a verdict firm in this result.
  double FirmLevel() const {
    return rerun_significance_level.value_or(significance_level);
  }
};

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

// Where a directory's device I/O per write came from: the block layer's
// requests, told apart (each variant's device_requests), or the device-wide
// counters alone, and why.
inline constexpr const char* kSourceBlockTrace = "block trace";
inline constexpr const char* kSourceCounters = "device counters";
struct DeviceAccountSource {
  std::string source = kSourceCounters;
  // Why there is no block trace; absent with one.
  std::optional<std::string> why_not_traced;
};

struct Report {
  std::string tool_version;
  // Unknown outside a git checkout
  std::optional<std::string> git_revision;
  // How alignbench itself was built ("Release"); unknown in older files.
  std::optional<std::string> build_type;
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
  // Set for a log case (settings.log): the words its printers use.
  std::optional<LogCaseWords> log_words;
  StatisticsUsed statistics;
  std::vector<std::string> warnings;
  std::vector<std::string> errors;
  // Set for converted tables only
  std::optional<ReferenceSource> reference;
  // Absent without a block device, and in files from before it was kept.
  std::optional<DeviceAccountSource> device_account;
  // Set for a unit search (`alignbench unit`): the unit its pairs name.
  std::optional<UnitFinding> unit;
};

// Records in `report` what its printers read and would otherwise derive
// from the settings and counters: a log case's words and each variant's bytes
// per commit, each measured pair's mechanisms. Only what is missing is
// filled, so that it serves both a report just made and a file written
// before these were recorded (derived as the code did then).
void RecordForPrinters(Report& report);

// A replay's bytes per commit into each pair's variants (per_commit): the
// stream's as recorded, and each variant's, from settings.replay's variants.
// False where there are none to record (no replay, or a result from before
// the variants were recorded).
bool RecordReplayBytes(Report& report);

}  // namespace alignbench
