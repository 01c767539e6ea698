// --format ioping: ioping 0.6's summary lines from a variant's write+sync
// times.
#include "lib/render/ioping.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace alignbench;

namespace {

SideView Times(std::size_t count, double mean_ms, double min_ms, double max_ms,
               double sd_ms) {
  SideView v;
  v.ran = true;
  v.total_ns.count = count;
  v.total_ns.mean = mean_ms * 1e6;
  v.total_ns.min = min_ms * 1e6;
  v.total_ns.max = max_ms * 1e6;
  v.total_ns.stddev = sd_ms * 1e6;
  return v;
}

std::string Lines(const SideView& v, std::uint64_t size) {
  std::ostringstream out;
  RenderIopingLines(out, *IopingSummaryOf(v, size));
  return out.str();
}

}  // namespace

TEST_CASE("The post's NFS line: 10 requests of 1 MiB at 9.79 ms each") {
  // ioping 0.6 printed "102 iops, 102.1 mb/s min/avg/max/mdev =
  // 9.5/9.8/10.0/0.2 ms"; its "completed in 9101.5 ms" held the second it
  // waits between requests, which a sum of request times does not.
  CHECK(Lines(Times(10, 9.79, 9.5, 10.0, 0.2), 1 << 20) ==
        "10 requests completed in 97.9 ms, 102 iops, 102.1 MiB/s\n"
        "min/avg/max/mdev = 9.5/9.8/10.0/0.2 ms\n");
}

TEST_CASE("Microseconds get the decimals that keep them from reading 0.0") {
  CHECK(Lines(Times(768, 0.0123, 0.0051, 0.2, 0.004), 4096) ==
        "768 requests completed in 9.4464 ms, 81301 iops, 317.6 MiB/s\n"
        "min/avg/max/mdev = 0.0051/0.0123/0.2000/0.0040 ms\n");
}

TEST_CASE("The total has the decimals of the requests it sums") {
  // tmpfs: 40 requests of 0.0007 ms were "completed in 0.0 ms".
  CHECK(Lines(Times(40, 0.00065, 0.0005, 0.0009, 0.0001), 4096) ==
        "40 requests completed in 0.0260 ms, 1538462 iops, 6009.6 MiB/s\n"
        "min/avg/max/mdev = 0.0005/0.0006/0.0009/0.0001 ms\n");
}

TEST_CASE("Means only, or nothing measured") {
  SideView means = Times(128, 8.8, 0, 0, 0);
  CHECK(Lines(means, 4096) ==
        "128 requests completed in 1126.4 ms, 114 iops, 0.4 MiB/s\n"
        "min/avg/max/mdev = n/a/8.8/n/a/n/a ms\n");
  SideView none;
  CHECK_FALSE(IopingSummaryOf(none, 4096));
}
