// From runs to pairs: the per-variant summaries, device I/O per operation,
// gain, interval, p-value and verdict of every pair in the plan. Sees run
// records, never a descriptor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/pairs/pair_result.h"

namespace alignbench {

// Runs are matched to the plan's pairs by spec; pairs come out in plan order.
// Takes the runs by value; move them in when they are not needed any more.
// With `idle`, each variant's background per write comes from it.
std::vector<PairResult> BuildPairs(
    const std::vector<PairSpec>& plan, std::vector<CollectedRun> runs,
    const std::optional<IdleSample>& idle = std::nullopt);
// The same with each pair's own idle windows (`idle[i]` for plan[i]): the
// disk's traffic sampled before the rounds that pair was measured in.
std::vector<PairResult> BuildPairs(
    const std::vector<PairSpec>& plan, std::vector<CollectedRun> runs,
    const std::vector<std::optional<IdleSample>>& idle);

// The idle window's counters over `seconds` of measuring, per write.
DevicePerOp BackgroundPerWrite(const IdleSample& idle, double seconds);

// The runs of one variant of `spec` among `runs`, summarised from their
// histograms; a failed run is counted, never summarised.
VariantResult Collect(const PairSpec& spec, Variant variant,
                      const std::vector<CollectedRun>& runs);

// log(unaligned / aligned) of the runs' medians, in every block in which
// both runs measured: the values the verdict's test is made on.
std::vector<double> BlockLogRatios(const VariantResult& u,
                                   const VariantResult& a);

// The tail's gain of a pair: the verdict's test on log(unaligned / aligned)
// of the runs' p99 of write+sync, block by block, as the typical gain is
// made from their medians. Without a test, why_not says why: runs of fewer
// than kTailMinWrites writes, runs recorded before their p99 was, or the
// test's own reason (too few blocks).
Inference TailInference(const VariantResult& u, const VariantResult& a);

// When the machine changed speed under the whole measurement: every run's
// median relative to the median of its pair and variant, in the order run; a
// split of that sequence (each side at least a quarter of the runs) whose two
// halves differ by a factor of 2 or more is a level shift, said in words.
// Blocks keep the comparison fair across it, but a reader should know.
std::optional<std::string> LevelShift(const std::vector<PairResult>& pairs);

// The seconds of both variants' runs of a pair, preparation and removal
// included: what --budget counts.
double MeasuredSeconds(const PairResult& pair);

// Blocks a pair of the rounds projects to need in all for
// +-precision_points: the rounds' projection, or what its printed interval's
// half-width projects where that is wider (a few far blocks widen the
// interval but not the stand-in the rounds planned from). 0 without rounds.
std::uint64_t BlocksNeeded(const PairResult& pair, double precision_points);

// A half-width in points as a precision reached is printed: "5.1", rounded
// up to a tenth so that a pair just past the precision never reads as within
// it (5.01 is not "5.0" beside "not the +-5 asked").
std::string ReachedPoints(double half_width);

// The warning for a pair the rounds left short of --precision: the
// precision it reached, the blocks it would need, and why it got no more.
// Empty for a pair that reached it, and for one whose interval is within the
// precision although the rounds stopped it otherwise (its stand-in read
// wider when the budget ran out).
std::string PrecisionWarning(const PairResult& pair, double precision_points);

// The same for every pair a run left short, in one warning: which pairs, the
// precision they reached, the blocks they got and would need, and what to do
// (a busy run leaves most pairs short, and a warning each buried the table).
// Empty where every pair reached the precision.
std::string PrecisionWarnings(const std::vector<PairResult>& pairs,
                              double precision_points);

}  // namespace alignbench
