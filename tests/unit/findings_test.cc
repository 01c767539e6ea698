// lib/render/findings.h: what each pair's interval says about the question,
// the run's pairs sorted by it, and how the answer names them.
#include "lib/render/findings.h"

#include <catch2/catch.hpp>

#include "tests/unit/report_fixture.h"

using namespace alignbench;

TEST_CASE("findings: a pair's interval against the precision asked") {
  const Report r = testing::FixedReport();
  const PairResult& big = r.pairs[0];    // aligned faster, [+70.25, +95.5]
  const PairResult& small = r.pairs[1];  // no difference, [-1.5, +9.75]
  CHECK(FindingOf(big, 5) == Finding::kHelps);
  // Half-width 5.625: wider than ±5 is unanswered; as narrow as ±6 asks but
  // reaching past +6; inside ±10.
  CHECK(FindingOf(small, 5) == Finding::kUnanswered);
  CHECK(FindingOf(small, 6) == Finding::kNarrowButPast);
  CHECK(FindingOf(small, 10) == Finding::kNoDifference);
  PairResult unmeasured = small;
  unmeasured.inference.test.reset();
  CHECK(FindingOf(unmeasured, 5) == Finding::kUnmeasured);
}

TEST_CASE("findings: a decided pair wider than asked is kept apart") {
  const Report r = testing::FixedReport();
  const Findings f = Classify(r, 5);
  REQUIRE(f.short_of.size() == 1);
  CHECK(f.short_of[0] == &r.pairs[0]);
  CHECK(f.Of(Finding::kHelps).empty());
  REQUIRE(f.Of(Finding::kUnanswered).size() == 1);
  CHECK(Classify(r, 20).Of(Finding::kHelps).size() == 1);
}

TEST_CASE("findings: pairs named by their sizes, or with their axes") {
  const Report r = testing::FixedReport();
  const std::vector<const PairResult*> both = {&r.pairs[0], &r.pairs[1]};
  const Naming naming = NamingOf(r);
  CHECK(naming.sizes == std::vector<std::uint64_t>{4096, 65536});
  CHECK_FALSE(naming.with_axes);
  CHECK(naming.Of(both) == "4K-64K");
  CHECK(naming.Counted(1) == "1 size");
  CHECK(Names(both, naming.sizes, true) ==
        "64K fdatasync buffered prewritten cold, 4K fdatasync buffered "
        "prewritten cold");
  CHECK(CountText(3, "pair", "pairs") == "3 pairs");
  CHECK(Hull(both) == "[-1.5, +95.5]");
}
