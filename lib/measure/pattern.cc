#include "lib/measure/pattern.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace alignbench {
namespace {

// A filesystem block: the unit an extent is converted or allocated in.
constexpr std::uint64_t kFsBlock = 4096;

std::uint64_t RoundUp(std::uint64_t value, std::uint64_t to) {
  return to == 0 ? value : (value + to - 1) / to * to;
}
std::uint64_t RoundDown(std::uint64_t value, std::uint64_t to) {
  return to == 0 ? value : value / to * to;
}

// The blocks written so far, as merged runs [first, end) of block numbers.
class WrittenBlocks {
 public:
  // Adds the blocks of [offset, offset + length); whether one was new.
  bool Add(std::uint64_t offset, std::uint64_t length) {
    if (length == 0) return false;
    std::uint64_t first = offset / kFsBlock;
    std::uint64_t end = RoundUp(offset + length, kFsBlock) / kFsBlock;
    auto it = runs_.upper_bound(first);
    if (it != runs_.begin() && std::prev(it)->second >= first) --it;
    const bool covered =
        it != runs_.end() && it->first <= first && it->second >= end;
    if (covered) return false;
    while (it != runs_.end() && it->first <= end) {
      first = std::min(first, it->first);
      end = std::max(end, it->second);
      it = runs_.erase(it);
    }
    runs_.emplace(first, end);
    return true;
  }

  // Drops the blocks from the one that holds byte `size` on: a truncate.
  void Cut(std::uint64_t size) {
    const std::uint64_t keep = RoundUp(size, kFsBlock) / kFsBlock;
    for (auto it = runs_.begin(); it != runs_.end();) {
      if (it->first >= keep) {
        it = runs_.erase(it);
      } else {
        it->second = std::min(it->second, keep);
        ++it;
      }
    }
  }

 private:
  std::map<std::uint64_t, std::uint64_t> runs_;
};

}  // namespace

WritePattern::WritePattern(const LogRules& rules, std::uint64_t record,
                           std::uint64_t group_millis)
    : rules_(rules),
      record_(record),
      group_millis_(group_millis),
      pos_(rules.header),
      written_end_(rules.header) {}

std::uint64_t GroupSize(std::uint64_t group_millis, std::uint64_t i) {
  return ((i + 1) * group_millis) / 1000 - (i * group_millis) / 1000;
}

WritePattern::WritePattern(
    std::shared_ptr<const std::vector<CommitOps>> commits, std::uint64_t header)
    : script_(std::move(commits)) {
  rules_.header = header;
  pos_ = written_end_ = header;
}

std::uint64_t WritePattern::Append(std::uint64_t pos) const {
  const std::uint64_t head = rules_.record_header;
  if (rules_.chunk == 0) return pos + head + record_;
  std::uint64_t left = record_;
  bool first = true;
  while (first || left > 0) {
    const std::uint64_t room =
        rules_.chunk - (pos - rules_.header) % rules_.chunk;
    if (room < head || (room == head && left > 0)) {
      // Too small for a header with bytes after it: zero-filled trailer.
      pos += room;
      continue;
    }
    const std::uint64_t take = std::min(left, room - head);
    pos += head + take;
    left -= take;
    first = false;
  }
  return pos;
}

const CommitOps& WritePattern::Next() {
  if (script_ && !script_->empty()) {
    // Past the last commit (never asked for) the last comes again.
    const std::size_t k = std::min(next_commit_++, script_->size() - 1);
    return (*script_)[k];
  }
  const std::uint64_t start = pos_;
  commits_ = group_millis_ > 0 ? GroupSize(group_millis_, groups_++) : 1;
  std::uint64_t end = pos_;
  for (std::uint64_t k = 0; k < commits_; ++k) end = Append(end);
  // Where the sync goes when it is not after the last byte.
  std::uint64_t sync_at = 0;
  if (rules_.fill > 0) {
    // Copies of the record until the log reaches the boundary that follows
    // its end (file offsets, as a sector is).
    const std::uint64_t target = RoundUp(end, rules_.fill);
    if (rules_.fill_sync == FillSync::kBoundary && target > end) {
      sync_at = target;
    }
    while (end < target) end = Append(end);
  }
  pos_ = end;
  // Whole blocks, counted from the log's start: the partly filled last block
  // of the previous commit is written again.
  const std::uint64_t base = rules_.header;
  std::uint64_t from = base + RoundDown(start - base, rules_.block);
  std::uint64_t to = base + RoundUp(end - base, rules_.block);
  if (rules_.pad > 0 && to > written_end_) to = RoundUp(to, rules_.pad);
  written_end_ = std::max(written_end_, to);
  ops_.clear();
  if (sync_at > from && sync_at < to) {
    // SQLite's walWriteToLog: the bytes up to the boundary, the sync there,
    // then the copies' overshoot past it, synced by the next commit.
    ops_.push_back({OpKind::kWrite, 0, from, sync_at - from});
    ops_.push_back({OpKind::kSync});
    ops_.push_back({OpKind::kWrite, 0, sync_at, to - sync_at});
  } else {
    ops_.push_back({OpKind::kWrite, 0, from, to - from});
    ops_.push_back({OpKind::kSync});
  }
  return ops_;
}

WritePattern::Totals WritePattern::Over(std::uint64_t skip,
                                        std::uint64_t count) const {
  WritePattern fresh = *this;
  fresh.next_commit_ = 0;
  fresh.groups_ = 0;
  fresh.pos_ = fresh.written_end_ = rules_.header;
  Totals totals;
  totals.end = rules_.header;
  WrittenBlocks blocks;
  blocks.Add(0, rules_.header);
  std::uint64_t size = rules_.header;
  // k: the commits before this step (a group's are counted together).
  for (std::uint64_t k = 0; k < skip + count; k += fresh.Commits()) {
    std::uint64_t commit = 0;
    bool reached_new = false, grew = false;
    for (const Op& op : fresh.Next()) {
      const Extent e = op.Bytes();
      const std::uint64_t end = e.offset + e.length;
      if (op.kind == OpKind::kWrite) {
        totals.max_length = std::max(totals.max_length, e.length);
        commit += e.length;
      }
      if (op.kind == OpKind::kRead) {
        totals.max_read = std::max(totals.max_read, e.length);
      }
      if (op.file != 0) continue;
      if (op.kind == OpKind::kTruncate) {
        blocks.Cut(e.length);
        size = e.length;
      }
      // An allocation makes room the run must have; mode 0 sets the size.
      if (op.kind == OpKind::kAllocate) {
        totals.end = std::max(totals.end, end);
        if (!op.keep_size) size = std::max(size, end);
      }
      if (op.kind != OpKind::kWrite) continue;
      totals.end = std::max(totals.end, end);
      reached_new = blocks.Add(e.offset, e.length) || reached_new;
      grew = grew || end > size;
      size = std::max(size, end);
    }
    totals.max_commit = std::max(totals.max_commit, commit);
    if (k >= skip) {
      totals.asked += record_ * fresh.Commits();
      totals.written += commit;
      totals.new_block_commits += reached_new;
      totals.grow_commits += grew;
    }
  }
  return totals;
}

namespace {

// A recorded commit as a run's ops, each on its file. A sync an O_DSYNC or
// O_SYNC descriptor made is its write's flag, and does nothing itself;
// sync_file_range is made durable the nearest way, by fdatasync.
CommitOps OpsOf(const CommitOps& recorded) {
  CommitOps ops;
  for (Op op : recorded) {
    const bool sync = op.kind == OpKind::kSync || op.kind == OpKind::kSyncDir;
    const bool by_write =
        op.kind == OpKind::kSync &&
        (op.call == SyncCall::kODsync || op.call == SyncCall::kOSync);
    if (!sync) {
      op.call = SyncCall::kNone;
    } else if (by_write) {
      // The recorder puts such a sync right after its write.
      if (!ops.empty() && ops.back().kind == OpKind::kWrite &&
          ops.back().file == op.file) {
        ops.back().call = op.call;
      }
      op.call = SyncCall::kNone;
    } else if (op.call != SyncCall::kFsync) {
      op.call = SyncCall::kFdatasync;
    }
    if (op.kind == OpKind::kTruncate) op.offset = 0;
    ops.push_back(op);
  }
  return ops;
}

// A replay's variant as the commits a run writes.
WritePattern ReplayPattern(const Replay& replay, Variant variant) {
  const ReplayVariant& v = replay.Of(variant);
  auto commits = std::make_shared<std::vector<CommitOps>>();
  commits->reserve(v.commits.size());
  for (const CommitOps& recorded : v.commits) {
    commits->push_back(OpsOf(recorded));
  }
  return WritePattern(std::move(commits), v.header);
}

}  // namespace

WritePattern PatternFor(const Settings& settings, const PairSpec& pair,
                        Variant variant) {
  if (settings.replay) return ReplayPattern(*settings.replay, variant);
  return WritePattern(pair.WritesOf(variant).rules, pair.size,
                      GroupMillis(settings));
}

std::uint64_t FileSpan(const WritePattern& pattern, std::uint64_t commits,
                       IoMode io, std::uint64_t dio_alignment) {
  const std::uint64_t end = pattern.Over(0, pattern.Reach(commits)).end;
  return io == IoMode::kDirect ? RoundUp(end, dio_alignment) : end;
}

std::uint64_t LargestRunBytes(const Settings& settings,
                              const std::vector<PairSpec>& plan) {
  // Two 4 KiB blocks for the inode's metadata and an extent block.
  constexpr std::uint64_t kMetadata = 2 * 4096;
  constexpr std::uint64_t kDirectAlignment = 4096;
  std::uint64_t largest = 0;
  for (const PairSpec& pair : plan) {
    for (Variant variant : {Variant::kUnaligned, Variant::kAligned}) {
      const std::uint64_t span = FileSpan(PatternFor(settings, pair, variant),
                                          settings.warmup + settings.writes,
                                          pair.io, kDirectAlignment);
      largest = std::max(largest, span + kMetadata);
    }
  }
  return largest;
}

}  // namespace alignbench
