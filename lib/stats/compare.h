// Is the difference between two variants real? Pure functions over one number
// per run, the mean write+sync time of its writes (DESIGN.md §7: the unit is a
// run; writes within a run are correlated, so per-write times stay
// descriptive).
// - PairedLogTest: t on the per-block log ratio (a block is one run of each
//   variant back to back), n − 1 degrees of freedom. Fed the runs' medians, it
//   is the verdict's statistic (measured best on A/A and power; README.md).
// - WelchLogTest: Welch t on the logs of one value per run, Welch–Satterthwaite
//   degrees of freedom. Fed the runs' means, it is the cross-check.
// The interval exp(d ± t·se) − 1, in %gain, is one of a ratio of geometric
// means: it never reaches −100 % and one slow run widens it on both sides
// instead of tilting it. p comes from the same t as the interval, so
// p < 1 − confidence exactly when the interval excludes 0. Quantiles and tails
// come from Boost.Math.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/config/named.h"

namespace alignbench {

inline constexpr double kConfidenceLevel = 0.95;
inline constexpr double kSignificanceLevel = 1 - kConfidenceLevel;
// Two runs per variant give a t with about 2 degrees of freedom, whose
// interval is too wide to decide anything and too easily fooled by one level
// shift of the disk; three is the least that decides.
inline constexpr std::size_t kMinRunsForVerdict = 3;

struct Interval {
  double low;
  double high;
};

enum class TestMethod { kPairedLogMedian, kWelchLogMean, kDeltaRatio };
inline constexpr Named<TestMethod> kTestMethods[] = {
    {"paired-log-median", TestMethod::kPairedLogMedian,
     "paired t on the log ratio of the run medians of each block"},
    {"welch-log-mean", TestMethod::kWelchLogMean,
     "Welch t on the logs of run means, Welch-Satterthwaite df"},
    // Only ever read, from results of schema version 1.
    {"delta-ratio", TestMethod::kDeltaRatio,
     "schema 1: Welch t on the ratio of arithmetic means (delta method), p "
     "from Mann-Whitney U on per-write times"},
};

struct GainTest {
  TestMethod method;  // which of kTestMethods made it
  // exp(d) − 1 in percent: the gain in the geometric mean of the values given,
  // the estimate the interval is centred on (on the log scale).
  double estimate_pct;
  Interval interval_pct;
  double p_value;
  std::optional<double> df;  // unknown in results of schema version 1
  std::size_t units;  // runs per variant (Welch: the smaller side) or blocks
};

// A test, or why there is none.
struct Inference {
  std::optional<GainTest> test;
  std::string why_not;  // set exactly when `test` is empty
};

Inference WelchLogTest(const std::vector<double>& unaligned_means,
                       const std::vector<double>& aligned_means,
                       double confidence = kConfidenceLevel);

// log(unaligned mean / aligned mean) of each block.
Inference PairedLogTest(const std::vector<double>& log_ratios,
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

// Runs whose mean is at least `factor` times the median of `means`, or at most
// its 1/factor: indexes into `means`. Needs three runs to have a median that
// one run cannot move.
std::vector<std::size_t> FarRuns(const std::vector<double>& means,
                                 double factor = 3);

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
