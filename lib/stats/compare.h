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
#include <vector>

#include "lib/config/named.h"

namespace alignbench {

// Takes its samples by value: it sorts them in place.
double MannWhitneyP(std::vector<double> a, std::vector<double> b);

inline constexpr double kConfidenceLevel = 0.95;
inline constexpr double kSignificanceLevel = 0.05;

struct Interval {
  double low;
  double high;
};

// Each input holds one mean per unit; at least two per side, else NaN bounds.
Interval GainInterval(const std::vector<double>& unaligned_means,
                      const std::vector<double>& aligned_means,
                      double confidence = kConfidenceLevel);

enum class Verdict {
  kAlignedFaster,
  kShiftedFaster,
  kNoSignificantDifference,
  kUndecided
};
inline constexpr Named<Verdict> kVerdicts[] = {
    {"aligned faster", Verdict::kAlignedFaster,
     "aligned writes are faster, beyond noise"},
    {"shifted faster", Verdict::kShiftedFaster,
     "shifted writes are faster, beyond noise"},
    {"no significant difference", Verdict::kNoSignificantDifference,
     "the difference is within noise"},
    {"undecided: one repetition", Verdict::kUndecided,
     "one run per variant cannot tell a variant from a run"},
};

// Undecided with fewer than two repetitions of each variant; significant only
// with a p-value below alpha and an interval that excludes zero.
Verdict Decide(double p_value, Interval gain_interval, std::size_t repetitions,
               double alpha = kSignificanceLevel);

}  // namespace alignbench
