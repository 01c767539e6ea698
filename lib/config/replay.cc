#include "lib/config/replay.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>

#include "lib/config/size.h"

namespace alignbench {
namespace {

// The traced file with the most commits that write to it.
std::uint64_t LogFile(const Trace& trace) {
  std::map<std::uint64_t, std::uint64_t> commits;
  for (const TraceCommit& c : trace.commits) {
    std::vector<bool> wrote(trace.files.size(), false);
    for (const TraceOp& op : c.ops) {
      if (op.kind == TraceOpKind::kWrite) wrote[op.file] = true;
    }
    for (std::size_t f = 0; f < wrote.size(); ++f) {
      if (wrote[f]) ++commits[f];
    }
  }
  std::uint64_t best = 0, most = 0;
  for (const auto& [file, count] : commits) {
    if (count > most) {
      best = file;
      most = count;
    }
  }
  return best;
}

// The sync method of the run: the call most commits end in; a tie is
// broken by the order of kTraceSyncs, and said in `notes`.
SyncMethod SyncOf(const std::vector<TraceSync>& calls,
                  std::vector<std::string>& notes) {
  std::map<TraceSync, std::size_t> count;
  for (TraceSync c : calls) ++count[c];
  TraceSync most = TraceSync::kFdatasync;
  std::size_t n = 0;
  std::string tied;
  for (const auto& [call, k] : count) {
    if (k > n) {
      most = call;
      n = k;
      tied.clear();
    } else if (k == n) {
      tied += std::string(tied.empty() ? "" : ", ") +
              std::string(NameOf(kTraceSyncs, call));
    }
  }
  if (!tied.empty()) {
    notes.push_back("as many commits end in " + tied + " as in " +
                    std::string(NameOf(kTraceSyncs, most)) + " (" +
                    std::to_string(n) + " each): measured with " +
                    std::string(NameOf(kTraceSyncs, most)));
  }
  // sync_file_range is measured as fdatasync, the nearest durable call.
  return SyncMethodOf(most).value_or(SyncMethod::kFdatasync);
}

}  // namespace

std::optional<SyncMethod> SyncMethodOf(TraceSync call) {
  switch (call) {
    case TraceSync::kFsync:
      return SyncMethod::kFsync;
    case TraceSync::kFdatasync:
      return SyncMethod::kFdatasync;
    case TraceSync::kODsync:
      return SyncMethod::kODsync;
    case TraceSync::kOSync:
      return SyncMethod::kOSync;
    case TraceSync::kSyncFileRange:
      break;
  }
  return std::nullopt;
}

std::string TraceDigest(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(hash));
  return std::string("fnv1a64:") + hex;
}

namespace {

// The log file's commits that write to it, its ops renumbered to file 0,
// each ending in a sync; and the calls they end in.
struct Stream {
  std::vector<std::vector<TraceOp>> commits;
  std::vector<TraceSync> calls;
  std::uint64_t unaligned_starts = 0;
  std::uint64_t bytes = 0;
  // The lowest offset a write starts at.
  std::uint64_t lowest = UINT64_MAX;
};

Stream StreamOf(const Trace& trace, std::uint64_t log) {
  Stream stream;
  for (const TraceCommit& c : trace.commits) {
    std::vector<TraceOp> ops;
    bool wrote = false;
    for (TraceOp op : c.ops) {
      if (op.file != log) continue;
      op.file = 0;
      if (op.kind == TraceOpKind::kWrite) {
        if (!wrote && op.offset % kReplayBlock != 0) ++stream.unaligned_starts;
        wrote = true;
        stream.bytes += op.length;
        stream.lowest = std::min(stream.lowest, op.offset);
      }
      ops.push_back(op);
    }
    if (!wrote) continue;
    if (ops.back().kind != TraceOpKind::kSync) {
      TraceOp sync;
      sync.kind = TraceOpKind::kSync;
      sync.call = c.ops.back().call;
      ops.push_back(sync);
    }
    stream.calls.push_back(ops.back().call);
    stream.commits.push_back(std::move(ops));
  }
  return stream;
}

// A commit's first write (StreamOf keeps only commits that write).
const TraceOp& FirstWrite(const std::vector<TraceOp>& commit) {
  return *std::find_if(commit.begin(), commit.end(), [](const TraceOp& op) {
    return op.kind == TraceOpKind::kWrite;
  });
}

// The layout a run prepares for the log file's state. A recycled file the
// commits only append to (Redis's AOF recorded by --pid) grows with every
// commit as a new file does: it is replayed so, and `notes` say it.
Layout LayoutOf(const TraceFile& file, const Stream& stream,
                std::vector<std::string>& notes) {
  switch (file.state) {
    case FileState::kNew:
      return Layout::kExtend;
    case FileState::kPreallocated:
      return Layout::kPrealloc;
    case FileState::kRecycled:
      break;
  }
  if (stream.lowest < file.size_at_open) return Layout::kPrewritten;
  notes.push_back("the log held " + std::to_string(file.size_at_open) +
                  " B when the trace began and every commit wrote past them: "
                  "replayed as a file that grows with every commit (layout "
                  "extend), its first " +
                  std::to_string(file.size_at_open) + " B a hole");
  return Layout::kExtend;
}

// Every write, allocation and truncation and the header moved `shift`
// bytes further.
void Shift(ReplayVariant& v, std::uint64_t shift) {
  v.header += shift;
  for (auto& commit : v.commits) {
    for (TraceOp& op : commit) {
      if (op.kind == TraceOpKind::kTruncate) op.length += shift;
      if (op.kind == TraceOpKind::kWrite || op.kind == TraceOpKind::kAllocate) {
        op.offset += shift;
      }
    }
  }
}

// Each commit started on the next 4096-byte boundary after the one before;
// writes before the commit's first keep their distance, as far as the
// file's start allows.
void Pad(ReplayVariant& v) {
  std::uint64_t end = v.header;
  for (auto& commit : v.commits) {
    const std::uint64_t first = FirstWrite(commit).offset;
    const std::uint64_t start = RoundUp(end, kReplayBlock);
    auto moved = [first, start](std::uint64_t at) {
      return at >= first ? start + (at - first)
                         : start - std::min(start, first - at);
    };
    for (TraceOp& op : commit) {
      if (op.kind == TraceOpKind::kTruncate) op.length = moved(op.length);
      if (op.kind == TraceOpKind::kAllocate) op.offset = moved(op.offset);
      if (op.kind != TraceOpKind::kWrite) continue;
      op.offset = moved(op.offset);
      end = std::max(end, op.offset + op.length);
    }
  }
}

// Each commit one write of the whole 4096-byte blocks its writes touch, in
// the place of its first write, then its sync: the stream's bytes where they
// were, in whole blocks. Its truncations and allocations stay as they were.
void WholeBlocks(ReplayVariant& v) {
  for (auto& commit : v.commits) {
    std::uint64_t low = UINT64_MAX, high = 0;
    std::vector<TraceOp> ops;
    for (const TraceOp& op : commit) {
      if (op.kind == TraceOpKind::kWrite) {
        if (low == UINT64_MAX) ops.push_back(op);  // its place
        low = std::min(low, op.offset);
        high = std::max(high, op.offset + op.length);
      } else if (op.kind != TraceOpKind::kSync) {
        ops.push_back(op);
      }
    }
    for (TraceOp& op : ops) {
      if (op.kind != TraceOpKind::kWrite) continue;
      op.offset = low / kReplayBlock * kReplayBlock;
      op.length = RoundUp(high, kReplayBlock) - op.offset;
    }
    ops.push_back(commit.back());
    commit = std::move(ops);
  }
}

// Its bytes per commit and the file it grows, and its name.
void Describe(ReplayVariant& v, std::string name) {
  std::uint64_t bytes = 0;
  v.file_bytes = v.header;
  for (const auto& commit : v.commits) {
    for (const TraceOp& op : commit) {
      if (op.kind == TraceOpKind::kAllocate && !op.keep_size) {
        v.file_bytes = std::max(v.file_bytes, op.offset + op.length);
      }
      if (op.kind != TraceOpKind::kWrite) continue;
      bytes += op.length;
      v.file_bytes = std::max(v.file_bytes, op.offset + op.length);
    }
  }
  v.bytes_per_commit =
      v.commits.empty() ? 0 : static_cast<double>(bytes) / v.commits.size();
  v.name = std::move(name);
}

// The pair's variants by r.rule: the commits as recorded, and the same
// moved by the shift, in whole blocks or padded.
void SetVariants(Replay& r, ReplayVariant recorded) {
  ReplayVariant other = recorded;
  Describe(recorded, "as recorded");
  if (r.rule == ReplayRule::kShift) {
    Shift(other, r.shift);
    Describe(other, "moved by " + std::to_string(r.shift) + " B");
    r.aligned = std::move(recorded);
    r.unaligned = std::move(other);
    return;
  }
  if (r.rule == ReplayRule::kWholeBlocks) {
    WholeBlocks(other);
    Describe(other, "whole blocks");
  } else {
    Pad(other);
    Describe(other, "padded");
  }
  r.unaligned = std::move(recorded);
  r.aligned = std::move(other);
}

}  // namespace

Result<Replay> ReplayOf(const Trace& trace, const std::string& path,
                        const std::string& text, std::uint64_t shift,
                        ReplayRule unaligned_rule) {
  auto refuse = [&path](const std::string& why) {
    Error error = PlainError(ErrorKind::kUsage, "replay " + path, why);
    error.hint = "record the program with alignbench record while it commits";
    return error;
  };
  if (shift == 0 || shift > (1ull << 30)) {
    return PlainError(ErrorKind::kUsage, "option --shift",
                      "a replay's shift must be 1 byte to 1 GiB");
  }
  if (trace.files.empty()) return refuse("the trace has no file");
  Replay r;
  r.trace_path = path;
  r.digest = TraceDigest(text);
  r.argv = trace.argv;
  r.version = trace.version;
  r.shift = shift;
  const std::uint64_t log = LogFile(trace);
  const TraceFile& file = trace.files[log];
  r.log_path = file.path;
  r.flags = file.flags;
  r.state = file.state;
  r.io = file.HasFlag("O_DIRECT") ? IoMode::kDirect : IoMode::kBuffered;
  Stream stream = StreamOf(trace, log);
  if (stream.commits.empty()) {
    return refuse("no commit of the trace writes to a file (" +
                  std::to_string(trace.commits.size()) + " commits)");
  }
  r.sync = SyncOf(stream.calls, r.notes);
  r.layout = LayoutOf(file, stream, r.notes);
  r.commits = stream.commits.size();
  r.bytes_per_commit =
      std::max<std::uint64_t>(1, (stream.bytes + r.commits / 2) / r.commits);
  const bool aligned_stream = 2 * stream.unaligned_starts <= r.commits;
  if (2 * stream.unaligned_starts == r.commits) {
    r.notes.push_back(
        "half the commits start on a 4096-byte boundary and half do not: "
        "taken as aligned, the unaligned variant moved by the shift");
  }
  r.rule = aligned_stream ? ReplayRule::kShift : unaligned_rule;
  const std::uint64_t header =
      trace.header && trace.header->file == log ? trace.header->bytes : 0;
  SetVariants(r, ReplayVariant{header, std::move(stream.commits), "", 0, 0});
  return r;
}

}  // namespace alignbench
