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
    "traced requests say whose writes they were: a filesystem's own are not "
    "others'") {
  // The idle windows saw 0.5 writes in the time of a write (59.3/s, busy);
  // the traced requests put them on the filesystem, none on others.
  Report r = Beside(0.5, 0.0);
  for (PairResult& p : r.pairs) {
    for (VariantResult* v : {&p.unaligned, &p.aligned}) {
      v->device_requests = DeviceRequests{};
      v->device_requests->filesystem = DevicePerOp{0, 0, 0.5, 2, std::nullopt};
    }
  }
  CHECK(ConditionsText(r) == "others' writes 0.0/s traced, others' CPU 0 %");
  CHECK_FALSE(BusyConditions(r));
  // Others' traced writes count as the idle windows' did.
  for (PairResult& p : r.pairs) {
    p.aligned.device_requests->others = DevicePerOp{0, 0, 0.5, 2, std::nullopt};
  }
  CHECK(ConditionsText(r) ==
        "others' writes 59.3/s traced (busy), others' CPU 0 %");
  // Where one pair was not traced, the words do not say traced.
  r.pairs[0].unaligned.device_requests.reset();
  CHECK(ConditionsText(r).rfind("others' writes 59.3/s (busy)", 0) == 0);
}

TEST_CASE(
    "compare says what others did beside each run, and warns when one was "
    "busy") {
  std::ostringstream out;
  RenderComparison(out, Beside(0.001, 0.02), Beside(0.5, 1.0));
  CHECK_THAT(out.str(),
             Catch::Contains(std::string(kConditionsHeading) +
                             "\n  base: others' writes 0.1/s, others' "
                             "CPU 2 %\n  new:  others' writes 59.3/s (busy), "
                             "others' CPU 100 % (busy)\n"));
  CHECK_THAT(out.str(),
             Catch::Contains("warning: only the new run was measured "
                             "beside others' traffic"));
  std::ostringstream alike;
  RenderComparison(alike, Beside(0.5, 1.0), Beside(0.5, 1.0));
  CHECK_THAT(alike.str(), !Catch::Contains("warning: only the"));
}
