// --precision as a sequential design: measure in rounds of blocks until every
// pair's interval is as narrow as asked, the pair hits its cap, or the budget
// runs out. Pure functions: the caller measures, this plans.
//
// Why the verdict's level survives the adaptive stopping: under "no
// difference" the order inside each block is random, so each block's sign is
// a fair coin independent of the block's absolute log ratio and of its cost
// (the sum of both runs' times, which does not depend on the order). Every
// decision here (stop, how many blocks, which pairs get the budget) reads only
// absolute log ratios and costs. The final sample size is then a function of
// quantities the signs are independent of, so conditional on it the signs are
// still fair coins and the signed-rank test on the final sample keeps its
// level exactly.
//
// What this does NOT do: stop a pair because it already looks decided (its
// interval clear of 0). That would read the signs and need alpha spending.
// Only the precision stand-in, the per-pair cap and the budget stop a pair.
//
// The price: the stand-in (a width predicted from the absolute values) is not
// the reported Hodges–Lehmann interval. The reported one can come out wider
// than the precision asked, most often when the noise has heavier tails than
// the normal the stand-in is calibrated on; tests/sim/session_sim measures how
// often and by how much.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/base/named.h"
#include "lib/stats/compare.h"

namespace alignbench {

struct PairProgress {
  // log(unaligned / aligned) of each block so far
  std::vector<double> log_ratios;
  // Measured mean cost of one block, > 0
  double seconds_per_block = 0;
  // False when the pair cannot be measured at all (e.g. its runs fail); a
  // log ratio that is not finite counts the same
  bool measurable = true;
};

enum class PairState {
  kOpen,
  kPrecisionReached,
  kCapReached,
  kNotMeasurable,
  kOutOfBudget
};
inline constexpr Named<PairState> kPairStates[] = {
    {"open", PairState::kOpen, "gets blocks in the next round"},
    {"precision reached", PairState::kPrecisionReached,
     "the sign-invariant stand-in of the interval's half-width is at most "
     "the precision asked"},
    {"cap reached", PairState::kCapReached,
     "measured the most blocks a pair may have, precision not reached"},
    {"not measurable", PairState::kNotMeasurable,
     "its runs cannot be measured"},
    {"out of budget", PairState::kOutOfBudget,
     "the seconds left do not cover the blocks it projects to need"},
};

struct SequentialDesign {
  // Target half-width of every pair's interval, in %gain points
  double precision_points = 5;
  // Blocks every pair gets before its precision is judged: fewer give a
  // stand-in too noisy to stop on or project from. Never fewer than the
  // signed-rank test needs for a verdict.
  std::uint64_t first_round_blocks = 10;
  std::uint64_t max_blocks_per_pair = 400;
  // A later round gives an open pair at least this many blocks, so that a
  // pair just short of the target does not creep up one block at a time.
  std::uint64_t min_round_blocks = 4;
  // A later round at most multiplies a pair's blocks by this: a projection
  // from few blocks can be far off, the next round corrects it.
  double max_round_growth = 2;
  // A pair stops on its precision only from this many blocks on. Below it
  // the stand-in is fitted on too few magnitudes, and a low reading stops a
  // pair whose interval is far wider than asked: in session_sim (4000 pairs,
  // seeds 1 and 2) 6.6-6.7 % of the pairs stopped on the precision reported
  // a half-width over P with 10, 3.3-3.4 % with 15, for 3 % more blocks.
  std::uint64_t min_blocks_to_stop = 15;
  // The stand-in must be at most precision / (1 + margin / sqrt(blocks)):
  // with few blocks it, and the interval it stands for, vary most, and a
  // pair stopped on a low reading reports an interval wider than asked.
  double small_sample_margin = 1.0;
  double confidence = kConfidenceLevel;
};

struct RoundPlan {
  // Next round's blocks, per pair; 0 = none
  std::vector<std::uint64_t> blocks;
  std::vector<PairState> state;
  // NaN below 2 blocks
  std::vector<double> stand_in_half_width_points;
  // Projected total to reach the precision (may exceed the cap); the first
  // round's size while a pair has not had it
  std::vector<std::uint64_t> blocks_needed;
  // What the planned round costs
  double seconds = 0;
};

// The sign-invariant stand-in for the half-width, in %gain points, of the
// signed-rank test's Hodges–Lehmann interval on `log_ratios`. It reads only
// |log ratio|, so flipping any signs leaves it unchanged.
//
// The absolute values are modelled as |μ + σZ|, Z standard normal (a folded
// normal), and μ ≥ 0 and σ fitted by least squares of their order
// statistics on its quantiles, leaving out the largest and the smallest
// tenth. Fitting μ
// keeps the effect out of the spread: a spread taken around 0 would count a
// 50 % gain as noise and ask for many times the blocks. The half-width on the
// log scale is then t(n − 1) · sqrt(π/3) · σ / sqrt(n) (the Hodges–Lehmann
// estimator's standard error under normal noise, Student's t for small n),
// and in points 100 · e^μ · sinh(half-width): an interval around the fitted
// gain, taken on the side where it is wider, as the sign is not read (a
// unaligned-faster pair is asked for somewhat more blocks than it needs).
// NaN with fewer than 2 values.
double StandInHalfWidthPoints(const std::vector<double>& log_ratios,
                              double confidence = kConfidenceLevel);

// Whether the blocks the stand-in's fit leaves out could move the reported
// interval's ends: the stand-in fits the middle of |log ratio| and so does
// not see a few blocks far off it (a run whose median fell into a slower
// mode of the disk), while each such block moves n of the n(n+1)/2 Walsh
// averages the interval is read from. True when the blocks beyond the
// median |log ratio| by six robust spreads (1.4826 MAD), times n, reach the
// number of Walsh averages past one end of the interval (normal approximation
// of the signed-rank quantile). Reads only |log ratio|, so the rounds stay
// sign-invariant.
bool TailsMoveInterval(const std::vector<double>& log_ratios,
                       double confidence = kConfidenceLevel);

// Blocks a pair projects to need in total for `precision_points`: the
// half-width scales as 1/sqrt(blocks), so n · (stand-in / precision)^2,
// rounded up, and never fewer than the n measured.
std::uint64_t ProjectBlocksNeeded(std::uint64_t blocks_so_far,
                                  double stand_in_points,
                                  double precision_points, double margin = 0);

// What the stand-in must be at most for a pair of `blocks` blocks to count
// as having reached `precision_points`: precision / (1 + margin / sqrt(n)).
double StopThresholdPoints(std::uint64_t blocks, double precision_points,
                           double margin);

// The next round. Each open pair asks for the blocks it projects to need,
// bounded by the round growth, the minimum round and the cap (all of the
// first round while it has not had it). When the seconds left do not cover
// every open pair's way to its target, pairs are funded cheapest completion
// first (seconds to its projected total): that brings the most pairs to the
// precision within the budget. The seconds those completions do not need go,
// this round, to the pairs that cannot be completed, cheapest round first: a
// pair short of the precision still narrows its interval with every block,
// and the budget is spent. A pair whose round no longer fits is kOutOfBudget
// and gets nothing this round; the plan is a function of the progress only.
RoundPlan PlanNextRound(const std::vector<PairProgress>& pairs,
                        const SequentialDesign& design, double seconds_left);

}  // namespace alignbench
