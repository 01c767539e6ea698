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

WritePattern::WritePattern(const LogRules& rules, std::uint64_t record)
    : rules_(rules),
      record_(record),
      pos_(rules.header),
      written_end_(rules.header) {}

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
  std::uint64_t end = Append(pos_);
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
    ops_.push_back({OpKind::kWrite, {from, sync_at - from}});
    ops_.push_back({OpKind::kSync, {}});
    ops_.push_back({OpKind::kWrite, {sync_at, to - sync_at}});
  } else {
    ops_.push_back({OpKind::kWrite, {from, to - from}});
    ops_.push_back({OpKind::kSync, {}});
  }
  return ops_;
}

WritePattern::Totals WritePattern::Over(std::uint64_t skip,
                                        std::uint64_t count) const {
  WritePattern fresh = *this;
  fresh.next_commit_ = 0;
  fresh.pos_ = fresh.written_end_ = rules_.header;
  Totals totals;
  totals.end = rules_.header;
  WrittenBlocks blocks;
  blocks.Add(0, rules_.header);
  std::uint64_t size = rules_.header;
  for (std::uint64_t k = 0; k < skip + count; ++k) {
    std::uint64_t commit = 0;
    bool reached_new = false, grew = false;
    for (const Op& op : fresh.Next()) {
      const Extent& e = op.extent;
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
      if (op.kind == OpKind::kAllocate || op.kind == OpKind::kReserve) {
        totals.end = std::max(totals.end, end);
      }
      if (op.kind == OpKind::kAllocate) size = std::max(size, end);
      if (op.kind != OpKind::kWrite) continue;
      totals.end = std::max(totals.end, end);
      reached_new = blocks.Add(e.offset, e.length) || reached_new;
      grew = grew || end > size;
      size = std::max(size, end);
    }
    totals.max_commit = std::max(totals.max_commit, commit);
    if (k >= skip) {
      totals.asked += record_;
      totals.written += commit;
      totals.new_block_commits += reached_new;
      totals.grow_commits += grew;
    }
  }
  return totals;
}

namespace {

Op OpOf(const TraceOp& op) {
  switch (op.kind) {
    case TraceOpKind::kWrite:
      return {OpKind::kWrite, {op.offset, op.length}, OpSync::kNone};
    case TraceOpKind::kRead:
      return {OpKind::kRead, {op.offset, op.length}};
    case TraceOpKind::kStat:
      return {OpKind::kStat, {}};
    case TraceOpKind::kTruncate:
      return {OpKind::kTruncate, {0, op.length}};
    case TraceOpKind::kAllocate:
      return {op.keep_size ? OpKind::kReserve : OpKind::kAllocate,
              {op.offset, op.length}};
    case TraceOpKind::kUnlink:
      return {OpKind::kUnlink, {}};
    case TraceOpKind::kCreate:
      return {OpKind::kCreate, {}};
    case TraceOpKind::kSyncDir:
    case TraceOpKind::kSync:
      break;
  }
  // sync_file_range is made durable the nearest way, by fdatasync.
  return {op.kind == TraceOpKind::kSync ? OpKind::kSync : OpKind::kSyncDir,
          {},
          op.call == TraceSync::kFsync ? OpSync::kFsync : OpSync::kFdatasync};
}

// A recorded commit as a run's ops, each on its file. A sync an O_DSYNC or
// O_SYNC descriptor made is its write's flag, and does nothing itself.
CommitOps OpsOf(const std::vector<TraceOp>& recorded) {
  CommitOps ops;
  for (const TraceOp& t : recorded) {
    Op op = OpOf(t);
    op.file = static_cast<std::uint32_t>(t.file);
    const bool by_write =
        t.kind == TraceOpKind::kSync &&
        (t.call == TraceSync::kODsync || t.call == TraceSync::kOSync);
    // The recorder puts such a sync right after its write.
    if (by_write) {
      op.sync = OpSync::kNone;
      if (!ops.empty() && ops.back().kind == OpKind::kWrite &&
          ops.back().file == op.file) {
        ops.back().sync =
            t.call == TraceSync::kOSync ? OpSync::kSync : OpSync::kDsync;
      }
    }
    ops.push_back(op);
  }
  return ops;
}

// A replay's variant as the commits a run writes.
WritePattern ReplayPattern(const Replay& replay, Variant variant) {
  const ReplayVariant& v = replay.Of(variant);
  auto commits = std::make_shared<std::vector<CommitOps>>();
  commits->reserve(v.commits.size());
  for (const std::vector<TraceOp>& recorded : v.commits) {
    commits->push_back(OpsOf(recorded));
  }
  return WritePattern(std::move(commits), v.header);
}

}  // namespace

WritePattern PatternFor(const Settings& settings, const PairSpec& pair,
                        Variant variant) {
  if (settings.replay) return ReplayPattern(*settings.replay, variant);
  return WritePattern(pair.WritesOf(variant).rules, pair.size);
}

std::uint64_t FileSpan(const WritePattern& pattern, std::uint64_t commits,
                       IoMode io, std::uint64_t dio_alignment) {
  const std::uint64_t end = pattern.Over(0, commits).end;
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
