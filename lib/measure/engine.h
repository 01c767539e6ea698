// How a run's writes reach its file, one engine per way of submitting them,
// as fio keeps each in an ioengine: one at a time with pwrite (and the run's
// sync after), writer threads that write a group's commits side by side
// (--writers), or writes in flight through io_uring (--queue-depth). Run::Step
// keeps the clock and does every other op; an engine only writes.
//
// fio's queue/commit/getevents, as far as this code needs them: Queue hands
// over one write; an engine that is not Batched() does it there and then (the
// step's writes each in its place among its syncs), a Batched() one holds it
// until Commit(), which submits every write held and returns when all are
// done (getevents folded in), before the step's syncs.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "lib/base/error.h"
#include "lib/config/op.h"
#include "lib/io/file_ops.h"
#include "lib/io/uring.h"
#include "lib/measure/prepare.h"
#include "lib/measure/run_spec.h"
#include "lib/measure/staging.h"

namespace alignbench {

// What a write of a run puts on its file, whichever engine submits it: a
// replay's other file's write as it is, the log's at its place, or (direct
// I/O off the alignment, --direct-unaligned stage) the whole blocks staged
// around it; and a failed write's error with what to do about it.
class LogWriter final {
 public:
  LogWriter(const RunSpec& spec, RunFiles& files, Staging staging);

  // pwritev2's flags for a write op (RWF_DSYNC, RWF_SYNC, RWF_ATOMIC).
  int RwfOf(const Op& op) const;
  // The write done now through the seam (PwriteAll): every byte, or an error.
  Status WriteNow(const Op& op, const char* bytes);
  // The log's write as it is submitted: its own bytes, or staged blocks.
  Result<RingWrite> LogWrite(Extent extent, const char* bytes, int rwf);
  // A failed write of the log, with what to do about it.
  Error WriteError(Error error, Extent extent) const;
  const std::string& LogPath() const { return files_.LogPath(); }
  // Some write went out staged.
  bool Staged() const { return staged_; }

 private:
  IoMode io_;
  std::uint64_t dio_alignment_;
  DirectUnaligned direct_unaligned_;
  bool atomic_;
  FileOps& ops_;
  RunFiles& files_;
  Staging staging_;
  bool staged_ = false;
};

class WriteEngine {
 public:
  virtual ~WriteEngine() = default;
  // Whether Queue holds the write for Commit (true), or does it at once.
  virtual bool Batched() const = 0;
  // Write `op` of the step's commit `commit` (0-based), its bytes at `bytes`.
  virtual Status Queue(const Op& op, const char* bytes, std::size_t commit) = 0;
  // Every write held since the last Commit, done; the first failure.
  virtual Status Commit() = 0;
};

// The run's engine: writer threads (spec.writers > 1), io_uring
// (spec.queue_depth > 1; never both, Validate refuses it) or one write at a
// time. `writer` must outlive it. What the machine will not give (threads, a
// ring) is a setup failure (exit 2), never the disk's.
Result<std::unique_ptr<WriteEngine>> StartEngine(const RunSpec& spec,
                                                 LogWriter& writer);

// Each engine, in a file of its own (engine_sync.cc, engine_threads.cc,
// engine_uring.cc). `commits`: a step's commits (spec.commits_per_sync).
std::unique_ptr<WriteEngine> StartSyncEngine(LogWriter& writer);
Result<std::unique_ptr<WriteEngine>> StartThreadsEngine(std::size_t writers,
                                                        std::size_t commits,
                                                        LogWriter& writer);
Result<std::unique_ptr<WriteEngine>> StartUringEngine(unsigned depth,
                                                      std::size_t commits,
                                                      FileOps& ops,
                                                      LogWriter& writer);

}  // namespace alignbench
