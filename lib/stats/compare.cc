#include "lib/stats/compare.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>

#include "lib/stats/summary.h"

namespace alignbench {
namespace {

// The interval and p of a t statistic with estimate d (log ratio), standard
// error se and df degrees of freedom.
GainTest FromT(TestMethod method, double d, double se, double df,
               std::size_t units, double confidence) {
  GainTest test{method, 100 * std::expm1(d), {0, 0}, 1.0, df, units};

  if (!(se > 0)) {  // no spread at all: the estimate is exact
    test.interval_pct = {test.estimate_pct, test.estimate_pct};
    test.p_value = d == 0 ? 1.0 : 0.0;
    return test;
  }
  const boost::math::students_t t(df);
  const double half = boost::math::quantile(t, 1 - (1 - confidence) / 2) * se;
  test.interval_pct = {100 * std::expm1(d - half), 100 * std::expm1(d + half)};
  test.p_value =
      2 * boost::math::cdf(boost::math::complement(t, std::fabs(d) / se));
  test.p_value = std::min(1.0, test.p_value);
  return test;
}

std::optional<std::vector<double>> Logs(const std::vector<double>& values) {
  std::vector<double> logs;
  for (double v : values) {
    if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
    logs.push_back(std::log(v));
  }
  return logs;
}

std::string TooFew(std::size_t n, const char* unit) {
  return std::to_string(n) + " " + unit + (n == 1 ? "" : "s") +
         ": an interval needs 2";
}

}  // namespace

Inference WelchLogTest(const std::vector<double>& unaligned_means,
                       const std::vector<double>& aligned_means,
                       double confidence) {
  const std::size_t fewest =
      std::min(unaligned_means.size(), aligned_means.size());
  if (fewest < 2) return {std::nullopt, TooFew(fewest, "run")};
  const auto lu = Logs(unaligned_means), la = Logs(aligned_means);
  if (!lu || !la) return {std::nullopt, "a run's mean time is not positive"};
  const Summary su = Summarize(*lu), sa = Summarize(*la);
  const double nu = static_cast<double>(lu->size());
  const double na = static_cast<double>(la->size());
  const double vu = su.stddev * su.stddev / nu, va = sa.stddev * sa.stddev / na;
  const double se = std::sqrt(vu + va);
  // Welch–Satterthwaite; with no spread on one side the other side's n − 1.
  const double df = vu + va > 0 ? (vu + va) * (vu + va) /
                                      (vu * vu / (nu - 1) + va * va / (na - 1))
                                : nu + na - 2;
  return {FromT(TestMethod::kWelchLogMean, su.mean - sa.mean, se, df, fewest,
                confidence),
          ""};
}

Inference PairedLogTest(const std::vector<double>& log_ratios,
                        double confidence) {
  if (log_ratios.size() < 2) {
    return {std::nullopt, TooFew(log_ratios.size(), "block")};
  }
  for (double r : log_ratios) {
    if (!std::isfinite(r)) {
      return {std::nullopt, "a run's mean time is not positive"};
    }
  }
  const Summary s = Summarize(log_ratios);
  const double n = static_cast<double>(log_ratios.size());
  return {FromT(TestMethod::kPairedLogMedian, s.mean, s.stddev / std::sqrt(n),
                n - 1, log_ratios.size(), confidence),
          ""};
}

namespace {

// Walsh average of two blocks. Every comparison of a shift with the data goes
// through this one function, so the candidate shifts and the test at a shift
// see the same ties.
double Mid(double a, double b) { return (a + b) / 2; }

// The blocks seen from a shift d: doubled midranks of |x − d| over the blocks
// with x ≠ d (doubled so that midranks stay integers), and the signed sum of
// all doubled ranks.
struct Ranked {
  std::vector<std::uint64_t> ranks;
  std::int64_t signed_sum = 0;
};

// |x_i − d| against |x_j − d| without forming x − d, whose rounding could
// split a tie that Mid() reports: same side, the x themselves; opposite
// sides, their Walsh average against d. −1, 0, 1 as for <=>.
int CompareDistance(double xi, double xj, double d) {
  const int si = (xi > d) - (xi < d), sj = (xj > d) - (xj < d);
  if (si == 0 || sj == 0) return (si != 0) - (sj != 0);
  if (si == sj) return si * ((xi > xj) - (xi < xj));
  const double w = Mid(xi, xj);
  return si * ((w > d) - (w < d));
}

// Pratt's convention: a block at distance 0 takes part in the ranking (it
// pushes the others' ranks up) but has no sign. O(n²) comparisons, small
// next to the distribution below.
Ranked RankAt(const std::vector<double>& x, double d) {
  Ranked r;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int sign = (x[i] > d) - (x[i] < d);
    if (sign == 0) continue;
    std::uint64_t doubled = 2;  // its own rank: 1, doubled
    for (std::size_t j = 0; j < x.size(); ++j) {
      if (j == i) continue;
      const int c = CompareDistance(x[i], x[j], d);
      doubled += c > 0 ? 2 : c == 0 ? 1 : 0;
    }
    r.ranks.push_back(doubled);
    r.signed_sum += sign * static_cast<std::int64_t>(doubled);
  }
  return r;
}

// Given |x − d|, every sign of a nonzero block is a fair coin under "the
// blocks are symmetric about d". P(S+ <= s) for s = 0 .. sum / 2, S+ the sum
// of the doubled ranks with a + sign: subset sums built one rank at a time, in
// probabilities (each step halves) because counts of 2^n patterns would
// overflow a double past 1023 blocks. With up to 53 nonzero blocks every
// value is a multiple of 2^-n below 1, exact in a double.
std::vector<double> LowerHalfCdf(const std::vector<std::uint64_t>& ranks) {
  std::uint64_t sum = 0;
  for (std::uint64_t r : ranks) sum += r;
  const std::size_t top = static_cast<std::size_t>(sum / 2);
  // Two buffers rather than one updated in place: without the overlap the
  // compiler vectorizes the loops, which are nearly all the time spent.
  std::vector<double> prob(top + 1, 0.0), next(top + 1);
  prob[0] = 1;
  for (std::uint64_t rank : ranks) {
    const std::size_t r = std::min(static_cast<std::size_t>(rank), top + 1);
    const double* from = prob.data();
    double* to = next.data();
    for (std::size_t s = 0; s < r; ++s) to[s] = from[s] * 0.5;
    for (std::size_t s = r; s <= top; ++s)
      to[s] = (from[s] + from[s - r]) * 0.5;
    prob.swap(next);
  }
  double running = 0;
  for (double& q : prob) {
    running += q;
    q = running;
  }
  return prob;
}

// Two-sided p of the test at one shift, P(|T| >= |t|) with T the signed sum
// of doubled ranks under random signs; T is symmetric about 0, so for t ≠ 0
// it is twice the lower tail of S+ = (T + sum) / 2. The distribution depends
// only on the multiset of ranks, which is the same between two neighbouring
// Walsh averages, hence the cache.
class ShiftTest {
 public:
  explicit ShiftTest(const std::vector<double>& x) : x_(x) {}

  double P(double d) {
    Ranked r = RankAt(x_, d);
    if (r.signed_sum == 0) return 1.0;
    if (x_.size() > kExactSignedRankBlocks) return NormalP(r);
    std::uint64_t sum = 0;
    for (std::uint64_t rank : r.ranks) sum += rank;
    const std::uint64_t tail =
        (sum - static_cast<std::uint64_t>(std::llabs(r.signed_sum))) / 2;
    std::sort(r.ranks.begin(), r.ranks.end());
    auto it = cache_.find(r.ranks);
    if (it == cache_.end()) {
      it = cache_.emplace(r.ranks, LowerHalfCdf(r.ranks)).first;
    }
    return std::min(1.0, 2 * it->second[static_cast<std::size_t>(tail)]);
  }

 private:
  // Same T, its conditional variance (the sum of squared doubled ranks), and
  // half a lattice step of continuity correction.
  static double NormalP(const Ranked& r) {
    double var = 0;
    std::uint64_t step = 0;
    for (std::uint64_t rank : r.ranks) {
      var += static_cast<double>(rank) * static_cast<double>(rank);
      step = std::gcd(step, rank);
    }
    const double z = (std::fabs(static_cast<double>(r.signed_sum)) -
                      static_cast<double>(step)) /
                     std::sqrt(var);
    return z <= 0 ? 1.0 : std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  }

  const std::vector<double>& x_;
  std::map<std::vector<std::uint64_t>, std::vector<double>> cache_;
};

// The Walsh averages (d_i + d_j) / 2, i <= j, sorted.
std::vector<double> SortedWalshAverages(const std::vector<double>& d) {
  std::vector<double> walsh;
  walsh.reserve(d.size() * (d.size() + 1) / 2);
  for (std::size_t i = 0; i < d.size(); ++i) {
    for (std::size_t j = i; j < d.size(); ++j) {
      walsh.push_back(Mid(d[i], d[j]));
    }
  }
  std::sort(walsh.begin(), walsh.end());
  return walsh;
}

// The shifts at which the test can change: candidate 2k + 1 is the k-th
// distinct Walsh average, candidate 2k a shift strictly between it and the
// one before (candidate 0: below all of them, 2m: above).
class Candidates {
 public:
  explicit Candidates(std::vector<double> distinct_walsh)
      : w_(std::move(distinct_walsh)) {}
  std::size_t size() const { return 2 * w_.size() + 1; }
  double At(std::size_t i) const {
    if (i % 2) return w_[i / 2];
    if (i == 0) return std::nextafter(w_.front(), -HUGE_VAL);
    if (i == size() - 1) return std::nextafter(w_.back(), HUGE_VAL);
    return Mid(w_[i / 2 - 1], w_[i / 2]);
  }
  // The candidate whose shifts include d.
  std::size_t Of(double d) const {
    const auto it = std::lower_bound(w_.begin(), w_.end(), d);
    const std::size_t k = static_cast<std::size_t>(it - w_.begin());
    return it != w_.end() && *it == d ? 2 * k + 1 : 2 * k;
  }
  // The lowest / highest shift a candidate stands for: a gap is open at both
  // ends, so its extreme doubles are one step inside.
  double Lowest(std::size_t i) const {
    if (i % 2) return w_[i / 2];
    return i == 0 ? -HUGE_VAL : std::nextafter(w_[i / 2 - 1], HUGE_VAL);
  }
  double Highest(std::size_t i) const {
    if (i % 2) return w_[i / 2];
    return i == size() - 1 ? HUGE_VAL : std::nextafter(w_[i / 2], -HUGE_VAL);
  }

 private:
  std::vector<double> w_;
};

// The first index in [lo, hi] at which `accepted` holds, given that it holds
// at hi and flips once in between; `probe` is tried first when in range, so
// that the search never infers the decision at that index from others.
template <typename Accepted>
std::size_t FirstAccepted(std::size_t lo, std::size_t hi, std::size_t probe,
                          Accepted accepted) {
  if (probe >= lo && probe < hi) {
    if (accepted(probe)) {
      hi = probe;
    } else {
      lo = probe + 1;
    }
  }
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (accepted(mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return hi;
}

std::string TooFewBlocks(std::size_t n, std::size_t needed, double alpha) {
  char level[32];
  std::snprintf(level, sizeof level, "%g", alpha);
  return std::to_string(n) + (n == 1 ? " block" : " blocks") +
         ": the signed-rank test needs " + std::to_string(needed) +
         " to reach p < " + level;
}

// The centre of the interval: the accepted candidate nearest `guess` (the
// estimate's own), of `count`. With many blocks tied at the median the
// estimate itself can be rejected (its ties make it a point of many zeros)
// while the gap beside it is accepted. None where every candidate is rejected.
template <typename Accepted>
std::optional<std::size_t> NearestAccepted(std::size_t guess, std::size_t count,
                                           Accepted accepted) {
  for (std::size_t k = 0; k < count; ++k) {
    if (k <= guess && accepted(guess - k)) return guess - k;
    if (k > 0 && guess + k < count && accepted(guess + k)) return guess + k;
  }
  return std::nullopt;
}

}  // namespace

Inference SignedRankTest(const std::vector<double>& log_ratios,
                         double confidence) {
  const std::size_t n = log_ratios.size();
  for (double r : log_ratios) {
    if (!std::isfinite(r)) {
      return {std::nullopt, "a run's time is not positive"};
    }
  }
  const double alpha = 1 - confidence;
  if (!(alpha > 0 && alpha < 1)) {
    return {std::nullopt, "the confidence must lie between 0 and 1"};
  }
  // Far from every block all signs agree, p = 2 / 2^n at best: below that many
  // blocks no shift is ever rejected and the interval would be the whole line.
  std::size_t needed = 1;
  while (std::ldexp(2.0, -static_cast<int>(needed)) >= alpha) ++needed;
  if (n < needed || n == 0) {
    return {std::nullopt, TooFewBlocks(n, needed, alpha)};
  }
  const std::vector<double> walsh = SortedWalshAverages(log_ratios);
  const double estimate = Percentile(walsh, 0.5);
  std::vector<double> distinct = walsh;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const Candidates shifts(std::move(distinct));

  ShiftTest test(log_ratios);
  const double p = test.P(0);
  auto accepted = [&](std::size_t i) { return test.P(shifts.At(i)) >= alpha; };
  const std::size_t zero = shifts.Of(0);
  const std::optional<std::size_t> centre =
      NearestAccepted(shifts.Of(estimate), shifts.size(), accepted);
  if (!centre) {
    return {std::nullopt, "the signed-rank test rejects every shift"};
  }
  // Lowest accepted candidate below the centre, highest above it (by
  // searching the mirrored order); 0's own candidate is decided first, so
  // the interval holds 0 exactly when p >= alpha.
  const std::size_t last = shifts.size() - 1;
  const std::size_t low = FirstAccepted(0, *centre, zero, accepted);
  const std::size_t high =
      last - FirstAccepted(0, last - *centre, last - zero,
                           [&](std::size_t i) { return accepted(last - i); });
  GainTest result{TestMethod::kSignedRankLogMedian,
                  100 * std::expm1(estimate),
                  {100 * std::expm1(shifts.Lowest(low)),
                   100 * std::expm1(shifts.Highest(high))},
                  p,
                  std::nullopt,
                  n};
  return {result, ""};
}

Verdict Decide(const Inference& inference, std::size_t unaligned_runs,
               std::size_t aligned_runs, double rerun_level) {
  if (std::min(unaligned_runs, aligned_runs) < kMinRunsForVerdict ||
      !inference.test) {
    return Verdict::kUndecided;
  }
  const Interval& i = inference.test->interval_pct;
  const bool firm = inference.test->p_value < rerun_level;
  if (i.low > 0) return firm ? Verdict::kAlignedFaster : Verdict::kLeansAligned;
  if (i.high < 0) {
    return firm ? Verdict::kUnalignedFaster : Verdict::kLeansUnaligned;
  }
  return Verdict::kNoSignificantDifference;
}

bool Directional(Verdict v) {
  return v != Verdict::kNoSignificantDifference && v != Verdict::kUndecided;
}

bool Firm(Verdict v) {
  return v == Verdict::kAlignedFaster || v == Verdict::kUnalignedFaster;
}

bool TowardsAligned(Verdict v) {
  return v == Verdict::kAlignedFaster || v == Verdict::kLeansAligned;
}

std::vector<std::size_t> FarRuns(const std::vector<double>& values,
                                 double scales) {
  std::vector<std::size_t> far;
  if (values.size() < kMinRunsForVerdict) return far;
  std::vector<double> logs;
  for (double v : values) {
    if (!(v > 0)) return far;
    logs.push_back(std::log(v));
  }
  std::vector<double> sorted = logs;
  std::sort(sorted.begin(), sorted.end());
  const double centre = Percentile(sorted, 0.5);
  std::vector<double> deviations;
  for (double l : logs) deviations.push_back(std::fabs(l - centre));
  std::sort(deviations.begin(), deviations.end());
  // 1.4826 MAD estimates a normal sigma; the floor keeps runs whose medians
  // fell into one histogram bucket (MAD 0) from making every other run far.
  const double scale =
      std::max(1.4826 * Percentile(deviations, 0.5), kFarRunScaleFloor);
  for (std::size_t i = 0; i < logs.size(); ++i) {
    if (std::fabs(logs[i] - centre) > scales * scale) far.push_back(i);
  }
  return far;
}

}  // namespace alignbench
