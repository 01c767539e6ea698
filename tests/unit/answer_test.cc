// The answer line: each clause only where the verdicts and intervals allow it.
#include "lib/render/answer.h"

#include <catch2/catch.hpp>

#include "tests/unit/report_fixture.h"

using namespace alignbench;
using namespace alignbench::testing;

namespace {

PairResult PairAt(std::uint64_t size, Verdict verdict, double estimate,
                  Interval interval) {
  PairResult pair = FixedReport().pairs[0];
  pair.spec.size = size;
  pair.verdict = verdict;
  pair.inference.test->estimate_pct = estimate;
  pair.inference.test->interval_pct = interval;
  return pair;
}

}  // namespace

TEST_CASE("the answer names where aligning helps and where nothing differs") {
  Report report = FixedReport();
  report.pairs = {
      PairAt(512 << 10, Verdict::kAlignedFaster, 20.4, {15, 25}),
      PairAt(256 << 10, Verdict::kAlignedFaster, 8.2, {3, 12}),
      PairAt(4 << 10, Verdict::kNoSignificantDifference, 0.5, {-2, 3}),
      PairAt(2 << 10, Verdict::kNoSignificantDifference, 1, {-4.9, 4.9}),
      PairAt(1 << 10, Verdict::kNoSignificantDifference, 1, {-12, 9})};
  CHECK(AnswerLine(report) ==
        "answer: aligning helps by 8-20 % at 256K-512K; no difference beyond "
        "±5 % at 2K-4K (intervals inside [-5, +5]); 1 size unanswered (no "
        "significant difference, intervals wider than ±5) at 1K: rerun with a "
        "larger --budget or on a quiet disk; 5 sizes tested at 5 % each, a "
        "direction named at 1 %.");
}

TEST_CASE(
    "an interval as narrow as asked but past the precision is neither 'no "
    "difference' nor 'unanswered'") {
  Report report = FixedReport();
  report.pairs = {
      PairAt(64 << 10, Verdict::kNoSignificantDifference, 2.8, {-1.7, 7.3}),
      PairAt(32 << 10, Verdict::kNoSignificantDifference, 1.1, {-3.2, 5.4}),
      PairAt(8 << 10, Verdict::kNoSignificantDifference, 0.2, {-2, 2}),
      // Half-width 5.05: wider than asked, so unanswered.
      PairAt(4 << 10, Verdict::kNoSignificantDifference, 0, {-4.1, 6})};
  CHECK(AnswerLine(report) ==
        "answer: no difference beyond ±5 % at 8K (intervals inside [-5, +5]); "
        "no significant difference at 32K-64K, known to ±5 but not inside ±5 "
        "(intervals within [-3.2, +7.3]; a smaller --precision tells); 1 size "
        "unanswered (no significant difference, intervals wider than ±5) at "
        "4K: rerun with a larger --budget or on a quiet disk; 4 sizes "
        "tested at 5 % each, a direction named at 1 %.");
  // The compact answer's sentence leaves out the intervals "no difference
  // beyond" implies, and keeps the hull of the narrow ones.
  CHECK(CompactAnswerOf(report).answer ==
        "answer: no difference beyond ±5 % at 8K; no significant difference "
        "at 32K-64K (within [-3.2, +7.3]: a smaller --precision tells).");
}

TEST_CASE(
    "a decided pair wider than asked is named with the precision it reached") {
  Report report = FixedReport();
  report.settings.precision_points = 2;
  report.pairs = {PairAt(512 << 10, Verdict::kAlignedFaster, 24, {21, 25.8}),
                  PairAt(256 << 10, Verdict::kAlignedFaster, 20, {17.2, 22}),
                  PairAt(8 << 10, Verdict::kAlignedFaster, 12, {10.2, 13.8}),
                  PairAt(4 << 10, Verdict::kUnalignedFaster, -3, {-5, -0.99})};
  // Half-widths 2.4, 2.0001 and 2.005 are past ±2: rounded up to a tenth,
  // never down to "±2.0".
  report.pairs[1].inference.test->interval_pct = {18, 22.0002};
  CHECK(AnswerLine(report) ==
        "answer: aligning helps by 12 % at 8K; 3 sizes decided but known "
        "only to ±2.1-2.4 (wider than ±2): aligning helps at 256K-512K, "
        "unaligned is faster at 4K: rerun with a larger --budget or on a "
        "quiet disk; 4 sizes tested at 5 % each, a direction named at 1 %.");

  // With an unanswered pair too, the advice comes once, after both.
  report.pairs.push_back(
      PairAt(1 << 10, Verdict::kNoSignificantDifference, 0, {-3, 3}));
  const std::string line = AnswerLine(report);
  CHECK_THAT(line, Catch::Contains("1 size unanswered (no significant "
                                   "difference, intervals wider than ±2) at "
                                   "1K; 3 sizes decided but known only to "
                                   "±2.1-2.4"));
  CHECK(line.find("rerun") == line.rfind("rerun"));

  // Within the precision: not named.
  report.pairs = {PairAt(8 << 10, Verdict::kAlignedFaster, 12, {10.2, 13.8})};
  CHECK(AnswerLine(report).find("known only") == std::string::npos);
}

TEST_CASE(
    "an interval that reaches past the precision is not 'no difference'") {
  Report report = FixedReport();
  report.settings.precision_points = 2;
  report.pairs = {
      PairAt(4096, Verdict::kNoSignificantDifference, 0, {-3, 1.5})};
  const std::string line = AnswerLine(report);
  CHECK(line.find("no difference") == std::string::npos);
  CHECK(line.find("1 size unanswered") != std::string::npos);
  CHECK(line.find("wider than ±2)") != std::string::npos);
}

TEST_CASE(
    "a run short of its precision leads with what it knows, not its loudest "
    "pair") {
  // A busy run: one pair decided at the smallest p six blocks give, +73 % but
  // known only to ±118; the rest unanswered. No gain range leads.
  Report report = FixedReport();
  report.pairs = {
      PairAt(256 << 10, Verdict::kAlignedFaster, 73, {12, 248}),
      PairAt(4 << 10, Verdict::kNoSignificantDifference, 3, {-20, 30})};
  const std::string line = AnswerLine(report);
  CHECK(line.rfind("answer: 1 size unanswered (no significant difference", 0) ==
        0);
  CHECK_THAT(line, Catch::Contains("1 size decided but known only to ±118.0 "
                                   "(wider than ±5): aligning helps at 256K"));
  CHECK_THAT(line, !Catch::Contains("73"));
}

TEST_CASE("unaligned faster, and pairs without a verdict, are said too") {
  Report report = FixedReport();
  PairResult undecided = PairAt(8192, Verdict::kUndecided, 0, {0, 0});
  undecided.inference.test.reset();
  undecided.verdict.reset();
  report.pairs = {PairAt(4096, Verdict::kUnalignedFaster, -7, {-9, -5}),
                  undecided};
  CHECK(AnswerLine(report) ==
        "answer: unaligned is faster by 7 % at 4K; 1 size without a verdict at "
        "8K (too few runs, or not measurable: see the table); 1 size tested at "
        "5 % each, a direction named at 1 %.");
}

TEST_CASE(
    "a leaning pair is named by its side, never as a gain or where aligning "
    "helps") {
  Report report = FixedReport();
  report.pairs = {PairAt(8192, Verdict::kAlignedFaster, 9, {6, 12}),
                  PairAt(4096, Verdict::kLeansAligned, 3.6, {0.7, 6.5}),
                  PairAt(1024, Verdict::kLeansUnaligned, -3.6, {-6.5, -0.7})};
  CHECK(AnswerLine(report) ==
        "answer: aligning helps by 9 % at 8K; 2 sizes leaning, not decided "
        "(p < 0.05 but not < 0.01: a rerun may not repeat it; a smaller "
        "--precision measures more blocks): towards aligned at 4K, unaligned "
        "at 1K; 3 sizes tested at 5 % each, a direction named at 1 %.");
  // A result written before leaning existed said its level once.
  report.statistics.rerun_significance_level.reset();
  report.pairs.resize(1);
  CHECK(AnswerLine(report) ==
        "answer: aligning helps by 9 % at 8K; 1 size tested at 5 % each.");
}

TEST_CASE("several combinations of the axes name each pair in full") {
  Report report = FixedReport();  // 64K and 4K under fdatasync
  report.pairs[1].spec.sync = SyncMethod::kFsync;
  report.pairs[1].verdict = Verdict::kAlignedFaster;
  report.pairs[1].inference.test->interval_pct = {1, 9};
  report.pairs[0].inference.test->interval_pct = {80, 86};
  const std::string line = AnswerLine(report);
  CHECK(line.find("at 64K fdatasync buffered prewritten cold, 4K fsync "
                  "buffered prewritten cold") != std::string::npos);
  CHECK(line.find("2 pairs tested") != std::string::npos);
}

TEST_CASE(
    "unanswered pairs on a busy disk say how busy, from the idle windows") {
  Report report = FixedReport();
  PairResult open = PairAt(4096, Verdict::kNoSignificantDifference, 0, {-9, 9});
  CHECK(AnswerLine(report).find("busy") == std::string::npos);
  // Others wrote 0.2 times per write of 10 ms: 20 writes a second.
  open.aligned.total_ns = Summarize({10e6, 10e6, 10e6});
  open.aligned.background = DevicePerOp{0, 0, 0.2, 0.8, std::nullopt};
  report.pairs = {open};
  CHECK(AnswerLine(report).find("the disk was busy (20 writes/s from others "
                                "while they were measured)") !=
        std::string::npos);
  // A journal commit now and then is not busy.
  report.pairs[0].aligned.background->writes = 0.002;
  CHECK(AnswerLine(report).find("busy") == std::string::npos);
}

TEST_CASE("a busy CPU is named where the disk's counters see no one") {
  Report report = FixedReport();
  PairResult open = PairAt(4096, Verdict::kNoSignificantDifference, 0, {-9, 9});
  open.aligned.total_ns = Summarize({10e6, 10e6, 10e6});
  open.aligned.background = DevicePerOp{0, 0, 0.002, 0.008, std::nullopt};
  open.others_cpu_share = 0.6;
  report.pairs = {open};
  CHECK_THAT(AnswerLine(report),
             Catch::Contains("at 4K: the CPUs were busy (others used 60 % of "
                             "their time while they were measured); rerun "
                             "with a larger --budget or when nothing else "
                             "runs"));
  // An idle machine: the noise was the disk's own.
  report.pairs[0].others_cpu_share = 0.05;
  CHECK_THAT(AnswerLine(report),
             Catch::Contains("the disk was quiet by its counters and the CPUs "
                             "idle, its own times varied"));
  // Both busy: both named.
  report.pairs[0].others_cpu_share = 0.6;
  report.pairs[0].aligned.background->writes = 0.2;
  CHECK_THAT(AnswerLine(report),
             Catch::Contains("the disk was busy (20 writes/s from others while "
                             "they were measured) and the CPUs were busy"));
  // Answered on a busy machine: said once, as for a busy disk.
  report.pairs[0] = PairAt(4096, Verdict::kAlignedFaster, 8, {5, 11});
  report.pairs[0].others_cpu_share = 0.5;
  CHECK_THAT(AnswerLine(report),
             Catch::Contains("the CPUs were busy (others used 50 % of their "
                             "time while it was measured): the times include "
                             "the delays a busy CPU adds"));
}

TEST_CASE("answered pairs on a busy disk still say it was busy, once") {
  Report report = FixedReport();
  PairResult known = PairAt(4096, Verdict::kAlignedFaster, 8, {5, 11});
  known.aligned.total_ns = Summarize({10e6, 10e6, 10e6});
  known.aligned.background = DevicePerOp{0, 0, 0.5, 2, std::nullopt};
  report.pairs = {known};
  const std::string line = AnswerLine(report);
  CHECK(line.find("the disk was busy (50 writes/s from others while it was "
                  "measured): the times include their traffic") !=
        std::string::npos);
  // With a pair left unanswered its advice says so, and only there.
  report.pairs.push_back(
      PairAt(1024, Verdict::kNoSignificantDifference, 0, {-9, 9}));
  report.pairs.back().aligned.total_ns = known.aligned.total_ns;
  report.pairs.back().aligned.background = known.aligned.background;
  const std::string both = AnswerLine(report);
  CHECK(both.find("busy") == both.rfind("busy"));
  CHECK(both.find("while they were measured); rerun") != std::string::npos);
}

TEST_CASE("unanswered pairs of the rounds are told the budget that answers") {
  Report report = FixedReport();
  // Each pair: 6 blocks of two runs of 0.25 s, 3 s in all, 0.5 s a block.
  PairResult known = PairAt(512 << 10, Verdict::kAlignedFaster, 20, {18, 23});
  known.rounds = PairRounds{6, 1, PairState::kPrecisionReached, 2.0, 6};
  PairResult open =
      PairAt(1024, Verdict::kNoSignificantDifference, 0, {-12, 9});
  open.rounds = PairRounds{6, 1, PairState::kOutOfBudget, 4.0, 40};
  report.pairs = {known, open};
  // 6 s measured and 34 more blocks of the open pair at 0.5 s: 23 s, 30.
  CHECK_THAT(AnswerLine(report),
             Catch::Contains("at 1K: rerun with --budget 30 or on a quiet "
                             "disk; 2 sizes tested"));
  // Its printed interval projects more than the rounds did: 6 (10.5 / 5)^2
  // = 27 blocks; the larger of the two counts.
  report.pairs[1].rounds->blocks_needed = 12;
  CHECK_THAT(AnswerLine(report), Catch::Contains("--budget 20 or"));
  // No more than the blocks a pair may have: 6 s + 394 blocks at 0.5 s.
  report.pairs[1].rounds->blocks_needed = 100000;
  CHECK_THAT(AnswerLine(report), Catch::Contains("--budget 210 or"));
  // Counters read and nobody else writing: the noise was the disk's own.
  report.pairs[1].rounds->blocks_needed = 40;
  report.pairs[1].aligned.background =
      DevicePerOp{0, 0, 0.002, 0.008, std::nullopt};
  CHECK_THAT(AnswerLine(report),
             Catch::Contains("at 1K: the disk was quiet by its counters, its "
                             "own times varied; rerun with --budget 30; 2 "
                             "sizes tested"));
  // A decided pair wider than asked gets rounds too: +-10 after 6 blocks
  // projects 24, 9 s more.
  report.pairs[0].inference.test->interval_pct = {10, 30};
  CHECK_THAT(AnswerLine(report), Catch::Contains("rerun with --budget 40;"));
  // A pair that cannot be measured adds nothing.
  PairResult unmeasurable = open;
  unmeasurable.spec.size = 2048;
  unmeasurable.rounds = PairRounds{0, 1, PairState::kNotMeasurable, {}, 0};
  report.pairs.push_back(unmeasurable);
  CHECK_THAT(AnswerLine(report), Catch::Contains("rerun with --budget 40;"));
  report.pairs.pop_back();
  // A pair without rounds (a fixed design) projects nothing.
  report.pairs[0].rounds.reset();
  CHECK_THAT(AnswerLine(report),
             Catch::Contains("rerun with a larger --budget;"));
}

TEST_CASE("a difference where the files landed is not called alignment's") {
  Report report = FixedReport();
  report.pairs = {
      PairAt(32 << 10, Verdict::kAlignedFaster, 20.4, {18, 23}),
      PairAt(16 << 10, Verdict::kAlignedFaster, 30.2, {28, 33}),
      PairAt(4 << 10, Verdict::kNoSignificantDifference, 0.5, {-2, 3})};
  report.pairs[1].mechanisms = {Mechanism::kPlacement};
  const std::string line = AnswerLine(report);
  CHECK_THAT(line, Catch::StartsWith("answer: aligning helps by 20 % at 32K;"));
  CHECK_THAT(line, Catch::Contains(
                       "at 16K the two variants' files landed differently "
                       "(see why): that difference is where the filesystem "
                       "put them, not alignment"));
}

TEST_CASE("the answer says the unaligned writes can never be atomic") {
  Report report = FixedReport();
  report.pairs = {PairAt(4 << 10, Verdict::kAlignedFaster, 20.4, {15, 25})};
  const std::string plain = AnswerLine(report);
  CHECK(plain.find("atomic") == std::string::npos);  // statx did not say
  report.target.atomic_write_unit_min = 0;  // ext4: said, and none offered
  report.target.atomic_write_unit_max = 0;
  CHECK(AnswerLine(report) == plain);
  report.target.atomic_write_unit_min = 4096;  // xfs on Linux 6.18
  report.target.atomic_write_unit_max = 1 << 20;
  CHECK_THAT(AnswerLine(report),
             Catch::Contains("; this filesystem takes atomic writes "
                             "(RWF_ATOMIC) of 4K to 1M, each at an offset "
                             "aligned to its size: the unaligned variant's "
                             "writes can never be atomic; 1 size tested"));
}

TEST_CASE(
    "The answer names the tail where its firm verdict is not the typical "
    "one's, in both forms") {
  Report r = testing::FixedReport();
  PairResult& small = r.pairs[1];  // 4K: no significant difference
  small.tail.test = GainTest{TestMethod::kSignedRankLogMedian,
                             30.0,
                             {20.0, 40.0},
                             0.001,
                             std::nullopt,
                             8};
  small.tail_verdict = Verdict::kAlignedFaster;
  const std::string said =
      "the slowest writes (each run's p99) differ from the typical one: "
      "aligning helps by 30 % at 4K";
  CHECK_THAT(AnswerLine(r), Catch::Contains(said));
  CHECK_THAT(CompactAnswerOf(r, 1000).answer, Catch::Contains(said));
  // Where the typical verdict is firm the same way, nothing more to say.
  r.pairs[0].tail = small.tail;
  r.pairs[0].tail_verdict = Verdict::kAlignedFaster;
  CHECK_THAT(AnswerLine(r), !Catch::Contains("64K (--details"));
  // A leaning tail is not named: warnings must be rare to be read.
  small.tail_verdict = Verdict::kLeansAligned;
  CHECK_THAT(AnswerLine(r), !Catch::Contains("slowest writes"));
}
