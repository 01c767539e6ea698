// --replay: a trace (trace_file.h) made a pair. The variants are the trace's
// own commits on its log file and the same stream laid out as an engineer of
// the program could choose to write it:
//  - the recorded writes mostly start on 4096-byte boundaries (PostgreSQL's
//    pages, MariaDB's blocks): the unaligned variant is every write and the
//    header moved `shift` bytes further into the file (default 512: still a
//    multiple of a 512-byte sector, so direct I/O can take it, but no longer
//    of a 4 KiB page or block); the recorded commits are the aligned one;
//  - they mostly do not (SQLite's frames, etcd's and Redis's small appends):
//    the recorded commits are the unaligned variant, and the aligned one is
//    the same stream written as whole blocks: each commit writes the
//    4096-byte blocks its bytes touch, whole, so the partly filled last block
//    is written again by the next commit (as PostgreSQL's WAL and InnoDB's
//    redo do), and the file grows as the stream does. Or, asked for, padded:
//    each commit started on the next 4096-byte boundary, its writes keeping
//    their places (a block or more per commit).
// The log file is the traced file, never unlinked, with the most commits
// that write to it: the variants differ in its writes alone. Every other file
// of the trace (a rollback journal, the next WAL segment) is replayed as
// recorded in both, in a private file of its own beside the log's, and every
// op keeps its place and its own call: fsync, fdatasync, a write made
// synchronous by O_DSYNC or O_SYNC (pwritev2 with RWF_DSYNC or RWF_SYNC),
// truncate, allocate, read, stat, unlink, create and a sync of the
// directory. A commit
// that only syncs, nothing written since the sync before, is left out, and
// the notes say how many.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/axes.h"
#include "lib/config/trace_file.h"

namespace alignbench {

inline constexpr std::uint64_t kReplayShift = 512;
inline constexpr std::uint64_t kReplayBlock = 4096;

// "align" is the padded layout's word in results from before whole blocks.
enum class ReplayRule { kShift, kAlign, kWholeBlocks };
inline constexpr Named<ReplayRule> kReplayRules[] = {
    {"shift", ReplayRule::kShift,
     "aligned: the commits as recorded; unaligned: every write moved by the "
     "shift"},
    {"align", ReplayRule::kAlign,
     "unaligned: the commits as recorded; aligned: padded, each commit "
     "started on the next 4096-byte boundary"},
    {"whole-blocks", ReplayRule::kWholeBlocks,
     "unaligned: the commits as recorded; aligned: the same stream written as "
     "whole 4096-byte blocks, the partly filled last block written again by "
     "the next commit"},
};

// A file of the replay other than the log, replayed as recorded.
struct ReplayFile {
  std::string path;
  FileState state = FileState::kNew;
  std::uint64_t size_at_open = 0;
};

// One variant's writes: its header and its commits, each a list of ops
// ending in a sync (Op; file 0 is the log, k + 1 Replay::others[k]),
// and what it is:
// its name ("as recorded", "whole blocks"), the bytes it writes per commit
// and how far into the file its writes reach (the file it grows), which a
// result keeps where the commits are not.
struct ReplayVariant {
  std::uint64_t header = 0;
  std::vector<CommitOps> commits;
  std::string name;
  double bytes_per_commit = 0;
  std::uint64_t file_bytes = 0;
};

struct Replay {
  // What the result records of the trace.
  std::string trace_path;
  std::string digest;
  std::vector<std::string> argv;
  std::string version;
  std::string log_path;
  ReplayRule rule = ReplayRule::kShift;
  std::uint64_t shift = kReplayShift;
  // The log file as the trace found it.
  std::vector<std::string> flags;
  FileState state = FileState::kNew;
  // Derived for the run: the layout from the state (new: extend;
  // preallocated: prealloc; recycled: prewritten and a cold cache, or
  // extend where the commits only append past what it held).
  SyncMethod sync = SyncMethod::kFdatasync;
  IoMode io = IoMode::kBuffered;
  Layout layout = Layout::kExtend;
  // Bytes per commit of the recorded variant, every file's, rounded: the
  // pair's size.
  std::uint64_t bytes_per_commit = 0;
  // Commits replayed: the trace's, save those that only sync.
  std::uint64_t commits = 0;
  // The other files, by index (op file k + 1); empty when read back from a
  // result file.
  std::vector<ReplayFile> others;
  // Ties broken in deciding the above (the sync call, the rule), in words:
  // the run's warnings say them.
  std::vector<std::string> notes;
  // Empty when read back from a result file, which keeps no commits.
  ReplayVariant unaligned;
  ReplayVariant aligned;

  const ReplayVariant& Of(Variant v) const {
    return v == Variant::kUnaligned ? unaligned : aligned;
  }
};

// The layout a run prepares for a traced file in `file`'s state whose
// lowest write starts at `lowest`: new: extend; preallocated: prealloc;
// recycled: prewritten, or extend where every write lands past what the
// file held when the trace began (a log appended to, recorded by --pid: it
// grows with every commit, as a new one does). A replay and the case record
// writes beside a trace both take it from here.
Layout LayoutOfTraced(const TraceFile& file, std::uint64_t lowest);

// The pair of `trace` (read from `path`, whose text is `text`), its writes
// moved by `shift` where the rule is the shift. `unaligned_rule`: the
// aligned variant of an unaligned stream (whole blocks, or padded).
// Refused: a trace without a commit that writes, and a shift of 0 or past
// 1 GiB.
Result<Replay> ReplayOf(const Trace& trace, const std::string& path,
                        const std::string& text, std::uint64_t shift,
                        ReplayRule unaligned_rule = ReplayRule::kWholeBlocks);

// FNV-1a, 64 bits, of `text`: "fnv1a64:" and 16 hex digits. Names the trace a
// result was measured from; not a defence against a forged one.
std::string TraceDigest(const std::string& text);

// The run's sync method that does what `call` did; none for sync_file_range,
// which no sync method does alone.
std::optional<SyncMethod> SyncMethodOf(SyncCall call);

}  // namespace alignbench
