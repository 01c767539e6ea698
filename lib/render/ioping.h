// --format ioping: a run in the shape of ioping 0.6's summary, the one the 2013
// post "Know your disk latency numbers" printed per directory,
//   --- /tmp (tmpfs none) ioping statistics ---
//   10 requests completed in 9004.1 ms, 5219 iops, 5219.2 mb/s
//   min/avg/max/mdev = 0.1/0.2/0.3/0.0 ms
// so that a run reads beside it: per size, one such block per variant, then
// the gain of aligning with its interval and verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>

#include "lib/render/report_view.h"
#include "lib/result/report.h"

namespace alignbench {

// One variant's summary as ioping counts it. A request is one timed write and
// its sync; they complete in the sum of their times (ioping 0.6 also counted
// the second it waits between requests, so its "completed in" is longer and
// its iops are 1000 / avg ms, as here). MiB/s is iops times the size.
struct IopingSummary {
  std::uint64_t requests = 0;
  double total_ms = 0;
  double iops = 0;
  double mib_per_s = 0;
  // min/avg/max/mdev in ms; mdev is the standard deviation, as ioping's is.
  // Absent where the result holds only means (a mailing-list table).
  std::optional<double> min_ms, max_ms, mdev_ms;
  double avg_ms = 0;
};

std::optional<IopingSummary> IopingSummaryOf(const SideView& v,
                                             std::uint64_t size);

// "10 requests completed in 9101.5 ms, 102 iops, 102.1 MiB/s\n"
// "min/avg/max/mdev = 9.5/9.8/10.0/0.2 ms\n"
void RenderIopingLines(std::ostream& out, const IopingSummary& s);

// "--- /mnt (ext4 /dev/loop0) alignbench statistics: 1M fsync buffered
// extend warm, unaligned (shift 24 B) ---"
std::string IopingHeading(const ReportView& view, const RowView& row,
                          Variant variant);

void RenderIoping(std::ostream& out, const ReportView& view);

}  // namespace alignbench
