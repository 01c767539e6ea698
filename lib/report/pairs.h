// From runs to pairs: the per-variant summaries, device I/O per operation,
// gain, interval, p-value and verdict of every pair in the plan. Sees run
// records, never a descriptor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/config/settings.h"
#include "lib/measure/record.h"
#include "lib/stats/compare.h"
#include "lib/stats/histogram.h"
#include "lib/stats/sequential.h"
#include "lib/stats/summary.h"

namespace alignbench {

// One run as collected by the harness, with its place in the schedule.
struct CollectedRun {
  PairSpec pair;
  Variant variant;
  RunRecord record;
  // 1 = measured first
  std::size_t order = 0;
  // Shared with one run of the other variant
  std::size_t block = 0;
  // From the start of measuring
  double start_s = 0;
  // The whole run: preparation, timed writes, removal
  double wall_s = 0;
  // Which of the run's directories (--dir given several times), from 0.
  std::size_t dir = 0;
};

// One run of a variant as the statistics, the table and the JSON see it.
struct RunPoint {
  std::size_t order = 0;
  std::size_t block = 0;
  double start_s = 0;
  double wall_s = 0;
  // Mean write+sync of its timed writes
  double mean_ns = 0;
  // Their median, from the run's histogram
  double p50_ns = 0;
};

// Device counters divided by the number of timed operations.
struct DevicePerOp {
  double reads = 0;
  double kib_read = 0;
  double writes = 0;
  double kib_written = 0;
  // Unknown where the kernel's stat file has no flush fields (before 5.5).
  std::optional<double> flushes;
};

struct ProcessPerOp {
  double read_bytes = 0;
  double write_bytes = 0;
};

// A variant's merged histograms; empty when read from a file without them.
struct VariantHistograms {
  Histogram total_ns;
  Histogram write_ns;
  Histogram sync_ns;
};

struct VariantResult {
  // Runs that measured something
  std::size_t repetitions = 0;
  // Runs that stopped with an error
  std::size_t failed_repetitions = 0;
  // Write + sync, one clock span
  Summary total_ns;
  Summary write_ns;
  Summary sync_ns;
  VariantHistograms histograms;
  std::optional<DevicePerOp> device;
  // What the idle window before measuring showed, over as long as one of
  // this variant's writes takes (its mean write+sync): the device's own
  // traffic that `device` counts too.
  std::optional<DevicePerOp> background;
  std::optional<ProcessPerOp> process;
  bool staged = false;
  // Worst run
  std::optional<std::uint64_t> resident_pages_after_drop;
  // The first failing run's error, with its errno; with repetitions == 0 it is
  // why the variant could not be measured.
  std::optional<std::string> error;
  int error_errno = 0;
  // The runs that measured something, in schedule order: the units of the
  // statistics.
  std::vector<RunPoint> runs;
};

// How the rounds of --precision went for a pair; absent in a fixed design
// (--repetitions without --budget).
struct PairRounds {
  // Blocks measured in all, and in how many rounds
  std::uint64_t blocks = 0;
  std::uint64_t rounds = 0;
  // Why it got no more: precision reached, cap reached, out of budget, ...
  PairState state = PairState::kOpen;
  // The sign-invariant stand-in of the interval's half-width that decided
  // (lib/stats/sequential.h), in %gain points; unknown below 2 blocks
  std::optional<double> stand_in_points;
  // Projected total for the precision asked
  std::uint64_t blocks_needed = 0;
};

struct PairResult {
  PairSpec spec;
  VariantResult unaligned;
  VariantResult aligned;
  // Set only when both variants measured.
  // Derby's gain from arithmetic means: (unaligned mean / aligned mean − 1)·100
  std::optional<double> gain_pct;
  // The same from medians of per-write times.
  std::optional<double> median_gain_pct;
  // The statistic the verdict is made from (kVerdictMethod), and the other
  // one as a cross-check; why_not says why a test is missing.
  Inference inference;
  Inference cross_check;
  std::optional<Verdict> verdict;
  // Runs far off the others of their variant, in words ("run 14, aligned:
  // ..."); nothing is dropped, they only ask to be looked at.
  std::vector<std::string> run_notes;
  // In words, from the counters and settings
  std::string explanation;
  std::optional<PairRounds> rounds;

  bool Measured() const { return gain_pct.has_value(); }
};

// The statistic verdicts are made from (docs/methodology.md, "How the
// verdict was chosen"): on run medians, paired by block, it had the fewest A/A
// false positives and the most power here; the signed-rank test keeps its level
// exact where the t's drifted to the nominal 5 % and above.
inline constexpr TestMethod kVerdictMethod = TestMethod::kSignedRankLogMedian;
// What its interval is of, in words, for the table, markdown and JSON.
inline constexpr std::string_view kVerdictInterval =
    "of the typical gain of a block of two runs back to back, from the log "
    "ratios of the runs' median write+sync times (Wilcoxon signed-rank test, "
    "Hodges-Lehmann interval)";

// A direct write the filesystem refuses for its alignment (EINVAL) makes a
// variant not measurable; any other error stopped it.
bool RefusedDirectWrite(IoMode io, int errno_value);

// "undecided: 2 runs" rather than the bare name, where a count says why.
std::string VerdictText(const PairResult& pair);

// Runs are matched to the plan's pairs by spec; pairs come out in plan order.
// Takes the runs by value; move them in when they are not needed any more.
// With `idle`, each variant's background per write comes from it.
std::vector<PairResult> BuildPairs(
    const std::vector<PairSpec>& plan, std::vector<CollectedRun> runs,
    std::uint64_t shift, const std::optional<IdleSample>& idle = std::nullopt);
// The same with each pair's own idle windows (`idle[i]` for plan[i]): the
// disk's traffic sampled before the rounds that pair was measured in.
std::vector<PairResult> BuildPairs(
    const std::vector<PairSpec>& plan, std::vector<CollectedRun> runs,
    std::uint64_t shift, const std::vector<std::optional<IdleSample>>& idle);

// The idle window's counters over `seconds` of measuring, per write.
DevicePerOp BackgroundPerWrite(const IdleSample& idle, double seconds);

bool SameSpec(const PairSpec& a, const PairSpec& b);

// The runs of one variant of `spec` among `runs`, summarised from their
// histograms; a failed run is counted, never summarised.
VariantResult Collect(const PairSpec& spec, Variant variant,
                      const std::vector<CollectedRun>& runs);

// log(unaligned / aligned) of the runs' medians, in every block in which
// both runs measured: the values the verdict's test is made on.
std::vector<double> BlockLogRatios(const VariantResult& u,
                                   const VariantResult& a);

// When the machine changed speed under the whole measurement: every run's
// median relative to the median of its pair and variant, in the order run; a
// split of that sequence (each side at least a quarter of the runs) whose two
// halves differ by a factor of 2 or more is a level shift, said in words.
// Blocks keep the comparison fair across it, but a reader should know.
std::optional<std::string> LevelShift(const std::vector<PairResult>& pairs);

// The warning for a pair the rounds left short of --precision: the
// precision it reached, the blocks it would need, and why it got no more.
// Empty for a pair that reached it.
std::string PrecisionWarning(const PairResult& pair, double precision_points);

// "fsync buffered extend warm": the combination of axes a pair was measured
// under ("fsync/buffered/extend/warm" with "/" as the separator).
std::string AxesLabel(const PairSpec& spec, std::string_view separator = " ");

}  // namespace alignbench
