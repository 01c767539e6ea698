#include "lib/measure/engine.h"

#include <linux/fs.h>

#include <cassert>
#include <cerrno>
#include <utility>

#include "lib/io/file_io.h"

namespace alignbench {
namespace {

// RWF_ATOMIC of <linux/fs.h> since Linux 6.11, which Debian 12's headers
// predate.
constexpr int kRwfAtomic = 0x00000040;

}  // namespace

LogWriter::LogWriter(const RunSpec& spec, RunFiles& files, Staging staging)
    : io_(spec.io),
      dio_alignment_(spec.dio_alignment),
      direct_unaligned_(spec.direct_unaligned),
      atomic_(spec.atomic),
      ops_(*spec.ops),
      files_(files),
      staging_(std::move(staging)) {}

int LogWriter::RwfOf(const Op& op) const {
  return (op.call == SyncCall::kODsync  ? RWF_DSYNC
          : op.call == SyncCall::kOSync ? RWF_SYNC
                                        : 0) |
         (atomic_ && op.file == 0 ? kRwfAtomic : 0);
}

Status LogWriter::WriteNow(const Op& op, const char* bytes) {
  const int rwf = RwfOf(op);
  const Extent extent = op.Bytes();
  if (op.file != 0) {  // a replay's other file: buffered
    Result<int> fd = files_.FdOf(op.file);
    if (!fd) return fd.error();
    return PwriteAll(fd.value(), bytes, extent.length,
                     static_cast<off_t>(extent.offset), files_.PathOf(op.file),
                     ops_, rwf);
  }
  Result<RingWrite> write = LogWrite(extent, bytes, rwf);
  if (!write) return write.error();
  const RingWrite& w = write.value();
  Status written =
      PwriteAll(w.fd, w.bytes, w.length, static_cast<off_t>(w.offset),
                LogPath(), ops_, w.rwf);
  if (!written) return WriteError(written.error(), extent);
  return written;
}

Result<RingWrite> LogWriter::LogWrite(Extent extent, const char* bytes,
                                      int rwf) {
  const std::uint64_t a = dio_alignment_;
  const bool unaligned = io_ == IoMode::kDirect &&
                         (extent.offset % a != 0 || extent.length % a != 0);
  if (unaligned && direct_unaligned_ == DirectUnaligned::kStage) {
    staged_ = true;
    return staging_.Stage(extent, bytes, rwf, files_.fd(), LogPath(), ops_);
  }
  return RingWrite{files_.fd(), bytes, extent.length, extent.offset, rwf};
}

Error LogWriter::WriteError(Error error, Extent extent) const {
  if (error.errno_value == EOPNOTSUPP && atomic_) {
    error.hint =
        "this filesystem takes no atomic writes (statx STATX_WRITE_ATOMIC: "
        "alignbench env); xfs does from Linux 6.16";
  } else if (error.errno_value == EINVAL && atomic_) {
    error.hint =
        "RWF_ATOMIC takes one write of a size the filesystem names "
        "(statx STATX_WRITE_ATOMIC: alignbench env) at an offset "
        "that is a multiple of that size; this one is " +
        std::to_string(extent.length) + " bytes at " +
        std::to_string(extent.offset);
  } else if (error.errno_value == EINVAL && io_ == IoMode::kDirect) {
    error.hint =
        "O_DIRECT on this filesystem needs offsets that are multiples of " +
        std::to_string(dio_alignment_) +
        " bytes; --direct-unaligned stage measures it as a database would";
  }
  return error;
}

Result<std::unique_ptr<WriteEngine>> StartEngine(const RunSpec& spec,
                                                 LogWriter& writer) {
  assert(spec.writers <= 1 || spec.queue_depth <= 1);
  const auto commits = static_cast<std::size_t>(spec.commits_per_sync);
  if (spec.writers > 1) {
    return StartThreadsEngine(static_cast<std::size_t>(spec.writers), commits,
                              writer);
  }
  if (spec.queue_depth > 1) {
    return StartUringEngine(static_cast<unsigned>(spec.queue_depth), commits,
                            *spec.ops, writer);
  }
  return StartSyncEngine(writer);
}

}  // namespace alignbench
