// What one run leaves behind: its times and counters, no
// descriptor. lib/pairs/ reads runs through this header alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "lib/base/error.h"
#include "lib/measure/counters.h"
#include "lib/measure/requests.h"
#include "lib/stats/histogram.h"

namespace alignbench {

// Where a run's file landed, read just before it was removed: how many
// extents its blocks form, and the blocks it holds beyond its data (an extent
// tree's: ext4 keeps a file's list of more than four extents in a block of
// its own, written again at every sync).
struct FilePlacement {
  std::uint64_t extents = 0;
  std::uint64_t tree_blocks = 0;
};

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
  // The device's requests over the timed loop told apart (file, filesystem,
  // others), where the block layer's tracepoints could be had and lost none.
  std::optional<RequestAccount> requests;
  // Direct writes staged through aligned blocks.
  bool staged = false;
  // Cold cache: pages of the file still resident after POSIX_FADV_DONTNEED.
  std::optional<std::uint64_t> resident_pages_after_drop;
  // Where the file landed; absent where the filesystem cannot say (FIEMAP).
  std::optional<FilePlacement> placement;
  // Set when the run stopped early; the times then hold what was done.
  std::optional<Error> error;
};

}  // namespace alignbench
