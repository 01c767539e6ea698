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
#include "lib/config/op.h"
#include "lib/config/settings.h"

namespace alignbench {

class WritePattern final {
 public:
  WritePattern() = default;
  // `record`: the bytes the application appends at each commit.
  // `group_millis` (--group-commit K in thousandths, 0: none): each Next()
  // is a group, its commits' records appended and written as one write,
  // then one sync, as an engine's leader writes its group.
  WritePattern(const LogRules& rules, std::uint64_t record,
               std::uint64_t group_millis = 0);
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
  // The commits the last Next() made: 1, or its group's.
  std::uint64_t Commits() const { return commits_; }
  // The commits a run of `commits` may reach: with --group-commit its
  // warmup and its timed steps each end up to a group past their count.
  std::uint64_t Reach(std::uint64_t commits) const {
    return commits + 2 * ((group_millis_ + 999) / 1000);
  }

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
  // --group-commit's K in thousandths (0: a commit a step), and the groups
  // made so far.
  std::uint64_t group_millis_ = 0;
  std::uint64_t groups_ = 0;
  std::uint64_t commits_ = 1;
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

// The size of group `i` (from 0) of --group-commit K, K in thousandths of a
// commit: floor((i + 1) K) - floor(i K), so that groups are floor(K) and
// ceil(K) commits, evenly interleaved, and the first m hold floor(m K)
// commits: their average is K within 1/m. The same sequence for every run and
// variant (no seed: nothing random to draw).
std::uint64_t GroupSize(std::uint64_t group_millis, std::uint64_t i);

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
