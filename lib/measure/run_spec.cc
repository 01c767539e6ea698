#include "lib/measure/run_spec.h"

#include <utility>

#include "lib/config/replay.h"

namespace alignbench {

RunSpec SpecFor(const Settings& settings, const PairSpec& pair, Variant variant,
                std::uint64_t dio_alignment,
                std::optional<std::string> device_stat_path) {
  RunSpec spec;
  spec.dir = settings.dir;
  spec.pattern = PatternFor(settings, pair, variant);
  spec.writes = settings.writes;
  spec.warmup = settings.warmup;
  spec.commits_per_sync = CommitsPerStep(settings);
  spec.writers = settings.writers;
  spec.queue_depth = settings.queue_depth;
  spec.atomic = settings.atomic == AtomicWrites::kOn;
  // A replay's ops carry their own calls; its files open without O_DSYNC.
  spec.sync = settings.replay ? SyncMethod::kNone : pair.sync;
  if (settings.replay) {
    for (const ReplayFile& file : settings.replay->others) {
      const Layout layout =
          file.state == FileState::kRecycled       ? Layout::kPrewritten
          : file.state == FileState::kPreallocated ? Layout::kPrealloc
                                                   : Layout::kExtend;
      spec.others.push_back({layout, file.size_at_open});
    }
  }
  spec.io = pair.io;
  spec.layout = pair.WritesOf(variant).layout;
  spec.cache = pair.WritesOf(variant).cache;
  spec.direct_unaligned = settings.direct_unaligned;
  spec.dio_alignment = dio_alignment;
  spec.device_stat_path = std::move(device_stat_path);
  return spec;
}

std::uint64_t RunFileBytes(const RunSpec& spec) {
  return FileSpan(spec.pattern, spec.warmup + spec.writes, spec.io,
                  spec.dio_alignment);
}

}  // namespace alignbench
