// The verdict rule on real noise: blocks of A/A runs measured on this project's
// machine (tests/fixtures/aa-blocks.tsv), resampled ten at a time as a run of
// the default plan would see them, and judged as lib/pairs/pairs.cc judges a
// pair: Decide on SignedRankTest of the log ratios of the run medians. Both
// variants were identical, so every verdict but "no significant difference"
// is a false positive; multiplying the unaligned run medians by 1.5 injects a
// true +50 % the rule should find.
// Each block is drawn with the sign it was measured with. Drawing magnitudes
// and flipping their signs at random would make the null true by construction
// and check only the test's arithmetic, which compare_stats_test.cc does
// exactly by enumeration; drawn as measured, the blocks check what the test
// assumes of the machine, that an A/A block is as likely to come out either
// way.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lib/stats/compare.h"

using namespace alignbench;

namespace {

// log(unaligned p50 / aligned p50) of every block of the fixture.
std::vector<double> FixtureLogRatios() {
  std::ifstream in(ALIGNBENCH_SOURCE_DIR "/tests/fixtures/aa-blocks.tsv");
  std::vector<double> ratios;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string size, sync;
    double u_mean, a_mean, u_p50, a_p50;
    fields >> size >> sync >> u_mean >> a_mean >> u_p50 >> a_p50;
    ratios.push_back(std::log(u_p50 / a_p50));
  }
  return ratios;
}

struct Rates {
  double false_positive;
  double power;
};

Rates Resample(const std::vector<double>& pool, std::size_t blocks,
               int trials) {
  std::mt19937_64 rng(2026);
  int false_positives = 0, found = 0;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> null, effect;
    for (std::size_t b = 0; b < blocks; ++b) {
      const double r = pool[rng() % pool.size()];
      null.push_back(r);
      effect.push_back(r + std::log(1.5));
    }
    const Verdict v = Decide(SignedRankTest(null), blocks, blocks);
    false_positives +=
        v == Verdict::kAlignedFaster || v == Verdict::kUnalignedFaster;
    found += Decide(SignedRankTest(effect), blocks, blocks) ==
             Verdict::kAlignedFaster;
  }
  return {static_cast<double>(false_positives) / trials,
          static_cast<double>(found) / trials};
}

}  // namespace

TEST_CASE("The verdict rule on resampled A/A blocks of this machine") {
  const std::vector<double> pool = FixtureLogRatios();
  REQUIRE(pool.size() >= 400);
  const Rates rates = Resample(pool, 10, 4000);
  INFO("false positives " << rates.false_positive << ", power " << rates.power);
  // 5 % is the level asked for (the exact test at 10 blocks reaches 4.9 %);
  // 1 point of tolerance is about three standard errors over 4000 trials.
  CHECK(rates.false_positive <= kSignificanceLevel + 0.01);
  // Measured 0.923 with this seed (4.5 % false positives); 0.90 leaves room
  // for another draw.
  CHECK(rates.power >= 0.90);
}
