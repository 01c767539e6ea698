// Is the difference between two variants real? Pure functions over
// per-operation times.
// - MannWhitneyP: two-sided p-value of the Mann-Whitney U test, normal
// approximation with
//   tie correction and continuity correction (accurate to about 0.01 for n ≥ 20
//   per side).
// - GainInterval: confidence interval of Derby's mean-based gain from the
//   means of independent units (repetitions, or writes when there is only one
//   repetition): a Welch t interval on the ratio of means by the delta method.
//   Using repetitions as units makes drift between runs widen the interval, and
//   t quantiles keep it honest with few repetitions (first-order accurate; the
//   delta method's error is below 1 % of the gain while each mean's relative
//   standard error stays under 10 %).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace alignbench {

double MannWhitneyP(const std::vector<double>& a, const std::vector<double>& b);

struct Interval {
  double low;
  double high;
};

// Each input holds one mean per unit; at least two per side, else NaN bounds.
Interval GainInterval(const std::vector<double>& unaligned_means,
                      const std::vector<double>& aligned_means,
                      double confidence = 0.95);

enum class Verdict { kAlignedFaster, kShiftedFaster, kNoSignificantDifference };
std::string_view VerdictName(Verdict verdict);

// Significant only with at least two repetitions of each variant (one run
// cannot tell a variant from a run), a p-value below alpha and an interval that
// excludes zero.
Verdict Decide(double p_value, Interval gain_interval, std::size_t repetitions,
               double alpha = 0.05);

}  // namespace alignbench
