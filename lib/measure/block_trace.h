// The block layer's requests to one disk, from tracefs: a tracing instance
// of alignbench's own (instances/alignbench-<pid>), so that another tracer is
// not disturbed, whose three events (block_bio_queue, block_rq_issue,
// block_rq_complete) are filtered to that disk and enabled only between
// Start() and Stop(), around a run's timed loop. The instance is removed when
// the BlockTrace is destroyed, and by the signal-cleanup registry
// (lib/io/cleanup.h) when a signal ends the process. Nothing under tracefs is
// followed through a symbolic link or trusted unless it is on tracefs; an
// instance that is there already (someone else's) is never used.
// Needs root (CAP_SYS_ADMIN over tracefs); one thread.
#pragma once

#include <sys/types.h>

#include <string>

#include "lib/base/error.h"
#include "lib/io/fd.h"
#include "lib/measure/requests.h"

namespace alignbench {

// Where tracefs is looked for; it is not mounted by alignbench.
inline constexpr const char* kTracefsDir = "/sys/kernel/tracing";

class BlockTrace final {
 public:
  // An instance whose events see `disk` (the whole disk's device number)
  // alone. The error says why there is none, in words a report prints.
  static Result<BlockTrace> Open(dev_t disk);
  // The same for a disk under /sys/block ("vda", "loop0"), whose device
  // number is read there.
  static Result<BlockTrace> OpenDisk(const std::string& disk);
  BlockTrace(BlockTrace&& other) noexcept;
  BlockTrace& operator=(BlockTrace&&) = delete;
  BlockTrace(const BlockTrace&) = delete;
  ~BlockTrace();

  // Empties the instance's ring and enables its events.
  Status Start();
  // Disables them and reads what they recorded since Start().
  Result<ParsedTrace> Stop();

 private:
  BlockTrace(UniqueFd dir, std::string path, int slot);
  Status Write(const char* file, const std::string& text) const;

  UniqueFd dir_;
  std::string path_;
  int slot_ = -1;
};

}  // namespace alignbench
