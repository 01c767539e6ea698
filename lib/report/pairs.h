// From runs to pairs: the per-variant summaries, device I/O per operation,
// gain, interval, p-value and verdict of every pair in the plan. Sees run
// records, never a descriptor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/config/settings.h"
#include "lib/measure/run.h"
#include "lib/stats/compare.h"
#include "lib/stats/summary.h"

namespace alignbench {

// One run as collected by the harness.
struct CollectedRun {
  PairSpec pair;
  Variant variant;
  RunRecord record;
};

// Device counters divided by the number of timed operations.
struct DevicePerOp {
  double reads = 0;
  double kib_read = 0;
  double writes = 0;
  double kib_written = 0;
  double flushes = 0;
};

struct ProcessPerOp {
  double read_bytes = 0;
  double write_bytes = 0;
};

struct VariantResult {
  std::size_t repetitions = 0;         // runs that measured something
  std::size_t failed_repetitions = 0;  // runs that stopped with an error
  Summary total_ns;                    // write + sync, one clock span
  Summary write_ns;
  Summary sync_ns;
  std::optional<DevicePerOp> device;
  std::optional<ProcessPerOp> process;
  bool staged = false;
  std::optional<std::uint64_t> resident_pages_after_drop;  // worst run
  // The first failing run's error, with its errno; with repetitions == 0 it is
  // why the variant could not be measured.
  std::optional<std::string> error;
  int error_errno = 0;
  // Per-repetition total times, for the statistics; not stored in JSON.
  std::vector<std::vector<double>> samples;
};

struct PairResult {
  PairSpec spec;
  VariantResult unaligned;
  VariantResult aligned;
  // Set only when both variants measured.
  std::optional<double>
      gain_pct;  // Derby: (unaligned mean / aligned mean − 1)·100
  std::optional<double> median_gain_pct;  // the same from medians
  std::optional<Interval> gain_interval;  // 95 %, see GainInterval
  std::optional<double> p_value;          // Mann-Whitney U, two-sided
  std::optional<Verdict> verdict;
  std::string explanation;  // in words, from the counters and settings

  bool Measured() const { return gain_pct.has_value(); }
};

// Runs are matched to the plan's pairs by spec; pairs come out in plan order.
// Takes the runs by value and frees their per-write times as it summarizes
// them; move them in when they are not needed any more.
std::vector<PairResult> BuildPairs(const std::vector<PairSpec>& plan,
                                   std::vector<CollectedRun> runs,
                                   std::uint64_t shift);

bool SameSpec(const PairSpec& a, const PairSpec& b);

// "fsync buffered extend warm": the combination of axes a pair was measured
// under.
std::string AxesLabel(const PairSpec& spec);

}  // namespace alignbench
