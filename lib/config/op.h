// One operation of a commit on a file: the one type a trace records
// (trace_file.h), the reader of strace's output makes (lib/trace/), a replay
// lays out (replay.h) and a run carries out (lib/measure/): a write, a read,
// a stat, a sync, a truncate, an allocation, an unlink, a create or a sync of
// the files' directory, with its file, its extent and its call. Pure data.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/base/named.h"

namespace alignbench {

// What an op does to its file. An allocate is recorded once the file was
// written (before, it is the file's state); a truncate wherever it falls (a
// log sized before its first write is written into its holes). An unlink
// removes the file and a create makes it anew under the same name (a
// rollback journal made and deleted by every transaction); the first
// creation of a new file is its state. A sync_dir syncs the directory that
// holds the file (SQLite's after it creates a journal), by its call; it ends
// no commit. A read and a stat are kept for what they do to the file's
// timestamps: a read can change its access time, and once a program has read
// them (stat) the next change is stamped finely (Linux 6.13+), so the inode
// is written again and the next sync of the directory commits the journal
// (SQLite stats its journal every transaction).
enum class OpKind {
  kWrite,
  kRead,
  kStat,
  kSync,
  kTruncate,
  kAllocate,
  kUnlink,
  kCreate,
  kSyncDir
};
// The names a trace file gives them.
inline constexpr Named<OpKind> kOpKinds[] = {
    {"write", OpKind::kWrite, "pwrite(2) of the extent"},
    {"read", OpKind::kRead, "pread(2) of the extent"},
    {"stat", OpKind::kStat, "fstat(2) of the file"},
    {"sync", OpKind::kSync, "the call that made the writes durable"},
    {"truncate", OpKind::kTruncate, "ftruncate(2) to `length` bytes"},
    {"allocate", OpKind::kAllocate,
     "fallocate(2) of the extent, mode 0 or FALLOC_FL_KEEP_SIZE"},
    {"unlink", OpKind::kUnlink, "unlink(2) of the file"},
    {"create", OpKind::kCreate,
     "open(2) with O_CREAT of the file, unlinked before: empty again"},
    {"sync_dir", OpKind::kSyncDir,
     "`call` of the directory that holds the file"},
};

// How an op is made durable. A trace's sync (and sync_dir) names the call
// that synced, or the flag that made the write before it synchronous
// (kOSync, kODsync). A run's ops, once a trace's commit is made one
// (lib/measure/pattern.cc), carry that flag on the write
// itself (pwritev2 with RWF_SYNC or RWF_DSYNC) and kNone on the sync after
// it, which then does nothing; a workload's sync takes the run's sync method
// (kRun), and a write with kRun or kNone is plain.
enum class SyncCall {
  kRun,
  kNone,
  kFsync,
  kFdatasync,
  kSyncFileRange,
  kOSync,
  kODsync
};
// The calls a trace records, by the names its file gives them.
inline constexpr Named<SyncCall> kTraceSyncs[] = {
    {"fsync", SyncCall::kFsync, "fsync(2)"},
    {"fdatasync", SyncCall::kFdatasync, "fdatasync(2)"},
    {"sync_file_range", SyncCall::kSyncFileRange,
     "sync_file_range(2) with SYNC_FILE_RANGE_WRITE"},
    {"O_SYNC", SyncCall::kOSync, "a write to a file opened O_SYNC"},
    {"O_DSYNC", SyncCall::kODsync, "a write to a file opened O_DSYNC"},
};

// One write's bytes: `length` at `offset`.
struct Extent {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

struct Op {
  OpKind kind = OpKind::kWrite;
  // A trace's: the index into Trace::files; a replay's and a run's: 0 the
  // log, k + 1 its k-th other file; while strace's output is read, the id of
  // the path the call named.
  std::uint64_t file = 0;
  // Writes, reads and allocations: the extent; truncates: the size (length).
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  SyncCall call = SyncCall::kRun;
  // Allocations: FALLOC_FL_KEEP_SIZE (blocks past the end, the size stays).
  bool keep_size = false;

  Extent Bytes() const { return {offset, length}; }
  bool operator==(const Op& o) const {
    return kind == o.kind && file == o.file && offset == o.offset &&
           length == o.length && call == o.call && keep_size == o.keep_size;
  }
};

// One commit: its ops in order, ending in a sync.
using CommitOps = std::vector<Op>;

}  // namespace alignbench
