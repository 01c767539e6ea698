// BuildPairs, Explain and compare on hand-made runs and reports:
// the places where wrong explanations once reached users.
#include <catch2/catch.hpp>
#include <cerrno>
#include <sstream>
#include <tuple>

#include "lib/pairs/explain.h"
#include "lib/pairs/pairs.h"
#include "lib/render/comparison.h"
#include "lib/render/report_parts.h"
#include "lib/render/writers.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;
using namespace alignbench::testing;

namespace {

// Eight blocks of kFsync4K (the fewest a firm verdict needs): unaligned
// writes take `unaligned_ns`, aligned ones
// `aligned_ns` (both with a little drift), each run with its own counters.
std::vector<CollectedRun> EightBlocks(float unaligned_ns, float aligned_ns,
                                      const DeviceCounters& unaligned_device,
                                      const DeviceCounters& aligned_device) {
  std::vector<CollectedRun> runs;
  for (std::size_t b = 1; b <= 8; ++b) {
    const float drift = 1.0f + 0.01f * static_cast<float>(b);
    for (CollectedRun& run :
         OneBlock(unaligned_ns * drift, aligned_ns * drift, unaligned_device)) {
      run.block = b;
      run.order = runs.size() + 1;
      if (run.variant == Variant::kAligned) run.record.device = aligned_device;
      runs.push_back(std::move(run));
    }
  }
  return runs;
}

PairResult OnePair(std::vector<CollectedRun> runs) {
  std::vector<PairResult> pairs = BuildPairs({kFsync4K}, std::move(runs));
  REQUIRE(pairs.size() == 1);
  return pairs.front();
}

}  // namespace

TEST_CASE("BuildPairs: blocks of runs give gain, verdict and I/O per write") {
  // Over a run's two writes: 2 reads of 8 sectors, 4 writes of 32, 2 flushes.
  const DeviceCounters unaligned{2, 16, 4, 64, 2};
  const DeviceCounters aligned{0, 0, 4, 32, 2};
  const PairResult p = OnePair(EightBlocks(2e6f, 1e6f, unaligned, aligned));
  CHECK(p.unaligned.repetitions == 8);
  CHECK(p.aligned.repetitions == 8);
  CHECK(p.unaligned.runs.size() == 8);
  REQUIRE(p.means_gain_pct);
  CHECK(*p.means_gain_pct == Approx(100).margin(0.5));
  REQUIRE(p.verdict);
  CHECK(*p.verdict == Verdict::kAlignedFaster);
  REQUIRE(p.unaligned.device);
  CHECK(p.unaligned.device->reads == Approx(1.0));
  CHECK(p.unaligned.device->kib_read == Approx(4.0));
  CHECK(p.unaligned.device->writes == Approx(2.0));
  CHECK(p.unaligned.device->kib_written == Approx(16.0));
  REQUIRE(p.unaligned.device->flushes);
  CHECK(*p.unaligned.device->flushes == Approx(1.0));
  CHECK(p.aligned.device->kib_written == Approx(8.0));
}

TEST_CASE("BuildPairs: a failed run is counted, kept out of the times") {
  std::vector<CollectedRun> runs = EightBlocks(2e6f, 1e6f, {}, {});
  runs[0].record.error =
      SystemError(ErrorKind::kIo, "pwrite", "/d/f", EIO, 4096);
  const PairResult p = OnePair(std::move(runs));
  CHECK(p.unaligned.repetitions == 7);
  CHECK(p.unaligned.failed_repetitions == 1);
  REQUIRE(p.unaligned.error);
  CHECK_THAT(*p.unaligned.error, Catch::Contains("EIO"));
  CHECK(p.unaligned.error_errno == EIO);
}

TEST_CASE("BuildPairs: runs of a pair outside the plan are not counted") {
  std::vector<CollectedRun> runs = EightBlocks(2e6f, 1e6f, {}, {});
  runs[0].pair.size = 8192;
  const PairResult p = OnePair(std::move(runs));
  CHECK(p.unaligned.repetitions == 7);
}

TEST_CASE("Explain names read-modify-write when only unaligned writes read") {
  const PairResult p =
      OnePair(EightBlocks(2e6f, 1e6f, {2, 16, 2, 16, 2}, {0, 0, 2, 16, 2}));
  const std::string text = Explain(p, 24);
  CHECK_THAT(text, Catch::Contains("unaligned: +1.0 device reads (4.0 KiB)") &&
                       Catch::Contains("read-modify-write"));
  CHECK_THAT(text, !Catch::Contains("one more block"));
}

TEST_CASE("Explain names the extra block a shift spreads each write over") {
  const PairResult p =
      OnePair(EightBlocks(2e6f, 1e6f, {0, 0, 2, 24, 2}, {0, 0, 2, 16, 2}));
  CHECK_THAT(Explain(p, 24),
             Catch::Contains("unaligned: +2.0 KiB written per write: a 24-byte "
                             "shift spreads each write over one more block"));
}

TEST_CASE("Explain does not blame the writes for a busy disk's traffic") {
  PairResult p =
      OnePair(EightBlocks(2e6f, 1e6f, {0, 0, 16, 128, 2}, {0, 0, 16, 128, 2}));
  p.unaligned.background = DevicePerOp{0, 0, 7.5, 60, std::nullopt};
  const std::string text = Explain(p, 24);
  CHECK_THAT(text, Catch::Contains("the disk was busy without alignbench"));
  CHECK_THAT(text, !Catch::Contains("metadata commits"));
}

TEST_CASE("Explain without device counters says it cannot explain") {
  std::vector<CollectedRun> runs = EightBlocks(2e6f, 1e6f, {}, {});
  for (CollectedRun& run : runs) run.record.device.reset();
  CHECK_THAT(Explain(OnePair(std::move(runs)), 24),
             Catch::Contains("no device counters: no local block device"));
}

TEST_CASE("compare names the settings and environment that differ") {
  Report base = FixedReport();
  Report next = FixedReport();
  next.settings.dir = "/elsewhere";  // a directory labels a result
  next.settings.seed = 99;           // seeds differ by design
  CHECK(DifferingFields(base, next).empty());
  next.settings.syncs = {SyncMethod::kFdatasync};
  next.settings.writes = 64;
  next.target.fs_type = "xfs";
  const std::vector<std::string> differing = DifferingFields(base, next);
  CHECK_THAT(differing,
             Catch::VectorContains(std::string("sync: fsync -> fdatasync")));
  CHECK_THAT(differing, Catch::VectorContains(std::string("writes: 3 -> 64")));
  CHECK_THAT(differing,
             Catch::VectorContains(std::string("filesystem: ext4 -> xfs")));
  CHECK(differing.size() == 3);
}

TEST_CASE("compare says a gain grew only when the intervals part") {
  const Report base = FixedReport();
  Report next = FixedReport();
  std::ostringstream same;
  RenderComparison(same, base, next);
  CHECK_THAT(same.str(), Catch::Contains("unchanged (intervals overlap)"));
  for (PairResult& pair : next.pairs) {
    REQUIRE(pair.inference.test);
    Interval& interval = pair.inference.test->interval_pct;
    interval.low += 1000;
    interval.high += 1000;
  }
  // From 6 blocks each, intervals apart are the ranges of a few blocks.
  std::ostringstream few;
  RenderComparison(few, base, next);
  CHECK_THAT(few.str(), Catch::Contains("apart, but from 6 blocks: a rerun "
                                        "may not repeat it"));
  CHECK_THAT(few.str(), !Catch::Contains("gain grew"));
  Report firm_base = base;
  for (Report* r : {&firm_base, &next}) {
    for (PairResult& pair : r->pairs) pair.inference.test->units = 8;
  }
  std::ostringstream grew;
  RenderComparison(grew, firm_base, next);
  CHECK_THAT(grew.str(), Catch::Contains("gain grew"));
  std::ostringstream shrank;
  RenderComparison(shrank, next, firm_base);
  CHECK_THAT(shrank.str(), Catch::Contains("gain shrank"));
}

namespace {

// `r`'s 4K pair (its second) with the typical gain `estimate` in [low, high]
// from `blocks` blocks.
void SetSmallGain(Report& r, double estimate, double low, double high,
                  std::size_t blocks) {
  GainTest& test = *r.pairs[1].inference.test;
  test.estimate_pct = estimate;
  test.interval_pct = {low, high};
  test.units = blocks;
}

}  // namespace

TEST_CASE("--fail-on-regression: a firm growth of the gain beyond the limit") {
  Report base = FixedReport();
  Report next = FixedReport();
  SetSmallGain(base, 10, 8, 12, 8);
  SetSmallGain(next, 25, 22, 28, 8);
  const std::vector<Regression> slower = Regressions(base, next, 5);
  REQUIRE(slower.size() == 1);
  CHECK(slower[0].pair == "4K fdatasync buffered prewritten cold");
  // Unaligned 1.25/1.10 of aligned's time where it was 1.10: 13.6 % slower.
  CHECK(slower[0].slower_pct == Approx(13.636).epsilon(1e-3));
  CHECK(RegressionText(slower[0]) ==
        "4K fdatasync buffered prewritten cold: typical gain +10.0% -> "
        "+25.0%, 13.6% slower");
  // Within the limit, shrinking, or the other way round: none.
  CHECK(Regressions(base, next, 13.7).empty());
  CHECK(Regressions(next, base, 0).empty());
  CHECK(Regressions(base, base, 0).empty());
}

TEST_CASE("--fail-on-regression: the tail's gain is gated by the same rule") {
  Report base = FixedReport();
  Report next = FixedReport();
  // The typical gain the same; the p99's grew firmly, by 20 %.
  for (auto [r, estimate, low, high] : {std::tuple{&base, 10.0, 8.0, 12.0},
                                        std::tuple{&next, 32.0, 28.0, 36.0}}) {
    r->pairs[1].tail.test = GainTest{TestMethod::kSignedRankLogMedian,
                                     estimate,
                                     {low, high},
                                     0.001,
                                     std::nullopt,
                                     8};
  }
  const std::vector<Regression> slower = Regressions(base, next, 5);
  REQUIRE(slower.size() == 1);
  CHECK(slower[0].which == "p99 gain");
  CHECK(RegressionText(slower[0]) ==
        "4K fdatasync buffered prewritten cold: p99 gain +10.0% -> +32.0%, "
        "20.0% slower");
  // Without the tail's interval in one of them (an older file): not gated.
  next.pairs[1].tail = Inference{};
  CHECK(Regressions(base, next, 5).empty());
}

TEST_CASE("--fail-on-regression: only what compare calls firm is gated") {
  Report base = FixedReport();
  Report next = FixedReport();
  // Apart, but from 7 blocks: compare says a rerun may not repeat it.
  SetSmallGain(base, 10, 8, 12, 8);
  SetSmallGain(next, 40, 30, 50, 7);
  CHECK(ChangeOfGain(base.pairs[1], next.pairs[1]) ==
        GainChange::kApartFewBlocks);
  CHECK(Regressions(base, next, 0).empty());
  // Overlapping intervals, however far apart the centres.
  SetSmallGain(next, 40, 11, 60, 20);
  CHECK(ChangeOfGain(base.pairs[1], next.pairs[1]) == GainChange::kUnchanged);
  CHECK(Regressions(base, next, 0).empty());
  // No interval (a mailing-list table): nothing to tell by.
  next.pairs[1].inference.test.reset();
  CHECK(ChangeOfGain(base.pairs[1], next.pairs[1]) == GainChange::kNoInterval);
  CHECK(Regressions(base, next, 0).empty());
  // A pair NEW does not have is not a regression either.
  next.pairs.pop_back();
  CHECK(Regressions(base, next, 0).empty());
}

TEST_CASE("compare prints each gain inside its interval") {
  const Report base = FixedReport();
  Report next = FixedReport();
  next.pairs[0].means_gain_pct = -3.49;
  next.pairs[0].inference.test->interval_pct = {16.8, 63.7};
  next.pairs[0].inference.test->estimate_pct = 40.0;
  std::ostringstream out;
  RenderComparison(out, base, next);
  CHECK_THAT(out.str(), Catch::Contains("+40.0 [+16.8,+63.7]"));
  CHECK_THAT(out.str(), Catch::Contains("+83.2 [+70.2,+95.5]"));
  CHECK_THAT(out.str(), !Catch::Contains("-3.5"));
}

TEST_CASE("The summary line counts verdicts and names the common mechanism") {
  Report report = FixedReport();
  report.pairs.clear();
  // Two pairs whose unaligned writes read (read-on-write), one alike.
  for (const DeviceCounters& unaligned :
       {DeviceCounters{2, 16, 2, 16, 2}, DeviceCounters{2, 16, 2, 16, 2},
        DeviceCounters{0, 0, 2, 16, 2}}) {
    report.pairs.push_back(
        OnePair(EightBlocks(2e6f, 1e6f, unaligned, {0, 0, 2, 16, 2})));
  }
  const std::string line = SummaryLine(report);
  CHECK_THAT(line, Catch::StartsWith("--- " + report.target.Title() +
                                     ": 3 pairs: 3 aligned faster, 0 "
                                     "unaligned faster, 0 no significant "
                                     "difference, 0 undecided; "));
  CHECK_THAT(line, Catch::Contains("mean write+sync 2.090 ms unaligned, "
                                   "1.045 ms aligned"));
  CHECK_THAT(line,
             Catch::EndsWith("mostly read-on-write (2 of 3 measured pairs)"));
  // Leaning verdicts are counted where there are any.
  report.pairs[2].verdict = Verdict::kLeansAligned;
  CHECK_THAT(SummaryLine(report),
             Catch::Contains(": 3 pairs: 2 aligned faster, 0 unaligned faster, "
                             "1 leans aligned, 0 no significant difference"));
}

TEST_CASE("Explain says a leaning verdict is not one a rerun must repeat") {
  PairResult p =
      OnePair(EightBlocks(2e6f, 1e6f, {2, 16, 2, 16, 2}, {0, 0, 2, 16, 2}));
  REQUIRE(p.verdict == Verdict::kAlignedFaster);
  CHECK_THAT(Explain(p, 24), !Catch::Contains("rerun"));
  p.verdict = Verdict::kLeansAligned;
  p.inference.test->p_value = 0.03125;
  p.inference.test->units = 6;
  const std::string text = Explain(p, 24);
  CHECK_THAT(text, Catch::EndsWith(
                       "The time difference is significant at 5 % but not at "
                       "1 % (p = 0.031 from 6 blocks): a rerun may not repeat "
                       "it (fewer than 8 blocks never reach 1 %)."));
  CHECK_THAT(text, !Catch::Contains("No significant time difference"));
}

TEST_CASE("Notes say how to read a group's figures, and only a group's") {
  const auto group_note = [](const Report& r) {
    for (const auto& [label, text] : Notes(r)) {
      if (label == "group") return text;
    }
    return std::string();
  };
  Report r = FixedReport();
  CHECK(group_note(r).empty());
  r.settings.writers = 4;
  r.settings.syncs = {SyncMethod::kFdatasync};
  CHECK_THAT(group_note(r), Catch::Contains("a group of 4 written by as many "
                                            "threads at once and synced once"));
  CHECK_THAT(group_note(r), Catch::Contains("a flush by the group (1/4"));
  CHECK_THAT(group_note(r), Catch::Contains("the interval holds for this "
                                            "session"));
  r.settings.writers = 1;
  r.settings.queue_depth = 8;
  r.settings.syncs = {SyncMethod::kODsync};  // each write synchronous: no flush
  CHECK_THAT(group_note(r), Catch::Contains("a group of 8 written in flight"));
  CHECK_THAT(group_note(r), !Catch::Contains("flush"));
  r.settings.queue_depth = 1;
  r.settings.commits_per_sync = 4;  // one writer: no scheduling to vary
  r.settings.syncs = {SyncMethod::kFsync};
  CHECK_THAT(group_note(r), !Catch::Contains("this session"));
}

TEST_CASE("compare says in one sentence whether a run agrees with a post") {
  Report run = FixedReport();
  run.settings.precision_points = 20;  // both intervals as narrow as asked
  Report post = FixedReport();
  post.reference = ReferenceSource{};
  for (PairResult& p : post.pairs) {
    p.inference = Inference{};
    p.verdict.reset();
  }
  post.pairs[0].means_gain_pct = 80;   // inside 64K's [+70.2, +95.5]
  post.pairs[1].means_gain_pct = -10;  // outside 4K's [-1.5, +9.8]
  CHECK_THAT(AgreementWithPost(post, run),
             Catch::StartsWith("the run agrees with the post: its gain lies "
                               "inside the run's 95% interval at 1 of 2 "
                               "sizes, and the run's firm verdict is on the "
                               "other side of 0 at 0"));
  // 64K's firm "aligned faster" against a post that saw aligned slower.
  post.pairs[0].means_gain_pct = -20;
  CHECK_THAT(AgreementWithPost(post, run),
             Catch::StartsWith("the run disagrees with the post"));
  // Intervals wider than the run asked: too wide to tell.
  run.settings.precision_points = 5;
  post.pairs[0].means_gain_pct = 80;
  CHECK_THAT(AgreementWithPost(post, run),
             Catch::StartsWith("the run is too imprecise to tell"));
  std::ostringstream printed;
  RenderComparison(printed, post, run);
  CHECK_THAT(printed.str(), Catch::Contains("the run is too imprecise"));
}
