// Pair-level logic on hand-made run records: the level-shift warning, the
// explanation and the far runs.
#include "lib/pairs/pairs.h"

#include <catch2/catch.hpp>
#include <cerrno>

#include "lib/pairs/explain.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

// A pair whose runs' medians follow `p50_ms` (unaligned and aligned alike),
// run in block order, two runs a block.
PairResult PairWithRuns(const std::vector<double>& p50_ms,
                        std::size_t first_order) {
  PairResult pair;
  std::size_t order = first_order;
  for (std::size_t i = 0; i < p50_ms.size(); ++i) {
    const RunPoint run{
        0, i + 1, 0, 0, p50_ms[i] * 1e6, p50_ms[i] * 1e6, std::nullopt};
    pair.unaligned.runs.push_back(run);
    pair.unaligned.runs.back().order = order++;
    pair.aligned.runs.push_back(run);
    pair.aligned.runs.back().order = order++;
  }
  pair.unaligned.repetitions = pair.aligned.repetitions = p50_ms.size();
  return pair;
}

}  // namespace

TEST_CASE("A level shift across all pairs is said, with where it started") {
  // Two pairs, eight blocks each, the second pair's runs after the first's:
  // the disk is 4x slower from the second half of each pair's runs on.
  const std::vector<double> slow_later = {1, 1, 1, 1, 4, 4, 4, 4};
  std::vector<PairResult> pairs = {PairWithRuns(slow_later, 1),
                                   PairWithRuns(slow_later, 17)};
  const std::optional<std::string> shift = LevelShift(pairs);
  REQUIRE(shift);
  CHECK_THAT(*shift, Catch::Contains("4.0x longer"));

  const std::vector<double> steady = {1, 1.2, 0.9, 1.1, 1, 1.3, 0.8, 1};
  CHECK_FALSE(LevelShift({PairWithRuns(steady, 1), PairWithRuns(steady, 17)}));
  CHECK_FALSE(LevelShift({PairWithRuns({1, 5}, 1)}));  // too few runs
}

TEST_CASE("Explain names the variant that has no time, and why") {
  // The unaligned variant stopped on its first run (ENOSPC); the aligned one
  // has a time although one of its runs failed too.
  PairResult pair;
  pair.spec = {262144, SyncMethod::kFsync, IoMode::kBuffered, Layout::kExtend,
               CacheState::kWarm};
  pair.unaligned.error = "pwrite /d/f: No space left on device (ENOSPC)";
  pair.unaligned.error_errno = ENOSPC;
  pair.aligned.repetitions = 2;
  pair.aligned.failed_repetitions = 1;
  pair.aligned.error = "fsync /d/g: Input/output error (EIO)";
  pair.aligned.error_errno = EIO;
  CHECK(Explain(pair, 24) ==
        "unaligned writes were stopped by an error: pwrite /d/f: No space left "
        "on device (ENOSPC)");
  pair.spec.io = IoMode::kDirect;
  pair.unaligned.error_errno = EINVAL;
  CHECK_THAT(Explain(pair, 24),
             Catch::StartsWith("unaligned writes are not measurable here"));
}

TEST_CASE("Explain gives no verdict with too few runs, and says so") {
  PairResult pair = PairWithRuns({1, 1}, 1);
  pair.means_gain_pct = 3;
  pair.verdict = Verdict::kUndecided;
  pair.unaligned.device = pair.aligned.device = DevicePerOp{0, 0, 1, 4, 1};
  const std::string text = Explain(pair, 24);
  CHECK_THAT(text, Catch::Contains("No verdict (undecided: 2 runs)"));
  CHECK_THAT(text, !Catch::Contains("cannot explain this difference"));
}

namespace {

// Blocks of kFsync4K, block b's unaligned run taking unaligned_ms[b] and its
// aligned run aligned_ms[b] per write.
std::vector<CollectedRun> Blocks(const std::vector<float>& unaligned_ms,
                                 const std::vector<float>& aligned_ms) {
  std::vector<CollectedRun> runs;
  for (std::size_t b = 0; b < unaligned_ms.size(); ++b) {
    for (CollectedRun& run :
         testing::OneBlock(unaligned_ms[b] * 1e6f, aligned_ms[b] * 1e6f, {})) {
      run.block = b + 1;
      run.order = runs.size() + 1;
      runs.push_back(std::move(run));
    }
  }
  return runs;
}

}  // namespace

TEST_CASE("A far run is noted only where its block moves the verdict") {
  // Eight blocks with unaligned 2-9 % slower: aligned faster, firm (all
  // signs agree).
  const std::vector<float> unaligned = {1.02f, 1.03f, 1.04f, 1.05f,
                                        1.06f, 1.07f, 1.08f, 1.09f};
  const std::vector<float> aligned(8, 1.0f);
  std::vector<float> s = unaligned, a = aligned;
  // A ninth block whose aligned run was 10x slow: the largest rank, against.
  s.push_back(1.0f);
  a.push_back(10.0f);
  const std::vector<PairResult> moved =
      BuildPairs({testing::kFsync4K}, Blocks(s, a));
  REQUIRE(moved[0].verdict == Verdict::kNoSignificantDifference);
  REQUIRE(moved[0].run_notes.size() == 1);
  CHECK(moved[0].run_notes[0].find("run 18, aligned") == 0);
  CHECK(moved[0].run_notes[0].find("would be aligned faster") !=
        std::string::npos);

  // The same slow run where the other blocks already say nothing: no note.
  std::vector<float> flat_unaligned = {1.02f, 0.98f, 1.03f, 0.97f, 1.0f,
                                       1.01f, 0.99f, 1.0f,  1.0f};
  const std::vector<PairResult> unmoved =
      BuildPairs({testing::kFsync4K}, Blocks(flat_unaligned, a));
  CHECK(unmoved[0].verdict == Verdict::kNoSignificantDifference);
  CHECK(unmoved[0].run_notes.empty());

  // A far run on the verdict's own side: without its block 7 are left, which
  // can only lean the same way. Firm against leaning is no move: no note.
  std::vector<float> far_along = unaligned;
  far_along.back() = 10.0f;
  const std::vector<PairResult> along =
      BuildPairs({testing::kFsync4K}, Blocks(far_along, aligned));
  REQUIRE(along[0].verdict == Verdict::kAlignedFaster);
  CHECK(along[0].run_notes.empty());
}

TEST_CASE("A far run is not noted for leaving too few blocks for a verdict") {
  // Six blocks, the first round: without the far block five are left, too
  // few for any verdict. That is the count, not the far run, so no note.
  const std::vector<float> unaligned = {1.02f, 0.98f, 1.03f, 0.97f, 1.0f, 1.0f};
  std::vector<float> aligned(6, 1.0f);
  aligned[5] = 10.0f;
  const std::vector<PairResult> six =
      BuildPairs({testing::kFsync4K}, Blocks(unaligned, aligned));
  REQUIRE(six[0].verdict == Verdict::kNoSignificantDifference);
  CHECK(six[0].run_notes.empty());
}

TEST_CASE("The precision warning gives the printed interval's half-width") {
  // A pair kept open by far blocks: the stand-in says +-0.3, the interval the
  // table prints is [-41.0, +0.2], +-20.6 points wide.
  PairResult pair;
  pair.spec = {131072, SyncMethod::kFsync, IoMode::kBuffered, Layout::kExtend,
               CacheState::kWarm};
  pair.rounds = PairRounds{10, 1, PairState::kOutOfBudget, 0.3, 10};
  GainTest test{};
  test.method = TestMethod::kSignedRankLogMedian;
  test.interval_pct = {-41.0, 0.2};
  test.units = 10;
  pair.inference.test = test;
  const std::string warning = PrecisionWarning(pair, 5);
  CHECK_THAT(warning, Catch::Contains("precision +-20.6 points after 10"));
  // 10 blocks * (20.6 / 5)^2 = 170
  CHECK_THAT(warning, Catch::Contains("about 170 blocks"));

  // Out of budget on its stand-in, yet the interval is within +-5: no
  // warning, what was asked is known.
  pair.inference.test->interval_pct = {-4.1, 3.9};
  CHECK(PrecisionWarning(pair, 5).empty());
  CHECK_FALSE(PrecisionWarning(pair, 3).empty());
  // Just past +-5: rounded up, never printed as the +-5 it missed.
  pair.inference.test->interval_pct = {-4.1, 5.92};
  CHECK_THAT(PrecisionWarning(pair, 5),
             Catch::Contains("precision +-5.1 points after 10 blocks, not the "
                             "+-5 asked"));

  pair.inference.test.reset();  // no interval: the stand-in is all there is
  CHECK_THAT(PrecisionWarning(pair, 5), Catch::Contains("precision +-0.3"));
  pair.rounds->state = PairState::kPrecisionReached;
  CHECK(PrecisionWarning(pair, 5).empty());
}

TEST_CASE(
    "The tail's gain is the signed-rank test on the blocks' p99 ratios, or "
    "says why there is none") {
  // Eight blocks whose medians are equal but unaligned's p99 is twice
  // aligned's, give or take a little.
  PairResult pair = PairWithRuns({1, 1.1, 0.9, 1, 1.05, 0.95, 1, 1.02}, 1);
  for (std::size_t i = 0; i < pair.unaligned.runs.size(); ++i) {
    const double wobble = 1 + 0.01 * static_cast<double>(i % 3);
    pair.unaligned.runs[i].p99_ns = 4e6 * wobble;
    pair.aligned.runs[i].p99_ns = 2e6 / wobble;
  }
  const Inference tail = TailInference(pair.unaligned, pair.aligned);
  REQUIRE(tail.test);
  CHECK(tail.test->interval_pct.low > 90);
  CHECK(tail.test->interval_pct.high < 115);
  CHECK(tail.test->p_value < 0.01);
  // The typical gain of the same blocks sees nothing.
  const Inference typical =
      SignedRankTest(BlockLogRatios(pair.unaligned, pair.aligned));
  CHECK((!typical.test || typical.test->interval_pct.low <= 0));

  // Runs too short for a p99 of their own: why, with their writes.
  PairResult short_runs = PairWithRuns({1, 1, 1, 1, 1, 1}, 1);
  short_runs.unaligned.total_ns.count = short_runs.aligned.total_ns.count =
      6 * 16;
  const Inference none =
      TailInference(short_runs.unaligned, short_runs.aligned);
  CHECK_FALSE(none.test);
  CHECK_THAT(none.why_not, Catch::Contains("needs 100 writes") &&
                               Catch::Contains("these runs had 16"));
}
