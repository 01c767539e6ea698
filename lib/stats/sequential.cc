#include "lib/stats/sequential.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "lib/stats/compare.h"

namespace alignbench {
namespace {

// Beyond this μ/σ the fold no longer bends |μ + σZ| below its upper tail:
// a straight line in the normal quantiles fits it.
constexpr double kMaxFoldedTheta = 6;
constexpr int kThetaSteps = 60;
constexpr int kProbabilitySteps = 400;
// The fit leaves out the largest tenth of the absolute values: one far block
// in ten must not decide a pair's stopping, and the few largest of a
// heavy-tailed sample would make the fitted σ (and the blocks asked for)
// grow faster than the Hodges–Lehmann interval does (it barely feels them).
// It leaves out as many of the smallest: with a large effect the absolute
// values are the log ratios themselves, and a fit blind to the top only
// would stop a pair when its low blocks happen to lie close, which is when
// its estimate is high: the interval would cover the gain less often.
constexpr double kLeftOutShare = 0.1;
// See FitFolded; chosen with tests/sim/session_sim and normal samples of 10 to
// 100 blocks, where they keep the stand-in within −10 % and +25 % of the
// mean Hodges–Lehmann half-width at every effect, the excess where μ ≈ σ.
constexpr double kSmallTheta = 1.5;
constexpr double kPlainlyBetter = 3;

// p-quantile of |θ + Z|, Z standard normal. The normal CDF from std::erfc,
// in double: the table below takes 2.9 million of them, and Boost's, which
// computes in long double, made building it the 0.5 s pause after a run's
// first round.
double FoldedQuantile(double theta, double p) {
  auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  auto cdf = [&](double x) { return phi(x - theta) - phi(-x - theta); };
  double low = 0, high = theta + 10;
  for (int i = 0; i < 60; ++i) {
    const double mid = (low + high) / 2;
    (cdf(mid) < p ? low : high) = mid;
  }
  return (low + high) / 2;
}

// Q[θ step][p step], computed once.
const std::vector<std::vector<double>>& FoldedTable() {
  static const std::vector<std::vector<double>> table = [] {
    std::vector<std::vector<double>> t(kThetaSteps + 1);
    for (int i = 0; i <= kThetaSteps; ++i) {
      const double theta = kMaxFoldedTheta * i / kThetaSteps;
      for (int j = 0; j <= kProbabilitySteps; ++j) {
        const double p =
            std::clamp(1.0 * j / kProbabilitySteps, 1e-9, 1 - 1e-9);
        t[i].push_back(FoldedQuantile(theta, p));
      }
    }
    return t;
  }();
  return table;
}

double Interpolate(const std::vector<double>& row, double p) {
  const double at = p * kProbabilitySteps;
  const auto j = std::min(static_cast<std::size_t>(at), row.size() - 2);
  return row[j] + (at - static_cast<double>(j)) * (row[j + 1] - row[j]);
}

struct FoldedFit {
  double mu;
  double sigma;
};

// A fit and its sum of squared residuals.
struct Candidate {
  FoldedFit fit;
  double sse;
};

// The order statistics the fit reads, and the probability (i − ½)/n of each
// in the whole sample: the middle ones, without kLeftOutShare at each end.
struct OrderStatistics {
  std::vector<double> a;
  std::vector<double> p;
};

OrderStatistics MiddleOf(const std::vector<double>& sorted) {
  const std::size_t all = sorted.size();
  const auto left_out = static_cast<std::size_t>(
      std::floor(kLeftOutShare * static_cast<double>(all)));
  std::size_t first = left_out, last = all - left_out;
  // Mostly zero log ratios (coarse medians) with a few that are not: the few
  // are all there is to see, so they are not left out.
  if (!(sorted[last - 1] > 0)) {
    first = 0;
    last = all;
  }
  OrderStatistics o;
  o.a.assign(sorted.begin() + first, sorted.begin() + last);
  for (std::size_t i = 0; i < o.a.size(); ++i) {
    o.p.push_back((static_cast<double>(first + i) + 0.5) /
                  static_cast<double>(all));
  }
  return o;
}

// The best θ = μ/σ of the grid, and θ = 0 (no effect), each with σ by least
// squares through the origin on the folded quantiles.
std::pair<Candidate, Candidate> FitOnGrid(const OrderStatistics& o,
                                          double saa) {
  const auto& table = FoldedTable();
  Candidate best{{0, 0}, std::numeric_limits<double>::infinity()};
  Candidate no_effect{{0, 0}, 0};
  for (int t = 0; t <= kThetaSteps; ++t) {
    double saq = 0, sqq = 0;
    for (std::size_t i = 0; i < o.a.size(); ++i) {
      const double q = Interpolate(table[t], o.p[i]);
      saq += o.a[i] * q;
      sqq += q * q;
    }
    const double sse = std::max(0.0, saa - saq * saq / sqq);
    const double sigma = saq / sqq;
    if (t == 0) no_effect = {{0, sigma}, sse};
    if (sse < best.sse) {
      best = {{kMaxFoldedTheta * t / kThetaSteps * sigma, sigma}, sse};
    }
  }
  return {best, no_effect};
}

// The line a = μ + σ·z_p by ordinary least squares in z_p, for θ beyond the
// grid, where the fold no longer bends the order statistics; nothing where
// the line's θ is within the grid.
std::optional<Candidate> FitUnfolded(const OrderStatistics& o) {
  const boost::math::normal z;
  const std::size_t n = o.a.size();
  double sz = 0, szz = 0, sa = 0, saz = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double q = boost::math::quantile(z, o.p[i]);
    sz += q;
    szz += q * q;
    sa += o.a[i];
    saz += o.a[i] * q;
  }
  const double k = static_cast<double>(n);
  const double sigma = (saz - sz * sa / k) / (szz - sz * sz / k);
  const double mu = (sa - sigma * sz) / k;
  if (!(sigma >= 0 && mu > kMaxFoldedTheta * sigma)) return std::nullopt;
  double sse = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = o.a[i] - mu - sigma * boost::math::quantile(z, o.p[i]);
    sse += r * r;
  }
  return Candidate{{mu, sigma}, sse};
}

// μ ≥ 0 and σ of |μ + σZ| from sorted absolute values: least squares of the
// order statistics on the folded normal's quantiles at (i − ½)/n, θ = μ/σ
// on a grid, plus the unfolded line μ + σ·z for θ beyond it. Order
// statistics rather than two quartiles: the stand-in decides when to stop,
// and a noisy one stops pairs on a lucky low reading.
FoldedFit FitFolded(const std::vector<double>& sorted) {
  const OrderStatistics o = MiddleOf(sorted);
  double saa = 0;
  for (double x : o.a) saa += x * x;
  if (!(saa > 0)) return {0, 0};
  auto [best, no_effect] = FitOnGrid(o, saa);
  if (auto line = FitUnfolded(o); line && line->sse < best.sse) {
    best.fit = line->fit;
  }
  // A small fitted effect is hard to tell from none: the fold bends the
  // order statistics much as noise does, and the fit, free to pick μ > 0 but
  // never μ < 0, often picks a μ > 0 with a σ up to a third too small when
  // there is no effect. Unless the data plainly prefer the
  // effect, take none: the error then falls on the side of more blocks.
  if (best.fit.mu <= kSmallTheta * best.fit.sigma &&
      no_effect.sse <= kPlainlyBetter * best.sse) {
    return no_effect.fit;
  }
  return best.fit;
}

// |log ratio|, ascending: all that the rounds may read of a pair.
std::vector<double> SortedMagnitudes(const std::vector<double>& log_ratios) {
  std::vector<double> magnitudes;
  magnitudes.reserve(log_ratios.size());
  for (double r : log_ratios) magnitudes.push_back(std::fabs(r));
  std::sort(magnitudes.begin(), magnitudes.end());
  return magnitudes;
}

// The rank reading of the stand-in (sequential.h), in points, from sorted
// magnitudes: signs alternate in their order, and the interval is read off
// the Walsh averages at the normal approximation of the signed-rank
// quantile (the k-th from each end), untied: a stand-in, not the reported
// interval, and at hundreds of blocks the exact test on every open pair of
// every round would cost more than the rest of the plan together. NaN below
// the blocks a verdict needs, where the test has no interval.
double RankReadingPoints(const std::vector<double>& magnitudes,
                         double confidence) {
  const std::size_t n = magnitudes.size();
  if (n < kMinRunsForVerdict) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x = magnitudes;
  for (std::size_t i = 1; i < n; i += 2) x[i] = -x[i];
  std::vector<double> walsh;
  walsh.reserve(n * (n + 1) / 2);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i; j < n; ++j) walsh.push_back((x[i] + x[j]) / 2);
  }
  const double k = static_cast<double>(n);
  const double z =
      boost::math::quantile(boost::math::normal(), 1 - (1 - confidence) / 2);
  const double below = std::floor(
      k * (k + 1) / 4 - z * std::sqrt(k * (k + 1) * (2 * k + 1) / 24));
  const auto low = static_cast<std::size_t>(std::max(0.0, below));
  const std::size_t high = walsh.size() - 1 - low;
  std::nth_element(walsh.begin(), walsh.begin() + low, walsh.end());
  const double low_log = walsh[low];
  std::nth_element(walsh.begin() + low, walsh.begin() + high, walsh.end());
  return 100 * (std::exp(walsh[high]) - std::exp(low_log)) / 2;
}

// The half-width of the interval the pair would report now, in points; NaN
// without a test.
double ReportedHalfWidthPoints(const std::vector<double>& log_ratios,
                               double confidence) {
  const Inference inference = SignedRankTest(log_ratios, confidence);
  if (!inference.test) return std::numeric_limits<double>::quiet_NaN();
  return inference.test->interval_pct.HalfWidth();
}

}  // namespace

double StandInHalfWidthPoints(const std::vector<double>& log_ratios,
                              double confidence) {
  const std::size_t n = log_ratios.size();
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> magnitudes = SortedMagnitudes(log_ratios);
  const FoldedFit fit = FitFolded(magnitudes);
  const double k = static_cast<double>(n);
  const double t = boost::math::quantile(boost::math::students_t(k - 1),
                                         1 - (1 - confidence) / 2);
  // Hodges–Lehmann's asymptotic standard error under normal noise is
  // sqrt(π/3) σ/√n (efficiency 3/π against the mean).
  const double half_log = t * std::sqrt(M_PI / 3) * fit.sigma / std::sqrt(k);
  const double folded = 100 * std::exp(fit.mu) * std::sinh(half_log);
  const double rank = RankReadingPoints(magnitudes, confidence);
  return rank < folded ? rank : folded;
}

double StopThresholdPoints(std::uint64_t blocks, double precision_points,
                           double margin) {
  return precision_points /
         (1 + margin / std::sqrt(static_cast<double>(
                           std::max<std::uint64_t>(blocks, 1))));
}

std::uint64_t ProjectBlocksNeeded(std::uint64_t blocks_so_far,
                                  double stand_in_points,
                                  double precision_points, double margin) {
  const std::uint64_t n = blocks_so_far;
  if (!(stand_in_points > StopThresholdPoints(n, precision_points, margin))) {
    return n;
  }
  // Solve m = n (stand-in / precision)^2 (1 + margin/sqrt(m))^2 by
  // iteration: the stand-in shrinks as 1/sqrt(blocks), the margin too.
  const double ratio = stand_in_points / precision_points;
  const double base = static_cast<double>(n) * ratio * ratio;
  double needed = base;
  for (int i = 0; i < 50; ++i) {
    const double grow = 1 + margin / std::sqrt(needed);
    needed = base * grow * grow;
  }
  needed = std::ceil(needed);
  // Far beyond any cap; keeps the conversion defined.
  if (!(needed < 1e15)) return static_cast<std::uint64_t>(1e15);
  return std::max(n + 1, static_cast<std::uint64_t>(needed));
}

bool StandInStops(const std::vector<double>& log_ratios, double stand_in_points,
                  const SequentialDesign& design) {
  const std::uint64_t n = log_ratios.size();
  return n >= design.min_blocks_to_stop &&
         stand_in_points <= design.stand_in_slack *
                                StopThresholdPoints(n, design.precision_points,
                                                    design.small_sample_margin);
}

namespace {

// What one open pair asks of the next round: its blocks, and the seconds to
// its target, by which the budget is shared out.
struct Ask {
  std::size_t pair = 0;
  std::uint64_t blocks = 0;
  double to_target = 0;
};

// The blocks a pair past its first round needs to reach the precision: the
// stand-in's projection, or, where the stand-in would stop but the interval
// it would report is wider than asked, that interval's own.
std::uint64_t BlocksNeeded(const PairProgress& pair, double stand_in,
                           const SequentialDesign& design, bool* reached) {
  const std::uint64_t n = pair.log_ratios.size();
  *reached = false;
  const std::uint64_t projected = std::max(
      ProjectBlocksNeeded(n, stand_in / design.stand_in_slack,
                          design.precision_points, design.small_sample_margin),
      design.min_blocks_to_stop);
  if (!StandInStops(pair.log_ratios, stand_in, design)) return projected;
  const double reported =
      design.reported_within_precision
          ? ReportedHalfWidthPoints(pair.log_ratios, design.confidence)
          : 0;
  if (reported <= design.precision_points) {
    *reached = true;
    return projected;
  }
  return ProjectBlocksNeeded(
      n, std::isfinite(reported) ? reported : 2 * design.precision_points,
      design.precision_points);
}

// The blocks of this round for a pair with n blocks that needs `needed`: a
// share of the way there, at least min_round_blocks, at most what
// max_round_growth allows, within the cap.
std::uint64_t RoundBlocks(std::uint64_t n, std::uint64_t needed,
                          const SequentialDesign& design) {
  const std::uint64_t cap = design.max_blocks_per_pair;
  const std::uint64_t target = std::min(needed, cap);
  const auto most_this_round = static_cast<std::uint64_t>(std::floor(
      static_cast<double>(n) * std::max(0.0, design.max_round_growth - 1)));
  std::uint64_t want = std::max<std::uint64_t>(
      static_cast<std::uint64_t>(
          std::ceil(design.round_share * static_cast<double>(target - n))),
      1);
  want = std::min(want, std::max(most_this_round, design.min_round_blocks));
  want = std::max(want, design.min_round_blocks);
  return std::min(want, cap - n);
}

// Pair i's state, stand-in and blocks needed in `plan`; what it asks of the
// round where it stays open.
std::optional<Ask> PlanPair(const PairProgress& pair, std::size_t i,
                            const SequentialDesign& design, RoundPlan& plan) {
  const std::uint64_t n = pair.log_ratios.size();
  const std::uint64_t cap = design.max_blocks_per_pair;
  const bool finite =
      std::all_of(pair.log_ratios.begin(), pair.log_ratios.end(),
                  [](double r) { return std::isfinite(r); });
  if (!pair.measurable || !finite) {
    plan.state[i] = PairState::kNotMeasurable;
    return std::nullopt;
  }
  const double stand_in =
      StandInHalfWidthPoints(pair.log_ratios, design.confidence);
  plan.stand_in_half_width_points[i] = stand_in;
  // Below this a pair has no verdict at all, whatever its spread.
  const std::uint64_t first_round =
      std::max<std::uint64_t>(design.first_round_blocks, kMinRunsForVerdict);
  bool reached = false;
  plan.blocks_needed[i] = n < first_round
                              ? first_round
                              : BlocksNeeded(pair, stand_in, design, &reached);
  if (reached) {
    plan.state[i] = PairState::kPrecisionReached;
    return std::nullopt;
  }
  if (n >= cap) {
    plan.state[i] = PairState::kCapReached;
    return std::nullopt;
  }
  Ask ask{i, 0, 0};
  if (n < first_round) {
    ask.blocks = std::min(first_round, cap) - n;
    ask.to_target = static_cast<double>(ask.blocks) * pair.seconds_per_block;
    return ask;
  }
  const std::uint64_t target = std::min(plan.blocks_needed[i], cap);
  ask.blocks = RoundBlocks(n, plan.blocks_needed[i], design);
  ask.to_target = static_cast<double>(std::max(ask.blocks, target - n)) *
                  pair.seconds_per_block;
  return ask;
}

// The budget shared out: pairs funded to their targets, cheapest first; what
// those do not need goes, this round, to the others, cheapest first: a pair
// that cannot reach the precision within the budget still narrows its
// interval with every block, and a busy disk would otherwise end the run
// after its first round with most of the budget unspent. Only a pair whose
// round does not fit any more is out of budget.
void Fund(std::vector<Ask> open, const std::vector<PairProgress>& pairs,
          double seconds_left, RoundPlan& plan) {
  std::stable_sort(open.begin(), open.end(), [](const Ask& a, const Ask& b) {
    return a.to_target < b.to_target;
  });
  double committed = 0;
  std::vector<Ask> unfunded;
  for (const Ask& ask : open) {
    if (committed + ask.to_target <= seconds_left) {
      committed += ask.to_target;
      plan.blocks[ask.pair] = ask.blocks;
      plan.seconds +=
          static_cast<double>(ask.blocks) * pairs[ask.pair].seconds_per_block;
    } else {
      unfunded.push_back(ask);
    }
  }
  double spare = seconds_left - committed;
  for (const Ask& ask : unfunded) {
    const double round =
        static_cast<double>(ask.blocks) * pairs[ask.pair].seconds_per_block;
    if (round <= spare) {
      spare -= round;
      plan.blocks[ask.pair] = ask.blocks;
      plan.seconds += round;
    } else {
      plan.state[ask.pair] = PairState::kOutOfBudget;
    }
  }
}

}  // namespace

RoundPlan PlanNextRound(const std::vector<PairProgress>& pairs,
                        const SequentialDesign& design, double seconds_left) {
  const std::size_t count = pairs.size();
  RoundPlan plan;
  plan.blocks.assign(count, 0);
  plan.state.assign(count, PairState::kOpen);
  plan.stand_in_half_width_points.assign(
      count, std::numeric_limits<double>::quiet_NaN());
  plan.blocks_needed.assign(count, 0);
  std::vector<Ask> open;
  for (std::size_t i = 0; i < count; ++i) {
    if (auto ask = PlanPair(pairs[i], i, design, plan)) open.push_back(*ask);
  }
  Fund(std::move(open), pairs, seconds_left, plan);
  return plan;
}

}  // namespace alignbench
