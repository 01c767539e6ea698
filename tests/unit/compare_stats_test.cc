#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "lib/stats/compare.h"

using namespace alignbench;

TEST_CASE("Welch t on log run means against scipy") {
  // u = {110, 112, 114}, a = {100, 101, 102}: scipy.stats.ttest_ind(log u,
  // log a, equal_var=False) gives t = 8.7623, p = 0.0026726, df = 3.12335;
  // exp(d ± t(0.975, df)·se) − 1 = [6.8878, 15.0274] %, exp(d) − 1 = 10.8829 %.
  const Inference w = WelchLogTest({110, 112, 114}, {100, 101, 102});
  REQUIRE(w.test);
  CHECK(w.test->method == TestMethod::kWelchLogMean);
  CHECK(w.test->interval_pct.low == Approx(6.887762970663101).epsilon(1e-9));
  CHECK(w.test->interval_pct.high == Approx(15.027413531025458).epsilon(1e-9));
  CHECK(w.test->estimate_pct == Approx(10.882924351014006).epsilon(1e-12));
  CHECK(w.test->p_value == Approx(0.002672554873048155).epsilon(1e-9));
  CHECK(*w.test->df == Approx(3.1233497743861176).epsilon(1e-9));
  CHECK(w.test->units == 3);
}

TEST_CASE("Paired t on block log ratios against scipy") {
  // scipy.stats.ttest_1samp(log([1.10, 1.05, 1.20, 1.15]), 0): p = 0.0270036.
  const Inference p = PairedLogTest(
      {std::log(1.10), std::log(1.05), std::log(1.20), std::log(1.15)});
  REQUIRE(p.test);
  CHECK(p.test->interval_pct.low == Approx(2.542159173029834).epsilon(1e-9));
  CHECK(p.test->interval_pct.high == Approx(23.119849916531212).epsilon(1e-9));
  CHECK(p.test->p_value == Approx(0.02700361202050657).epsilon(1e-9));
  CHECK(*p.test->df == 3);
}

TEST_CASE("Signed-rank test and Hodges-Lehmann interval against scipy") {
  // d = log([1.10, 1.05, 1.20, 1.15, 0.98, 1.30, 1.02, 1.12]):
  // scipy.stats.wilcoxon(d, method="exact") gives p = 0.0234375 (6/256). With
  // 8 blocks P(W+ <= 3) = 5/256 <= 0.025 < P(W+ <= 4) = 7/256, so the
  // interval runs from the 4th smallest to the 4th largest of the 36 Walsh
  // averages, [2.0, 20.664825] %, around their median, 10.814867 %.
  const Inference r = SignedRankTest(
      {std::log(1.10), std::log(1.05), std::log(1.20), std::log(1.15),
       std::log(0.98), std::log(1.30), std::log(1.02), std::log(1.12)});
  REQUIRE(r.test);
  CHECK(r.test->method == TestMethod::kSignedRankLogMedian);
  CHECK(r.test->p_value == Approx(6.0 / 256).epsilon(1e-12));
  CHECK(r.test->interval_pct.low == Approx(2.0).epsilon(1e-6));
  CHECK(r.test->interval_pct.high == Approx(20.664825).epsilon(1e-6));
  CHECK(r.test->estimate_pct == Approx(10.814867).epsilon(1e-6));
  CHECK(!r.test->df);
  CHECK(r.test->units == 8);
}

TEST_CASE("Signed-rank test: too few blocks, and the normal approximation") {
  const Inference five = SignedRankTest({0.1, 0.2, 0.3, 0.4, 0.5});
  CHECK(!five.test);
  CHECK(five.why_not ==
        "5 blocks: the signed-rank test needs 6 to reach p < 0.05");
  // Above kExactSignedRankBlocks: every block positive is as clear as it
  // gets, and a symmetric set of blocks gives p = 1.
  std::vector<double> up, even;
  for (int i = 1; i <= 60; ++i) {
    up.push_back(0.01 * i);
    even.push_back(i % 2 ? 0.01 * i : -0.01 * (i - 1));
  }
  const Inference clear = SignedRankTest(up);
  REQUIRE(clear.test);
  CHECK(clear.test->p_value < 1e-9);
  CHECK(clear.test->interval_pct.low > 0);
  const Inference none = SignedRankTest(even);
  REQUIRE(none.test);
  CHECK(none.test->p_value > 0.5);
  CHECK(none.test->interval_pct.low < 0);
  CHECK(none.test->interval_pct.high > 0);
}

TEST_CASE("p < 0.05 exactly when the interval excludes 0") {
  std::mt19937_64 rng(3);
  std::lognormal_distribution<double> run(0, 0.4);
  int excluded = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<double> u, a, ratios;
    const double effect = trial % 2 ? 1.0 : 1.3;
    for (int i = 0; i < (trial % 4 < 2 ? 8 : 60); ++i) {
      u.push_back(effect * run(rng));
      a.push_back(run(rng));
      ratios.push_back(std::log(u.back() / a.back()));
    }
    for (const Inference& inf :
         {WelchLogTest(u, a), PairedLogTest(ratios), SignedRankTest(ratios)}) {
      REQUIRE(inf.test);
      const Interval& i = inf.test->interval_pct;
      const bool out = i.low > 0 || i.high < 0;
      excluded += out;
      CHECK(out == (inf.test->p_value < kSignificanceLevel));
      CHECK(i.low > -100);
      CHECK(i.low <= inf.test->estimate_pct);
      CHECK(inf.test->estimate_pct <= i.high);
    }
  }
  CHECK(excluded > 100);  // both sides of the rule were exercised
}

TEST_CASE("One slow aligned run widens the interval instead of tilting it") {
  // The delta-method interval of schema 1 gave "shifted faster" with a lower
  // bound below -100 % for run means like these (ms).
  const Inference w = WelchLogTest({1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 12});
  REQUIRE(w.test);
  CHECK(w.test->interval_pct.low > -100);
  CHECK(w.test->interval_pct.low < 0);
  CHECK(w.test->interval_pct.high > 0);
  CHECK(Decide(w, 6, 6) == Verdict::kNoSignificantDifference);
}

TEST_CASE("Edge cases: too few runs, no spread, a mean that is not positive") {
  const Inference one = WelchLogTest({1}, {1, 2});
  CHECK(!one.test);
  CHECK(one.why_not == "1 run: an interval needs 2");
  CHECK(!PairedLogTest({0.1}).test);
  const Inference flat = WelchLogTest({2, 2}, {1, 1});  // no spread at all
  REQUIRE(flat.test);
  CHECK(flat.test->interval_pct.low == Approx(100));
  CHECK(flat.test->interval_pct.high == Approx(100));
  CHECK(flat.test->p_value == 0);
  const Inference same = WelchLogTest({1, 1}, {1, 1});
  REQUIRE(same.test);
  CHECK(same.test->p_value == 1);
  CHECK(!WelchLogTest({0, 1}, {1, 1}).test);
  CHECK(!WelchLogTest({std::nan(""), 1}, {1, 1}).test);
}

TEST_CASE("Verdict: six runs of each variant, then the side of 0") {
  const Inference up = WelchLogTest({110, 112, 114}, {100, 101, 102});
  const Inference down = WelchLogTest({100, 101, 102}, {110, 112, 114});
  const Inference both = WelchLogTest({100, 120, 90}, {110, 95, 105});
  CHECK(Decide(up, 6, 6) == Verdict::kAlignedFaster);
  CHECK(Decide(down, 6, 6) == Verdict::kShiftedFaster);
  CHECK(Decide(both, 6, 6) == Verdict::kNoSignificantDifference);
  CHECK(Decide(up, 5, 8) == Verdict::kUndecided);
  CHECK(Decide(Inference{std::nullopt, "no"}, 5, 5) == Verdict::kUndecided);
  CHECK(NameOf(kVerdicts, Verdict::kAlignedFaster) == "aligned faster");
}

TEST_CASE("Far runs: five robust scales from the median log, from six runs") {
  // Logs about ±0.05 around 0: MAD 0.05, scale 0.074; 5 scales is 0.37, so
  // e^0.37 = 1.45 times the median is the edge.
  const std::vector<double> quiet = {1, 1.05, 0.95, 1.05, 0.95, 1};
  CHECK(FarRuns(quiet).empty());
  std::vector<double> slow = quiet;
  slow[3] = 1.6;
  CHECK(FarRuns(slow) == std::vector<std::size_t>{3});
  slow[3] = 1.4;
  CHECK(FarRuns(slow).empty());
  std::vector<double> fast = quiet;
  fast[0] = 0.6;
  CHECK(FarRuns(fast) == std::vector<std::size_t>{0});
  // Medians in one histogram bucket (MAD 0): the floor of 1 % keeps runs 4 %
  // off from being far, while 10x still is.
  CHECK(FarRuns({1, 1, 1, 1, 1, 1.04}).empty());
  CHECK(FarRuns({1, 1, 1, 1, 1, 10}) == std::vector<std::size_t>{5});
  CHECK(FarRuns({1, 1, 1, 1, 30}).empty());  // five runs: too few to judge
}

TEST_CASE("Runs for a precision: the t interval's half-width reaches it") {
  // sd 0.2 on both sides, half-width log(1.05): t·sqrt(0.08/n) <= 0.0488
  // needs n around 4 * 0.08 / 0.0488² ≈ 134.
  const std::uint64_t n = RunsForPrecision(TestMethod::kWelchLogMean, 0.2, 0.2,
                                           std::log1p(0.05), 10000);
  CHECK(n > 120);
  CHECK(n < 150);
  const double se = std::sqrt(0.08 / static_cast<double>(n));
  CHECK(1.97 * se <= std::log1p(0.05));
  CHECK(RunsForPrecision(TestMethod::kWelchLogMean, 0, 0, std::log1p(0.05),
                         10000) == kMinRunsForVerdict);
  CHECK(RunsForPrecision(TestMethod::kPairedLogMedian, 5, 0, 1e-4, 10000) ==
        10000);
  // Pairing on the same spread halves the variance that counts.
  CHECK(RunsForPrecision(TestMethod::kPairedLogMedian, 0.2, 0, std::log1p(0.05),
                         10000) < n);
}
