#include "lib/stats/sequential.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>

#include "lib/stats/compare.h"

using namespace alignbench;

namespace {

std::vector<double> Noise(std::size_t n, double mean, double sd,
                          std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(mean, sd);
  std::vector<double> d;
  for (std::size_t i = 0; i < n; ++i) d.push_back(normal(rng));
  return d;
}

PairProgress Pair(std::vector<double> d, double seconds_per_block = 1) {
  PairProgress p;
  p.log_ratios = std::move(d);
  p.seconds_per_block = seconds_per_block;
  return p;
}

// Wide enough that 40 blocks are far from 5 points: c about 60 points.
constexpr double kWideSd = 0.3;
// Narrow enough that 20 blocks are well within 5 points.
constexpr double kNarrowSd = 0.005;

}  // namespace

TEST_CASE("The stand-in does not read signs") {
  std::mt19937_64 rng(3);
  std::student_t_distribution<double> t3(3);
  std::vector<double> d;
  for (int i = 0; i < 40; ++i) d.push_back(0.05 * t3(rng) + 0.02);
  const double before = StandInHalfWidthPoints(d);
  REQUIRE(std::isfinite(before));
  REQUIRE(before > 0);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> flipped = d;
    for (double& x : flipped) {
      if (rng() & 1) x = -x;
    }
    CHECK(StandInHalfWidthPoints(flipped) == before);
  }
}

TEST_CASE("The stand-in tracks the reported interval under normal noise") {
  // Over many samples the stand-in and the Hodges–Lehmann half-width agree
  // on average, with and without an effect: the fitted fold keeps a 50 %
  // gain out of the spread.
  for (double gain : {0.0, 0.5}) {
    double stand_in = 0, reported = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      const auto d = Noise(30, std::log1p(gain), 0.05, seed);
      stand_in += StandInHalfWidthPoints(d);
      const Inference inf = SignedRankTest(d);
      reported += inf.test->interval_pct.HalfWidth();
    }
    INFO("gain " << gain);
    CHECK(stand_in / reported == Approx(1).margin(0.15));
  }
}

TEST_CASE("The stand-in shrinks as one over the square root of the blocks") {
  const auto d = Noise(20, 0, 0.05, 5);
  std::vector<double> four_times;
  for (int k = 0; k < 4; ++k)
    four_times.insert(four_times.end(), d.begin(), d.end());
  // The same values four times over: same fit, four times the blocks; only
  // Student's t changes besides 1/sqrt(n): its 97.5th percentiles at 79
  // and 19 degrees of freedom.
  const double ratio =
      StandInHalfWidthPoints(four_times) / StandInHalfWidthPoints(d);
  CHECK(ratio == Approx(0.5 * 1.99045 / 2.09302).epsilon(0.03));
}

TEST_CASE("The stand-in needs two values, and no spread gives 0") {
  CHECK(std::isnan(StandInHalfWidthPoints({})));
  CHECK(std::isnan(StandInHalfWidthPoints({0.1})));
  CHECK(StandInHalfWidthPoints(std::vector<double>(12, 0.0)) == 0);
}

TEST_CASE("Mostly zero log ratios: the few others still count") {
  // Coarse run medians: nine blocks alike, one not. Leaving out the largest
  // and smallest tenth must not leave nothing to see.
  std::vector<double> d(9, 0.0);
  d.push_back(-0.5);
  CHECK(StandInHalfWidthPoints(d) > 5);
}

TEST_CASE("Blocks needed scale with the square of the stand-in") {
  CHECK(ProjectBlocksNeeded(10, 10, 5) == 40);
  CHECK(ProjectBlocksNeeded(25, 6, 5) == 36);
  CHECK(ProjectBlocksNeeded(30, 4, 5) == 30);
  // A margin asks for more, and is met at the blocks it asks for.
  const std::uint64_t with_margin = ProjectBlocksNeeded(10, 10, 5, 0.5);
  CHECK(with_margin > 40);
  CHECK(10 * std::sqrt(10.0 / static_cast<double>(with_margin)) <=
        StopThresholdPoints(with_margin, 5, 0.5));
  CHECK(10 * std::sqrt(10.0 / static_cast<double>(with_margin - 1)) >
        StopThresholdPoints(with_margin - 1, 5, 0.5));
}

TEST_CASE("First round: every pair gets the first round's blocks") {
  SequentialDesign design;
  const RoundPlan plan =
      PlanNextRound({Pair({}), Pair({0.1, -0.2, 0.05})}, design, 1e9);
  // The first round is the 8 blocks a firm verdict needs.
  CHECK(plan.blocks == std::vector<std::uint64_t>{8, 5});
  CHECK(plan.state[0] == PairState::kOpen);
  CHECK(plan.seconds == 13);
}

TEST_CASE("A pair that reached the precision gets no blocks") {
  SequentialDesign design;
  const RoundPlan plan = PlanNextRound(
      {Pair(Noise(20, 0, kNarrowSd, 1)), Pair(Noise(20, 0, kWideSd, 2))},
      design, 1e9);
  CHECK(plan.state[0] == PairState::kPrecisionReached);
  CHECK(plan.blocks[0] == 0);
  CHECK(plan.blocks_needed[0] == 20);
  CHECK(plan.stand_in_half_width_points[0] < 5);
  CHECK(plan.state[1] == PairState::kOpen);
  CHECK(plan.blocks[1] > 0);
  CHECK(plan.blocks_needed[1] > 20);
}

TEST_CASE("A quiet pair stops after the 8 blocks a firm verdict needs") {
  SequentialDesign design;
  const RoundPlan seven =
      PlanNextRound({Pair(Noise(7, 0, kNarrowSd, 3))}, design, 1e9);
  CHECK(seven.state[0] == PairState::kOpen);
  CHECK(seven.blocks[0] == 1);
  const RoundPlan eight =
      PlanNextRound({Pair(Noise(8, 0, kNarrowSd, 3))}, design, 1e9);
  CHECK(eight.state[0] == PairState::kPrecisionReached);
  CHECK(eight.blocks[0] == 0);
}

TEST_CASE("A pair stops on its precision only from min_blocks_to_stop on") {
  SequentialDesign design;
  design.min_blocks_to_stop = 10;
  const RoundPlan early =
      PlanNextRound({Pair(Noise(8, 0, kNarrowSd, 3))}, design, 1e9);
  CHECK(early.stand_in_half_width_points[0] < 1);
  CHECK(early.state[0] == PairState::kOpen);
  CHECK(early.blocks_needed[0] == 10);
  CHECK(early.blocks[0] == 2);
  const RoundPlan enough =
      PlanNextRound({Pair(Noise(10, 0, kNarrowSd, 3))}, design, 1e9);
  CHECK(enough.state[0] == PairState::kPrecisionReached);
  CHECK(enough.blocks[0] == 0);
}

// Half the blocks near +0.11 and half near -0.11: every |log ratio| is about
// the same, so the stand-in, which sees only those, reads a pair known to a
// fraction of a point, while the interval the signs give spans several.
TEST_CASE(
    "A pair stays open while the interval it reports is wider than asked") {
  std::vector<double> split;
  for (int b = 0; b < 20; ++b) {
    split.push_back((b % 2 ? 1 : -1) * (0.11 + 0.0005 * b));
  }
  SequentialDesign design;
  design.precision_points = 2;
  const Inference reported = SignedRankTest(split);
  REQUIRE(reported.test);
  const double half_width = reported.test->interval_pct.HalfWidth();
  REQUIRE(half_width > 2 * design.precision_points);
  REQUIRE(StandInHalfWidthPoints(split) < design.precision_points / 2);
  REQUIRE(StandInStops(split, StandInHalfWidthPoints(split), design));
  // Below the fewest blocks a pair stops on, the stand-in's half says no.
  const std::vector<double> five(split.begin(), split.begin() + 5);
  CHECK_FALSE(StandInStops(five, StandInHalfWidthPoints(five), design));
  const RoundPlan plan = PlanNextRound({Pair(split)}, design, 1e9);
  CHECK(plan.state[0] == PairState::kOpen);
  // What the reported half-width projects, n (half-width / P)^2
  CHECK(plan.blocks_needed[0] ==
        ProjectBlocksNeeded(20, half_width, design.precision_points));
  CHECK(plan.blocks_needed[0] > 80);
  CHECK(plan.blocks[0] == 20);
  // The stand-in alone would have stopped it.
  design.reported_within_precision = false;
  const RoundPlan stand_in_only = PlanNextRound({Pair(split)}, design, 1e9);
  CHECK(stand_in_only.state[0] == PairState::kPrecisionReached);
}

// The power rig's failure, its log ratios as measured (cold-rmw, 64K, runs of
// 32 writes): a 40 % gain, and one block whose unaligned run fell into a
// faster mode of the disk. The fold fits the middle and says +-5 is reached;
// the reported interval, which feels the far block, keeps the pair open.
TEST_CASE("A block far off the others keeps a pair open through its interval") {
  const std::vector<double> ten = {0.366,  0.343, 0.354, 0.292, 0.35,
                                   -0.532, 0.326, 0.37,  0.355, 0.324};
  SequentialDesign design;
  REQUIRE(StandInStops(ten, StandInHalfWidthPoints(ten), design));
  const Inference reported = SignedRankTest(ten);
  REQUIRE(reported.test);
  CHECK(reported.test->interval_pct.HalfWidth() > 20);
  const RoundPlan plan = PlanNextRound({Pair(ten)}, design, 1e9);
  CHECK(plan.state[0] == PairState::kOpen);
  CHECK(plan.blocks[0] > 0);
  CHECK(plan.blocks_needed[0] >
        ProjectBlocksNeeded(10, 10, design.precision_points));
}

// Heavy tails and a small effect, as on a disk: a Derby run's 4K pair after
// 34 blocks (2026-12-01 23:39), most log ratios within a few percent, a
// fifth far off. The normal fold read the far ones as spread (5.9 points
// against the interval's 2.4); the rank reading, like the interval, barely
// feels them.
TEST_CASE("The rank reading follows the interval where the fold reads high") {
  const std::vector<double> d = {
      0.4437,  0.0145,  -0.4297, -0.0514, 0.4561, 0.0327,  0.5802,
      0.0653,  -0.0374, 0.0604,  0.0019,  0.0205, 0.0595,  0.0228,
      -0.4729, 0.0043,  0.0528,  0.0145,  0.0243, -0.1147, 0.0220,
      0.1630,  0.2061,  0.0416,  -0.1799, 0.0419, 0.0832,  0.0225,
      0.0160,  -0.4705, 0.0231,  0.0003,  0.0053, 0.0427};
  const Inference reported = SignedRankTest(d);
  REQUIRE(reported.test);
  const double half_width = reported.test->interval_pct.HalfWidth();
  const double stand_in = StandInHalfWidthPoints(d);
  CHECK(stand_in < 2 * half_width);
  CHECK(stand_in > half_width / 2);
  // Still blind to the signs: all of them flipped, or every other one.
  std::vector<double> flipped = d;
  for (std::size_t i = 0; i < flipped.size(); i += 2) flipped[i] = -flipped[i];
  CHECK(StandInHalfWidthPoints(flipped) == stand_in);
}

// The slack of the stand-in (tried and not taken: it raised the A/A level on
// the disk's noise): a pair whose stand-in reads between P and twice P stops
// with a slack of 2 where its reported interval is within P, and projects
// its blocks to the slack's threshold while it is not.
TEST_CASE("A stand-in slack lets the reported interval decide") {
  // An effect about the size of the noise (θ = 1), where the stand-in, which
  // cannot tell it from none, reads above the interval.
  const auto d = Noise(40, 0.05, 0.05, 4);
  const double stand_in = StandInHalfWidthPoints(d);
  const Inference reported = SignedRankTest(d);
  REQUIRE(reported.test);
  const double half_width = reported.test->interval_pct.HalfWidth();
  SequentialDesign design;
  // P between the reported half-width and the stand-in, both within 2P.
  design.precision_points = std::max(half_width, stand_in / 2) * 1.01;
  REQUIRE(stand_in > design.precision_points);
  CHECK(PlanNextRound({Pair(d)}, design, 1e9).state[0] == PairState::kOpen);
  design.stand_in_slack = 2;
  CHECK(PlanNextRound({Pair(d)}, design, 1e9).state[0] ==
        PairState::kPrecisionReached);
  // Short of even twice P: the projection is to the slack's threshold.
  design.precision_points = stand_in / 3;
  CHECK(PlanNextRound({Pair(d)}, design, 1e9).blocks_needed[0] ==
        ProjectBlocksNeeded(40, stand_in / 2, design.precision_points));
}

TEST_CASE("A round at most doubles a pair and gives at least the minimum") {
  SequentialDesign design;
  const RoundPlan wide =
      PlanNextRound({Pair(Noise(10, 0, 3 * kWideSd, 3))}, design, 1e9);
  REQUIRE(wide.blocks_needed[0] > 20);
  CHECK(wide.blocks[0] == 10);
  // Just short of the target: the minimum round, not one block.
  design.precision_points =
      0.99 * StandInHalfWidthPoints(Noise(40, 0, kWideSd, 4));
  design.small_sample_margin = 0;
  const RoundPlan near =
      PlanNextRound({Pair(Noise(40, 0, kWideSd, 4))}, design, 1e9);
  CHECK(near.blocks_needed[0] == 41);
  CHECK(near.blocks[0] == design.min_round_blocks);
}

TEST_CASE("A later round asks for its share of the blocks still needed") {
  SequentialDesign design;
  const auto d = Noise(40, 0, kWideSd, 4);
  design.precision_points = 0.75 * StandInHalfWidthPoints(d);
  const RoundPlan half = PlanNextRound({Pair(d)}, design, 1e9);
  const std::uint64_t still = half.blocks_needed[0] - 40;
  REQUIRE(still > 10);
  REQUIRE(still < 40);
  CHECK(half.blocks[0] == (still + 1) / 2);
  design.round_share = 1;
  const RoundPlan whole = PlanNextRound({Pair(d)}, design, 1e9);
  CHECK(whole.blocks_needed[0] == half.blocks_needed[0]);
  CHECK(whole.blocks[0] == still);
}

TEST_CASE("The budget goes to the pairs that reach the precision cheapest") {
  SequentialDesign design;
  // The same data, one pair three times as costly per block.
  const auto d = Noise(20, 0, kWideSd, 6);
  const std::vector<PairProgress> pairs{Pair(d, 3), Pair(d, 1)};
  const RoundPlan all = PlanNextRound(pairs, design, 1e9);
  const std::uint64_t extra = all.blocks_needed[0] - 20;
  REQUIRE(all.blocks_needed[1] == all.blocks_needed[0]);
  REQUIRE(all.blocks[0] > 0);
  // Enough for the cheap pair's way to its target, not for both: the cheap
  // one is funded, and what it does not need buys the costly one a round.
  const RoundPlan some =
      PlanNextRound(pairs, design, 3.5 * static_cast<double>(extra));
  CHECK(some.state[1] == PairState::kOpen);
  CHECK(some.blocks[1] == all.blocks[1]);
  REQUIRE(3.0 * static_cast<double>(all.blocks[0]) <=
          2.5 * static_cast<double>(extra));
  CHECK(some.state[0] == PairState::kOpen);
  CHECK(some.blocks[0] == all.blocks[0]);
  CHECK(some.blocks_needed[0] == all.blocks_needed[0]);
  // Only the cheap pair's way: the costly one's round does not fit.
  const RoundPlan tight =
      PlanNextRound(pairs, design, static_cast<double>(extra) + 1);
  CHECK(tight.blocks[1] == all.blocks[1]);
  CHECK(tight.state[0] == PairState::kOutOfBudget);
  CHECK(tight.blocks[0] == 0);
  CHECK(tight.seconds <= static_cast<double>(extra) + 1);
}

TEST_CASE("No seconds left: open pairs are out of budget, reached stay so") {
  SequentialDesign design;
  const RoundPlan plan =
      PlanNextRound({Pair(Noise(20, 0, kNarrowSd, 7)),
                     Pair(Noise(20, 0, kWideSd, 8)), Pair({})},
                    design, 0);
  CHECK(plan.state == std::vector<PairState>{PairState::kPrecisionReached,
                                             PairState::kOutOfBudget,
                                             PairState::kOutOfBudget});
  CHECK(plan.blocks == std::vector<std::uint64_t>{0, 0, 0});
  CHECK(plan.seconds == 0);
}

TEST_CASE("A plan never costs more than the seconds left") {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> unit(0, 1);
  SequentialDesign design;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<PairProgress> pairs;
    for (int i = 0; i < 6; ++i) {
      pairs.push_back(Pair(Noise(rng() % 60, 0, 0.2 * unit(rng), rng()),
                           0.1 + 4 * unit(rng)));
    }
    const double seconds_left = 200 * unit(rng);
    const RoundPlan plan = PlanNextRound(pairs, design, seconds_left);
    double cost = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      cost += static_cast<double>(plan.blocks[i]) * pairs[i].seconds_per_block;
      CHECK((plan.blocks[i] > 0) == (plan.state[i] == PairState::kOpen));
    }
    CHECK(cost == Approx(plan.seconds));
    CHECK(plan.seconds <= seconds_left);
  }
}

TEST_CASE("The cap stops a pair and bounds its last round") {
  SequentialDesign design;
  design.max_blocks_per_pair = 30;
  const RoundPlan plan = PlanNextRound(
      {Pair(Noise(30, 0, kWideSd, 10)), Pair(Noise(28, 0, kWideSd, 11))},
      design, 1e9);
  CHECK(plan.state[0] == PairState::kCapReached);
  CHECK(plan.blocks[0] == 0);
  CHECK(plan.blocks_needed[0] > 30);
  CHECK(plan.state[1] == PairState::kOpen);
  CHECK(plan.blocks[1] == 2);
}

TEST_CASE("A pair that cannot be measured gets nothing") {
  SequentialDesign design;
  PairProgress broken = Pair(Noise(5, 0, kWideSd, 12));
  broken.measurable = false;
  PairProgress infinite = Pair({0.1, std::log(0.0), 0.2});
  const RoundPlan plan = PlanNextRound({broken, infinite}, design, 1e9);
  CHECK(plan.state[0] == PairState::kNotMeasurable);
  CHECK(plan.state[1] == PairState::kNotMeasurable);
  CHECK(plan.blocks == std::vector<std::uint64_t>{0, 0});
}

TEST_CASE("Pair states have distinct names") {
  for (const auto& entry : kPairStates) {
    CHECK(FromName(kPairStates, entry.name) == entry.value);
    CHECK(!HelpOf(kPairStates, entry.value).empty());
  }
  CHECK(NameOf(kPairStates, PairState::kPrecisionReached) ==
        "precision reached");
}
