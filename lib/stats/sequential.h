// --precision as a sequential design: measure in rounds of blocks until every
// pair's interval is as narrow as asked, the pair hits its cap, or the budget
// runs out. Pure functions: the caller measures, this plans.
//
// Why the verdict's level survives the adaptive stopping: under "no
// difference" the order inside each block is random, so each block's sign is
// a fair coin independent of the block's absolute log ratio and of its cost
// (the sum of both runs' times, which does not depend on the order). The
// rounds (how many blocks, which pairs get the budget) and the first test of
// a stop read only absolute log ratios and costs: a sample size decided that
// way leaves the signs fair coins, and the signed-rank test on the final
// sample keeps its level exactly.
//
// One rule reads the signs: a pair whose sign-invariant stand-in is within
// the precision stops only if the interval it would report is within it too,
// so that every pair stopped on its precision reports what was asked (the
// stand-in alone stopped 3.5-4.2 % of simulated pairs, and 3 of 91 real ones,
// above it). It only keeps open pairs the stand-in would stop, never stops
// one it would keep; tests/sim/session_sim measures its effect on the level.
//
// What this does NOT do: stop a pair because it already looks decided (its
// interval clear of 0). That would read the signs for the verdict itself and
// need alpha spending. Only the precision, the per-pair cap and the budget
// stop a pair; a pair stopped by the cap or the budget can report an
// interval wider than asked, and the result says which stopped it.
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
     "the interval's half-width, and its sign-invariant stand-in, are at "
     "most the precision asked"},
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
  // Blocks every pair gets before its precision is judged: the fewest the
  // signed-rank test gives a firm verdict on (p < 0.01 needs 8). A quiet pair
  // then stops after 8 blocks when the interval it reports is within the
  // precision. 6 (the fewest for any verdict, 2026-12-02 to 12-06) left a
  // quiet pair's decision at p = 0.03 at best, which a rerun need not
  // repeat; 10 cost 2-12 % more seconds than 6 on Derby runs replayed on
  // their own blocks (tests/sim/stop_replay), for the same level and coverage
  // in tests/sim/session_sim (docs/methodology-sequential.md).
  std::uint64_t first_round_blocks = kMinBlocksForFirmVerdict;
  std::uint64_t max_blocks_per_pair = 400;
  // A later round asks for this share of the blocks a pair still projects to
  // need. The projection reads the stand-in, which errs on the side of more
  // blocks, and a look between rounds costs a plan and a 100 ms idle window,
  // not blocks: half a projection, looked at again, overshoots less.
  double round_share = 0.5;
  // A later round gives an open pair at least this many blocks, so that a
  // pair just short of the target does not creep up one block at a time.
  std::uint64_t min_round_blocks = 2;
  // A later round at most multiplies a pair's blocks by this: a projection
  // from few blocks can be far off, the next round corrects it.
  double max_round_growth = 2;
  // A pair stops on its precision only from this many blocks on (and never
  // before its first round). The reported interval must be within the
  // precision too, which at few blocks it only is when every block is close.
  std::uint64_t min_blocks_to_stop = kMinBlocksForFirmVerdict;
  // The stand-in must be at most precision / (1 + margin / sqrt(blocks)):
  // a margin above 0 asks for more blocks while few are measured, where the
  // stand-in varies most. 0 since the reported interval itself must be
  // within the precision (below): that keeps the promise for every pair,
  // where a margin of 1.0 and 15 blocks still left 4.2 % of simulated pairs
  // above it, and on 0.86 times their blocks.
  double small_sample_margin = 0;
  // A pair stops on its precision only when the interval it will report is
  // within the precision too, not its stand-in alone: the stand-in is fitted
  // to the magnitudes and, on a disk's log ratios, reads 0.5-1.5 times the
  // reported half-width. This one rule reads the signs (the reported interval
  // is not sign-invariant). It only ever keeps a pair open that the
  // sign-invariant rule would stop; tests/sim/session_sim measures what it
  // does to the level (--stand-in-only turns it off there).
  bool reported_within_precision = true;
  // The stand-in stops a pair at up to this many times the precision (and
  // projects its blocks to that), so that the reported interval, which must
  // be within the precision anyway, decides. Above 1 the stop reads the
  // signs: at 2 the A/A level on the disk's own blocks was 5.54 % (bound
  // 5.25 %) for no fewer blocks at ±5 (docs/methodology-sequential.md).
  double stand_in_slack = 1;
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
// |log ratio|, so flipping any signs leaves it unchanged. It is the smaller
// of two readings, each sign-invariant:
//
// - The folded fit. The absolute values are modelled as |μ + σZ|, Z
//   standard normal (a folded normal), and μ ≥ 0 and σ fitted by least
//   squares of their order statistics on its quantiles, leaving out the
//   largest and the smallest tenth. Fitting μ keeps the effect out of the
//   spread: a spread taken around 0 would count a 50 % gain as noise and ask
//   for many times the blocks. The half-width on the log scale is then
//   t(n − 1) · sqrt(π/3) · σ / sqrt(n) (the Hodges–Lehmann estimator's
//   standard error under normal noise, Student's t for small n), and in
//   points 100 · e^μ · sinh(half-width): an interval around the fitted gain,
//   taken on the side where it is wider, as the sign is not read.
// - The rank reading, from the 6 values a verdict needs: the signed-rank
//   interval's half-width of the absolute values with signs alternating in
//   their order, a sample as balanced as random signs make it on average,
//   its ends at the normal approximation of the quantile. It is the
//   interval's own arithmetic, so it feels a heavy tail as little as the
//   interval does, where the normal fold reads a disk's small-effect pairs at
//   up to 2.5 times their interval. It counts an effect as noise; there the
//   fold is the smaller.
// NaN with fewer than 2 values.
double StandInHalfWidthPoints(const std::vector<double>& log_ratios,
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

// The sign-invariant half of a stop on the precision: at least
// `min_blocks_to_stop` blocks and the stand-in (`stand_in_points`, from
// StandInHalfWidthPoints) at most StopThresholdPoints. PlanNextRound then
// asks the reported interval too, where `reported_within_precision`: that
// also keeps open a pair whose few far blocks the fold leaves out but the
// interval feels.
bool StandInStops(const std::vector<double>& log_ratios, double stand_in_points,
                  const SequentialDesign& design);

// The next round. Each open pair asks for `round_share` of the blocks it
// still projects to need, bounded by the round growth, the minimum round and
// the cap (all of the first round while it has not had it). When the seconds
// left do not cover every open pair's way to its target, pairs are funded
// cheapest completion first (seconds to its projected total): that brings the
// most pairs to the precision within the budget. The seconds those completions
// do not need go, this round, to the pairs that cannot be completed, cheapest
// round first: a pair short of the precision still narrows its interval with
// every block, and the budget is spent. A pair whose round no longer fits is
// kOutOfBudget and gets nothing this round; the plan is a function of the
// progress only.
RoundPlan PlanNextRound(const std::vector<PairProgress>& pairs,
                        const SequentialDesign& design, double seconds_left);

}  // namespace alignbench
