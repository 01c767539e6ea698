// The device counters of /sys/block/<disk>/stat, whose field count depends on
// the kernel: 11 fields before 4.18, 15 with discards, 17 with flushes (5.5+).
#include "lib/measure/counters.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "lib/pairs/pairs.h"
#include "lib/render/writers.h"
#include "lib/result/result_json.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

const char* const kStat11 =
    "     100        0      800       50      200        0     1600       70"
    "        0      120      120";
const char* const kStat15 =
    "     100        0      800       50      200        0     1600       70"
    "        0      120      120        3        0       24        1";
const char* const kStat17 =
    "     100        0      800       50      200        0     1600       70"
    "        0      120      120        3        0       24        1"
    "       42        9";

}  // namespace

TEST_CASE("A stat line of 11, 15 or 17 fields: flushes only where counted") {
  for (const char* line : {kStat11, kStat15, kStat17}) {
    const std::optional<DeviceCounters> c = ParseDeviceCounters(line);
    REQUIRE(c);
    CHECK(c->reads == 100);
    CHECK(c->read_sectors == 800);
    CHECK(c->writes == 200);
    CHECK(c->write_sectors == 1600);
  }
  CHECK_FALSE(ParseDeviceCounters(kStat11)->flushes.has_value());
  CHECK_FALSE(ParseDeviceCounters(kStat15)->flushes.has_value());
  CHECK(ParseDeviceCounters(kStat17)->flushes == 42u);
  CHECK_FALSE(ParseDeviceCounters("1 2 3 4 5 6 7 8 9 10").has_value());
  CHECK_FALSE(ParseDeviceCounters("").has_value());
}

TEST_CASE("A delta keeps flushes unknown unless both ends counted them") {
  DeviceCounters before = *ParseDeviceCounters(kStat17);
  DeviceCounters after = before;
  after.writes += 5;
  *after.flushes += 4;
  CHECK((after - before).writes == 5);
  CHECK((after - before).flushes == 4u);
  before.flushes.reset();
  CHECK_FALSE((after - before).flushes.has_value());
}

TEST_CASE("Unknown flushes are absent from the JSON and n/a in the table") {
  const PairSpec& spec = testing::kFsync4K;
  const std::vector<CollectedRun> runs = testing::OneBlock(
      3000, 3000, *ParseDeviceCounters(kStat11) - DeviceCounters{});
  const std::vector<PairResult> pairs = BuildPairs({spec}, runs);
  REQUIRE(pairs.size() == 1);
  REQUIRE(pairs[0].aligned.device);
  CHECK(pairs[0].aligned.device->writes == Approx(100));
  CHECK_FALSE(pairs[0].aligned.device->flushes.has_value());

  Report r = testing::FixedReport();
  r.pairs[0].unaligned.device->flushes.reset();
  const nlohmann::json j = ToJson(r);
  CHECK_FALSE(j.at("pairs")[0]
                  .at("unaligned")
                  .at("device_per_write")
                  .contains("flushes"));
  CHECK(j.at("pairs")[0].at("aligned").at("device_per_write").at("flushes") ==
        1.0);
  const Result<Report> back = FromJson(j, "test");
  REQUIRE(back);
  CHECK_FALSE(back.value().pairs[0].unaligned.device->flushes.has_value());
  std::ostringstream table;
  Render(table, r, Format::kTable);
  CHECK_THAT(table.str(), Catch::Contains(" n/a fl"));
  CHECK_THAT(table.str(), Catch::Contains(" 1.0 fl"));
}

TEST_CASE("The CPU line of /proc/stat: busy is all but idle and iowait") {
  // user nice system idle iowait irq softirq steal guest guest_nice
  const std::optional<CpuTicks> t =
      ParseCpuTicks("cpu  100 20 30 800 40 1 2 7 0 0");
  REQUIRE(t);
  CHECK(t->busy == 100 + 20 + 30 + 1 + 2 + 7);
  CHECK(t->all == t->busy + 800 + 40);
  // Kernels before 2.6.11 lack steal; one CPU's line is not the machine's.
  CHECK_FALSE(ParseCpuTicks("cpu  100 20 30 800 40 1 2").has_value());
  CHECK_FALSE(ParseCpuTicks("cpu0 100 20 30 800 40 1 2 7").has_value());
  CHECK_FALSE(ParseCpuTicks("").has_value());
  // This machine's own, where /proc is mounted.
  if (const std::optional<CpuTicks> now = ReadCpuTicks()) {
    CHECK(now->all >= now->busy);
  }
}

TEST_CASE("Idle windows add their CPU time only where every one read it") {
  IdleSample sum;
  IdleSample window;
  window.seconds = 0.1;
  window.cpu = CpuTicks{5, 20};
  sum += window;
  sum += window;
  REQUIRE(sum.cpu);
  CHECK(sum.cpu->busy == 10);
  CHECK(sum.cpu->all == 40);
  window.cpu.reset();
  sum += window;
  CHECK_FALSE(sum.cpu.has_value());
  CHECK(sum.seconds == Approx(0.3));
}
