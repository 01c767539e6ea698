#include "lib/render/unit_answer.h"

#include <algorithm>
#include <map>

#include "lib/base/named.h"
#include "lib/render/cells.h"

namespace alignbench {
namespace {

// The mechanisms of a pair that are a shift's cost: "read-on-write, one
// more block written".
std::string CountedCost(const PairResult& p) {
  std::string names;
  for (Mechanism m : p.mechanisms) {
    if (m != Mechanism::kReadOnWrite && m != Mechanism::kExtraBlock) continue;
    names += (names.empty() ? "" : ", ") + std::string(NameOf(kMechanisms, m));
  }
  return names;
}

// What the pair that decided a shift showed: "+38.2 % [+20.1, +60.3] at 4K
// writes, with read-on-write", or the counters first where the time could
// not tell.
std::string Evidence(const Report& r, const ShiftJudgement& j) {
  if (!j.pair || *j.pair >= r.pairs.size()) return "not measured";
  const PairResult& p = r.pairs[*j.pair];
  const std::string time =
      p.inference.test ? TypicalGainCell(p, "%+.1f") + " % " + IntervalText(p)
                       : VerdictText(p, r.statistics.min_runs_for_verdict);
  const std::string at = " at " + SizeText(p.spec.size) + " writes";
  if (!j.by_counters) return time + at;
  if (j.by_time) return time + at + ", with " + CountedCost(p);
  return CountedCost(p) + at + "; the time could not tell (" + time + ")";
}

// The shift just below the unit and what it cost.
std::string Below(const Report& r, const UnitFinding& u) {
  const auto at = std::find_if(
      u.shifts.begin(), u.shifts.end(),
      [&](const ShiftJudgement& j) { return j.shift == *u.measured_bytes; });
  if (at == u.shifts.begin()) {
    return "; no smaller alignment was tried";
  }
  const ShiftJudgement& below = *(at - 1);
  const std::string cost(NameOf(kShiftCosts, below.cost));
  return "; aligned only to " + SizeText(below.shift) + " they " +
         (below.cost == ShiftCost::kCosts ? "cost more: " : cost + ": ") +
         Evidence(r, below);
}

// Leans at and above the unit: named, since the unit was named past them.
std::string Leans(const Report& r, const UnitFinding& u) {
  std::string text;
  for (const ShiftJudgement& j : u.shifts) {
    if (j.cost != ShiftCost::kLeans) continue;
    text += "; a lean at " + SizeText(j.shift) + ", " + Evidence(r, j) +
            ", which a rerun may not repeat";
  }
  return text;
}

}  // namespace

std::string UnitAnswerLine(const Report& r) {
  if (!r.unit) return "";
  const UnitFinding& u = *r.unit;
  if (u.shifts.empty()) return "unit: no pair was measured.";
  const ShiftJudgement& largest = u.shifts.back();
  if (!u.measured_bytes) {
    return "unit: none found: even writes aligned to " +
           SizeText(largest.shift) + ", the largest alignment tried, " +
           (largest.cost == ShiftCost::kCosts
                ? "cost more " + Evidence(r, largest) +
                      "; the stack may want more (try larger --shift values)"
                : "cannot tell " + Evidence(r, largest) +
                      "; rerun with a larger --budget") +
           ".";
  }
  const std::string unit = SizeText(*u.measured_bytes);
  return "unit: " + unit + ". Writes aligned to " + unit +
         " cost what writes aligned to " +
         SizeText(AlignedUnit(r.settings.shifts)) + " do" + Below(r, u) +
         Leans(r, u) + ".";
}

std::string DeclaredLine(const Report& r) {
  if (!r.unit) return "";
  const UnitFinding& u = *r.unit;
  if (u.declared.empty()) return "declared: no layer's unit could be read.";
  // The layers of each size, sizes ascending: "512B (logical sector), 4K
  // (page, filesystem block; the measured unit)".
  std::map<std::uint64_t, std::string> by_size;
  for (const LayerUnit& layer : u.declared) {
    std::string& names = by_size[layer.bytes];
    names += (names.empty() ? "" : ", ") + layer.layer;
  }
  const std::uint64_t measured = u.measured_bytes.value_or(0);
  std::string line = "declared:";
  for (const auto& [bytes, names] : by_size) {
    line += (line.back() == ':' ? " " : ", ") + SizeText(bytes) + " (" + names +
            (bytes == measured ? "; the measured unit" : "") + ")";
  }
  if (!u.measured_bytes) return line + "; the measured unit is unknown.";
  if (by_size.count(measured) != 0) return line + ".";
  return line + "; no layer declares " + SizeText(measured) +
         ", the measured unit.";
}

}  // namespace alignbench
