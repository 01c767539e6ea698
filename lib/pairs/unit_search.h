// The unit a stack wants (`alignbench unit`): which shifts to try, given what
// every layer declares, and, from the pairs measured, the smallest alignment
// from which no shift costs anything. Pure: the shifts from a probe's
// TargetInfo, the answer from pairs.
//
// A shift of s bytes (a power of two) puts every write on a multiple of s and
// off every larger power of two, so the pair of shift s asks whether
// alignment to s is as good as alignment to the aligned variant's unit (the
// largest shift tried). The measured unit is the smallest shift from which
// this pair and every larger one are free.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "lib/base/named.h"
#include "lib/config/axes.h"
#include "lib/env/layer_units.h"
#include "lib/env/target_info.h"
#include "lib/pairs/pair_result.h"

namespace alignbench {

// The write sizes the search tries where none are given: a small log write
// (a page) and a large one.
inline const std::vector<std::uint64_t> kUnitSearchSizes = {4 << 10, 64 << 10};
// No search shifts past this, whatever a layer declares (an md array's or a
// virtual disk's optimal I/O can be many MiB); the answer says where it
// stopped short of a declared unit.
inline constexpr std::uint64_t kMaxSearchShift = 4 << 20;

// The shifts to try: every power of two from the logical sector (512 where
// unknown), or with direct I/O from its alignment, up to the first power of
// two past the largest declared unit (at least 8 KiB, at most
// kMaxSearchShift), with half a sector before them where buffered.
std::vector<std::uint64_t> SearchShifts(const TargetInfo& target,
                                        const std::vector<IoMode>& ios);

// What a shift costs, judged over every pair of it (each size, each axis).
enum class ShiftCost {
  // A firm time verdict beyond the precision, or the counters show the
  // shifted writes read or wrote an extra block.
  kCosts,
  // Every pair within the precision or with no significant difference, and
  // no extra block or read in the counters.
  kFree,
  // A pair that leans aligned beyond the precision; the unit is named past
  // it, and the answer says the lean.
  kLeans,
  // A pair with no verdict (too few runs, not measured).
  kCannotTell,
};
inline constexpr Named<ShiftCost> kShiftCosts[] = {
    {"costs", ShiftCost::kCosts,
     "a firm time verdict for the aligned writes beyond the precision, or "
     "device counters that show each shifted write read or wrote another "
     "block"},
    {"free", ShiftCost::kFree,
     "every pair within the precision of 0 or no significant difference, "
     "and no extra block or read"},
    {"leans", ShiftCost::kLeans,
     "a pair leans aligned beyond the precision (p between 0.01 and 0.05): "
     "not counted as a cost, said in the answer"},
    {"cannot tell", ShiftCost::kCannotTell,
     "a pair without a verdict: too few runs, or not measured"},
};

// One shift's judgement, with the pair that decided it (the costliest).
struct ShiftJudgement {
  std::uint64_t shift = 0;
  ShiftCost cost = ShiftCost::kCannotTell;
  // What showed the cost: the time's verdict, the counters, or both.
  bool by_time = false;
  bool by_counters = false;
  // The deciding pair's index in the result's pairs; absent without one.
  std::optional<std::size_t> pair;
};

struct UnitFinding {
  // Ascending, as tried.
  std::vector<ShiftJudgement> shifts;
  // The smallest shift from which it and every larger one are free or
  // lean; absent where even the largest costs or cannot tell.
  std::optional<std::uint64_t> measured_bytes;
  // Every unit a layer declared (DeclaredUnits).
  std::vector<LayerUnit> declared;
};

// The unit from a result's pairs, each judged at `precision_points`.
UnitFinding FindUnit(const std::vector<PairResult>& pairs,
                     const TargetInfo& target, double precision_points);

// One pair's cost, and what showed it.
ShiftJudgement JudgePair(const PairResult& pair, double precision_points);

}  // namespace alignbench
