#include "lib/measure/run.h"

#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <optional>
#include <vector>

#include "lib/base/memory.h"
#include "lib/config/replay.h"
#include "lib/measure/sync.h"

namespace alignbench {
namespace {

using Clock = std::chrono::steady_clock;

// RWF_ATOMIC of <linux/fs.h> since Linux 6.11, which Debian 12's headers
// predate.
constexpr int kRwfAtomic = 0x00000040;

std::int64_t Nanos(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

std::uint64_t RoundUp(std::uint64_t value, std::uint64_t to) {
  return (value + to - 1) / to * to;
}

Error Fail(const std::string& operation, const std::string& path) {
  return SystemError(ErrorKind::kSetup, operation, path, errno);
}

// The file laid out over `span` bytes before the clock starts.
Status PrepareLayout(Layout layout, std::uint64_t span, const TestFile& file,
                     FileOps& ops) {
  switch (layout) {
    case Layout::kExtend:
      return Ok{};
    case Layout::kPrealloc:
      // fallocate(2), not posix_fallocate(3): where the filesystem cannot
      // preallocate (ext2, some NFS), glibc's fallback writes zeros and
      // "prealloc" would silently become a written file. EOPNOTSUPP is
      // answered by Prepare from the errno table, as every failure of a run.
      if (span > 0 &&
          ops.Fallocate(file.fd(), 0, 0, static_cast<off_t>(span)) != 0) {
        Error error = Fail("fallocate", file.path());
        if (error.errno_value == EOPNOTSUPP) {
          error.hint =
              "this filesystem cannot preallocate: use --layout prewritten; a "
              "--replay of a preallocated log needs a filesystem that can "
              "(ext4, xfs, btrfs)";
        }
        return error;
      }
      return Ok{};
    case Layout::kPrewritten: {
      constexpr std::uint64_t kChunk = 1 << 20;
      std::vector<char> zeros(kChunk, '\0');
      for (std::uint64_t at = 0; at < span; at += kChunk) {
        Status written =
            PwriteAll(file.fd(), zeros.data(), std::min(kChunk, span - at),
                      static_cast<off_t>(at), file.path(), ops);
        if (!written) return written;
      }
      return Ok{};
    }
  }
  return Ok{};
}

// Pages of the file still in the page cache, by mincore(2) over a read-only
// mapping.
std::optional<std::uint64_t> ResidentPages(int fd, std::uint64_t span) {
  if (span == 0) return 0;
  void* map = ::mmap(nullptr, span, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return std::nullopt;
  const long page = ::sysconf(_SC_PAGESIZE);
  std::vector<unsigned char> vec((span + page - 1) / page);
  std::optional<std::uint64_t> resident;
  if (::mincore(map, span, vec.data()) == 0) {
    resident = std::count_if(vec.begin(), vec.end(),
                             [](unsigned char v) { return v & 1; });
  }
  ::munmap(map, span);
  return resident;
}

}  // namespace

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

Result<Run> Run::Prepare(const RunSpec& spec) {
  Result<Run> run = PrepareUnanswered(spec);
  if (!run) return Answer(run.error(), Phase::kMeasurement, RunFileBytes(spec));
  return run;
}

namespace {

// The file as the run finds it: created, laid out, its header written, all
// of it on disk before the clock starts (so the first timed sync pays only for
// its own write), then reopened with the run's sync and direct flags.
Result<std::pair<TestFile, UniqueFd>> PrepareFile(const RunSpec& spec) {
  Result<TestFile> created = TestFile::Create(spec.dir, *spec.ops);
  if (!created) return created.error();
  TestFile file = std::move(created).value();
  if (Status laid =
          PrepareLayout(spec.layout, RunFileBytes(spec), file, *spec.ops);
      !laid) {
    return laid.error();
  }
  const std::uint64_t header = spec.pattern.HeaderBytes();
  if (header > 0) {
    std::vector<char> bytes(header, 'H');
    Status written =
        PwriteAll(file.fd(), bytes.data(), header, 0, file.path(), *spec.ops);
    if (!written) return written.error();
  }
  if (spec.ops->Fsync(file.fd()) != 0) return Fail("fsync", file.path());
  int flags = O_RDWR | SyncOpenFlags(spec.sync);
  if (spec.io == IoMode::kDirect) flags |= O_DIRECT;
  Result<UniqueFd> reopened = file.Reopen(flags);
  if (!reopened) {
    Error error = reopened.error();
    if (error.errno_value == EINVAL && spec.io == IoMode::kDirect) {
      error.hint =
          "this filesystem does not support O_DIRECT; use --io buffered";
    }
    return error;
  }
  return std::pair{std::move(file), std::move(reopened).value()};
}

}  // namespace

// --cache cold: the file's pages dropped after the warm-up, and mincore(2)
// asked how many stayed.
Status Run::DropCache() {
  if (spec_.ops->Fdatasync(file_.fd()) != 0) {
    return Fail("fdatasync", file_.path());
  }
  const int rc = spec_.ops->DropCache(file_.fd());
  if (rc != 0) {
    return SystemError(ErrorKind::kSetup, "fadvise", file_.path(), rc);
  }
  record_.resident_pages_after_drop =
      ResidentPages(file_.fd(), RunFileBytes(spec_));
  for (const std::optional<TestFile>& other : others_) {
    if (spec_.ops->Fdatasync(other->fd()) != 0) {
      return Fail("fdatasync", other->path());
    }
    if (const int other_rc = spec_.ops->DropCache(other->fd()); other_rc != 0) {
      return SystemError(ErrorKind::kSetup, "fadvise", other->path(), other_rc);
    }
  }
  return Ok{};
}

// A replay's other files, laid out as the trace found them and on disk
// before the clock starts, and their directory, for a sync_dir.
Status Run::PrepareOthers() {
  for (const OtherFile& other : spec_.others) {
    Result<TestFile> made = TestFile::Create(spec_.dir, *spec_.ops);
    if (!made) return made.error();
    const TestFile& file = *others_.emplace_back(std::move(made).value());
    if (Status laid = PrepareLayout(other.layout, other.size, file, *spec_.ops);
        !laid) {
      return laid;
    }
    if (spec_.ops->Fsync(file.fd()) != 0) return Fail("fsync", file.path());
  }
  dir_ =
      UniqueFd(::open(spec_.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_.valid()) return Fail("open directory", spec_.dir);
  return Ok{};
}

// The run and its buffers, the run's one large allocation: a memory limit
// (ulimit -v, a cgroup) is met here, and here it is known what it was for.
Result<Run> Run::Allocate(const RunSpec& spec, TestFile file, UniqueFd fd) {
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
    std::vector<AlignedBuffer> stages;
    const std::uint64_t buffers =
        stage > 0 ? std::max<std::uint64_t>(2, spec.queue_depth + 1) : 0;
    for (std::uint64_t k = 0; k < buffers; ++k) {
      stages.emplace_back(stage, alignment);
    }
    Run run(
        spec, std::move(file), std::move(fd),
        Payload(size, alignment, spec.pattern.Reach(spec.warmup + spec.writes)),
        std::move(stages));
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
  Result<std::pair<TestFile, UniqueFd>> prepared = PrepareFile(spec);
  if (!prepared) return prepared.error();
  auto& [file, fd] = prepared.value();
  Result<Run> made = Allocate(spec, std::move(file), std::move(fd));
  if (!made) return made.error();
  Run& run = made.value();
  if (Status others = run.PrepareOthers(); !others) return others.error();
  if (Status started = run.StartWriters(); !started) return started.error();
  if (!run.stages_.empty()) {
    // The writer knows its header block: the header's bytes, then zeros.
    char* held = run.stages_[run.held_].data();
    std::memset(held, 0, spec.dio_alignment);
    std::memset(held, 'H',
                std::min<std::uint64_t>(spec.pattern.HeaderBytes(),
                                        spec.dio_alignment));
    run.held_to_ = spec.dio_alignment;
  }
  // Step() allocates nothing.
  run.step_.reserve(4 * spec.commits_per_sync);
  run.commit_starts_.reserve(spec.commits_per_sync + 1);
  run.in_flight_.reserve(4 * spec.commits_per_sync);
  for (std::uint64_t k = 0; k < spec.warmup; k += run.step_commits_) {
    if (Result<OpTimes> op = run.Step(); !op) return op.error();
  }
  run.total_.Reset();
  run.write_.Reset();
  run.sync_.Reset();
  if (spec.cache == CacheState::kCold) {
    if (Status dropped = run.DropCache(); !dropped) return dropped.error();
  }
  // Enabled before the counters are read and disabled after, so that the
  // trace sees every request the counters count.
  run.tracing_ = spec.trace != nullptr && spec.trace->Start();
  if (spec.device_stat_path)
    run.device_before_ = ReadDeviceCounters(*spec.device_stat_path);
  run.process_before_ = ReadProcessIo();
  return made;
}

Run::Run(RunSpec spec, TestFile file, UniqueFd fd, Payload payload,
         std::vector<AlignedBuffer> stages)
    : spec_(std::move(spec)),
      file_(std::move(file)),
      fd_(std::move(fd)),
      payload_(std::move(payload)),
      stages_(std::move(stages)) {}

namespace {

// What to do when the ring of --queue-depth cannot be had, by io_uring_setup's
// errno (io_uring_setup(2)); empty leaves the errno table's hint.
std::string RingHint(int err) {
  switch (err) {
    case ENOSYS:
      return "this kernel has no io_uring (built without CONFIG_IO_URING): "
             "--queue-depth 1 writes one at a time";
    case EPERM:
    case EACCES:
      return "io_uring is not open to this process (sysctl "
             "kernel.io_uring_disabled, a container's seccomp filter): "
             "--queue-depth 1 writes one at a time";
    case ENOMEM:
      return "the ring's memory could not be had (locked memory before "
             "Linux 5.12: ulimit -l; else free memory): raise the limit or use "
             "a smaller --queue-depth";
    case EMFILE:
    case ENFILE:
      return "too many open files (ulimit -n): raise the limit";
    case EINVAL:
      return "the kernel refused a ring of this size: use a smaller "
             "--queue-depth";
    default:
      return "";
  }
}

// Likewise for the threads of --writers (pthread_create's errno).
std::string ThreadsHint(int err) {
  return err == EAGAIN ? "no more threads may be started (ulimit -u, the "
                         "cgroup's pids.max): raise the limit or use fewer "
                         "--writers"
                       : "";
}

}  // namespace

// The group's writer threads or its ring, before the warm-up uses them. What
// the machine will not give is a setup failure (exit 2), never the disk's.
Status Run::StartWriters() {
  if (spec_.writers > 1) {
    auto started = WriterThreads::Start(spec_.writers);
    if (!started) {
      Error error = started.error();
      error.hint = ThreadsHint(error.errno_value);
      return error;
    }
    writers_ = std::move(started).value();
  }
  if (spec_.queue_depth > 1) {
    Result<Uring> ring = Uring::Open(static_cast<unsigned>(spec_.queue_depth));
    if (!ring) {
      Error error = ring.error();
      error.hint = RingHint(error.errno_value);
      return error;
    }
    ring_.emplace(std::move(ring).value());
  }
  return Ok{};
}

int Run::RwfOf(const Op& op) const {
  return (op.call == SyncCall::kODsync  ? RWF_DSYNC
          : op.call == SyncCall::kOSync ? RWF_SYNC
                                        : 0) |
         (spec_.atomic && op.file == 0 ? kRwfAtomic : 0);
}

Status Run::WriteAt(const Op& op, const char* bytes) {
  const int rwf = RwfOf(op);
  const Extent extent = op.Bytes();
  if (op.file != 0) {  // a replay's other file: buffered
    Result<int> fd = FdOf(op.file);
    if (!fd) return fd.error();
    return PwriteAll(fd.value(), bytes, extent.length,
                     static_cast<off_t>(extent.offset), PathOf(op.file),
                     *spec_.ops, rwf);
  }
  Result<RingWrite> write = LogWrite(extent, bytes, rwf);
  if (!write) return write.error();
  const RingWrite& w = write.value();
  Status written =
      PwriteAll(w.fd, w.bytes, w.length, static_cast<off_t>(w.offset),
                file_.path(), *spec_.ops, w.rwf);
  if (!written) return WriteError(written.error(), extent);
  return written;
}

Result<RingWrite> Run::LogWrite(Extent extent, const char* bytes, int rwf) {
  const std::uint64_t a = spec_.dio_alignment;
  const bool unaligned = spec_.io == IoMode::kDirect &&
                         (extent.offset % a != 0 || extent.length % a != 0);
  if (unaligned && spec_.direct_unaligned == DirectUnaligned::kStage) {
    return Staged(extent, bytes, rwf);
  }
  return RingWrite{fd_.get(), bytes, extent.length, extent.offset, rwf};
}

Error Run::WriteError(Error error, Extent extent) const {
  if (error.errno_value == EOPNOTSUPP && spec_.atomic) {
    error.hint =
        "this filesystem takes no atomic writes (statx STATX_WRITE_ATOMIC: "
        "alignbench env); xfs does from Linux 6.16";
  } else if (error.errno_value == EINVAL && spec_.atomic) {
    error.hint =
        "RWF_ATOMIC takes one write of a size the filesystem names "
        "(statx STATX_WRITE_ATOMIC: alignbench env) at an offset "
        "that is a multiple of that size; this one is " +
        std::to_string(extent.length) + " bytes at " +
        std::to_string(extent.offset);
  } else if (error.errno_value == EINVAL && spec_.io == IoMode::kDirect) {
    error.hint =
        "O_DIRECT on this filesystem needs offsets that are multiples of " +
        std::to_string(spec_.dio_alignment) +
        " bytes; --direct-unaligned stage measures it as a database would";
  }
  return error;
}

// As a database does under O_DIRECT (InnoDB's and Derby's log buffers): the
// write is whole aligned blocks built in memory. The partly filled block it
// starts in is the one the write before ended in, which the writer still has
// (the header block for the first write), or any block the write before
// wrote where a log writes its partly filled block again (MariaDB's redo,
// moved by a replay's shift, spans three blocks and starts again in the
// middle one); after its end the last block is zeros, the log's free space.
// Nothing is read back in the timed span. Only a head block the writer does not
// hold (never, for these sequential patterns) is read from the file. With
// writes in flight, each has its own buffer, and the write that starts in the
// block the one before ends in waits for it (WriteInFlight links them), as a
// log that keeps its blocks in order must.
Result<RingWrite> Run::Staged(Extent extent, const char* bytes, int rwf) {
  record_.staged = true;
  const std::uint64_t a = spec_.dio_alignment;
  const std::uint64_t offset = extent.offset;
  const std::uint64_t size = extent.length;
  const std::uint64_t start = offset / a * a;
  const std::uint64_t end = RoundUp(offset + size, a);
  const std::size_t next = (held_ + 1) % stages_.size();
  char* stage = stages_[next].data();
  if (start >= held_from_ && start + a <= held_to_) {
    std::memcpy(stage, stages_[held_].data() + (start - held_from_), a);
  } else if (Status read =
                 PreadAll(fd_.get(), stage, a, static_cast<off_t>(start),
                          file_.path(), *spec_.ops);
             !read) {
    return read.error();
  }
  std::memcpy(stage + (offset - start), bytes, size);
  std::memset(stage + (offset - start) + size, 0, end - (offset + size));
  held_ = next;
  held_from_ = start;
  held_to_ = end;
  return RingWrite{fd_.get(), stage, end - start, start, rwf};
}

// A replay's ftruncate or fallocate, as the program made it between its
// writes (timed with them).
Status Run::Resize(const Op& op) {
  Result<int> fd = FdOf(op.file);
  if (!fd) return fd.error();
  const auto offset = static_cast<off_t>(op.offset);
  const auto length = static_cast<off_t>(op.length);
  if (op.kind == OpKind::kTruncate) {
    if (spec_.ops->Ftruncate(fd.value(), length) != 0) {
      return SystemError(ErrorKind::kIo, "ftruncate", PathOf(op.file), errno);
    }
    return Ok{};
  }
  const int mode = op.keep_size ? FALLOC_FL_KEEP_SIZE : 0;
  if (spec_.ops->Fallocate(fd.value(), mode, offset, length) != 0) {
    return SystemError(ErrorKind::kIo, "fallocate", PathOf(op.file), errno);
  }
  return Ok{};
}

// A sync: the run's method, or a replay's own call.
Status Run::Sync(const Op& op) {
  Result<int> fd = FdOf(op.file);
  if (!fd) return fd.error();
  if (op.call == SyncCall::kRun) {
    return SyncAfterWrite(spec_.sync, fd.value(), PathOf(op.file), *spec_.ops);
  }
  const bool full = op.call == SyncCall::kFsync;
  if ((full ? spec_.ops->Fsync(fd.value())
            : spec_.ops->Fdatasync(fd.value())) != 0) {
    return SystemError(ErrorKind::kIo, full ? "fsync" : "fdatasync",
                       PathOf(op.file), errno);
  }
  return Ok{};
}

// A replay's create: the file its unlink removed made again, empty, under a
// new private name.
Status Run::Create(std::uint64_t file) {
  if (file == 0 || file > others_.size()) {
    return PlainError(ErrorKind::kUsage, "replay",
                      "a create of the log file, which a replay keeps");
  }
  Result<TestFile> made = TestFile::Create(spec_.dir, *spec_.ops);
  if (!made) return made.error();
  others_[file - 1].reset();
  others_[file - 1].emplace(std::move(made).value());
  return Ok{};
}

Result<int> Run::FdOf(std::uint64_t file) const {
  if (file == 0) return fd_.get();
  if (file <= others_.size() && others_[file - 1]) {
    return others_[file - 1]->fd();
  }
  return PlainError(ErrorKind::kUsage, "replay",
                    "an op on file " + std::to_string(file) +
                        " of the trace after its unlink, before a create");
}

std::string Run::PathOf(std::uint64_t file) const {
  if (file == 0) return file_.path();
  if (file <= others_.size() && others_[file - 1]) {
    return others_[file - 1]->path();
  }
  return spec_.dir;
}

Status Run::Do(const Op& op, const char* bytes) {
  switch (op.kind) {
    case OpKind::kWrite:
      return WriteAt(op, bytes);
    case OpKind::kSync:
      return Sync(op);
    case OpKind::kTruncate:
    case OpKind::kAllocate:
      return Resize(op);
    case OpKind::kUnlink:  // never of the log: ReplayOf refuses that
      if (op.file > 0 && op.file <= others_.size()) {
        others_[op.file - 1].reset();  // its destructor unlinks it
      }
      return Ok{};
    case OpKind::kCreate:
      return Create(op.file);
    case OpKind::kRead: {
      Result<int> fd = FdOf(op.file);
      if (!fd) return fd.error();
      return PreadAll(fd.value(), read_.data(), op.length,
                      static_cast<off_t>(op.offset), PathOf(op.file),
                      *spec_.ops);
    }
    case OpKind::kStat: {
      Result<int> fd = FdOf(op.file);
      if (!fd) return fd.error();
      struct stat st {};
      if (::fstat(fd.value(), &st) != 0) {
        return SystemError(ErrorKind::kIo, "fstat", PathOf(op.file), errno);
      }
      return Ok{};
    }
    case OpKind::kSyncDir:
      if ((op.call == SyncCall::kFdatasync
               ? spec_.ops->Fdatasync(dir_.get())
               : spec_.ops->Fsync(dir_.get())) != 0) {
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
  commit_starts_.clear();
  step_commits_ = 0;
  const std::uint64_t commits = spec_.commits_per_sync;
  for (std::uint64_t k = 0; k < commits; ++k) {
    commit_starts_.push_back(step_.size());
    const char* bytes = payload_.For(next_++);
    const CommitOps& ops = spec_.pattern.Next();
    // A group of --group-commit is one write of its commits' records.
    step_commits_ += spec_.pattern.Commits();
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Op& op = ops[i];
      if (k + 1 < commits && i + 1 == ops.size() && op.kind == OpKind::kSync) {
        continue;
      }
      step_.emplace_back(op, bytes);
      if (op.kind == OpKind::kWrite) bytes += op.length;
    }
  }
  commit_starts_.push_back(step_.size());
}

Status Run::WriteTogether() {
  if (writers_) {
    return writers_->WriteGroup(
        spec_.commits_per_sync,
        [this](std::size_t commit) { return WriteCommit(commit); });
  }
  return WriteInFlight();
}

// Commit `commit`'s writes, on the writer thread that took it.
Status Run::WriteCommit(std::size_t commit) {
  for (std::size_t i = commit_starts_[commit]; i < commit_starts_[commit + 1];
       ++i) {
    const auto& [op, bytes] = step_[i];
    if (op.kind != OpKind::kWrite) continue;
    if (Status written = WriteAt(op, bytes); !written) return written;
  }
  return Ok{};
}

Status Run::WriteInFlight() {
  in_flight_.clear();
  for (const auto& [op, bytes] : step_) {
    if (op.kind != OpKind::kWrite) continue;
    Result<RingWrite> write = LogWrite(op.Bytes(), bytes, RwfOf(op));
    if (!write) return write.error();
    // Staged writes share a block with the write before: that one first.
    if (!in_flight_.empty()) {
      RingWrite& before = in_flight_.back();
      const RingWrite& next = write.value();
      before.then_next = before.fd == next.fd &&
                         next.offset < before.offset + before.length &&
                         before.offset < next.offset + next.length;
    }
    in_flight_.push_back(write.value());
  }
  const auto failed = ring_->WriteAll(in_flight_.data(), in_flight_.size());
  if (!failed) return Ok{};
  const RingWrite& w = in_flight_[failed->index];
  return WriteError(
      SystemError(ErrorKind::kIo, "io_uring write", file_.path(),
                  failed->errno_value, static_cast<std::int64_t>(w.offset)),
      Extent{w.offset, w.length});
}

Result<OpTimes> Run::Step() {
  Gather();
  OpTimes times{0, 0};
  Clock::time_point last = Clock::now();
  const bool together = writers_ || ring_;
  if (together) {
    if (Status written = WriteTogether(); !written) {
      return WithHint(written.error());
    }
    const Clock::time_point now = Clock::now();
    times.write_ns = Nanos(now - last);
    last = now;
  }
  for (const auto& [op, bytes] : step_) {
    if (together && op.kind == OpKind::kWrite) continue;
    // A sync without a call (o_sync, o_dsync, none; a replay's synchronous
    // write's) takes no time: no clock read lands inside the span for it.
    if (op.kind == OpKind::kSync &&
        (op.call == SyncCall::kNone ||
         (op.call == SyncCall::kRun && !HasSyncCall(spec_.sync)))) {
      continue;
    }
    if (Status done = Do(op, bytes); !done) return WithHint(done.error());
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
std::optional<std::vector<fiemap_extent>> ExtentsOf(int fd) {
  fiemap head{};
  head.fm_length = FIEMAP_MAX_OFFSET;
  if (::ioctl(fd, FS_IOC_FIEMAP, &head) != 0) return std::nullopt;
  const std::size_t count = head.fm_mapped_extents;
  std::vector<char> buffer(sizeof(fiemap) + count * sizeof(fiemap_extent));
  auto* map = reinterpret_cast<fiemap*>(buffer.data());
  map->fm_length = FIEMAP_MAX_OFFSET;
  map->fm_extent_count = static_cast<std::uint32_t>(count);
  if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) return std::nullopt;
  return std::vector<fiemap_extent>(map->fm_extents,
                                    map->fm_extents + map->fm_mapped_extents);
}

// How many extents, and the blocks the file holds beyond the data they map.
std::optional<FilePlacement> PlacementOf(
    int fd, const std::vector<fiemap_extent>& extents) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_blksize <= 0) return std::nullopt;
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
  record_.error = std::move(error);
  std::optional<ParsedTrace> trace;
  if (tracing_) {
    if (Result<ParsedTrace> read = spec_.trace->Stop(); read) {
      if (!read.value().lost) trace = std::move(read).value();
    }
  }
  std::optional<std::vector<fiemap_extent>> extents;
  if (fd_.valid()) extents = ExtentsOf(fd_.get());
  if (extents) record_.placement = PlacementOf(fd_.get(), *extents);
  if (trace && extents) AccountTrace(*trace, *extents);
  fd_.Reset();
  return std::move(record_);
}

void Run::AccountTrace(const ParsedTrace& trace,
                       const std::vector<fiemap_extent>& extents) {
  std::vector<SectorRange> ranges;
  AddSectors(extents, spec_.disk_offset_sectors, ranges);
  // A replay's other files are the benchmark's own too.
  for (const std::optional<TestFile>& other : others_) {
    if (!other) continue;
    if (auto theirs = ExtentsOf(other->fd())) {
      AddSectors(*theirs, spec_.disk_offset_sectors, ranges);
    }
  }
  record_.requests = AccountRequests(trace.events, ranges, ::getpid());
}

}  // namespace alignbench
