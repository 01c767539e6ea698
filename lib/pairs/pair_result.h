// What a pair of the plan came to: the runs as collected, each variant's
// summaries and counters, the gain, the inference and the verdict, with the
// names every layer above uses for them (the verdict in words, the axes).
// Data and its plain words only; pairs.h makes them from runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/base/named.h"
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
  // Their 99th percentile, from the same histogram; recorded only for a run
  // of kTailMinWrites writes or more, where it is not the run's slowest
  // write. Absent in results written before the tail had a gain.
  std::optional<double> p99_ns;
};

// The fewest timed writes of a run whose p99 the tail's gain is made from:
// below 100, a run's 99th percentile is its slowest write.
inline constexpr std::uint64_t kTailMinWrites = 100;

// Device counters divided by the number of timed operations.
struct DevicePerOp {
  double reads = 0;
  double kib_read = 0;
  double writes = 0;
  double kib_written = 0;
  // Unknown where the kernel's stat file has no flush fields (before 5.5).
  std::optional<double> flushes;
};

// The device's requests per timed write told apart, from the block layer's
// tracepoints: those on the benchmark's own files, the filesystem's journal
// and metadata, and the others' (other processes, other files).
struct DeviceRequests {
  DevicePerOp file;
  DevicePerOp filesystem;
  DevicePerOp others;
  // Per write, the time at least one of the file's or the filesystem's
  // requests was at the device (issue to completion).
  double device_ns = 0;
};

// Where a variant's files landed, the mean over its runs: extents, and
// blocks beyond the data (an extent tree's).
struct MeanPlacement {
  double extents = 0;
  double tree_blocks = 0;
};

struct ProcessPerOp {
  double read_bytes = 0;
  double write_bytes = 0;
};

// What the device counters show a measured pair's writes did. Explain says
// each in a sentence; the run's summary line names the most common.
enum class Mechanism {
  kReadOnWrite,
  kExtraBlock,
  kAlignedWritesMore,
  kMoreFlushes,
  kExtentConversions,
  kSizeChanges,
  kPlacement,
  kMetadataCommits,
  kBusyDisk,
  kNoCounters,
  kSameIo,
  kOtherIo,
  kUnexplained,
};
inline constexpr Named<Mechanism> kMechanisms[] = {
    {"read-on-write", Mechanism::kReadOnWrite,
     "one variant's writes read the partly overwritten block first"},
    {"one more block written", Mechanism::kExtraBlock,
     "a shift spreads each write over one more block"},
    {"aligned writes more", Mechanism::kAlignedWritesMore,
     "the aligned layout writes bytes the unaligned one does not: padding, "
     "or a block written again"},
    {"more flushes", Mechanism::kMoreFlushes,
     "one variant makes the device flush its cache more often"},
    {"extent conversions", Mechanism::kExtentConversions,
     "in a preallocated file, one variant's commits reach unwritten blocks "
     "more often: each such commit converts an extent, a journal commit "
     "at its sync"},
    {"size changes", Mechanism::kSizeChanges,
     "in a file that grows, one variant's commits change its size more often: "
     "a journal commit at each such commit's sync"},
    {"where the files landed", Mechanism::kPlacement,
     "one variant's files kept more extent-tree blocks than the other's: "
     "where the filesystem put their blocks, not their alignment, and each "
     "such block is written again at every sync"},
    {"metadata commits", Mechanism::kMetadataCommits,
     "the file's metadata, written with every sync and alike for both, "
     "dominates"},
    {"busy disk", Mechanism::kBusyDisk,
     "the disk's own traffic swamps the counters"},
    {"no device counters", Mechanism::kNoCounters,
     "no block device under the directory"},
    {"same device I/O", Mechanism::kSameIo,
     "both variants did the same device I/O"},
    {"different device I/O", Mechanism::kOtherIo,
     "the variants' device I/O differs in no pattern the counters name"},
    {"not explained by device I/O", Mechanism::kUnexplained,
     "a time difference the counters do not show"},
};

// Bytes per timed commit of one variant of a log case's pair: asked for by
// the application, and written by the log writer's rules for them.
struct CommitBytes {
  double asked = 0;
  double written = 0;
  // The share of commits that write a 4096-byte block no write before them
  // reached: in a preallocated file, those that convert an unwritten extent.
  // Absent in results from before it was kept.
  std::optional<double> new_blocks = std::nullopt;
  // The share of commits that write past the file's end: each changes its
  // size. Absent in results from before it was kept.
  std::optional<double> grows = std::nullopt;
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
  // What the idle windows before its rounds showed, over as long as one of
  // this variant's writes takes (its mean write+sync): the device's own
  // traffic that `device` counts too.
  std::optional<DevicePerOp> background;
  std::optional<ProcessPerOp> process;
  // Absent unless every run's requests were traced.
  std::optional<DeviceRequests> device_requests;
  // A log case's bytes per commit, recorded when the pair is made (from the
  // writer's rules, not measured); absent in Derby's sweep.
  std::optional<CommitBytes> per_commit;
  bool staged = false;
  // Worst run
  std::optional<std::uint64_t> resident_pages_after_drop;
  // Where its runs' files landed, the mean over its runs; absent unless
  // every run could say.
  std::optional<MeanPlacement> placement;
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
  std::optional<double> means_gain_pct;
  // The same from the medians of every write of each variant, pooled.
  std::optional<double> medians_gain_pct;
  // The statistic the verdict is made from (kVerdictMethod), and the other
  // one as a cross-check; why_not says why a test is missing.
  Inference inference;
  Inference cross_check;
  std::optional<Verdict> verdict;
  // The tail's gain: the same test on the blocks' log ratios of the runs'
  // p99 of write+sync (TailInference in lib/pairs/pairs.h), its verdict at
  // the same levels; why_not says why there is none.
  Inference tail;
  std::optional<Verdict> tail_verdict;
  // Runs far off the others of their variant, in words ("run 14, aligned:
  // ..."); nothing is dropped, they only ask to be looked at.
  std::vector<std::string> run_notes;
  // In words, from the counters and settings
  std::string explanation;
  // What the device counters show its writes did (MechanismsOf in
  // lib/pairs/explain.h), recorded with the explanation; empty when it was
  // not measured.
  std::vector<Mechanism> mechanisms;
  std::optional<PairRounds> rounds;
  // The share of the machine's CPU time (0 to 1, every CPU) that other
  // processes used in the idle windows before the pair's rounds: a busy CPU
  // delays each sync's completion, and the disk's counters do not see it.
  std::optional<double> others_cpu_share;

  bool Measured() const { return means_gain_pct.has_value(); }
  const VariantResult& Of(Variant v) const {
    return v == Variant::kUnaligned ? unaligned : aligned;
  }
  VariantResult& Of(Variant v) {
    return v == Variant::kUnaligned ? unaligned : aligned;
  }
  // The gain every printer shows as "%gain": the estimate the verdict's
  // interval is centred on, so that the number, its interval and the answer
  // line agree. Absent without a test (fewer runs than a verdict needs, a
  // mailing-list table), where Derby's gain of means is the only one.
  std::optional<double> TypicalGainPct() const {
    if (!inference.test) return std::nullopt;
    return inference.test->estimate_pct;
  }
  // The gain a result's gain_pct holds and every table prints: the typical
  // gain where there is an interval, else Derby's gain of means (a
  // mailing-list table, too few runs).
  std::optional<double> ShownGainPct() const {
    if (inference.test) return inference.test->estimate_pct;
    return means_gain_pct;
  }
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
// `min_runs`: the runs a verdict needs, as the pair's result says.
std::string VerdictText(const PairResult& pair,
                        std::uint64_t min_runs = kMinRunsForVerdict);

// The why-line's sentence for a leaning verdict: "The time difference is
// significant at 5 % but not at 1 % (p = 0.031 from 6 blocks): a rerun may
// not repeat it."
std::string LeaningNote(const PairResult& pair);

bool SameSpec(const PairSpec& a, const PairSpec& b);

// "fsync buffered extend warm": the combination of axes a pair was measured
// under ("fsync/buffered/extend/warm" with "/" as the separator).
std::string AxesLabel(const PairSpec& spec, std::string_view separator = " ");

}  // namespace alignbench
