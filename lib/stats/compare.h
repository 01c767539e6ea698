// Is the difference between two variants real? Pure functions over one number
// per run, the mean write+sync time of its writes (the unit is a run: writes
// within a run are correlated, so per-write times stay descriptive).
// - SignedRankTest: Wilcoxon's signed-rank test on the per-block log ratios (a
//   block is one run of each variant back to back, in random order), with the
//   Hodges–Lehmann interval. Fed the runs' medians, it is the verdict's
//   statistic (measured on A/A and power; docs/methodology.md). Its level is
//   exact whatever the noise looks like: with the order inside each block
//   random and the variants alike, every block's sign is a fair coin, also when
//   medians tie or coincide (same histogram bucket). Details at the function.
// - WelchLogTest: Welch t on the logs of one value per run, Welch–Satterthwaite
//   degrees of freedom. Fed the runs' means, it is the cross-check.
// - PairedLogTest: t on the per-block log ratios, for comparison in tests.
// Every interval is exp(·) − 1 of an interval of log ratios, in %gain: it never
// reaches −100 %, and one slow run widens it instead of tilting it. p comes
// from the same test as the interval, so p < 1 − confidence exactly when the
// interval excludes 0. t quantiles and tails come from Boost.Math.
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
// A direction is stated as firm only where a rerun would repeat it: the same
// test below this level too, so that its 99 % interval clears 0 as well as
// the printed 95 % one. At 5 % alone, a gain near 0 measured in 14 sessions
// gave one "unaligned faster" from 6 blocks beside two "aligned faster": each
// session errs in one direction in up to 2.5 % of cases, two sessions in
// opposite ones in up to 0.13 % of session pairs; at 1 %, 0.005 %.
inline constexpr double kRerunSignificanceLevel = 0.01;
// The signed-rank test reaches p < 0.01 from 8 blocks on (all 8 on one side:
// 2/256); 6 or 7 blocks can lean, never be firm.
inline constexpr std::size_t kMinBlocksForFirmVerdict = 8;

struct Interval {
  double low;
  double high;
  // Half its length: what --precision asks to be at most, in its units.
  double HalfWidth() const { return (high - low) / 2; }
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

// The signed-rank test of "the log ratios are symmetric about d", for every
// shift d, read as one family:
// - At d, each block's |x − d| gets its midrank (ties share the average), a
//   block with x = d included in the ranking but without a sign (Pratt's
//   convention); the statistic is the sum of sign × rank.
// - Its null distribution is conditional on those ranks: every nonzero sign a
//   fair coin. It is exact with ties and zeros, where the untied table is not
//   (one zero in 10 blocks made its 5 % a true 5.47 %).
// - p is this test at d = 0, two-sided: P(|T| >= |t|).
// - The interval is the set of d the test does not reject at 1 − confidence,
//   its endpoints the shifts where that decision changes: a Walsh average
//   itself, or the first double beyond it when the test rejects at the Walsh
//   average but not just past it. The estimate is the median Walsh average;
//   with many blocks tied there the test can reject the estimate itself and
//   accept the gap beside it, and the estimate then sits on the interval's
//   open end, one double outside.
// So p < 1 − confidence exactly when the interval excludes 0: both are the
// same test, and the search for the endpoints decides 0's own candidate
// shift from the test at 0 rather than from its neighbours.
// Pratt rather than dropping the zeros: the sum of sign × midrank equals the
// number of Walsh averages above d minus those below, so it never rises with
// d, and the set of accepted shifts came out as one interval at every
// candidate shift of a thousand random vectors with ties and zeros (the unit
// tests enumerate them); with zeros dropped, 11 of 1500 such vectors had a
// hole in it at the 5 % level.
// Between two neighbouring Walsh averages the ranks do not change, so the
// endpoints are found by bisection over Walsh averages and the gaps between
// them, about 2 log2(n²) tests.
//
// Up to this many blocks the conditional distribution is computed exactly by
// dynamic programming over the doubled ranks, n steps over n² / 2 sums per
// tested shift. Log ratios of histogram medians share buckets, so nearly
// every Walsh average brings its own ties and its own distribution: measured
// 0.14 s at 300 blocks, 0.8 s at 500, 10 s at 1000 on this project's 2-vCPU
// machine, little next to the 1000 runs that 500 blocks take. Above,
// the normal approximation with the same conditional variance (the sum of
// squared ranks) stands in for the distribution, within the same family, so
// p and interval still agree.
inline constexpr std::size_t kExactSignedRankBlocks = 500;

// log(unaligned / aligned) of each block. Without a test below 6 blocks at
// the default confidence (the smallest two-sided p of 5 blocks is 2/32): no
// shift could be rejected, and the interval would be the whole line. Also
// without one for a confidence outside (0, 1), and if the test rejected every
// shift, which no data tried so far has made it do.
Inference SignedRankTest(const std::vector<double>& log_ratios,
                         double confidence = kConfidenceLevel);

enum class Verdict {
  kAlignedFaster,
  kUnalignedFaster,
  kLeansAligned,
  kLeansUnaligned,
  kNoSignificantDifference,
  kUndecided
};
inline constexpr Named<Verdict> kVerdicts[] = {
    {"aligned faster", Verdict::kAlignedFaster,
     "the whole interval lies above 0 and p < 0.01: aligning helps, beyond "
     "noise, and a rerun would say so again"},
    {"unaligned faster", Verdict::kUnalignedFaster,
     "the whole interval lies below 0 and p < 0.01: unaligned writes are "
     "faster, beyond noise, and a rerun would say so again"},
    {"leans aligned", Verdict::kLeansAligned,
     "the whole interval lies above 0, but p is between 0.01 and 0.05: a "
     "rerun may not repeat it"},
    {"leans unaligned", Verdict::kLeansUnaligned,
     "the whole interval lies below 0, but p is between 0.01 and 0.05: a "
     "rerun may not repeat it"},
    {"no significant difference", Verdict::kNoSignificantDifference,
     "the interval contains 0"},
    {"undecided", Verdict::kUndecided,
     "too few runs, or no interval could be computed"},
};

// Undecided with fewer than kMinRunsForVerdict runs of either variant or
// without a test; otherwise the side of 0 the interval lies on, firm where p
// is below `rerun_level` too and leaning where it is not.
Verdict Decide(const Inference& inference, std::size_t unaligned_runs,
               std::size_t aligned_runs,
               double rerun_level = kRerunSignificanceLevel);

// Aligned or unaligned faster, firm or leaning.
bool Directional(Verdict v);
// Aligned or unaligned faster at the rerun level (not leaning).
bool Firm(Verdict v);
// Firm or leaning towards the aligned variant.
bool TowardsAligned(Verdict v);

// Runs far off the others of their variant: those whose log value lies more
// than `scales` robust scales (1.4826 times the median absolute deviation of
// the logs, at least kFarRunScaleFloor) from the median log. Fed run medians.
// Needs kMinRunsForVerdict values, so that the median and scale are the
// others' and not the far run's. Indexes into `values`.
inline constexpr double kFarRunScaleFloor = 0.01;
std::vector<std::size_t> FarRuns(const std::vector<double>& values,
                                 double scales = 5);

}  // namespace alignbench
