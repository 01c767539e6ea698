// What one run leaves behind: its times and counters, no
// descriptor. lib/pairs/ reads runs through this header alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "lib/base/error.h"
#include "lib/measure/counters.h"
#include "lib/stats/histogram.h"

namespace alignbench {

struct RunRecord {
  // The timed writes' times as histograms (lib/stats/histogram.h): memory
  // does not grow with the number of writes; mean and count stay exact.
  Histogram total_ns;
  Histogram write_ns;
  Histogram sync_ns;
  std::size_t Writes() const { return total_ns.count; }
  // Device and process counters: their change over the timed loop.
  std::optional<DeviceCounters> device;
  std::optional<ProcessIo> process;
  // Direct writes staged through aligned blocks.
  bool staged = false;
  // Cold cache: pages of the file still resident after POSIX_FADV_DONTNEED.
  std::optional<std::uint64_t> resident_pages_after_drop;
  // Set when the run stopped early; the times then hold what was done.
  std::optional<Error> error;
};

}  // namespace alignbench
