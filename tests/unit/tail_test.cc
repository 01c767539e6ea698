// The tail: its arithmetic (lib/pairs/percentiles.h) and its rows
// (lib/render/tail_rows.h).
#include <catch2/catch.hpp>
#include <sstream>

#include "lib/pairs/percentiles.h"
#include "lib/render/tail_rows.h"
#include "lib/stats/histogram.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

// 2000 writes: 1 ms, with the slowest 0.5 % taking `slow_ms`.
VariantResult Tail(double slow_ms) {
  std::vector<double> ns(2000, 1e6);
  for (std::size_t k = 0; k < 10; ++k) ns[k] = slow_ms * 1e6;
  VariantResult v = testing::FixedVariant(1, 0, 4);
  v.total_ns = HistogramOf(ns).ToSummary();
  return v;
}

}  // namespace

TEST_CASE("The tail rows show p99.9 where the count allows") {
  Report r = testing::FixedReport();
  std::ostringstream none;
  RenderTailRows(none, ViewOf(r).groups.at(0));
  // 3 writes: no p99.9 to show, and a line says why.
  CHECK(none.str() ==
        "tail: percentiles left out: p99.9 needs 1000 writes of a variant, "
        "these had at most 3 (more --writes or blocks give them)\n");
  r.pairs[0].aligned = Tail(8);
  GroupView first = ViewOf(r).groups.at(0);
  first.rows.resize(1);
  std::ostringstream out;
  RenderTailRows(out, first);
  CHECK_THAT(out.str(), Catch::Contains("p99.9") &&
                            Catch::Contains("within 0.78% of exact") &&
                            Catch::Contains("aligned"));
  // p99.9 of 2000 writes whose slowest ten take 8 ms is 8 ms.
  CHECK_THAT(out.str(), Catch::Contains("         8 "));
}

TEST_CASE("compare names the percentile that moved most") {
  PairResult base = testing::FixedReport().pairs[0];
  PairResult next = base;
  base.aligned = base.unaligned = Tail(8);
  next.aligned = next.unaligned = Tail(8);
  next.aligned = Tail(30);  // only the tail of the aligned variant moved
  // +275 % within the histogram's bound
  CHECK_THAT(MostMovedPercentile(base, next).value_or(""),
             Catch::StartsWith("aligned p99.9 +27"));
  next.aligned = Tail(2);  // a fall counts as much as a rise
  CHECK_THAT(MostMovedPercentile(base, next).value_or(""),
             Catch::StartsWith("aligned p99.9 -75"));
  next.unaligned.repetitions = 0;
  next.aligned.repetitions = 0;
  CHECK_FALSE(MostMovedPercentile(base, next).has_value());
}
