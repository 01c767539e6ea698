#include "lib/pairs/unit_search.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace alignbench {
namespace {

// How much a judgement weighs when the pairs of one shift are joined: the
// costliest decides, and a pair that cannot tell outweighs a lean, since it
// might hide a cost.
int Weight(ShiftCost cost) {
  switch (cost) {
    case ShiftCost::kFree:
      return 0;
    case ShiftCost::kLeans:
      return 1;
    case ShiftCost::kCannotTell:
      return 2;
    case ShiftCost::kCosts:
      return 3;
  }
  return 3;
}

bool NamesUnit(ShiftCost cost) {
  return cost == ShiftCost::kFree || cost == ShiftCost::kLeans;
}

}  // namespace

std::vector<std::uint64_t> SearchShifts(const TargetInfo& target,
                                        const std::vector<IoMode>& ios) {
  const std::uint64_t sector =
      target.device ? target.device->logical_block_bytes.value_or(512) : 512;
  const bool direct =
      std::find(ios.begin(), ios.end(), IoMode::kDirect) != ios.end();
  std::uint64_t largest = kLogBlockBytes;
  for (const LayerUnit& unit : DeclaredUnits(target)) {
    largest = std::max(largest, unit.bytes);
  }
  const std::uint64_t bound = std::min(AlignedUnit({largest}), kMaxSearchShift);
  std::vector<std::uint64_t> shifts;
  // Below the sector only buffered writes go: direct I/O refuses them.
  if (!direct) shifts.push_back(sector / 2);
  const std::uint64_t least =
      direct ? std::max(sector, target.DirectAlignment()) : sector;
  // A sector or alignment that is no power of two starts at the next one.
  std::uint64_t from = 1;
  while (from < least) from *= 2;
  for (std::uint64_t shift = from; shift <= bound; shift *= 2) {
    shifts.push_back(shift);
  }
  return shifts;
}

ShiftJudgement JudgePair(const PairResult& pair, double precision_points) {
  ShiftJudgement j;
  j.shift = pair.spec.shift;
  const std::vector<Mechanism>& m = pair.mechanisms;
  j.by_counters =
      std::find(m.begin(), m.end(), Mechanism::kReadOnWrite) != m.end() ||
      std::find(m.begin(), m.end(), Mechanism::kExtraBlock) != m.end();
  const bool decided = pair.inference.test && pair.verdict &&
                       *pair.verdict != Verdict::kUndecided;
  if (!decided) {
    j.cost = j.by_counters ? ShiftCost::kCosts : ShiftCost::kCannotTell;
    return j;
  }
  const Interval& ci = pair.inference.test->interval_pct;
  const bool within =
      std::max(std::fabs(ci.low), std::fabs(ci.high)) <= precision_points;
  j.by_time = !within && *pair.verdict == Verdict::kAlignedFaster;
  const bool leans = !within && *pair.verdict == Verdict::kLeansAligned;
  j.cost = j.by_time || j.by_counters ? ShiftCost::kCosts
           : leans                    ? ShiftCost::kLeans
                                      : ShiftCost::kFree;
  return j;
}

UnitFinding FindUnit(const std::vector<PairResult>& pairs,
                     const TargetInfo& target, double precision_points) {
  UnitFinding found;
  found.declared = DeclaredUnits(target);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    ShiftJudgement j = JudgePair(pairs[i], precision_points);
    j.pair = i;
    auto same = std::find_if(
        found.shifts.begin(), found.shifts.end(),
        [&](const ShiftJudgement& seen) { return seen.shift == j.shift; });
    if (same == found.shifts.end()) {
      found.shifts.push_back(j);
    } else if (Weight(j.cost) > Weight(same->cost)) {
      *same = j;
    }
  }
  std::sort(found.shifts.begin(), found.shifts.end(),
            [](const ShiftJudgement& a, const ShiftJudgement& b) {
              return a.shift < b.shift;
            });
  // From the largest down, while each names the unit.
  for (auto it = found.shifts.rbegin(); it != found.shifts.rend(); ++it) {
    if (!NamesUnit(it->cost)) break;
    found.measured_bytes = it->shift;
  }
  assert(!found.measured_bytes || found.shifts.empty() ||
         NamesUnit(found.shifts.back().cost));
  return found;
}

}  // namespace alignbench
