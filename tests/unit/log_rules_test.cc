#include "lib/config/log_rules.h"

#include <catch2/catch.hpp>

#include "lib/config/case_file.h"
#include "lib/config/settings.h"
#include "lib/pairs/log_case.h"
#include "report_fixture.h"

using namespace alignbench;
using testing::FromCase;

namespace {

std::string Refusal(const std::string& text) {
  Settings s;
  const Status applied = ApplyCaseText(text, "t", s);
  if (!applied) return applied.error().Message();
  const Status valid = Validate(s);
  return valid ? "" : valid.error().Message();
}

}  // namespace

TEST_CASE("Without a log object the workload is Derby's: the header is shift") {
  Settings s;
  s.shifts = {24};
  const LogWorkload w = WorkloadOf(s);
  CHECK(w.contrast == LogContrast::kFraming);
  CHECK(RulesFor(w, Variant::kUnaligned).header == 24);
  // Padded to a block, so that both variants' files grow by the same
  // allocations; with no header (the A/A check) the variants are the same.
  CHECK(RulesFor(w, Variant::kAligned).header == 4096);
  CHECK(RulesFor(DerbyWorkload(0), Variant::kAligned).header == 0);
  CHECK(RulesFor(DerbyWorkload(4097), Variant::kAligned).header == 8192);
  CHECK(ColumnLabel(s, Variant::kUnaligned) == "unaligned");
}

TEST_CASE(
    "A log object sets the rules and the one rule the variants differ in") {
  const Settings s = FromCase(
      R"({"log": {"header": "2K", "block": 512, "contrast": "pad",
                   "aligned": "8K"}})");
  REQUIRE(s.log);
  CHECK(s.log->rules.header == 2048);
  CHECK(RulesFor(*s.log, Variant::kUnaligned).pad == 0);
  CHECK(RulesFor(*s.log, Variant::kAligned).pad == 8192);
  CHECK(RulesFor(*s.log, Variant::kAligned).block == 512);
  CHECK(ColumnLabel(s, Variant::kAligned) == "padded");
  CHECK(Validate(s).ok());
}

TEST_CASE("A file contrast names both states and runs cold") {
  const Settings s = FromCase(
      R"({"cache": "cold", "log": {"contrast": "file", "unaligned": "new",
                                   "aligned": "recycled"}})");
  CHECK(FileFor(*s.log, Variant::kAligned) == FileState::kRecycled);
  CHECK(ColumnLabel(s, Variant::kUnaligned) == "new");
  CHECK(Validate(s).ok());
  // The plan resolves each state to the layout that makes it.
  const VariantWrites recycled =
      WritesFor(*s.log, Variant::kAligned, Layout::kExtend, CacheState::kWarm);
  CHECK(recycled.layout == Layout::kPrewritten);
  CHECK(recycled.cache == CacheState::kCold);
  const std::vector<PairSpec> plan = ExpandPlan(s);
  REQUIRE_FALSE(plan.empty());
  CHECK(plan[0].WritesOf(Variant::kUnaligned).layout == Layout::kExtend);
  CHECK(plan[0].WritesOf(Variant::kAligned).layout == Layout::kPrewritten);
}

TEST_CASE("Without a file contrast the pair's axes stay") {
  const VariantWrites derby = WritesFor(DerbyWorkload(24), Variant::kUnaligned,
                                        Layout::kPrealloc, CacheState::kCold);
  CHECK(derby.layout == Layout::kPrealloc);
  CHECK(derby.cache == CacheState::kCold);
  CHECK(derby.rules.header == 24);
}

TEST_CASE("Bad log objects are refused with the key") {
  CHECK_THAT(Refusal(R"({"log": {"blok": 512}})"),
             Catch::Contains("log.blok") && Catch::Contains("unknown key"));
  CHECK_THAT(Refusal(R"({"log": {"block": [1]}})"),
             Catch::Contains("log.block"));
  CHECK_THAT(Refusal(R"({"log": {"contrast": "tilt"}})"),
             Catch::Contains("log.contrast"));
  CHECK_THAT(Refusal(R"({"log": {"block": 500}})"),
             Catch::Contains("powers of two"));
  CHECK_THAT(Refusal(R"({"log": {"contrast": "pad"}})"),
             Catch::Contains("'aligned'"));
  CHECK_THAT(Refusal(R"({"log": {"contrast": "pad", "unaligned": 4}})"),
             Catch::Contains("only a file contrast"));
  CHECK_THAT(Refusal(R"({"log": {"contrast": "framing", "aligned": 512}})"),
             Catch::Contains("log.aligned") &&
                 Catch::Contains("framing contrast takes no value"));
  CHECK_THAT(Refusal(R"({"log": {"header": 24, "aligned": "4K"}})"),
             Catch::Contains("framing contrast takes no value"));
  CHECK_THAT(Refusal(R"({"log": {"chunk": 4, "record_header": 7}})"),
             Catch::Contains("larger than a record header"));
  CHECK_THAT(Refusal(R"({"log": {"contrast": "file", "aligned": "new"}})"),
             Catch::Contains("two different file states"));
  CHECK_THAT(Refusal(R"({"cache": "warm", "log": {"contrast": "file"}})"),
             Catch::Contains("--cache cold"));
  CHECK_THAT(Refusal(R"({"log": {"header": 32, "fill_sync": "middle"}})"),
             Catch::Contains("log.fill_sync") && Catch::Contains("boundary"));
  CHECK_THAT(Refusal(R"({"log": {"header": 32, "fill_sync": "boundary"}})"),
             Catch::Contains("fill_sync boundary needs a fill"));
}

TEST_CASE("fill_sync: absent is end, as case files before it; boundary read") {
  const Settings old = FromCase(
      R"({"log": {"header": 32, "contrast": "fill", "aligned": "4K"}})");
  CHECK(old.log->rules.fill_sync == FillSync::kEnd);
  const Settings s = FromCase(
      R"({"log": {"header": 32, "contrast": "fill", "aligned": "4K",
                   "fill_sync": "boundary"}})");
  CHECK(RulesFor(*s.log, Variant::kAligned).fill_sync == FillSync::kBoundary);
  CHECK(RulesFor(*s.log, Variant::kAligned).fill == 4096);
  CHECK(Validate(s).ok());
}

TEST_CASE("Bytes per commit come from the rules") {
  Settings s = FromCase(R"({"log": {"header": 32, "record_header": 24}})");
  s.writes = 10;
  const CommitBytes b = PerCommit(s, testing::kFsync4K, Variant::kUnaligned);
  CHECK(b.asked == 4096);
  CHECK(b.written == 4120);
  CHECK(PerCommit(s, testing::kFsync4K, Variant::kAligned).written == 4096);
}

// Several shifts: a pair each, grouped by shift, all against one aligned
// variant whose header is padded to the smallest power of two past the
// largest shift (4 KiB at the least), so that a shift of a whole page asks
// whether a page is enough, never compares a variant with itself.
TEST_CASE("Each shift is a pair against the same aligned variant") {
  CHECK(AlignedUnit({24}) == 4096);
  CHECK(AlignedUnit({0}) == 4096);
  CHECK(AlignedUnit({24, 2048}) == 4096);
  CHECK(AlignedUnit({24, 4096}) == 8192);
  CHECK(AlignedUnit({512, 4097}) == 8192);
  CHECK(AlignedUnit({65536, 24}) == 131072);
  Settings s;
  s.sizes = {4096, 65536};
  s.shifts = {24, 4096, 8192};
  const std::vector<PairSpec> plan = ExpandPlan(s);
  REQUIRE(plan.size() == 6);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> order;
  for (const PairSpec& p : plan) order.emplace_back(p.shift, p.size);
  CHECK(order ==
        std::vector<std::pair<std::uint64_t, std::uint64_t>>{{24, 4096},
                                                             {24, 65536},
                                                             {4096, 4096},
                                                             {4096, 65536},
                                                             {8192, 4096},
                                                             {8192, 65536}});
  for (const PairSpec& p : plan) {
    CAPTURE(p.shift);
    CHECK(p.unaligned_writes.rules.header == p.shift);
    CHECK(p.aligned_writes.rules.header == 16384);
  }
  // Keys tell the pairs apart.
  CHECK(KeyOf(plan[0]) != KeyOf(plan[2]));
  // One shift: the plan as it always was.
  s.shifts = {24};
  REQUIRE(ExpandPlan(s).size() == 2);
  CHECK(ExpandPlan(s)[0].aligned_writes.rules.header == 4096);
}
