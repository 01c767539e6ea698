#include "lib/stats/compare.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

#include "lib/stats/summary.h"

namespace alignbench {

double MannWhitneyP(std::vector<double> a, std::vector<double> b) {
  if (a.empty() || b.empty()) return 1.0;
  // Rank by merging the two sorted samples: no combined copy of both, so a
  // million writes per side cost two sorts in place and nothing more.
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  double rank_sum_a = 0;
  double tie_term = 0;  // Σ (t³ − t) over groups of tied values
  std::size_t i = 0, j = 0, ranked = 0;
  while (i < a.size() || j < b.size()) {
    const double value =
        j == b.size() || (i < a.size() && a[i] <= b[j]) ? a[i] : b[j];
    std::size_t in_a = 0, in_b = 0;
    while (i < a.size() && a[i] == value) ++i, ++in_a;
    while (j < b.size() && b[j] == value) ++j, ++in_b;
    const std::size_t tied = in_a + in_b;
    // The tied values share the average of ranks ranked+1 .. ranked+tied.
    const double average_rank = static_cast<double>(2 * ranked + tied + 1) / 2;
    rank_sum_a += average_rank * static_cast<double>(in_a);
    const double t = static_cast<double>(tied);
    tie_term += t * t * t - t;
    ranked += tied;
  }
  const double n = n1 + n2;
  const double u = rank_sum_a - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (variance <= 0) return 1.0;  // every value tied
  const double z =
      std::max(0.0, std::fabs(u - mean) - 0.5) / std::sqrt(variance);
  return std::erfc(z / std::sqrt(2.0));
}

namespace {

// Mean and squared standard error of the mean of `values`.
std::pair<double, double> MeanAndSquaredError(
    const std::vector<double>& values) {
  const Summary s = Summarize(values);
  const double n = static_cast<double>(values.size());
  return {s.mean, s.stddev * s.stddev / n};
}

}  // namespace

Interval GainInterval(const std::vector<double>& unaligned_means,
                      const std::vector<double>& aligned_means,
                      double confidence) {
  const double nan = std::nan("");
  if (unaligned_means.size() < 2 || aligned_means.size() < 2) return {nan, nan};
  const auto [u, u_se2] = MeanAndSquaredError(unaligned_means);
  const auto [a, a_se2] = MeanAndSquaredError(aligned_means);
  const double ratio = u / a;
  // Relative variances of the two means; the ratio's is (about) their sum.
  const double ru = u_se2 / (u * u), ra = a_se2 / (a * a);
  const double relative = ru + ra;
  if (!(relative > 0)) return {GainPct(u, a), GainPct(u, a)};
  // Welch–Satterthwaite degrees of freedom on the relative scale.
  const double nu = static_cast<double>(unaligned_means.size() - 1);
  const double na = static_cast<double>(aligned_means.size() - 1);
  const double df = relative * relative / (ru * ru / nu + ra * ra / na);
  const boost::math::students_t t(df);
  const double half = boost::math::quantile(t, 1 - (1 - confidence) / 2) *
                      ratio * std::sqrt(relative);
  return {100 * (ratio - half) - 100, 100 * (ratio + half) - 100};
}

Verdict Decide(double p_value, Interval gain_interval, std::size_t repetitions,
               double alpha) {
  if (repetitions < 2) return Verdict::kUndecided;
  if (!(p_value < alpha)) return Verdict::kNoSignificantDifference;
  if (gain_interval.low > 0) return Verdict::kAlignedFaster;
  if (gain_interval.high < 0) return Verdict::kShiftedFaster;
  return Verdict::kNoSignificantDifference;
}

}  // namespace alignbench
