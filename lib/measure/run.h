// One run, the unit the statistics count: prepare a fresh private file, then
// time `writes` commits, each its list of writes and syncs (most often one
// pwrite and one sync), counting their times in histograms, with the device
// and process I/O counters around the loop. Prepare() does all untimed work;
// Step() does one commit and nothing else; Finish() reads the counters. A Run
// owns its files (lib/measure/prepare.h): destroying it removes them.
//
// The parts, as fio splits its own: the files made ready (prepare.h), the
// log's buffer for staged direct writes (staging.h), and the engine that
// submits the writes, one per way (engine.h: engine_sync.cc,
// engine_threads.cc, engine_uring.cc). Step keeps the clock.
#pragma once

#include <linux/fiemap.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "lib/base/error.h"
#include "lib/measure/counters.h"
#include "lib/measure/engine.h"
#include "lib/measure/payload.h"
#include "lib/measure/prepare.h"
#include "lib/measure/record.h"
#include "lib/measure/run_spec.h"

namespace alignbench {

// Both parts come from readings of one clock before the first operation and
// after each (for one write and one sync: before the write, between write
// and sync, after the sync), so their sum is the whole span exactly. The write
// part is every write of the commit, the sync part every sync.
struct OpTimes {
  std::int64_t write_ns;
  std::int64_t sync_ns;
  std::int64_t Total() const { return write_ns + sync_ns; }
};

class Run final {
 public:
  static Result<Run> Prepare(const RunSpec& spec);

  // One timed commit, or one group of commits_per_sync commits whose writes
  // share the last one's sync: its writes and syncs in order, or with writer
  // threads or writes in flight, its writes together and then its syncs. Each
  // commit is recorded as its share of the span. Fails on the first error; the
  // failed operation is not recorded.
  Result<OpTimes> Step();
  // Counters and times of the run. Call once, last.
  RunRecord Finish(std::optional<Error> error);

 private:
  // One op of the step, with its bytes and the commit of the step it is in.
  struct StepOp {
    Op op;
    const char* bytes;
    std::size_t commit;
  };

  Run(RunSpec spec, std::unique_ptr<RunFiles> files, Payload payload,
      std::unique_ptr<LogWriter> writer);
  // Prepare without the errno table's answer, which Prepare adds once.
  static Result<Run> PrepareUnanswered(const RunSpec& spec);
  static Result<Run> Allocate(const RunSpec& spec,
                              std::unique_ptr<RunFiles> files);
  // Warm-up, cold cache, the trace and the counters, just before the clock.
  Status WarmUp();
  // The step's operations, chosen before the clock starts.
  void Gather();
  // The step's writes handed to a Batched() engine and committed.
  Status WriteTogether();
  // One op of a commit other than a write, on its file.
  Status Do(const Op& op);
  Status Resize(const Op& op);
  Status Sync(const Op& op);
  Status ReadOrStat(const Op& op);
  Error WithHint(Error error) const;
  // The trace's requests told apart by the extents of the run's files.
  void AccountTrace(const ParsedTrace& trace,
                    const std::vector<fiemap_extent>& extents);

  RunSpec spec_;
  // On the heap, as are the writer and the engine, which hold them: a Run
  // moves, they stay.
  std::unique_ptr<RunFiles> files_;
  // The bytes of each write, distinct from write to write.
  Payload payload_;
  std::unique_ptr<LogWriter> writer_;
  std::unique_ptr<WriteEngine> engine_;
  // A replay's reads land here.
  std::vector<char> read_;
  // Index of the next write in the pattern (warm-up included)
  std::uint64_t next_ = 0;
  // The operations of the step being timed.
  std::vector<StepOp> step_;
  // The commits of the step Gather() made (a --group-commit group's).
  std::uint64_t step_commits_ = 1;
  RunRecord record_;
  // The timed writes' times, allocated before the loop: Step() only counts.
  HistogramRecorder total_;
  HistogramRecorder write_;
  HistogramRecorder sync_;
  std::optional<DeviceCounters> device_before_;
  std::optional<ProcessIo> process_before_;
  // spec_.trace's events were enabled for the timed loop.
  bool tracing_ = false;
  // Finish() was called: no Step() after it, and no second Finish().
  bool finished_ = false;
};

}  // namespace alignbench
