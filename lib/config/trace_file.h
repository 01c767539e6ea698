// A trace: what a program wrote to its log file(s) and when it synced, commit
// by commit, as `alignbench record` saves it and `alignbench --replay` reads
// it. No data bytes, only extents, calls, open flags and the files' states. A
// trace comes from outside like a result file: it is read bounded (size,
// counts, offsets), every key checked, and a bad or truncated one refused
// with the key and what was expected.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/log_rules.h"

namespace alignbench {

inline constexpr const char* kTraceSchema = "alignbench-trace";
// Version 2 added the ops read, stat, unlink, create and sync_dir; a version 1
// trace, which holds none of them, is read as it is.
inline constexpr int kTraceVersion = 2;
inline constexpr int kOldestTraceVersion = 1;

// What ends a commit, in the words the trace file records.
inline constexpr const char* kTraceCommitRule =
    "a commit ends at each fsync, fdatasync or sync_file_range of a traced "
    "file, and at each write to a traced file opened with O_SYNC or O_DSYNC";

// Bounds of a trace file: past any of them it is refused unread or unparsed.
inline constexpr std::uint64_t kMaxTraceFileBytes = 64ull << 20;
inline constexpr std::uint64_t kMaxTraceCommits = 1000000;
// A commit may be a zero-filled 16 MiB segment in 8 KiB writes; the file's
// size bounds the total.
inline constexpr std::uint64_t kMaxTraceOpsPerCommit = 65536;
inline constexpr std::uint64_t kMaxTraceFiles = 64;
inline constexpr std::uint64_t kMaxTraceStrings = 256;
inline constexpr std::uint64_t kMaxTraceStringBytes = 4096;
// One write at most 1 GiB, and no extent past 1 TiB into its file.
inline constexpr std::uint64_t kMaxTraceWriteBytes = 1ull << 30;
inline constexpr std::uint64_t kMaxTraceFileOffset = 1ull << 40;
// A file header (SQLite's WAL header is 32 bytes): 1 to 512 bytes at offset 0.
inline constexpr std::uint64_t kMaxTraceHeaderBytes = 512;

// The system call that synced, or the flag that made a write synchronous.
enum class TraceSync { kFsync, kFdatasync, kSyncFileRange, kOSync, kODsync };
inline constexpr Named<TraceSync> kTraceSyncs[] = {
    {"fsync", TraceSync::kFsync, "fsync(2)"},
    {"fdatasync", TraceSync::kFdatasync, "fdatasync(2)"},
    {"sync_file_range", TraceSync::kSyncFileRange,
     "sync_file_range(2) with SYNC_FILE_RANGE_WRITE"},
    {"O_SYNC", TraceSync::kOSync, "a write to a file opened O_SYNC"},
    {"O_DSYNC", TraceSync::kODsync, "a write to a file opened O_DSYNC"},
};

// What an op of a commit does to its file. An allocate is recorded once the
// file was written (before, it is the file's state); a truncate wherever it
// falls (a log sized before its first write is written into its holes). An
// unlink removes the file and a create makes it anew under the same name (a
// rollback journal made and deleted by every transaction); the first creation
// of a new file is its state. A sync_dir syncs the directory that holds the
// file (SQLite's after it creates a journal), by its call; it ends no commit.
// A read and a stat are kept for what they do to the file's timestamps: a
// read can change its access time, and once a program has read them (stat)
// the next change is stamped finely (Linux 6.13+), so the inode is written
// again and the next sync of the directory commits the journal (SQLite
// stats its journal every transaction).
enum class TraceOpKind {
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
inline constexpr Named<TraceOpKind> kTraceOpKinds[] = {
    {"write", TraceOpKind::kWrite, "pwrite(2) of the extent"},
    {"read", TraceOpKind::kRead, "pread(2) of the extent"},
    {"stat", TraceOpKind::kStat, "fstat(2) of the file"},
    {"sync", TraceOpKind::kSync, "the call that made the writes durable"},
    {"truncate", TraceOpKind::kTruncate, "ftruncate(2) to `length` bytes"},
    {"allocate", TraceOpKind::kAllocate,
     "fallocate(2) of the extent, mode 0 or FALLOC_FL_KEEP_SIZE"},
    {"unlink", TraceOpKind::kUnlink, "unlink(2) of the file"},
    {"create", TraceOpKind::kCreate,
     "open(2) with O_CREAT of the file, unlinked before: empty again"},
    {"sync_dir", TraceOpKind::kSyncDir,
     "`call` of the directory that holds the file"},
};

struct TraceOp {
  TraceOpKind kind = TraceOpKind::kWrite;
  // Index into Trace::files.
  std::uint64_t file = 0;
  // Writes and allocations: the extent; truncates: the size (length).
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  // Syncs and sync_dir: the call.
  TraceSync call = TraceSync::kFdatasync;
  // Allocations: FALLOC_FL_KEEP_SIZE (blocks past the end, the size stays).
  bool keep_size = false;
};

struct TraceFile {
  std::string path;
  // Open flags as strace names them ("O_WRONLY", "O_DIRECT", ...), of the
  // descriptor that wrote the file last.
  std::vector<std::string> flags;
  FileState state = FileState::kNew;
  std::uint64_t size_at_open = 0;

  bool HasFlag(const std::string& flag) const;
};

struct TraceCommit {
  std::vector<TraceOp> ops;
};

struct Trace {
  std::vector<std::string> argv;
  std::string version;
  std::string recorder;
  std::string commit_rule = kTraceCommitRule;
  std::vector<TraceFile> files;
  // Bytes at the start of a traced file written before its first commit
  // (a log's file header), if any.
  struct Header {
    std::uint64_t file = 0;
    std::uint64_t bytes = 0;
  };
  std::optional<Header> header;
  std::vector<TraceCommit> commits;
  // Writes after the last sync: no commit made them durable.
  std::vector<TraceOp> after_last_commit;
  // What the recorder could not see ("io_uring_setup seen: ...").
  std::vector<std::string> limits;
};

nlohmann::json TraceToJson(const Trace& trace);

// The trace as the text of its file, or why no file can hold it: past
// kMaxTraceFileBytes, or not read back by ParseTrace (a bound of its own).
// A path that is not UTF-8 is replaced, never lost; `origin` names it.
Result<std::string> TraceText(const Trace& trace, const std::string& origin);

// The trace in `text`; `origin` names it in errors. Checks every key, type
// and bound, and that every op names a file of the trace and every commit
// ends in a sync.
Result<Trace> ParseTrace(const std::string& text, const std::string& origin);

// The bytes of the trace file at `path`, refused unread past
// kMaxTraceFileBytes; and ParseTrace on them.
Result<std::string> ReadTraceText(const std::string& path);
Result<Trace> ReadTraceFile(const std::string& path);

}  // namespace alignbench
