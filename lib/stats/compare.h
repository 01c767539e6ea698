// Is the difference between two variants real? Pure functions over one number
// per run, the mean write+sync time of its writes (DESIGN.md §7: the unit is a
// run; writes within a run are correlated, so per-write times stay
// descriptive).
// - SignedRankTest: Wilcoxon's signed-rank test on the per-block log ratios (a
//   block is one run of each variant back to back, in random order), with the
//   Hodges–Lehmann interval from the Walsh averages. Fed the runs' medians, it
//   is the verdict's statistic (measured on A/A and power; README.md). Its
//   level is exact whatever the noise looks like: with the order inside each
//   block random and the variants alike, every block's sign is a fair coin.
//   Exact null distribution up to kExactSignedRankBlocks blocks, the normal
//   approximation above.
// - WelchLogTest: Welch t on the logs of one value per run, Welch–Satterthwaite
//   degrees of freedom. Fed the runs' means, it is the cross-check.
// - PairedLogTest: t on the per-block log ratios, for comparison in tests.
// Every interval is exp(·) − 1 of an interval of log ratios, in %gain: it never
// reaches −100 %, and one slow run widens it instead of tilting it. p comes
// from the same statistic and critical value as the interval, so p < 1 −
// confidence exactly when the interval excludes 0. t quantiles and tails come
// from Boost.Math.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/base/named.h"

namespace alignbench {

inline constexpr double kConfidenceLevel = 0.95;
inline constexpr double kSignificanceLevel = 1 - kConfidenceLevel;
// The signed-rank test cannot reach p < 0.05 with fewer than 6 blocks (the
// smallest two-sided p of 5 is 2/32).
inline constexpr std::size_t kMinRunsForVerdict = 6;

struct Interval {
  double low;
  double high;
};

enum class TestMethod {
  kSignedRankLogMedian,
  kWelchLogMean,
  kPairedLogMedian,
  kDeltaRatio
};
inline constexpr Named<TestMethod> kTestMethods[] = {
    {"signed-rank-log-median", TestMethod::kSignedRankLogMedian,
     "Wilcoxon signed-rank test on the log ratio of the run medians of each "
     "block, Hodges-Lehmann interval"},
    {"welch-log-mean", TestMethod::kWelchLogMean,
     "Welch t on the logs of run means, Welch-Satterthwaite df"},
    {"paired-log-median", TestMethod::kPairedLogMedian,
     "paired t on the log ratio of the run medians of each block"},
    // Only ever read, from results of schema version 1.
    {"delta-ratio", TestMethod::kDeltaRatio,
     "schema 1: Welch t on the ratio of arithmetic means (delta method), p "
     "from Mann-Whitney U on per-write times"},
};

struct GainTest {
  // Which of kTestMethods made it
  TestMethod method;
  // exp(d) − 1 in percent: the gain in the geometric mean of the values given,
  // the estimate the interval is centred on (on the log scale).
  double estimate_pct;
  Interval interval_pct;
  double p_value;
  // Degrees of freedom of a t; absent for the signed-rank test and in results
  // of schema version 1.
  std::optional<double> df;
  // Runs per variant (Welch: the smaller side) or blocks
  std::size_t units;
};

// A test, or why there is none.
struct Inference {
  std::optional<GainTest> test;
  // Set exactly when `test` is empty
  std::string why_not;
};

Inference WelchLogTest(const std::vector<double>& unaligned_means,
                       const std::vector<double>& aligned_means,
                       double confidence = kConfidenceLevel);

// log(unaligned / aligned) of each block.
Inference PairedLogTest(const std::vector<double>& log_ratios,
                        double confidence = kConfidenceLevel);

// Exact null distribution up to this many blocks (its counts stay exact in a
// double), the normal approximation above.
inline constexpr std::size_t kExactSignedRankBlocks = 50;

// log(unaligned / aligned) of each block. With fewer than 6 blocks even the
// most extreme signs give p above 0.05 (2/32 with 5): an interval is still
// given, at the highest confidence the blocks allow, and the p says so.
Inference SignedRankTest(const std::vector<double>& log_ratios,
                         double confidence = kConfidenceLevel);

enum class Verdict {
  kAlignedFaster,
  kShiftedFaster,
  kNoSignificantDifference,
  kUndecided
};
inline constexpr Named<Verdict> kVerdicts[] = {
    {"aligned faster", Verdict::kAlignedFaster,
     "the whole interval lies above 0: aligning helps, beyond noise"},
    {"shifted faster", Verdict::kShiftedFaster,
     "the whole interval lies below 0: shifted writes are faster, beyond "
     "noise"},
    {"no significant difference", Verdict::kNoSignificantDifference,
     "the interval contains 0"},
    {"undecided", Verdict::kUndecided,
     "too few runs, or no interval could be computed"},
};

// Undecided with fewer than kMinRunsForVerdict runs of either variant or
// without a test; otherwise the side of 0 the interval lies on.
Verdict Decide(const Inference& inference, std::size_t unaligned_runs,
               std::size_t aligned_runs);

// Runs far off the others of their variant: those whose log value lies more
// than `scales` robust scales (1.4826 times the median absolute deviation of
// the logs, at least kFarRunScaleFloor) from the median log. Fed run medians.
// Needs kMinRunsForVerdict values, so that the median and scale are the
// others' and not the far run's. Indexes into `values`.
inline constexpr double kFarRunScaleFloor = 0.01;
std::vector<std::size_t> FarRuns(const std::vector<double>& values,
                                 double scales = 5);

// How many runs per variant (Welch, from the two standard deviations of log
// run values) or blocks (paired, from the standard deviation of log ratios,
// given as sd_unaligned with sd_aligned = 0) bring t·se, the half-width of the
// interval on the log scale, down to `log_half_width`. At least
// kMinRunsForVerdict; `cap` when even that many would not do.
std::uint64_t RunsForPrecision(TestMethod method, double sd_log_unaligned,
                               double sd_log_aligned, double log_half_width,
                               std::uint64_t cap,
                               double confidence = kConfidenceLevel);

}  // namespace alignbench
