#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
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
  for (int i = 1; i <= static_cast<int>(kExactSignedRankBlocks) + 10; ++i) {
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

namespace {

// Doubled midranks of |y| by sorting, zeros ranked with the rest: written
// apart from the library's pairwise counting so that each checks the other.
std::vector<long> SortedDoubledMidranks(const std::vector<double>& y) {
  std::vector<std::size_t> order(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::fabs(y[a]) < std::fabs(y[b]);
  });
  std::vector<long> ranks(y.size());
  for (std::size_t i = 0; i < y.size();) {
    std::size_t j = i;
    while (j < y.size() && std::fabs(y[order[j]]) == std::fabs(y[order[i]])) {
      ++j;
    }
    for (std::size_t k = i; k < j; ++k) {
      ranks[order[k]] = static_cast<long>(i + j + 1);
    }
    i = j;
  }
  return ranks;
}

int Sign(double v) { return (v > 0) - (v < 0); }

// Two-sided p of the signed-rank statistic of x − d by flipping the signs of
// all n blocks in all 2^n ways (a block at 0 stays at 0).
double EnumeratedP(const std::vector<double>& x, double d) {
  std::vector<double> y;
  for (double v : x) y.push_back(v - d);
  const std::vector<long> ranks = SortedDoubledMidranks(y);
  long observed = 0;
  for (std::size_t i = 0; i < y.size(); ++i) observed += Sign(y[i]) * ranks[i];
  const std::uint64_t patterns = std::uint64_t{1} << y.size();
  std::uint64_t extreme = 0;
  for (std::uint64_t mask = 0; mask < patterns; ++mask) {
    long t = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      t += (mask >> i & 1 ? -1 : 1) * Sign(y[i]) * ranks[i];
    }
    extreme += std::labs(t) >= std::labs(observed);
  }
  return static_cast<double>(extreme) / static_cast<double>(patterns);
}

// Log ratios on a grid of quarters, so that zeros and ties are frequent and
// every Walsh average and x − d below is exact in a double.
std::vector<double> GridBlocks(std::mt19937_64& rng, std::size_t n) {
  const int spread = std::array<int, 4>{1, 2, 3, 6}[rng() % 4];
  const int bias = static_cast<int>(rng() % 5) - 2;
  std::vector<double> x;
  for (std::size_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(rng() % (2 * spread + 1)) - spread;
    x.push_back((k + (rng() % 3 == 0 ? bias : 0)) / 4.0);
  }
  return x;
}

}  // namespace

TEST_CASE("Signed-rank p with ties and zeros equals the enumerated one") {
  std::mt19937_64 rng(11);
  int with_zero = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = 6 + trial % 11;  // 6 .. 16
    const std::vector<double> x = GridBlocks(rng, n);
    const Inference r = SignedRankTest(x);
    REQUIRE(r.test);
    INFO("trial " << trial);
    CHECK(std::fabs(r.test->p_value - EnumeratedP(x, 0)) <= 1e-12);
    with_zero += std::count(x.begin(), x.end(), 0.0) > 0;
  }
  CHECK(with_zero > 100);
}

// Tagged [slow]: the exhaustive checks against the enumeration, about nine
// tenths of the unit tests' seconds; they run in CTest's slow tier (unit_slow).
TEST_CASE("Signed-rank interval: where the enumerated test changes its mind",
          "[slow]") {
  // Every shift the test could treat differently: each distinct Walsh
  // average and a point in each gap between them. The accepted ones must be
  // one run, and the interval must end where it ends: at an accepted Walsh
  // average, or just past a rejected one.
  std::mt19937_64 rng(12);
  int open_ends = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const std::vector<double> x = GridBlocks(rng, 6 + trial % 7);
    std::vector<double> walsh;
    for (std::size_t i = 0; i < x.size(); ++i) {
      for (std::size_t j = i; j < x.size(); ++j) {
        walsh.push_back((x[i] + x[j]) / 2);
      }
    }
    std::sort(walsh.begin(), walsh.end());
    walsh.erase(std::unique(walsh.begin(), walsh.end()), walsh.end());
    std::vector<double> shifts{walsh.front() - 1};
    for (std::size_t k = 0; k < walsh.size(); ++k) {
      shifts.push_back(walsh[k]);
      shifts.push_back(k + 1 < walsh.size() ? (walsh[k] + walsh[k + 1]) / 2
                                            : walsh[k] + 1);
    }
    std::vector<std::size_t> accepted;
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      if (EnumeratedP(x, shifts[i]) >= kSignificanceLevel) {
        accepted.push_back(i);
      }
    }
    INFO("trial " << trial);
    REQUIRE(!accepted.empty());
    CHECK(accepted.back() - accepted.front() + 1 == accepted.size());
    // Odd: a Walsh average, the end itself; even: a gap, whose end is the
    // Walsh average beside it.
    const std::size_t first = accepted.front(), last = accepted.back();
    const double low = first % 2 ? shifts[first] : shifts[first - 1];
    const double high = last % 2 ? shifts[last] : shifts[last + 1];
    open_ends += first % 2 == 0;
    const Inference r = SignedRankTest(x);
    REQUIRE(r.test);
    CHECK(std::log1p(r.test->interval_pct.low / 100) ==
          Approx(low).margin(1e-12));
    CHECK(std::log1p(r.test->interval_pct.high / 100) ==
          Approx(high).margin(1e-12));
  }
  CHECK(open_ends > 50);  // both kinds of end were met
}

TEST_CASE("Signed-rank test keeps its level with a zero among the blocks") {
  // Ten blocks, one of them 0: under the null every sign of the other nine is
  // a fair coin, so over all 512 sign patterns p < 0.05 may come out at most
  // 5 % of the time. Reading p from the untied table with the zero counted as
  // half a rank made it 28 of 512 (5.47 %), and 26 with two blocks tied.
  for (const std::vector<double>& magnitudes :
       {std::vector<double>{0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08,
                            0.09},
        std::vector<double>{0, 0.01, 0.02, 0.02, 0.04, 0.05, 0.06, 0.07, 0.08,
                            0.09}}) {
    int rejected = 0;
    for (int mask = 0; mask < 512; ++mask) {
      std::vector<double> x{0};
      for (int i = 1; i < 10; ++i) {
        x.push_back(mask >> (i - 1) & 1 ? magnitudes[i] : -magnitudes[i]);
      }
      const Inference r = SignedRankTest(x);
      REQUIRE(r.test);
      rejected += r.test->p_value < kSignificanceLevel;
    }
    CHECK(rejected > 0);
    CHECK(rejected <= 0.05 * 512);
  }
}

TEST_CASE("A zero block: p and the verdict agree") {
  // The untied table gave p = 0.031 here next to an interval holding 0.
  const Inference r = SignedRankTest({0, -.01, -.02, -.03, -.04, -.05});
  REQUIRE(r.test);
  CHECK(r.test->p_value == 2.0 / 32);  // only all five signs alike are as far
  CHECK(r.test->interval_pct.high >= 0);
  CHECK(Decide(r, 6, 6) == Verdict::kNoSignificantDifference);
  const Inference six = SignedRankTest({-.06, -.01, -.02, -.03, -.04, -.05});
  REQUIRE(six.test);
  CHECK(six.test->p_value == 2.0 / 64);
  // Significant at 5 %, but 6 blocks never reach the 1 % of a firm verdict.
  CHECK(Decide(six, 6, 6) == Verdict::kLeansUnaligned);
}

TEST_CASE("A firm verdict needs p below the rerun level: 8 blocks can") {
  const std::vector<double> eight = {-.08, -.07, -.06, -.05,
                                     -.04, -.03, -.02, -.01};
  const Inference all = SignedRankTest(eight);
  REQUIRE(all.test);
  CHECK(all.test->p_value == 2.0 / 256);
  CHECK(Decide(all, 8, 8) == Verdict::kUnalignedFaster);
  CHECK(Decide(all, 8, 8, 0.005) == Verdict::kLeansUnaligned);
  // The smallest block on the other side: p = 4/256, significant, not firm.
  std::vector<double> one_against = eight;
  one_against.back() = .01;
  const Inference lean = SignedRankTest(one_against);
  REQUIRE(lean.test);
  CHECK(lean.test->p_value == 4.0 / 256);
  CHECK(Decide(lean, 8, 8) == Verdict::kLeansUnaligned);
  for (double& x : one_against) x = -x;
  CHECK(Decide(SignedRankTest(one_against), 8, 8) == Verdict::kLeansAligned);
  CHECK(Firm(Verdict::kAlignedFaster));
  CHECK_FALSE(Firm(Verdict::kLeansAligned));
  CHECK(Directional(Verdict::kLeansUnaligned));
  CHECK_FALSE(Directional(Verdict::kNoSignificantDifference));
  CHECK(TowardsAligned(Verdict::kLeansAligned));
  CHECK_FALSE(TowardsAligned(Verdict::kUnalignedFaster));
}

TEST_CASE("Signed-rank test: every block in the same bucket") {
  // Run medians alike in every block: nothing to tell the variants apart by,
  // and an interval that is the one shift all blocks agree on.
  const Inference same = SignedRankTest(std::vector<double>(10, 0.0));
  REQUIRE(same.test);
  CHECK(same.test->p_value == 1);
  CHECK(same.test->interval_pct.low == 0);
  CHECK(same.test->interval_pct.high == 0);
  CHECK(Decide(same, 10, 10) == Verdict::kNoSignificantDifference);
  const Inference up = SignedRankTest(std::vector<double>(10, 0.25));
  REQUIRE(up.test);
  CHECK(up.test->p_value == 2.0 / 1024);
  CHECK(up.test->interval_pct.low == Approx(100 * std::expm1(0.25)));
  CHECK(up.test->interval_pct.high == Approx(100 * std::expm1(0.25)));
  CHECK(Decide(up, 10, 10) == Verdict::kAlignedFaster);
}

TEST_CASE("Signed-rank exact p at 300 blocks against the normal one",
          "[slow]") {
  // Untied ranks 1..300 with random signs: down to p = 0.01 the textbook
  // normal approximation (continuity-corrected) is within 2 % of the exact
  // distribution (at p = 0.002 it is 3.5 % off), which checks the dynamic
  // programme at a size no enumeration reaches.
  std::mt19937_64 rng(13);
  int compared = 0;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> x;
    double w_plus = 0;
    for (int i = 1; i <= 300; ++i) {
      const bool up = rng() % 100 < 55;
      x.push_back((up ? 1 : -1) * 0.001 * i);
      if (up) w_plus += i;
    }
    const Inference r = SignedRankTest(x);
    REQUIRE(r.test);
    const double mean = 300.0 * 301 / 4;
    const double sd = std::sqrt(300.0 * 301 * 601 / 24);
    const double z = (std::fabs(w_plus - mean) - 0.5) / sd;
    const double normal = std::erfc(z / std::sqrt(2.0));
    if (normal < 0.01 || normal > 0.5) continue;
    ++compared;
    CHECK(r.test->p_value == Approx(normal).epsilon(0.02));
  }
  CHECK(compared >= 5);
}

TEST_CASE("p < 0.05 exactly when the interval excludes 0", "[slow]") {
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

TEST_CASE("Signed-rank: p < 0.05 exactly when the interval excludes 0, ties",
          "[slow]") {
  // Blocks on a grid of quarters, up to 80 of them, and of 1/128 (the
  // histogram's bucket width in log) up to 200: zeros, ties, and 0 as a Walsh
  // average, the cases where a p read from another distribution than the
  // interval's disagreed with it.
  std::mt19937_64 rng(14);
  int excluded = 0, zero_is_walsh = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<double> x;
    if (trial % 300 == 0) {  // the normal approximation's side
      std::normal_distribution<double> noise(0.002 * (trial % 7), 0.05);
      for (std::size_t i = 0; i < kExactSignedRankBlocks + 20; ++i) {
        x.push_back(std::round(noise(rng) * 128) / 128);
      }
    } else if (trial % 10 == 0) {
      std::normal_distribution<double> noise(0.01 * (trial % 3), 0.05);
      for (int i = 0; i < 30 + trial % 171; ++i) {
        x.push_back(std::round(noise(rng) * 128) / 128);
      }
    } else {
      x = GridBlocks(rng, 6 + trial % 75);
    }
    bool walsh_zero = false;
    for (std::size_t i = 0; i < x.size() && !walsh_zero; ++i) {
      for (std::size_t j = i; j < x.size(); ++j) {
        walsh_zero = walsh_zero || x[i] + x[j] == 0;
      }
    }
    zero_is_walsh += walsh_zero;
    const Inference r = SignedRankTest(x);
    INFO(r.why_not);
    REQUIRE(r.test);
    const Interval& i = r.test->interval_pct;
    const bool out = i.low > 0 || i.high < 0;
    excluded += out;
    INFO("trial " << trial);
    CHECK(out == (r.test->p_value < kSignificanceLevel));
    // Up to one double: the estimate may be a rejected Walsh average at an
    // open end.
    CHECK(i.low <= r.test->estimate_pct + 1e-9);
    CHECK(r.test->estimate_pct <= i.high + 1e-9);
  }
  CHECK(excluded > 300);
  CHECK(zero_is_walsh > 1000);
}

TEST_CASE("One slow aligned run widens the interval instead of tilting it") {
  // The delta-method interval of schema 1 gave "unaligned faster" with a lower
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
  CHECK(Decide(down, 6, 6) == Verdict::kUnalignedFaster);
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
