// A run's conditions (lib/render/conditions.h), and compare saying them.
#include "lib/render/conditions.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "lib/render/comparison.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

// FixedReport with each variant's idle windows counting `writes` device
// writes over the time of one of its writes, and others' CPU share `cpu`.
Report Beside(double writes, double cpu) {
  Report r = testing::FixedReport();
  for (PairResult& p : r.pairs) {
    p.unaligned.background = p.aligned.background =
        DevicePerOp{0, 0, writes, 4 * writes, std::nullopt};
    p.others_cpu_share = cpu;
  }
  return r;
}

}  // namespace

TEST_CASE(
    "conditions: others' writes a second and CPU share, busy from their "
    "thresholds") {
  // The 4K pair's aligned writes take 8.4375 ms: 0.5 writes in that time
  // are 59.3 a second, the busiest of the run.
  CHECK(ConditionsText(Beside(0.5, 1.0)) ==
        "others' writes 59.3/s (busy), others' CPU 100 % (busy)");
  CHECK(BusyConditions(Beside(0.5, 0.0)));
  CHECK(ConditionsText(Beside(0.001, 0.02)) ==
        "others' writes 0.1/s, others' CPU 2 %");
  CHECK_FALSE(BusyConditions(Beside(0.001, 0.02)));
  CHECK(ConditionsText(testing::FixedReport()) ==
        "others' writes not sampled, others' CPU not sampled");
}

TEST_CASE(
    "compare says what others did beside each run, and warns when one was "
    "busy") {
  std::ostringstream out;
  RenderComparison(out, Beside(0.001, 0.02), Beside(0.5, 1.0));
  CHECK_THAT(out.str(),
             Catch::Contains("run conditions (the idle windows before the "
                             "rounds):\n  base: others' writes 0.1/s, others' "
                             "CPU 2 %\n  new:  others' writes 59.3/s (busy), "
                             "others' CPU 100 % (busy)\n"));
  CHECK_THAT(out.str(),
             Catch::Contains("warning: only the new run was measured "
                             "beside others' traffic"));
  std::ostringstream alike;
  RenderComparison(alike, Beside(0.5, 1.0), Beside(0.5, 1.0));
  CHECK_THAT(alike.str(), !Catch::Contains("warning: only the"));
}
