#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "lib/stats/compare.h"
#include "lib/stats/summary.h"

using namespace alignbench;

TEST_CASE("Mann-Whitney U against hand-computed values") {
  // a = {1,2,3}, b = {4,5,6}: U = 0, mean 4.5, var 5.25; z =
  // (4.5-0.5)/sqrt(5.25).
  CHECK(MannWhitneyP({1, 2, 3}, {4, 5, 6}) ==
        Approx(std::erfc(4.0 / std::sqrt(5.25) / std::sqrt(2.0))));
  CHECK(MannWhitneyP({1, 2, 3}, {1, 2, 3}) == Approx(1.0));
  CHECK(MannWhitneyP({5, 5, 5}, {5, 5, 5}) == 1.0);  // all tied: no evidence
  CHECK(MannWhitneyP({}, {1}) == 1.0);
}

TEST_CASE("Mann-Whitney separates clearly different samples") {
  std::mt19937_64 rng(1);
  std::normal_distribution<double> slow(110, 5), fast(100, 5);
  std::vector<double> a, b;
  for (int i = 0; i < 128; ++i) {
    a.push_back(slow(rng));
    b.push_back(fast(rng));
  }
  CHECK(MannWhitneyP(a, b) < 1e-6);
}

TEST_CASE("Gain interval by hand: Welch t on the ratio of means") {
  // u = {110, 112, 114}: mean 112, se² = 4/3; a = {100, 101, 102}: mean 101,
  // se² = 1/3. Welch df = 3.1235, t(0.975, df) = 3.1124 (scipy), so the gain
  // 10.891 % has the interval [6.8224, 14.9598].
  const Interval i = GainInterval({110, 112, 114}, {100, 101, 102});
  CHECK(i.low == Approx(6.822392637134939).epsilon(1e-9));
  CHECK(i.high == Approx(14.95978558068687).epsilon(1e-9));
}

TEST_CASE("Gain interval covers the true gain of noisy samples") {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> slow(110, 5), fast(100, 5);
  std::vector<double> u, a;
  for (int i = 0; i < 200; ++i) {
    u.push_back(slow(rng));
    a.push_back(fast(rng));
  }
  const Interval i = GainInterval(u, a);
  CHECK(i.low < 10.0);
  CHECK(i.high > 10.0);
  CHECK(i.high - i.low < 5.0);
}

TEST_CASE("Gain interval edge cases") {
  CHECK(std::isnan(GainInterval({1}, {1, 2}).low));    // one unit: no interval
  const Interval same = GainInterval({2, 2}, {1, 1});  // no spread at all
  CHECK(same.low == 100.0);
  CHECK(same.high == 100.0);
}

TEST_CASE("Verdict needs both a small p and an interval that excludes zero") {
  CHECK(Decide(0.001, {2, 8}, 2) == Verdict::kAlignedFaster);
  CHECK(Decide(0.001, {-8, -2}, 5) == Verdict::kShiftedFaster);
  CHECK(Decide(0.001, {-1, 8}, 5) == Verdict::kNoSignificantDifference);
  CHECK(Decide(0.2, {2, 8}, 5) == Verdict::kNoSignificantDifference);
  CHECK(NameOf(kVerdicts, Verdict::kAlignedFaster) == "aligned faster");
  CHECK(Decide(0.001, {2, 8}, 1) == Verdict::kUndecided);
}
