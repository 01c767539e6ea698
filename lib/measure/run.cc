#include "lib/measure/run.h"

#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <new>
#include <optional>
#include <vector>

#include "lib/base/memory.h"
#include "lib/io/file_io.h"
#include "lib/measure/sync.h"

namespace alignbench {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t Nanos(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

}  // namespace

Result<Run> Run::Prepare(const RunSpec& spec) {
  Result<Run> run = PrepareUnanswered(spec);
  if (!run) return Answer(run.error(), Phase::kMeasurement, RunFileBytes(spec));
  return run;
}

// The run and its buffers, the run's one large allocation: a memory limit
// (ulimit -v, a cgroup) is met here, and here it is known what it was for.
Result<Run> Run::Allocate(const RunSpec& spec,
                          std::unique_ptr<RunFiles> files) {
  // Page alignment satisfies every O_DIRECT buffer requirement; a staged write
  // spans the payload plus its partial head and tail blocks.
  const std::uint64_t alignment =
      std::max<std::uint64_t>(spec.dio_alignment, 4096);
  const WritePattern::Totals totals =
      spec.pattern.Over(0, spec.pattern.Reach(spec.warmup + spec.writes));
  // One commit's writes take consecutive bytes of its payload slot.
  const std::uint64_t size = totals.max_commit;
  const std::uint64_t stage = spec.io == IoMode::kDirect
                                  ? totals.max_length + 2 * spec.dio_alignment
                                  : 0;
  try {
    // One buffer for each write in flight and one for the blocks the last
    // write wrote.
    Staging staging =
        stage > 0
            ? Staging(std::max<std::uint64_t>(2, spec.queue_depth + 1), stage,
                      alignment, spec.dio_alignment, spec.pattern.HeaderBytes())
            : Staging();
    auto writer = std::make_unique<LogWriter>(spec, *files, std::move(staging));
    Run run(
        spec, std::move(files),
        Payload(size, alignment, spec.pattern.Reach(spec.warmup + spec.writes)),
        std::move(writer));
    run.read_.resize(totals.max_read);
    return run;
  } catch (const std::bad_alloc&) {
    Error error = SystemError(ErrorKind::kSetup,
                              "allocate the write buffers of a " +
                                  std::to_string(size) + "-byte write",
                              "", ENOMEM);
    error.hint = OutOfMemoryHint("use smaller --sizes or fewer --writes");
    return error;
  }
}

Result<Run> Run::PrepareUnanswered(const RunSpec& spec) {
  Result<std::unique_ptr<RunFiles>> files = RunFiles::Prepare(spec);
  if (!files) return files.error();
  Result<Run> made = Allocate(spec, std::move(files).value());
  if (!made) return made.error();
  Run& run = made.value();
  if (Status others = run.files_->PrepareOthers(spec); !others) {
    return others.error();
  }
  Result<std::unique_ptr<WriteEngine>> engine = StartEngine(spec, *run.writer_);
  if (!engine) return engine.error();
  run.engine_ = std::move(engine).value();
  // Step() allocates nothing.
  run.step_.reserve(4 * spec.commits_per_sync);
  if (Status warm = run.WarmUp(); !warm) return warm.error();
  return made;
}

// The warm-up's steps, untimed; the cold cache; then the trace and the
// counters, the last things before the clock.
Status Run::WarmUp() {
  for (std::uint64_t k = 0; k < spec_.warmup; k += step_commits_) {
    if (Result<OpTimes> op = Step(); !op) return op.error();
  }
  total_.Reset();
  write_.Reset();
  sync_.Reset();
  if (spec_.cache == CacheState::kCold) {
    auto resident = files_->DropCache(RunFileBytes(spec_));
    if (!resident) return resident.error();
    record_.resident_pages_after_drop = resident.value();
  }
  // Enabled before the counters are read and disabled after, so that the
  // trace sees every request the counters count.
  tracing_ = spec_.trace != nullptr && spec_.trace->Start();
  if (spec_.device_stat_path)
    device_before_ = ReadDeviceCounters(*spec_.device_stat_path);
  process_before_ = ReadProcessIo();
  return Ok{};
}

Run::Run(RunSpec spec, std::unique_ptr<RunFiles> files, Payload payload,
         std::unique_ptr<LogWriter> writer)
    : spec_(std::move(spec)),
      files_(std::move(files)),
      payload_(std::move(payload)),
      writer_(std::move(writer)) {}

// A replay's ftruncate or fallocate, as the program made it between its
// writes (timed with them).
Status Run::Resize(const Op& op) {
  Result<int> fd = files_->FdOf(op.file);
  if (!fd) return fd.error();
  const auto offset = static_cast<off_t>(op.offset);
  const auto length = static_cast<off_t>(op.length);
  if (op.kind == OpKind::kTruncate) {
    if (spec_.ops->Ftruncate(fd.value(), length) != 0) {
      return SystemError(ErrorKind::kIo, "ftruncate", files_->PathOf(op.file),
                         errno);
    }
    return Ok{};
  }
  const int mode = op.keep_size ? FALLOC_FL_KEEP_SIZE : 0;
  if (spec_.ops->Fallocate(fd.value(), mode, offset, length) != 0) {
    return SystemError(ErrorKind::kIo, "fallocate", files_->PathOf(op.file),
                       errno);
  }
  return Ok{};
}

// A sync: the run's method, or a replay's own call.
Status Run::Sync(const Op& op) {
  Result<int> fd = files_->FdOf(op.file);
  if (!fd) return fd.error();
  if (op.call == SyncCall::kRun) {
    return SyncAfterWrite(spec_.sync, fd.value(), files_->PathOf(op.file),
                          *spec_.ops);
  }
  const bool full = op.call == SyncCall::kFsync;
  if ((full ? spec_.ops->Fsync(fd.value())
            : spec_.ops->Fdatasync(fd.value())) != 0) {
    return SystemError(ErrorKind::kIo, full ? "fsync" : "fdatasync",
                       files_->PathOf(op.file), errno);
  }
  return Ok{};
}

// A replay's pread or fstat.
Status Run::ReadOrStat(const Op& op) {
  Result<int> fd = files_->FdOf(op.file);
  if (!fd) return fd.error();
  if (op.kind == OpKind::kRead) {
    // Sized by Allocate for the longest read.
    assert(op.length <= read_.size());
    return PreadAll(fd.value(), read_.data(), op.length,
                    static_cast<off_t>(op.offset), files_->PathOf(op.file),
                    *spec_.ops);
  }
  struct stat st {};
  if (spec_.ops->Fstat(fd.value(), &st) != 0) {
    return SystemError(ErrorKind::kIo, "fstat", files_->PathOf(op.file), errno);
  }
  return Ok{};
}

Status Run::Do(const Op& op) {
  switch (op.kind) {
    case OpKind::kWrite:  // the engine's
      assert(false);
      return Ok{};
    case OpKind::kSync:
      return Sync(op);
    case OpKind::kTruncate:
    case OpKind::kAllocate:
      return Resize(op);
    case OpKind::kUnlink:
      files_->Unlink(op.file);
      return Ok{};
    case OpKind::kCreate:
      return files_->Create(op.file);
    case OpKind::kRead:
    case OpKind::kStat:
      return ReadOrStat(op);
    case OpKind::kSyncDir:
      if ((op.call == SyncCall::kFdatasync
               ? spec_.ops->Fdatasync(files_->DirFd())
               : spec_.ops->Fsync(files_->DirFd())) != 0) {
        return SystemError(ErrorKind::kIo, "sync", spec_.dir, errno);
      }
      return Ok{};
  }
  return Ok{};
}

// The errno table's answer, with what one run needs on disk.
Error Run::WithHint(Error error) const {
  return Answer(std::move(error), Phase::kMeasurement, RunFileBytes(spec_));
}

void Run::Gather() {
  // A commit's writes take its bytes in turn. In a group, the commits before
  // the last leave out the sync that ends them: the last one's syncs all.
  step_.clear();
  step_commits_ = 0;
  const std::uint64_t commits = spec_.commits_per_sync;
  for (std::uint64_t k = 0; k < commits; ++k) {
    const char* bytes = payload_.For(next_++);
    [[maybe_unused]] const char* const slot = bytes;
    const CommitOps& ops = spec_.pattern.Next();
    // A group of --group-commit is one write of its commits' records.
    step_commits_ += spec_.pattern.Commits();
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Op& op = ops[i];
      if (k + 1 < commits && i + 1 == ops.size() && op.kind == OpKind::kSync) {
        continue;
      }
      step_.push_back({op, bytes, static_cast<std::size_t>(k)});
      if (op.kind == OpKind::kWrite) bytes += op.length;
    }
    // The commit's writes fit its payload slot, as Allocate sized it.
    assert(static_cast<std::size_t>(bytes - slot) <= payload_.Size());
  }
  assert(step_commits_ > 0);
}

Status Run::WriteTogether() {
  for (const StepOp& s : step_) {
    if (s.op.kind != OpKind::kWrite) continue;
    if (Status queued = engine_->Queue(s.op, s.bytes, s.commit); !queued) {
      return queued;
    }
  }
  return engine_->Commit();
}

Result<OpTimes> Run::Step() {
  assert(!finished_ && engine_);  // after Prepare, before Finish
  Gather();
  OpTimes times{0, 0};
  Clock::time_point last = Clock::now();
  const bool together = engine_->Batched();
  if (together) {
    if (Status written = WriteTogether(); !written) {
      return WithHint(written.error());
    }
    const Clock::time_point now = Clock::now();
    times.write_ns = Nanos(now - last);
    last = now;
  }
  for (const StepOp& s : step_) {
    const Op& op = s.op;
    if (together && op.kind == OpKind::kWrite) continue;
    // A sync without a call (o_sync, o_dsync, none; a replay's synchronous
    // write's) takes no time: no clock read lands inside the span for it.
    if (op.kind == OpKind::kSync &&
        (op.call == SyncCall::kNone ||
         (op.call == SyncCall::kRun && !HasSyncCall(spec_.sync)))) {
      continue;
    }
    Status done = op.kind == OpKind::kWrite
                      ? engine_->Queue(op, s.bytes, s.commit)
                      : Do(op);
    if (!done) return WithHint(done.error());
    const Clock::time_point now = Clock::now();
    const bool sync = op.kind == OpKind::kSync || op.kind == OpKind::kSyncDir;
    (sync ? times.sync_ns : times.write_ns) += Nanos(now - last);
    last = now;
  }
  // Each commit of a group takes its share: the statistics, the device's
  // counters and the report are then per commit whatever the group.
  const std::uint64_t commits = step_commits_;
  const auto share = [commits](std::int64_t ns) {
    return (ns + static_cast<std::int64_t>(commits) / 2) /
           static_cast<std::int64_t>(commits);
  };
  for (std::uint64_t k = 0; k < commits; ++k) {
    total_.Record(share(times.Total()));
    write_.Record(share(times.write_ns));
    sync_.Record(share(times.sync_ns));
  }
  return times;
}

namespace {

// The file's extents by FIEMAP, counted first and then read; nullopt where
// the filesystem has no FIEMAP.
std::optional<std::vector<fiemap_extent>> ExtentsOf(int fd, FileOps& ops) {
  fiemap head{};
  head.fm_length = FIEMAP_MAX_OFFSET;
  if (ops.Fiemap(fd, &head) != 0) return std::nullopt;
  const std::size_t count = head.fm_mapped_extents;
  std::vector<char> buffer(sizeof(fiemap) + count * sizeof(fiemap_extent));
  auto* map = reinterpret_cast<fiemap*>(buffer.data());
  map->fm_length = FIEMAP_MAX_OFFSET;
  map->fm_extent_count = static_cast<std::uint32_t>(count);
  if (ops.Fiemap(fd, map) != 0) return std::nullopt;
  return std::vector<fiemap_extent>(map->fm_extents,
                                    map->fm_extents + map->fm_mapped_extents);
}

// How many extents, and the blocks the file holds beyond the data they map.
std::optional<FilePlacement> PlacementOf(
    int fd, const std::vector<fiemap_extent>& extents, FileOps& ops) {
  struct stat st {};
  if (ops.Fstat(fd, &st) != 0 || st.st_blksize <= 0) return std::nullopt;
  std::uint64_t mapped = 0;
  for (const fiemap_extent& e : extents) mapped += e.fe_length;
  const std::uint64_t held = static_cast<std::uint64_t>(st.st_blocks) * 512;
  const auto block = static_cast<std::uint64_t>(st.st_blksize);
  return FilePlacement{extents.size(),
                       held > mapped ? (held - mapped) / block : 0};
}

// The extents' sectors on the disk: 512-byte units from the disk's start.
void AddSectors(const std::vector<fiemap_extent>& extents,
                std::uint64_t disk_offset, std::vector<SectorRange>& into) {
  constexpr std::uint32_t kNoPlace = FIEMAP_EXTENT_UNKNOWN |
                                     FIEMAP_EXTENT_DELALLOC |
                                     FIEMAP_EXTENT_DATA_INLINE;
  for (const fiemap_extent& e : extents) {
    if ((e.fe_flags & kNoPlace) != 0) continue;
    into.push_back({disk_offset + e.fe_physical / 512,
                    disk_offset + (e.fe_physical + e.fe_length + 511) / 512});
  }
}

}  // namespace

RunRecord Run::Finish(std::optional<Error> error) {
  assert(!finished_);
  finished_ = true;
  if (device_before_) {
    if (auto after = ReadDeviceCounters(*spec_.device_stat_path)) {
      record_.device = *after - *device_before_;
    }
  }
  if (process_before_) {
    if (auto after = ReadProcessIo())
      record_.process = *after - *process_before_;
  }
  record_.total_ns = total_.Sparse();
  record_.write_ns = write_.Sparse();
  record_.sync_ns = sync_.Sparse();
  record_.staged = writer_->Staged();
  record_.error = std::move(error);
  std::optional<ParsedTrace> trace;
  if (tracing_) {
    if (Result<ParsedTrace> read = spec_.trace->Stop(); read) {
      if (!read.value().lost) trace = std::move(read).value();
    }
  }
  std::optional<std::vector<fiemap_extent>> extents;
  if (files_->fd() >= 0) extents = ExtentsOf(files_->fd(), *spec_.ops);
  if (extents) {
    record_.placement = PlacementOf(files_->fd(), *extents, *spec_.ops);
  }
  if (trace && extents) AccountTrace(*trace, *extents);
  files_->Close();
  return std::move(record_);
}

void Run::AccountTrace(const ParsedTrace& trace,
                       const std::vector<fiemap_extent>& extents) {
  std::vector<SectorRange> ranges;
  AddSectors(extents, spec_.disk_offset_sectors, ranges);
  // A replay's other files are the benchmark's own too.
  for (const int fd : files_->OtherFds()) {
    if (auto theirs = ExtentsOf(fd, *spec_.ops)) {
      AddSectors(*theirs, spec_.disk_offset_sectors, ranges);
    }
  }
  record_.requests = AccountRequests(trace.events, ranges, ::getpid());
}

}  // namespace alignbench
