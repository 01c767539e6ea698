// Is the difference between two variants real? Pure functions over
// per-operation times.
// - MannWhitneyP: two-sided p-value of the Mann-Whitney U test, normal
// approximation with
//   tie correction and continuity correction (accurate to about 0.01 for n ≥ 20
//   per side).
// - BootstrapGainInterval: percentile interval of Derby's mean-based gain from
// a two-level
//   bootstrap: repetitions are resampled, then operations within each chosen
//   repetition, so drift between repetitions widens the interval. Seeded: the
//   same input gives the same interval.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace alignbench {

double MannWhitneyP(const std::vector<double>& a, const std::vector<double>& b);

struct Interval {
  double low;
  double high;
};

// Each outer vector holds one vector of times per repetition.
Interval BootstrapGainInterval(
    const std::vector<std::vector<double>>& unaligned,
    const std::vector<std::vector<double>>& aligned, double confidence = 0.95,
    std::uint64_t seed = 0x5eed);

enum class Verdict { kAlignedFaster, kShiftedFaster, kNoSignificantDifference };
std::string_view VerdictName(Verdict verdict);

// Significant only when the p-value is below alpha and the interval excludes
// zero.
Verdict Decide(double p_value, Interval gain_interval, double alpha = 0.05);

}  // namespace alignbench
