// What one run is asked to do: its directory and files, where each commit
// writes, how it syncs and submits its writes, and the seam its system calls
// go through. Made once per run from the settings (SpecFor); every part of a
// run (lib/measure/prepare.h, staging.h, engine.h, run.h) reads it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/config/axes.h"
#include "lib/config/settings.h"
#include "lib/io/file_ops.h"
#include "lib/measure/block_trace.h"
#include "lib/measure/pattern.h"

namespace alignbench {

// A replay's file other than the log, as the run finds it before the clock:
// empty, or holding `size` bytes written (recycled) or allocated
// (preallocated).
struct OtherFile {
  Layout layout = Layout::kExtend;
  std::uint64_t size = 0;
};

struct RunSpec {
  std::string dir;
  // A replay's other files: op file k + 1 is others[k].
  std::vector<OtherFile> others;
  // Where each commit writes; Step() advances it.
  WritePattern pattern;
  std::uint64_t writes = 128;
  // Untimed writes before the timed ones, same pattern
  std::uint64_t warmup = 0;
  SyncMethod sync = SyncMethod::kFsync;
  IoMode io = IoMode::kBuffered;
  Layout layout = Layout::kExtend;
  CacheState cache = CacheState::kWarm;
  DirectUnaligned direct_unaligned = DirectUnaligned::kReport;
  // The commits of each Step(), which share its sync (CommitsPerStep):
  // `writes` and `warmup` count commits.
  std::uint64_t commits_per_sync = 1;
  // The group's commits written by this many threads at once (WriterThreads),
  // or its writes submitted together through io_uring, this many in flight.
  std::uint64_t writers = 1;
  std::uint64_t queue_depth = 1;
  // Every timed write of the log with RWF_ATOMIC (direct I/O).
  bool atomic = false;
  // From the environment probe
  std::uint64_t dio_alignment = 4096;
  // /sys/block/<disk>/stat, if any
  std::optional<std::string> device_stat_path;
  // The disk's requests around the timed loop, where they can be had; it
  // must outlive the run. The filesystem's first sector on that disk (a
  // partition's start), for the file's extents in the trace's sectors.
  BlockTrace* trace = nullptr;
  std::uint64_t disk_offset_sectors = 0;
  // Every system call on the test file goes through it; it must outlive the
  // run. Tests put a fault in it.
  FileOps* ops = &SystemFileOps();
};

// The spec of one run of `pair` in `variant` under `settings`; the direct-I/O
// alignment and the device's stat file come from the environment probe.
RunSpec SpecFor(const Settings& settings, const PairSpec& pair, Variant variant,
                std::uint64_t dio_alignment,
                std::optional<std::string> device_stat_path);

// Bytes the file of a run spans (FileSpan of its pattern, warm-up included).
std::uint64_t RunFileBytes(const RunSpec& spec);

}  // namespace alignbench
