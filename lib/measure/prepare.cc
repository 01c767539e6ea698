#include "lib/measure/prepare.h"

#include <fcntl.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <utility>

#include "lib/io/file_io.h"
#include "lib/measure/sync.h"

namespace alignbench {
namespace {

Error SetupFailure(const std::string& operation, const std::string& path) {
  return SystemError(ErrorKind::kSetup, operation, path, errno);
}

// fallocate(2), not posix_fallocate(3): where the filesystem cannot
// preallocate (ext2, some NFS), glibc's fallback writes zeros and "prealloc"
// would silently become a written file. EOPNOTSUPP is answered by Prepare
// from the errno table, as every failure of a run.
Status Preallocate(std::uint64_t span, const TestFile& file, FileOps& ops) {
  if (span == 0 ||
      ops.Fallocate(file.fd(), 0, 0, static_cast<off_t>(span)) == 0) {
    return Ok{};
  }
  Error error = SetupFailure("fallocate", file.path());
  if (error.errno_value == EOPNOTSUPP) {
    error.hint =
        "this filesystem cannot preallocate: use --layout prewritten; a "
        "--replay of a preallocated log needs a filesystem that can "
        "(ext4, xfs, btrfs)";
  }
  return error;
}

// The file laid out over `span` bytes before the clock starts.
Status PrepareLayout(Layout layout, std::uint64_t span, const TestFile& file,
                     FileOps& ops) {
  switch (layout) {
    case Layout::kExtend:
      return Ok{};
    case Layout::kPrealloc:
      return Preallocate(span, file, ops);
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

// The log as the run finds it: created, laid out, its header written, all of
// it on disk before the clock starts (so the first timed sync pays only for
// its own write).
Result<TestFile> MakeLog(const RunSpec& spec) {
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
  if (spec.ops->Fsync(file.fd()) != 0)
    return SetupFailure("fsync", file.path());
  return file;
}

}  // namespace

RunFiles::RunFiles(TestFile log, UniqueFd fd, std::string dir, FileOps& ops)
    : log_(std::move(log)),
      fd_(std::move(fd)),
      dir_path_(std::move(dir)),
      ops_(&ops) {}

// The log made, then reopened with the run's sync and direct flags.
Result<std::unique_ptr<RunFiles>> RunFiles::Prepare(const RunSpec& spec) {
  Result<TestFile> log = MakeLog(spec);
  if (!log) return log.error();
  int flags = O_RDWR | SyncOpenFlags(spec.sync);
  if (spec.io == IoMode::kDirect) flags |= O_DIRECT;
  Result<UniqueFd> reopened = log.value().Reopen(flags);
  if (!reopened) {
    Error error = reopened.error();
    if (error.errno_value == EINVAL && spec.io == IoMode::kDirect) {
      error.hint =
          "this filesystem does not support O_DIRECT; use --io buffered";
    }
    return error;
  }
  return std::unique_ptr<RunFiles>(new RunFiles(std::move(log).value(),
                                                std::move(reopened).value(),
                                                spec.dir, *spec.ops));
}

// A replay's other files, laid out as the trace found them and on disk
// before the clock starts, and their directory, for a sync_dir.
Status RunFiles::PrepareOthers(const RunSpec& spec) {
  assert(others_.empty() && !dir_.valid());  // once, after Prepare
  for (const OtherFile& other : spec.others) {
    Result<TestFile> made = TestFile::Create(dir_path_, *ops_);
    if (!made) return made.error();
    const TestFile& file = *others_.emplace_back(std::move(made).value());
    if (Status laid = PrepareLayout(other.layout, other.size, file, *ops_);
        !laid) {
      return laid;
    }
    if (ops_->Fsync(file.fd()) != 0) return SetupFailure("fsync", file.path());
  }
  dir_ = UniqueFd(
      ops_->Open(dir_path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_.valid()) return SetupFailure("open directory", dir_path_);
  return Ok{};
}

namespace {

// One file's pages dropped, its dirty ones written first.
Status Drop(const TestFile& file, FileOps& ops) {
  if (ops.Fdatasync(file.fd()) != 0)
    return SetupFailure("fdatasync", file.path());
  if (const int rc = ops.DropCache(file.fd()); rc != 0) {
    return SystemError(ErrorKind::kSetup, "fadvise", file.path(), rc);
  }
  return Ok{};
}

}  // namespace

// mincore(2) asks how many pages stayed, before the other files are dropped.
Result<std::optional<std::uint64_t>> RunFiles::DropCache(std::uint64_t span) {
  if (Status dropped = Drop(log_, *ops_); !dropped) return dropped.error();
  std::optional<std::uint64_t> resident;
  if (std::uint64_t pages = 0;
      ops_->ResidentPages(log_.fd(), span, &pages) == 0) {
    resident = pages;
  }
  for (const std::optional<TestFile>& other : others_) {
    if (Status dropped = Drop(*other, *ops_); !dropped) return dropped.error();
  }
  return resident;
}

Result<int> RunFiles::FdOf(std::uint64_t file) const {
  if (file == 0) return fd_.get();
  if (file <= others_.size() && others_[file - 1]) {
    return others_[file - 1]->fd();
  }
  return PlainError(ErrorKind::kUsage, "replay",
                    "an op on file " + std::to_string(file) +
                        " of the trace after its unlink, before a create");
}

std::string RunFiles::PathOf(std::uint64_t file) const {
  if (file == 0) return log_.path();
  if (file <= others_.size() && others_[file - 1]) {
    return others_[file - 1]->path();
  }
  return dir_path_;
}

Status RunFiles::Create(std::uint64_t file) {
  if (file == 0 || file > others_.size()) {
    return PlainError(ErrorKind::kUsage, "replay",
                      "a create of the log file, which a replay keeps");
  }
  Result<TestFile> made = TestFile::Create(dir_path_, *ops_);
  if (!made) return made.error();
  others_[file - 1].reset();
  others_[file - 1].emplace(std::move(made).value());
  return Ok{};
}

// Never of the log: ReplayOf refuses that.
void RunFiles::Unlink(std::uint64_t file) {
  if (file > 0 && file <= others_.size()) {
    others_[file - 1].reset();  // its destructor unlinks it
  }
}

std::vector<int> RunFiles::OtherFds() const {
  std::vector<int> fds;
  for (const std::optional<TestFile>& other : others_) {
    if (other) fds.push_back(other->fd());
  }
  return fds;
}

}  // namespace alignbench
