#include "lib/render/log_columns.h"

#include <catch2/catch.hpp>

#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

// A log case's report as the session records it.
Report LogReport(const std::string& case_text) {
  Report r = testing::FixedReport();
  r.settings.log = testing::FromCase(case_text).log;
  RecordForPrinters(r);
  return r;
}

}  // namespace

TEST_CASE("Derby's sweep has its own words") {
  Report r = testing::FixedReport();
  r.settings.shifts = {24};
  CHECK(Heading(r, Variant::kUnaligned) == "unaligned");
  CHECK(Heading(r, Variant::kAligned) == "aligned");
  CHECK(RulesText(r) == "shift 24 B");
  CHECK(LogFooter(r).empty());
  // A replay aligned commit by commit moves nothing by the shift; a shifted
  // one does.
  auto replay = std::make_shared<Replay>();
  replay->rule = ReplayRule::kAlign;
  r.settings.replay = replay;
  CHECK(RulesText(r) == "recorded commits");
  replay->rule = ReplayRule::kShift;
  CHECK(RulesText(r) == "shift 24 B");
  CHECK(CommitCell(r.pairs[0].unaligned).empty());
}

TEST_CASE("A log case's verdict names its variants") {
  const Report r =
      LogReport(R"({"log": {"contrast": "fill", "aligned": "4K"}})");
  PairResult pair;
  pair.verdict = Verdict::kUnalignedFaster;
  CHECK(LabelledVerdict(r, pair) == "unpadded faster");
  pair.verdict = Verdict::kAlignedFaster;
  CHECK(LabelledVerdict(r, pair) == "padded faster");
  CHECK(LabelledVerdict(testing::FixedReport(), pair) == "aligned faster");
  pair.verdict = Verdict::kLeansAligned;
  CHECK(LabelledVerdict(r, pair) == "leans padded");
  pair.verdict = Verdict::kLeansUnaligned;
  CHECK(LabelledVerdict(r, pair) == "leans unpadded");
  CHECK(LabelledVerdict(testing::FixedReport(), pair) == "leans unaligned");
}

TEST_CASE("The printers read a log case's words from the result alone") {
  Report r = LogReport(R"({"log": {"header": 32, "record_header": 24}})");
  CHECK_THAT(RulesText(r), Catch::StartsWith("log rules: header 32 B"));
  CHECK_THAT(LogFooter(r), Catch::Contains("differ in framing"));
  r.log_words->aligned_label = "as recorded";
  r.log_words->rules = "log rules: as recorded";
  r.log_words->contrast_meaning = "what it meant";
  CHECK(Heading(r, Variant::kAligned) == "as recorded");
  CHECK(RulesText(r) == "log rules: as recorded");
  CHECK_THAT(LogFooter(r), Catch::Contains("framing: what it meant."));
  r.pairs[0].unaligned.per_commit = CommitBytes{4096, 4120};
  CHECK(CommitCell(r.pairs[0].unaligned) == "  asked 4096 B, wrote 4120 B");
}

TEST_CASE("The verdict's words take the runs a verdict needs from the result") {
  Report r = testing::FixedReport();
  PairResult pair;
  pair.means_gain_pct = 0;
  pair.verdict = Verdict::kUndecided;
  pair.unaligned.repetitions = pair.aligned.repetitions = 3;
  r.statistics.min_runs_for_verdict = 6;
  CHECK(VerdictWords(r, pair) == "undecided: 3 runs");
  r.statistics.min_runs_for_verdict = 2;
  CHECK(VerdictWords(r, pair) == "undecided: no interval");
}
