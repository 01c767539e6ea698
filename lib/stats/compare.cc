#include "lib/stats/compare.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

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

// P(W+ <= w) for w = 0 .. n(n+1)/2 under the null: every sign a fair coin.
// counts[w] = subsets of {1..n} summing to w, built one rank at a time.
std::vector<double> SignedRankCdf(std::size_t n) {
  const std::size_t top = n * (n + 1) / 2;
  std::vector<double> counts(top + 1, 0.0);
  counts[0] = 1;
  for (std::size_t rank = 1; rank <= n; ++rank) {
    for (std::size_t w = top; w >= rank; --w) counts[w] += counts[w - rank];
  }
  const double total = std::ldexp(1.0, static_cast<int>(n));
  double running = 0;
  for (double& c : counts) {
    running += c;
    c = running / total;
  }
  return counts;
}

// W+: the sum of the ranks of |d| over the positive d; ties share their
// average rank, a zero counts half.
double PositiveRankSum(const std::vector<double>& d) {
  const std::size_t n = d.size();
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::fabs(d[a]) < std::fabs(d[b]);
  });
  double w_plus = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && std::fabs(d[order[j]]) == std::fabs(d[order[i]])) ++j;
    const double rank = (static_cast<double>(i + j) + 1) / 2;  // average
    for (std::size_t k = i; k < j; ++k) {
      if (d[order[k]] > 0) w_plus += rank;
      if (d[order[k]] == 0) w_plus += rank / 2;
    }
    i = j;
  }
  return w_plus;
}

// The Walsh averages (d_i + d_j) / 2, i <= j, sorted.
std::vector<double> SortedWalshAverages(const std::vector<double>& d) {
  std::vector<double> walsh;
  walsh.reserve(d.size() * (d.size() + 1) / 2);
  for (std::size_t i = 0; i < d.size(); ++i) {
    for (std::size_t j = i; j < d.size(); ++j) {
      walsh.push_back((d[i] + d[j]) / 2);
    }
  }
  std::sort(walsh.begin(), walsh.end());
  return walsh;
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
  if (n < kMinRunsForVerdict) {
    return {std::nullopt, std::to_string(n) + (n == 1 ? " block" : " blocks") +
                              ": the signed-rank test needs " +
                              std::to_string(kMinRunsForVerdict) +
                              " to reach p < 0.05"};
  }
  const double w_plus = PositiveRankSum(log_ratios);
  const std::size_t top = n * (n + 1) / 2;
  const double m = static_cast<double>(top);
  const double alpha = 1 - confidence;
  // P(W+ <= w) under the null, exact or normal with continuity correction;
  // the same function gives the critical value and p, so they agree.
  std::vector<double> exact;
  if (n <= kExactSignedRankBlocks) exact = SignedRankCdf(n);
  const double sd =
      std::sqrt(static_cast<double>(n * (n + 1) * (2 * n + 1)) / 24);
  auto cdf = [&](double w) {
    if (w < 0) return 0.0;
    if (!exact.empty()) {
      return exact[std::min(exact.size() - 1, static_cast<std::size_t>(w))];
    }
    return 0.5 * std::erfc(-(w + 0.5 - m / 2) / sd / std::sqrt(2.0));
  };
  // c: the largest count with P(W+ <= c) <= alpha / 2.
  std::size_t c = 0;
  while (c < top && cdf(static_cast<double>(c)) <= alpha / 2) ++c;
  // Here cdf(c) > alpha/2, so c - 1 is the last that held (c >= 1 from
  // kMinRunsForVerdict blocks on).
  const std::size_t critical = c - 1;
  const double tail =
      std::min(cdf(std::floor(w_plus)), cdf(std::floor(m - w_plus)));
  // Their (critical + 1)-th smallest and largest bound the Hodges-Lehmann
  // interval, their median is the estimate.
  const std::vector<double> walsh = SortedWalshAverages(log_ratios);
  const double low = walsh[critical];
  const double high = walsh[walsh.size() - 1 - critical];
  const double estimate = Percentile(walsh, 0.5);
  GainTest test{TestMethod::kSignedRankLogMedian,
                100 * std::expm1(estimate),
                {100 * std::expm1(low), 100 * std::expm1(high)},
                std::min(1.0, 2 * tail),
                std::nullopt,
                n};
  return {test, ""};
}

Verdict Decide(const Inference& inference, std::size_t unaligned_runs,
               std::size_t aligned_runs) {
  if (std::min(unaligned_runs, aligned_runs) < kMinRunsForVerdict ||
      !inference.test) {
    return Verdict::kUndecided;
  }
  const Interval& i = inference.test->interval_pct;
  if (i.low > 0) return Verdict::kAlignedFaster;
  if (i.high < 0) return Verdict::kShiftedFaster;
  return Verdict::kNoSignificantDifference;
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

std::uint64_t RunsForPrecision(TestMethod method, double sd_log_unaligned,
                               double sd_log_aligned, double log_half_width,
                               std::uint64_t cap, double confidence) {
  const double target = log_half_width;
  const double vu = sd_log_unaligned * sd_log_unaligned;
  const double va = sd_log_aligned * sd_log_aligned;
  const double q = 1 - (1 - confidence) / 2;
  for (std::uint64_t n = kMinRunsForVerdict; n < cap; ++n) {
    const double k = static_cast<double>(n);
    const double df =
        method == TestMethod::kPairedLogMedian || va == 0 || vu == 0
            ? (method == TestMethod::kPairedLogMedian ? k - 1 : 2 * k - 2)
            : (vu + va) * (vu + va) * (k - 1) / (vu * vu + va * va);
    const double se = std::sqrt((vu + va) / k);
    const double t = boost::math::quantile(boost::math::students_t(df), q);
    if (t * se <= target) return n;
  }
  return cap;
}

}  // namespace alignbench
