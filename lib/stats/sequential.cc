#include "lib/stats/sequential.h"

#include <algorithm>
#include <array>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "lib/stats/summary.h"

namespace alignbench {
namespace {

// Beyond this μ/σ the fold no longer touches the quartiles: |μ + σZ| has the
// quartiles of μ + σZ.
constexpr double kMaxFoldedTheta = 6;
constexpr int kFoldedSteps = 600;
constexpr double kNormalQuartile = 0.6744897501960817;

// p-quantile of |θ + Z|, Z standard normal.
double FoldedQuantile(double theta, double p) {
  const boost::math::normal z;
  auto cdf = [&](double x) {
    return boost::math::cdf(z, x - theta) - boost::math::cdf(z, -x - theta);
  };
  double low = 0, high = theta + 10;
  for (int i = 0; i < 100; ++i) {
    const double mid = (low + high) / 2;
    (cdf(mid) < p ? low : high) = mid;
  }
  return (low + high) / 2;
}

struct FoldedQuartiles {
  double theta, q25, q75;
};

// Computed once; the lower/upper quartile ratio rises with θ, which is what
// lets it be inverted.
const std::vector<FoldedQuartiles>& FoldedTable() {
  static const std::vector<FoldedQuartiles> table = [] {
    std::vector<FoldedQuartiles> t;
    for (int i = 0; i <= kFoldedSteps; ++i) {
      const double theta = kMaxFoldedTheta * i / kFoldedSteps;
      t.push_back(
          {theta, FoldedQuantile(theta, 0.25), FoldedQuantile(theta, 0.75)});
    }
    return t;
  }();
  return table;
}

struct FoldedFit {
  double mu;
  double sigma;
};

// μ ≥ 0 and σ of |μ + σZ| from the sample quartiles a25 ≤ a75 of absolute
// values.
FoldedFit FitFolded(double a25, double a75) {
  if (!(a75 > 0)) return {0, 0};
  const double ratio = a25 / a75;
  const auto& table = FoldedTable();
  if (ratio <= table.front().q25 / table.front().q75) {
    // Quartiles closer to 0 than any fold allows: no effect to see, and the
    // spread is all noise.
    const auto& f = table.front();
    return {0, (a75 - a25) / (f.q75 - f.q25)};
  }
  if (ratio >= table.back().q25 / table.back().q75) {
    return {(a25 + a75) / 2, (a75 - a25) / (2 * kNormalQuartile)};
  }
  std::size_t hi = 1;
  while (table[hi].q25 / table[hi].q75 < ratio) ++hi;
  const auto& a = table[hi - 1];
  const auto& b = table[hi];
  const double ra = a.q25 / a.q75, rb = b.q25 / b.q75;
  const double w = (ratio - ra) / (rb - ra);
  const double theta = a.theta + w * (b.theta - a.theta);
  const double q25 = a.q25 + w * (b.q25 - a.q25);
  const double q75 = a.q75 + w * (b.q75 - a.q75);
  const double sigma = (a75 - a25) / (q75 - q25);
  return {theta * sigma, sigma};
}

}  // namespace

double StandInHalfWidthPoints(const std::vector<double>& log_ratios,
                              double confidence) {
  const std::size_t n = log_ratios.size();
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> magnitudes;
  magnitudes.reserve(n);
  for (double r : log_ratios) magnitudes.push_back(std::fabs(r));
  std::sort(magnitudes.begin(), magnitudes.end());
  const FoldedFit fit =
      FitFolded(Percentile(magnitudes, 0.25), Percentile(magnitudes, 0.75));
  const double k = static_cast<double>(n);
  const double t = boost::math::quantile(boost::math::students_t(k - 1),
                                         1 - (1 - confidence) / 2);
  // Hodges–Lehmann's asymptotic standard error under normal noise is
  // sqrt(π/3) σ/√n (efficiency 3/π against the mean).
  const double half_log = t * std::sqrt(M_PI / 3) * fit.sigma / std::sqrt(k);
  return 100 * std::exp(fit.mu) * std::sinh(half_log);
}

std::uint64_t ProjectBlocksNeeded(std::uint64_t blocks_so_far,
                                  double stand_in_points,
                                  double precision_points) {
  if (!(stand_in_points > precision_points)) return blocks_so_far;
  const double ratio = stand_in_points / precision_points;
  const double needed =
      std::ceil(static_cast<double>(blocks_so_far) * ratio * ratio);
  // Far beyond any cap; keeps the conversion defined.
  if (needed > 1e15) return static_cast<std::uint64_t>(1e15);
  return std::max(blocks_so_far, static_cast<std::uint64_t>(needed));
}

RoundPlan PlanNextRound(const std::vector<PairProgress>& pairs,
                        const SequentialDesign& design, double seconds_left) {
  const std::size_t count = pairs.size();
  RoundPlan plan;
  plan.blocks.assign(count, 0);
  plan.state.assign(count, PairState::kOpen);
  plan.stand_in_half_width_points.assign(
      count, std::numeric_limits<double>::quiet_NaN());
  plan.blocks_needed.assign(count, 0);

  const std::uint64_t cap = design.max_blocks_per_pair;
  // Per open pair: the round it asks for and the seconds to its target.
  std::vector<std::uint64_t> ask(count, 0);
  std::vector<double> to_target(count, 0);
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < count; ++i) {
    const PairProgress& pair = pairs[i];
    const std::uint64_t n = pair.log_ratios.size();
    if (!pair.measurable) {
      plan.state[i] = PairState::kNotMeasurable;
      continue;
    }
    const double stand_in =
        StandInHalfWidthPoints(pair.log_ratios, design.confidence);
    plan.stand_in_half_width_points[i] = stand_in;
    if (n < design.first_round_blocks) {
      plan.blocks_needed[i] = design.first_round_blocks;
      if (n >= cap) {
        plan.state[i] = PairState::kCapReached;
        continue;
      }
      ask[i] = std::min(design.first_round_blocks, cap) - n;
      to_target[i] = static_cast<double>(ask[i]) * pair.seconds_per_block;
      open.push_back(i);
      continue;
    }
    plan.blocks_needed[i] =
        ProjectBlocksNeeded(n, stand_in, design.precision_points);
    if (stand_in <= design.precision_points) {
      plan.state[i] = PairState::kPrecisionReached;
      continue;
    }
    if (n >= cap) {
      plan.state[i] = PairState::kCapReached;
      continue;
    }
    const std::uint64_t target = std::min(plan.blocks_needed[i], cap);
    const auto most_this_round = static_cast<std::uint64_t>(std::floor(
        static_cast<double>(n) * std::max(1.0, design.max_round_growth - 1)));
    std::uint64_t want = std::max<std::uint64_t>(target - n, 1);
    want = std::min(want, std::max(most_this_round, design.min_round_blocks));
    want = std::max(want, design.min_round_blocks);
    ask[i] = std::min(want, cap - n);
    to_target[i] = static_cast<double>(std::max(ask[i], target - n)) *
                   pair.seconds_per_block;
    open.push_back(i);
  }

  std::stable_sort(open.begin(), open.end(), [&](std::size_t a, std::size_t b) {
    return to_target[a] < to_target[b];
  });
  double committed = 0;
  for (std::size_t i : open) {
    if (committed + to_target[i] <= seconds_left) {
      committed += to_target[i];
      plan.blocks[i] = ask[i];
      plan.seconds += static_cast<double>(ask[i]) * pairs[i].seconds_per_block;
    } else {
      plan.state[i] = PairState::kOutOfBudget;
    }
  }
  return plan;
}

}  // namespace alignbench
