#include "lib/stats/compare.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "lib/stats/summary.h"

namespace alignbench {

double MannWhitneyP(const std::vector<double>& a,
                    const std::vector<double>& b) {
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  if (a.empty() || b.empty()) return 1.0;
  struct Tagged {
    double value;
    bool from_a;
  };
  std::vector<Tagged> all;
  all.reserve(a.size() + b.size());
  for (double v : a) all.push_back({v, true});
  for (double v : b) all.push_back({v, false});
  std::sort(all.begin(), all.end(),
            [](const Tagged& x, const Tagged& y) { return x.value < y.value; });
  double rank_sum_a = 0;
  double tie_term = 0;  // Σ (t³ − t) over groups of tied values
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].value == all[i].value) ++j;
    const double average_rank =
        (static_cast<double>(i + j) + 1) / 2;  // ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].from_a) rank_sum_a += average_rank;
    }
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
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

// Mean of one two-level resample: repetitions drawn with replacement, then
// operations.
double ResampledMean(const std::vector<std::vector<double>>& reps,
                     std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> pick_rep(0, reps.size() - 1);
  double sum = 0;
  std::size_t count = 0;
  for (std::size_t r = 0; r < reps.size(); ++r) {
    const std::vector<double>& rep = reps[pick_rep(rng)];
    if (rep.empty()) continue;
    std::uniform_int_distribution<std::size_t> pick_op(0, rep.size() - 1);
    for (std::size_t i = 0; i < rep.size(); ++i) sum += rep[pick_op(rng)];
    count += rep.size();
  }
  return count == 0 ? std::nan("") : sum / static_cast<double>(count);
}

std::size_t TotalCount(const std::vector<std::vector<double>>& reps) {
  std::size_t total = 0;
  for (const auto& rep : reps) total += rep.size();
  return total;
}

}  // namespace

Interval BootstrapGainInterval(
    const std::vector<std::vector<double>>& unaligned,
    const std::vector<std::vector<double>>& aligned, double confidence,
    std::uint64_t seed) {
  const std::size_t n = TotalCount(unaligned) + TotalCount(aligned);
  if (n == 0 || unaligned.empty() || aligned.empty())
    return {std::nan(""), std::nan("")};
  // 2000 resamples, fewer for huge runs so that the bootstrap stays under
  // ~2·10⁸ draws; the percentile error of 200 resamples is still below a tenth
  // of the interval's width.
  const std::size_t resamples =
      std::clamp<std::size_t>(200'000'000 / n, 200, 2000);
  std::mt19937_64 rng(seed);
  std::vector<double> gains;
  gains.reserve(resamples);
  for (std::size_t i = 0; i < resamples; ++i) {
    gains.push_back(
        GainPct(ResampledMean(unaligned, rng), ResampledMean(aligned, rng)));
  }
  std::sort(gains.begin(), gains.end());
  const double tail = (1 - confidence) / 2;
  return {Percentile(gains, tail), Percentile(gains, 1 - tail)};
}

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kAlignedFaster:
      return "aligned faster";
    case Verdict::kShiftedFaster:
      return "shifted faster";
    case Verdict::kNoSignificantDifference:
      return "no significant difference";
  }
  return "?";
}

Verdict Decide(double p_value, Interval gain_interval, double alpha) {
  if (!(p_value < alpha)) return Verdict::kNoSignificantDifference;
  if (gain_interval.low > 0) return Verdict::kAlignedFaster;
  if (gain_interval.high < 0) return Verdict::kShiftedFaster;
  return Verdict::kNoSignificantDifference;
}

}  // namespace alignbench
