#include "lib/config/replay.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace alignbench {
namespace {

std::uint64_t RoundUp(std::uint64_t value, std::uint64_t to) {
  return (value + to - 1) / to * to;
}

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

// The sync method of the run: the call most commits end in.
SyncMethod SyncOf(const std::vector<TraceSync>& calls) {
  std::map<TraceSync, std::size_t> count;
  for (TraceSync c : calls) ++count[c];
  TraceSync most = TraceSync::kFdatasync;
  std::size_t n = 0;
  for (const auto& [call, k] : count) {
    if (k > n) {
      most = call;
      n = k;
    }
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

Result<Replay> ReplayOf(const Trace& trace, const std::string& path,
                        const std::string& text, std::uint64_t shift) {
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
  const std::uint64_t header =
      trace.header && trace.header->file == log ? trace.header->bytes : 0;
  std::vector<std::vector<TraceOp>> recorded;
  std::vector<TraceSync> calls;
  std::uint64_t unaligned_starts = 0, bytes = 0;
  for (const TraceCommit& c : trace.commits) {
    std::vector<TraceOp> ops;
    bool wrote = false;
    for (TraceOp op : c.ops) {
      if (op.file != log) continue;
      op.file = 0;
      if (op.kind == TraceOpKind::kWrite) {
        if (!wrote && op.offset % kReplayBlock != 0) ++unaligned_starts;
        wrote = true;
        bytes += op.length;
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
    calls.push_back(ops.back().call);
    recorded.push_back(std::move(ops));
  }
  if (recorded.empty()) {
    return refuse("no commit of the trace writes to a file (" +
                  std::to_string(trace.commits.size()) + " commits)");
  }
  r.sync = SyncOf(calls);
  r.commits = recorded.size();
  r.bytes_per_commit = std::max<std::uint64_t>(
      1, (bytes + recorded.size() / 2) / recorded.size());
  r.rule = 2 * unaligned_starts > recorded.size() ? ReplayRule::kAlign
                                                  : ReplayRule::kShift;
  ReplayVariant as_recorded{header, recorded};
  ReplayVariant moved{header, recorded};
  if (r.rule == ReplayRule::kShift) {
    moved.header = header + shift;
    for (auto& commit : moved.commits) {
      for (TraceOp& op : commit) {
        if (op.kind == TraceOpKind::kWrite) op.offset += shift;
      }
    }
    r.aligned = std::move(as_recorded);
    r.unaligned = std::move(moved);
  } else {
    std::uint64_t end = header;
    for (auto& commit : moved.commits) {
      const std::uint64_t first = commit.front().offset;
      const std::uint64_t start = RoundUp(end, kReplayBlock);
      for (TraceOp& op : commit) {
        if (op.kind != TraceOpKind::kWrite) continue;
        // Writes before the commit's first keep their distance, as far as
        // the file's start allows.
        op.offset = op.offset >= first
                        ? start + (op.offset - first)
                        : start - std::min(start, first - op.offset);
        end = std::max(end, op.offset + op.length);
      }
    }
    r.unaligned = std::move(as_recorded);
    r.aligned = std::move(moved);
  }
  return r;
}

}  // namespace alignbench
