#include "lib/stats/histogram.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using alignbench::BucketLowerNs;
using alignbench::BucketOf;
using alignbench::BucketWidthNs;
using alignbench::Histogram;
using alignbench::HistogramOf;
using alignbench::kBucketCount;
using alignbench::kPercentileRelativeError;
using alignbench::Summarize;

namespace {

// Whole nanoseconds, as the clock gives them.
std::vector<double> Draw(std::size_t n, unsigned seed, double median_ns,
                         double sigma) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(std::log(median_ns), sigma);
  std::vector<double> values(n);
  for (double& v : values) v = std::round(dist(rng));
  return values;
}

// A fast mode and a slow one, as a cold read-modify-write run shows.
std::vector<double> TwoModes(std::size_t n, unsigned seed) {
  std::vector<double> values = Draw(n, seed, 40e3, 0.2);
  const std::vector<double> slow = Draw(n / 10, seed + 1, 9e6, 0.5);
  values.insert(values.end(), slow.begin(), slow.end());
  return values;
}

void CheckAgainstExact(const std::vector<double>& values) {
  const Histogram h = HistogramOf(values);
  const auto exact = Summarize(values);
  const auto approx = h.ToSummary();
  CHECK(approx.count == exact.count);
  CHECK(approx.mean == Approx(exact.mean).epsilon(1e-12));
  CHECK(approx.stddev == Approx(exact.stddev).epsilon(1e-9));
  CHECK(approx.min == exact.min);
  CHECK(approx.max == exact.max);
  CHECK(approx.relative_error == kPercentileRelativeError);
  const std::pair<double, double> pairs[] = {{approx.p50, exact.p50},
                                             {approx.p90, exact.p90},
                                             {approx.p99, exact.p99},
                                             {approx.p999, exact.p999},
                                             {approx.p9999, exact.p9999}};
  for (const auto& [got, want] : pairs) {
    INFO("histogram " << got << " exact " << want);
    CHECK(std::abs(got - want) <= kPercentileRelativeError * want);
  }
}

}  // namespace

TEST_CASE("Histogram percentiles agree with exact ones within the bound") {
  SECTION("log-normal, 100 us median, wide") {
    CheckAgainstExact(Draw(20000, 1, 100e3, 1.0));
  }
  SECTION("log-normal, 2 us median, narrow (tmpfs, no sync)") {
    CheckAgainstExact(Draw(50000, 2, 2e3, 0.1));
  }
  SECTION("two modes: 40 us and 9 ms") {
    CheckAgainstExact(TwoModes(30000, 3));
  }
  SECTION("small values are exact") {
    std::vector<double> values;
    for (int k = 0; k < 12000; ++k) values.push_back(k % 200);
    const auto approx = HistogramOf(values).ToSummary();
    const auto exact = Summarize(values);
    CHECK(approx.p50 == exact.p50);
    CHECK(approx.p99 == exact.p99);
    CHECK(approx.p9999 == exact.p9999);
  }
  SECTION("the largest error over many seeds stays inside the bound") {
    double worst = 0;
    for (unsigned seed = 10; seed < 40; ++seed) {
      const std::vector<double> values = Draw(2001, seed, 1e6, 0.3);
      std::vector<double> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      const Histogram h = HistogramOf(values);
      for (double q : {0.5, 0.9, 0.99, 0.999}) {
        const double exact = alignbench::Percentile(sorted, q);
        worst = std::max(worst, std::abs(h.Percentile(q) - exact) / exact);
      }
    }
    CHECK(worst <= kPercentileRelativeError);
  }
}

TEST_CASE("Histogram buckets hold their values and are narrow") {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 100000; ++k) {
    const std::int64_t v = static_cast<std::int64_t>(rng() >> (k % 60 + 4));
    const std::uint32_t i = BucketOf(v);
    REQUIRE(i < kBucketCount);
    const std::uint64_t lower = BucketLowerNs(i);
    REQUIRE(lower <= static_cast<std::uint64_t>(v));
    if (i + 1 < kBucketCount) {
      REQUIRE(static_cast<std::uint64_t>(v) < lower + BucketWidthNs(i));
      REQUIRE(static_cast<double>(BucketWidthNs(i)) <=
              kPercentileRelativeError * static_cast<double>(lower) + 1);
      REQUIRE(BucketOf(static_cast<std::int64_t>(lower)) == i);
    }
  }
  CHECK(BucketOf(-5) == 0);
  CHECK(BucketOf(127) == 127);
  CHECK(BucketLowerNs(BucketOf(std::int64_t{1} << 50)) == std::uint64_t{1}
                                                              << 40);
}

TEST_CASE("Histograms merge as if recorded together") {
  const std::vector<double> a = Draw(5000, 21, 50e3, 0.7);
  const std::vector<double> b = TwoModes(4000, 22);
  std::vector<double> both = a;
  both.insert(both.end(), b.begin(), b.end());
  Histogram merged = HistogramOf(a);
  merged.Merge(HistogramOf(b));
  const Histogram together = HistogramOf(both);
  CHECK(merged.count == together.count);
  CHECK(merged.sum_ns == together.sum_ns);
  CHECK(merged.min_ns == together.min_ns);
  CHECK(merged.max_ns == together.max_ns);
  REQUIRE(merged.buckets.size() == together.buckets.size());
  for (std::size_t i = 0; i < merged.buckets.size(); ++i) {
    CHECK(merged.buckets[i].index == together.buckets[i].index);
    CHECK(merged.buckets[i].count == together.buckets[i].count);
  }
  Histogram empty;
  empty.Merge(merged);
  CHECK(empty.Percentile(0.5) == merged.Percentile(0.5));
}

TEST_CASE("Histogram stddev: no cancellation with a tiny spread") {
  // A mean of 1 s and a spread of 1 ns: sum(x^2) - n mean^2 in doubles would
  // lose it; the exact 128-bit sum of squares does not.
  const auto s = HistogramOf({1e9, 1e9 + 1, 1e9 + 2}).ToSummary();
  CHECK(s.mean == 1e9 + 1);
  CHECK(s.stddev == Approx(1.0).epsilon(1e-6));
}

TEST_CASE("Histogram edge cases") {
  const Histogram none;
  CHECK(std::isnan(none.Percentile(0.5)));
  CHECK(none.ToSummary().count == 0);
  CHECK(std::isnan(none.ToSummary().mean));
  const auto one = HistogramOf({123456}).ToSummary();
  CHECK(one.p50 == 123456);
  CHECK(one.stddev == 0);
  CHECK(std::isnan(one.p999));
  CHECK(
      std::isnan(HistogramOf(std::vector<double>(999, 5e3)).ToSummary().p999));
  CHECK(HistogramOf(std::vector<double>(1000, 5e3)).ToSummary().p999 == 5e3);
}
