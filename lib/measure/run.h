// One run, the unit the statistics count: prepare a fresh private file, then
// time `writes` commits, each its list of writes and syncs (most often one
// pwrite and one sync), counting their times in
// histograms, with the device and process I/O counters around the loop.
// Prepare() does all untimed work; Step() does one commit and nothing else;
// Finish() reads the counters. A Run owns its TestFile: destroying it removes
// the file.
#pragma once

#include <linux/fiemap.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/axes.h"
#include "lib/config/settings.h"
#include "lib/io/file_io.h"
#include "lib/io/file_ops.h"
#include "lib/io/test_file.h"
#include "lib/io/uring.h"
#include "lib/measure/block_trace.h"
#include "lib/measure/counters.h"
#include "lib/measure/pattern.h"
#include "lib/measure/payload.h"
#include "lib/measure/record.h"
#include "lib/measure/writer_threads.h"

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
  Run(RunSpec spec, TestFile file, UniqueFd fd, Payload payload,
      std::vector<AlignedBuffer> stages);
  // Prepare without the errno table's answer, which Prepare adds once.
  static Result<Run> PrepareUnanswered(const RunSpec& spec);
  static Result<Run> Allocate(const RunSpec& spec, TestFile file, UniqueFd fd);
  Status PrepareOthers();
  Status StartWriters();
  Status DropCache();
  // One op of a commit, on its file.
  Status Do(const Op& op, const char* bytes);
  // pwritev2's flags for a write op (RWF_DSYNC, RWF_ATOMIC).
  int RwfOf(const Op& op) const;
  Status WriteAt(const Op& op, const char* bytes);
  // What a write of the log puts on the file: its bytes, or whole blocks
  // staged from them.
  Result<RingWrite> LogWrite(Extent extent, const char* bytes, int rwf);
  Result<RingWrite> Staged(Extent extent, const char* bytes, int rwf);
  // A failed write of the log, with what to do about it.
  Error WriteError(Error error, Extent extent) const;
  // The step's operations, chosen before the clock starts.
  void Gather();
  // The step's writes at once: commit k's by a writer thread, or all of them
  // in flight.
  Status WriteTogether();
  Status WriteCommit(std::size_t commit);
  Status WriteInFlight();
  Status Resize(const Op& op);
  Status Sync(const Op& op);
  Status Create(std::uint64_t file);
  // A replay's file `file`, or an error if the trace unlinked it.
  Result<int> FdOf(std::uint64_t file) const;
  std::string PathOf(std::uint64_t file) const;
  Error WithHint(Error error) const;
  // The trace's requests told apart by the extents of the run's files.
  void AccountTrace(const ParsedTrace& trace,
                    const std::vector<fiemap_extent>& extents);

  RunSpec spec_;
  TestFile file_;
  // Measurement descriptor: sync and direct flags applied
  UniqueFd fd_;
  // A replay's other files (op file k + 1), each private like the log's;
  // none between an unlink and the create that makes it again.
  std::vector<std::optional<TestFile>> others_;
  // Their directory, for a replay's sync_dir.
  UniqueFd dir_;
  // The bytes of each write, distinct from write to write.
  Payload payload_;
  // Staged direct writes only: whole aligned blocks, one buffer for each
  // write in flight and one for the blocks the last write wrote.
  std::vector<AlignedBuffer> stages_;
  // A replay's reads land here.
  std::vector<char> read_;
  // Staged writes: the blocks the last one wrote, [held_from_, held_to_), as
  // a database's log buffer holds them, in stages_[held_] (the next write
  // stages into the buffer after it: nothing is copied but the block it
  // starts in).
  std::size_t held_ = 0;
  std::uint64_t held_from_ = 0;
  std::uint64_t held_to_ = 0;
  // Index of the next write in the pattern (warm-up included)
  std::uint64_t next_ = 0;
  // The operations of the step being timed, each with its bytes.
  std::vector<std::pair<Op, const char*>> step_;
  // The commits of the step Gather() made (a --group-commit group's).
  std::uint64_t step_commits_ = 1;
  // Where each commit's operations start in step_, and the end.
  std::vector<std::size_t> commit_starts_;
  std::unique_ptr<WriterThreads> writers_;
  std::optional<Uring> ring_;
  std::vector<RingWrite> in_flight_;
  RunRecord record_;
  // The timed writes' times, allocated before the loop: Step() only counts.
  HistogramRecorder total_;
  HistogramRecorder write_;
  HistogramRecorder sync_;
  std::optional<DeviceCounters> device_before_;
  std::optional<ProcessIo> process_before_;
  // spec_.trace's events were enabled for the timed loop.
  bool tracing_ = false;
};

}  // namespace alignbench
