// The unit search: the shifts tried from what the layers declare, each
// shift's cost from its pairs, the smallest alignment from which nothing
// costs, its answer in words, and the command's settings.
#include "lib/pairs/unit_search.h"

#include <catch2/catch.hpp>

#include "lib/cli/unit_search.h"
#include "lib/render/unit_answer.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;
using namespace alignbench::testing;

namespace {

using Shifts = std::vector<std::uint64_t>;

TargetInfo Stack(std::uint64_t logical, std::uint64_t physical) {
  TargetInfo t;
  t.host.page_bytes = 4096;
  t.fs_block_bytes = 4096;
  t.dio_offset_align = logical;
  t.device = DeviceInfo{};
  t.device->logical_block_bytes = logical;
  t.device->physical_block_bytes = physical;
  t.device->optimal_io_bytes = 0;
  return t;
}

PairResult PairOf(std::uint64_t size, std::uint64_t shift, Verdict verdict,
                  Interval interval, std::vector<Mechanism> mechanisms = {}) {
  PairResult pair = FixedReport().pairs[0];
  pair.spec.size = size;
  pair.spec.shift = shift;
  pair.verdict = verdict;
  pair.inference.test->estimate_pct = (interval.low + interval.high) / 2;
  pair.inference.test->interval_pct = interval;
  pair.mechanisms = std::move(mechanisms);
  return pair;
}

PairResult Free(std::uint64_t shift) {
  return PairOf(4096, shift, Verdict::kNoSignificantDifference, {-3, 4});
}

}  // namespace

TEST_CASE("the shifts run from half a sector past the largest declared unit") {
  CHECK(SearchShifts(Stack(512, 4096), {IoMode::kBuffered}) ==
        Shifts{256, 512, 1024, 2048, 4096, 8192});
  CHECK(SearchShifts(Stack(4096, 4096), {IoMode::kBuffered}) ==
        Shifts{2048, 4096, 8192});
  // Direct I/O cannot take a shift below its alignment.
  CHECK(SearchShifts(Stack(512, 4096), {IoMode::kDirect}) ==
        Shifts{512, 1024, 2048, 4096, 8192});
  CHECK(SearchShifts(Stack(512, 4096), {IoMode::kBuffered, IoMode::kDirect})
            .front() == 512);
  TargetInfo striped = Stack(512, 512);
  striped.xfs_swidth_bytes = 3 * 65536;  // three disks of 64 KiB
  CHECK(SearchShifts(striped, {IoMode::kBuffered}).back() == 262144);
  TargetInfo huge = Stack(512, 512);
  huge.device->optimal_io_bytes = std::uint64_t{1} << 30;
  CHECK(SearchShifts(huge, {IoMode::kBuffered}).back() == kMaxSearchShift);
  // Nothing known: a 512-byte sector, the 4 KiB log block.
  CHECK(SearchShifts(TargetInfo{}, {IoMode::kBuffered}) ==
        Shifts{256, 512, 1024, 2048, 4096, 8192});
}

TEST_CASE("every unit a layer declares, none guessed") {
  TargetInfo t = Stack(512, 4096);
  t.xfs_sunit_bytes = 0;  // no stripe: declares nothing
  std::vector<std::string> layers;
  for (const LayerUnit& unit : DeclaredUnits(t)) layers.push_back(unit.layer);
  CHECK(layers == std::vector<std::string>{
                      "page", "filesystem block", "direct I/O alignment",
                      "logical sector", "physical sector"});
  CHECK(DeclaredUnits(TargetInfo{}).empty());
}

TEST_CASE(
    "a pair costs by its firm verdict past the precision or by its counters") {
  const double precision = 5;
  CHECK(
      JudgePair(PairOf(4096, 512, Verdict::kAlignedFaster, {20, 40}), precision)
          .cost == ShiftCost::kCosts);
  // Firm, but known to be inside +-5: free.
  CHECK(JudgePair(PairOf(4096, 512, Verdict::kAlignedFaster, {1, 4}), precision)
            .cost == ShiftCost::kFree);
  const ShiftJudgement counted =
      JudgePair(PairOf(4096, 512, Verdict::kNoSignificantDifference, {-20, 30},
                       {Mechanism::kReadOnWrite}),
                precision);
  CHECK(counted.cost == ShiftCost::kCosts);
  CHECK(counted.by_counters);
  CHECK_FALSE(counted.by_time);
  CHECK(JudgePair(PairOf(4096, 512, Verdict::kLeansAligned, {1, 12}), precision)
            .cost == ShiftCost::kLeans);
  CHECK(JudgePair(PairOf(4096, 512, Verdict::kUndecided, {-1, 1}), precision)
            .cost == ShiftCost::kCannotTell);
  CHECK(JudgePair(PairOf(4096, 512, Verdict::kUnalignedFaster, {-30, -10}),
                  precision)
            .cost == ShiftCost::kFree);
}

TEST_CASE(
    "the unit is the smallest shift from which every larger one is free") {
  const TargetInfo t = Stack(512, 4096);
  const std::vector<PairResult> page_unit = {
      PairOf(4096, 256, Verdict::kAlignedFaster, {30, 60},
             {Mechanism::kReadOnWrite}),
      PairOf(4096, 2048, Verdict::kAlignedFaster, {25, 50}), Free(4096),
      Free(8192),
      // Another size costs nothing at 2 KiB: the costliest pair decides.
      PairOf(65536, 2048, Verdict::kNoSignificantDifference, {-2, 3})};
  const UnitFinding found = FindUnit(page_unit, t, 5);
  CHECK(found.measured_bytes == std::optional<std::uint64_t>(4096));
  REQUIRE(found.shifts.size() == 4);
  CHECK(found.shifts[1].shift == 2048);
  CHECK(found.shifts[1].cost == ShiftCost::kCosts);
  CHECK(found.shifts[1].pair == std::optional<std::size_t>(1));
  CHECK(found.declared.size() == 5);

  // Even the largest shift costs: no unit among those tried.
  CHECK_FALSE(FindUnit({Free(4096),
                        PairOf(4096, 8192, Verdict::kAlignedFaster, {9, 20})},
                       t, 5)
                  .measured_bytes);
  // A pair that cannot tell above a free one: the unit is named only past it.
  CHECK(FindUnit({Free(2048), PairOf(4096, 4096, Verdict::kUndecided, {-1, 1}),
                  Free(8192)},
                 t, 5)
            .measured_bytes == std::optional<std::uint64_t>(8192));
  // A lean does not stop the unit; a cost below a free shift does not either.
  CHECK(FindUnit(
            {PairOf(4096, 1024, Verdict::kAlignedFaster, {9, 20}), Free(2048),
             PairOf(4096, 4096, Verdict::kLeansAligned, {1, 12}), Free(8192)},
            t, 5)
            .measured_bytes == std::optional<std::uint64_t>(2048));
  // Nothing measured: nothing named.
  CHECK_FALSE(FindUnit({}, t, 5).measured_bytes);
}

TEST_CASE("the unit's answer says the unit, the cost below it and the layers") {
  Report r = FixedReport();
  r.settings.shifts = {2048, 4096, 8192};
  r.target = Stack(512, 4096);
  r.pairs = {PairOf(4096, 2048, Verdict::kAlignedFaster, {17.7, 169.1},
                    {Mechanism::kReadOnWrite, Mechanism::kExtraBlock}),
             Free(4096), Free(8192)};
  r.unit = FindUnit(r.pairs, r.target, 5);
  CHECK(UnitAnswerLine(r) ==
        "unit: 4K. Writes aligned to 4K cost what writes aligned to 16K do; "
        "aligned only to 2K they cost more: +93.4 % [+17.7, +169.1] at 4K "
        "writes, with read-on-write, one more block written.");
  CHECK(DeclaredLine(r) ==
        "declared: 512B (direct I/O alignment, logical sector), 4K (page, "
        "filesystem block, physical sector; the measured unit).");
  // The counters alone: the time is said not to tell.
  r.pairs[0] = PairOf(4096, 2048, Verdict::kNoSignificantDifference, {-40, 120},
                      {Mechanism::kReadOnWrite});
  r.unit = FindUnit(r.pairs, r.target, 5);
  CHECK_THAT(UnitAnswerLine(r),
             Catch::Contains("they cost more: read-on-write at 4K writes; the "
                             "time could not tell (+40.0 % [-40.0, +120.0])"));
  // None found, and one no layer declares.
  r.pairs[2] = PairOf(4096, 8192, Verdict::kAlignedFaster, {10, 30});
  r.unit = FindUnit(r.pairs, r.target, 5);
  CHECK_THAT(UnitAnswerLine(r),
             Catch::StartsWith("unit: none found: even writes aligned to 8K, "
                               "the largest alignment tried, cost more"));
  CHECK_THAT(DeclaredLine(r), Catch::EndsWith("the measured unit is unknown."));
  r.pairs = {PairOf(4096, 4096, Verdict::kAlignedFaster, {10, 30}), Free(8192)};
  r.unit = FindUnit(r.pairs, r.target, 5);
  CHECK_THAT(DeclaredLine(r),
             Catch::EndsWith("; no layer declares 8K, the measured unit."));
  // Another result: nothing said.
  r.unit.reset();
  CHECK(UnitAnswerLine(r).empty());
  CHECK(DeclaredLine(r).empty());
}

TEST_CASE("unit: DIR and the search's sizes; its shifts held to its rules") {
  const Settings s = UnitSearchDefaults({"/srv/db"});
  CHECK(s.dir == "/srv/db");
  CHECK(s.sizes == kUnitSearchSizes);
  CHECK(UnitSearchDefaults({}).dir == ".");

  SessionOptions o;
  o.settings.dir = ".";
  o.settings.shifts = {512, 1000};
  Status refused = ApplyUnitSearch(true, o);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().Message(),
             Catch::Contains("each shift a power of two (1000 is not)"));
  CHECK_FALSE(o.find_unit);

  o.settings.shifts = {512, 4096};
  REQUIRE(ApplyUnitSearch(true, o));
  CHECK(o.find_unit);
  CHECK(o.settings.shifts == Shifts{512, 4096});

  // Without --shift, the shifts come from the layers under DIR.
  o.find_unit = false;
  REQUIRE(ApplyUnitSearch(false, o));
  CHECK(o.find_unit);
  CHECK(o.settings.shifts.size() >= 3);
  CHECK(o.settings.shifts.back() >= 8192);

  o.settings.log = LogWorkload{};
  CHECK_THAT(ApplyUnitSearch(false, o).error().Message(),
             Catch::Contains("a log case's rules fix its own header"));
}
