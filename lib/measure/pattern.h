// The write pattern of a pair's two variants as data: what each commit of a
// run does, an ordered list of writes and syncs, from a log writer's rules
// (lib/config/log_rules.h). Most rules make one write then one sync; SQLite's
// sector fill with fill_sync boundary makes write, sync, write. With a header
// of `shift` bytes and nothing else, write k covers [shift + k·S, shift +
// (k+1)·S) as in Derby's experiment; blocks, chunks, write-ahead padding and
// sector fill give the extents of InnoDB, PostgreSQL, SQLite and RocksDB. Pure:
// no descriptor, no clock.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "lib/config/axes.h"
#include "lib/config/log_rules.h"
#include "lib/config/settings.h"

namespace alignbench {

// One write: `length` bytes at `offset`.
struct Extent {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

// One step of a commit: a write of `extent`, or a sync by the run's sync
// method (a method without a call, o_sync, o_dsync and none, does nothing);
// a replay's also an ftruncate to `extent.length`, a fallocate of `extent`
// (mode 0: the size grows), a reserve (FALLOC_FL_KEEP_SIZE), a pread of
// `extent`, an fstat, an unlink of its file, a create that makes it again, or a
// sync of the files' directory.
enum class OpKind {
  kWrite,
  kRead,
  kStat,
  kSync,
  kTruncate,
  kAllocate,
  kReserve,
  kUnlink,
  kCreate,
  kSyncDir
};
// How an op makes itself durable. A workload's take the run's sync method
// (kRun); a replay's their own call: a sync kFsync or kFdatasync, or kNone
// where the write before it was synchronous; a write kNone, or kDsync and
// kSync for one the program's descriptor made synchronous (O_DSYNC, O_SYNC),
// made by pwritev2 with RWF_DSYNC or RWF_SYNC.
enum class OpSync { kRun, kNone, kFsync, kFdatasync, kDsync, kSync };
struct Op {
  OpKind kind = OpKind::kWrite;
  Extent extent;
  OpSync sync = OpSync::kRun;
  // A replay's file: 0 the log, k + 1 its k-th other file.
  std::uint32_t file = 0;
};
// One commit: its operations in order. Every commit ends in a sync.
using CommitOps = std::vector<Op>;

class WritePattern final {
 public:
  WritePattern() = default;
  // `record`: the bytes the application appends at each commit.
  WritePattern(const LogRules& rules, std::uint64_t record);
  // A recorded trace's commits (--replay), in order, after `header` bytes.
  // Commits past the last are not asked for: a replay's runs have at most as
  // many writes as the trace has commits.
  WritePattern(std::shared_ptr<const std::vector<CommitOps>> commits,
               std::uint64_t header);

  std::uint64_t HeaderBytes() const { return rules_.header; }
  std::uint64_t RecordBytes() const { return record_; }
  // The operations of the next commit; commits come in order, from the
  // first. The list stays valid until the next call, and its storage is
  // reused: after the first few commits Next() allocates nothing.
  const CommitOps& Next();

  // What `count` commits after the first `skip` ones do, from a fresh pattern.
  // Of a replay, what the log (file 0) needs; the other files' writes count
  // only in the longest write and the most bytes of a commit.
  struct Totals {
    // End of the furthest write, header included: what the file must hold.
    std::uint64_t end = 0;
    // The longest single write.
    std::uint64_t max_length = 0;
    // The most bytes one commit writes, all its writes together.
    std::uint64_t max_commit = 0;
    // The longest single read (a replay's).
    std::uint64_t max_read = 0;
    // Bytes the application asked for and bytes written, over the `count`.
    std::uint64_t asked = 0;
    std::uint64_t written = 0;
    // Commits of the `count` that write a 4096-byte block no write before
    // them reached (the header's blocks count as written): in a
    // preallocated file each converts an unwritten extent.
    std::uint64_t new_block_commits = 0;
    // Commits of the `count` that write past the file's end as the writes,
    // truncations and allocations before them left it: each changes its
    // size.
    std::uint64_t grow_commits = 0;
  };
  Totals Over(std::uint64_t skip, std::uint64_t count) const;

 private:
  // The log's end after appending one record (its header and fragments).
  std::uint64_t Append(std::uint64_t pos) const;

  LogRules rules_;
  std::uint64_t record_ = 0;
  // A replay's commits; null for a workload's rules.
  std::shared_ptr<const std::vector<CommitOps>> script_;
  std::size_t next_commit_ = 0;
  // End of the log: where the next record goes.
  std::uint64_t pos_ = 0;
  // End of everything written so far (write-ahead padding included).
  std::uint64_t written_end_ = 0;
  // The commit Next() returned last.
  CommitOps ops_;
};

// The pattern `variant` of `pair` writes: a replay's recorded commits
// (--replay), or the rules the plan resolved for it with the pair's size as
// each record.
WritePattern PatternFor(const Settings& settings, const PairSpec& pair,
                        Variant variant);

// Bytes a file spans after `commits` commits of `pattern` (from its first):
// every write, and whole blocks of `dio_alignment` under direct I/O, where
// writes are staged. The prepared layout covers exactly this.
std::uint64_t FileSpan(const WritePattern& pattern, std::uint64_t commits,
                       IoMode io, std::uint64_t dio_alignment);

// The most space any run of `plan` needs under `settings`, with room for the
// filesystem's metadata: only one test file exists at a time.
std::uint64_t LargestRunBytes(const Settings& settings,
                              const std::vector<PairSpec>& plan);

}  // namespace alignbench
