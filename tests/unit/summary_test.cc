#include "lib/stats/summary.h"

#include <catch2/catch.hpp>
#include <cmath>

using alignbench::Percentile;
using alignbench::Summarize;

TEST_CASE("Summarize a hand-checkable vector") {
  // 1..10: mean 5.5, sample variance 55/6, p50 between 5 and 6, p90 at
  // rank 8.1.
  const auto s = Summarize({10, 3, 1, 2, 9, 4, 8, 5, 7, 6});
  CHECK(s.count == 10);
  CHECK(s.mean == 5.5);
  CHECK(s.stddev == Approx(std::sqrt(55.0 / 6)));
  CHECK(s.min == 1);
  CHECK(s.max == 10);
  CHECK(s.p50 == 5.5);
  CHECK(s.p90 == Approx(9.1));
  CHECK(s.p99 == Approx(9.91));
}

TEST_CASE("Summarize edge cases") {
  SECTION("one value: stddev 0, every percentile the value") {
    const auto s = Summarize({42});
    CHECK(s.count == 1);
    CHECK(s.stddev == 0);
    CHECK(s.p50 == 42);
    CHECK(s.p99 == 42);
  }
  SECTION("empty: count 0 and NaN, never a fake 0") {
    const auto s = Summarize({});
    CHECK(s.count == 0);
    CHECK(std::isnan(s.mean));
    CHECK(std::isnan(s.p99));
  }
  SECTION("even length median is the mean of the middle two") {
    CHECK(Summarize({1, 2, 3, 4}).p50 == 2.5);
  }
}

TEST_CASE("Two-pass stddev survives a large mean with a tiny spread") {
  // One-pass sum-of-squares loses every digit here; two passes keep them.
  std::vector<double> values;
  for (int i = 0; i < 1000; ++i) values.push_back(1e9 + (i % 2 == 0 ? 1 : -1));
  const auto s = Summarize(values);
  CHECK(s.mean == Approx(1e9));
  CHECK(s.stddev == Approx(std::sqrt(1000.0 / 999)).epsilon(1e-9));
}

TEST_CASE("Percentile interpolates between closest ranks") {
  const std::vector<double> sorted = {10, 20, 30, 40};
  CHECK(Percentile(sorted, 0) == 10);
  CHECK(Percentile(sorted, 1) == 40);
  CHECK(Percentile(sorted, 0.5) == 25);
  CHECK(Percentile(sorted, 1.0 / 3) == Approx(20));
}
