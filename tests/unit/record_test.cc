// lib/measure/record.h: a RunRecord's count of writes is the count of its total
// times' histogram, whatever the other histograms hold.
#include "lib/measure/record.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("record: Writes counts the timed writes") {
  RunRecord empty;
  CHECK(empty.Writes() == 0);
  CHECK_FALSE(empty.error.has_value());
  CHECK_FALSE(empty.staged);

  HistogramRecorder total;
  for (std::int64_t ns : {1000, 2000, 3000, 4000, 5000}) total.Record(ns);
  RunRecord record;
  record.total_ns = total.Sparse();
  CHECK(record.Writes() == 5);
  // Only the total's count is the writes: the parts may be empty (o_sync has
  // no sync time recorded separately in a record made by hand).
  CHECK(record.write_ns.count == 0);

  RunRecord merged = record;
  merged.total_ns.Merge(record.total_ns);
  CHECK(merged.Writes() == 10);
}
