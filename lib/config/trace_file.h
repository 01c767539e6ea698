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
#include "lib/config/op.h"

namespace alignbench {

inline constexpr const char* kTraceSchema = "alignbench-trace";
// Version 2 added the ops read, stat, unlink, create and sync_dir, version 3
// what tracing changed (`tracing`); an older trace, which holds none of them,
// is read as it is.
inline constexpr int kTraceVersion = 3;
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

struct TraceFile {
  std::string path;
  // Open flags as strace names them ("O_WRONLY", "O_DIRECT", ...), of the
  // descriptor that wrote the file last.
  std::vector<std::string> flags;
  FileState state = FileState::kNew;
  std::uint64_t size_at_open = 0;

  bool HasFlag(const std::string& flag) const;
};

// Counters that need no tracing, over one window of a --pid recording: the
// attached processes' write calls and bytes (/proc/PID/io: syscw, wchar) and
// the flushes the device(s) under the traced files completed
// (/sys/block/DISK/stat, every process's). What strace did to a program's
// grouping shows in the bytes it wrote per flush without and with it.
struct CounterWindow {
  std::uint64_t milliseconds = 0;
  std::uint64_t write_calls = 0;
  std::uint64_t write_bytes = 0;
  std::uint64_t device_flushes = 0;
};

// The window before strace attached and the traced one; where they cannot
// be compared, why, in a few words ("recorded from the start").
struct TracingEffect {
  std::optional<CounterWindow> untraced;
  std::optional<CounterWindow> traced;
  std::string unknown;
};
// Bounds of a window read back: counts of at most 2^62, a window of at most
// 2^40 ms.
inline constexpr std::uint64_t kMaxTraceCount = 1ull << 62;
inline constexpr std::uint64_t kMaxTraceWindowMs = 1ull << 40;

struct TraceCommit {
  CommitOps ops;
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
  CommitOps after_last_commit;
  // What the recorder could not see ("io_uring_setup seen: ...").
  std::vector<std::string> limits;
  // What tracing changed; absent from traces before version 3.
  std::optional<TracingEffect> tracing;
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
