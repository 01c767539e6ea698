#include "lib/config/replay.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>

#include "lib/config/size.h"

namespace alignbench {
namespace {

// The traced file, never unlinked or made again, with the most commits that
// write to it; the first of a tie. Where every file is unlinked, the one with
// the most commits all the same.
std::uint64_t LogFile(const Trace& trace) {
  std::vector<std::uint64_t> commits(trace.files.size(), 0);
  std::vector<bool> remade(trace.files.size(), false);
  for (const TraceCommit& c : trace.commits) {
    std::vector<bool> wrote(trace.files.size(), false);
    for (const Op& op : c.ops) {
      if (op.kind == OpKind::kWrite) wrote[op.file] = true;
      if (op.kind == OpKind::kUnlink || op.kind == OpKind::kCreate) {
        remade[op.file] = true;
      }
    }
    for (std::size_t f = 0; f < wrote.size(); ++f) commits[f] += wrote[f];
  }
  const bool kept =
      std::find(remade.begin(), remade.end(), false) != remade.end();
  std::uint64_t best = 0;
  bool found = false;
  for (std::size_t f = 0; f < commits.size(); ++f) {
    if (kept && remade[f]) continue;
    if (!found || commits[f] > commits[best]) best = f;
    found = true;
  }
  return best;
}

// The sync method the pair is named by: the call most commits end in; a tie
// is broken by the order of kTraceSyncs, and said in `notes`. Each sync is
// replayed with its own call all the same.
SyncMethod SyncOf(const std::vector<SyncCall>& calls,
                  std::vector<std::string>& notes) {
  std::map<SyncCall, std::size_t> count;
  for (SyncCall c : calls) ++count[c];
  SyncCall most = SyncCall::kFdatasync;
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
                    std::to_string(n) + " each): the pair is named by " +
                    std::string(NameOf(kTraceSyncs, most)) +
                    "; each sync is made with its own call");
  }
  // sync_file_range is measured as fdatasync, the nearest durable call.
  return SyncMethodOf(most).value_or(SyncMethod::kFdatasync);
}

}  // namespace

std::optional<SyncMethod> SyncMethodOf(SyncCall call) {
  switch (call) {
    case SyncCall::kFsync:
      return SyncMethod::kFsync;
    case SyncCall::kFdatasync:
      return SyncMethod::kFdatasync;
    case SyncCall::kODsync:
      return SyncMethod::kODsync;
    case SyncCall::kOSync:
      return SyncMethod::kOSync;
    case SyncCall::kSyncFileRange:  // no sync method does it alone
    case SyncCall::kRun:            // never a trace's
    case SyncCall::kNone:
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

// The trace's commits as the replay's: the log's ops renumbered to file 0,
// the others' to 1 on in the trace's order; those that only sync left out.
// And what the log's writes are: how many commits write it, how many of those
// start off a block, their bytes and the lowest offset.
struct Stream {
  std::vector<CommitOps> commits;
  std::vector<SyncCall> calls;
  std::uint64_t only_sync = 0;
  std::uint64_t log_commits = 0;
  // The log unlinked or made again: every traced file is.
  bool log_remade = false;
  std::uint64_t unaligned_starts = 0;
  std::uint64_t bytes = 0;
  // The lowest offset a log write starts at.
  std::uint64_t lowest = UINT64_MAX;
};

// Replay index of each trace file: the log 0, the others 1, 2, ...
std::vector<std::uint64_t> Renumbered(std::size_t files, std::uint64_t log) {
  std::vector<std::uint64_t> to(files);
  std::uint64_t next = 1;
  for (std::size_t f = 0; f < files; ++f) to[f] = f == log ? 0 : next++;
  return to;
}

Stream StreamOf(const Trace& trace, std::uint64_t log) {
  const std::vector<std::uint64_t> to = Renumbered(trace.files.size(), log);
  Stream stream;
  for (const TraceCommit& c : trace.commits) {
    CommitOps ops;
    bool acts = false, wrote_log = false;
    for (Op op : c.ops) {
      op.file = to[op.file];
      acts = acts || op.kind != OpKind::kSync;
      stream.log_remade =
          stream.log_remade || (op.file == 0 && (op.kind == OpKind::kUnlink ||
                                                 op.kind == OpKind::kCreate));
      if (op.kind == OpKind::kWrite) {
        stream.bytes += op.length;
        if (op.file == 0) {
          if (!wrote_log && op.offset % kReplayBlock != 0) {
            ++stream.unaligned_starts;
          }
          wrote_log = true;
          stream.lowest = std::min(stream.lowest, op.offset);
        }
      }
      ops.push_back(op);
    }
    if (!acts) {
      ++stream.only_sync;
      continue;
    }
    stream.log_commits += wrote_log;
    stream.calls.push_back(ops.back().call);
    stream.commits.push_back(std::move(ops));
  }
  return stream;
}

// The first write to the log in a commit, if any.
const Op* FirstLogWrite(const CommitOps& commit) {
  auto it = std::find_if(commit.begin(), commit.end(), [](const Op& op) {
    return op.kind == OpKind::kWrite && op.file == 0;
  });
  return it == commit.end() ? nullptr : &*it;
}

// The layout a run prepares for the log file's state, and where a recycled
// file is replayed as one that grows (Redis's AOF recorded by --pid), the
// `notes` say so.
Layout LayoutOf(const TraceFile& file, const Stream& stream,
                std::vector<std::string>& notes) {
  const Layout layout = LayoutOfTraced(file, stream.lowest);
  if (file.state != FileState::kRecycled || layout != Layout::kExtend) {
    return layout;
  }
  notes.push_back("the log held " + std::to_string(file.size_at_open) +
                  " B when the trace began and every commit wrote past them: "
                  "replayed as a file that grows with every commit (layout "
                  "extend), its first " +
                  std::to_string(file.size_at_open) + " B a hole");
  return layout;
}

// Every write, read, allocation and truncation of the log and its header moved
// `shift` bytes further.
void Shift(ReplayVariant& v, std::uint64_t shift) {
  v.header += shift;
  for (auto& commit : v.commits) {
    for (Op& op : commit) {
      if (op.file != 0) continue;
      if (op.kind == OpKind::kTruncate) op.length += shift;
      if (op.kind == OpKind::kWrite || op.kind == OpKind::kRead ||
          op.kind == OpKind::kAllocate) {
        op.offset += shift;
      }
    }
  }
}

// Each commit that writes the log started on the next 4096-byte boundary
// after the one before; its log writes before the first keep their distance,
// as far as the file's start allows.
void Pad(ReplayVariant& v) {
  std::uint64_t end = v.header;
  for (auto& commit : v.commits) {
    const Op* first_write = FirstLogWrite(commit);
    if (first_write == nullptr) continue;
    const std::uint64_t first = first_write->offset;
    const std::uint64_t start = RoundUp(end, kReplayBlock);
    auto moved = [first, start](std::uint64_t at) {
      return at >= first ? start + (at - first)
                         : start - std::min(start, first - at);
    };
    for (Op& op : commit) {
      if (op.file != 0) continue;
      if (op.kind == OpKind::kTruncate) op.length = moved(op.length);
      if (op.kind == OpKind::kAllocate || op.kind == OpKind::kRead) {
        op.offset = moved(op.offset);
      }
      if (op.kind != OpKind::kWrite) continue;
      op.offset = moved(op.offset);
      end = std::max(end, op.offset + op.length);
    }
  }
}

// The whole 4096-byte blocks that `run`, writes back to back in a commit,
// touch: one extent for each stretch of blocks they reach, in order.
CommitOps BlocksOf(const CommitOps& run) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  for (const Op& op : run) {
    spans.emplace_back(op.offset / kReplayBlock * kReplayBlock,
                       RoundUp(op.offset + op.length, kReplayBlock));
  }
  std::sort(spans.begin(), spans.end());
  CommitOps out;
  for (const auto& [from, to] : spans) {
    if (!out.empty() && from <= out.back().offset + out.back().length) {
      out.back().length = std::max(out.back().length, to - out.back().offset);
      continue;
    }
    Op op = run.front();
    op.offset = from;
    op.length = to - from;
    out.push_back(op);
  }
  return out;
}

// Each stretch of log writes with no other op between them written as the
// whole 4096-byte blocks they touch, in the place of the stretch; every sync
// and every other op where it was. A header rewrite and an append are two
// stretches of blocks, not the file between them.
void WholeBlocks(ReplayVariant& v) {
  for (auto& commit : v.commits) {
    CommitOps ops, run;
    for (const Op& op : commit) {
      if (op.kind == OpKind::kWrite && op.file == 0) {
        run.push_back(op);
        continue;
      }
      for (const Op& w : BlocksOf(run)) ops.push_back(w);
      run.clear();
      ops.push_back(op);
    }
    for (const Op& w : BlocksOf(run)) ops.push_back(w);
    commit = std::move(ops);
  }
}

// Its bytes per commit, every file's, the log file it grows, and its name.
void Describe(ReplayVariant& v, std::string name) {
  std::uint64_t bytes = 0;
  v.file_bytes = v.header;
  for (const auto& commit : v.commits) {
    for (const Op& op : commit) {
      if (op.kind == OpKind::kWrite) bytes += op.length;
      if (op.file != 0) continue;
      if (op.kind == OpKind::kAllocate && !op.keep_size) {
        v.file_bytes = std::max(v.file_bytes, op.offset + op.length);
      }
      if (op.kind == OpKind::kWrite) {
        v.file_bytes = std::max(v.file_bytes, op.offset + op.length);
      }
    }
  }
  v.bytes_per_commit =
      v.commits.empty()
          ? 0
          : static_cast<double>(bytes) / static_cast<double>(v.commits.size());
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

// The pair's rule: the shift where most commits that write the log start on
// a 4096-byte boundary (said first: the pair then asks what the program's
// engineers cannot choose), else `unaligned_rule`; a tie is said.
ReplayRule RuleOf(const Stream& stream, ReplayRule unaligned_rule, Replay& r) {
  const std::uint64_t n = stream.log_commits;
  const std::uint64_t unaligned = stream.unaligned_starts;
  if (2 * unaligned == n) {
    r.notes.push_back(
        "half the commits start on a 4096-byte boundary and half do not: "
        "taken as aligned, the unaligned variant moved by the shift");
  }
  if (2 * unaligned > n) return unaligned_rule;
  r.notes.insert(
      r.notes.begin(),
      "the program writes its log on 4096-byte boundaries already (" +
          std::to_string(n - unaligned) + " of " + std::to_string(n) +
          " commits start on one): the pair shows what moving its writes " +
          std::to_string(r.shift) +
          " B would cost, which only a change of its format could do; its "
          "own way is the aligned side");
  return ReplayRule::kShift;
}

// The files other than the log, in the replay's order, and what the notes
// say of them, of the commits left out and of a sync_file_range replayed as
// fdatasync.
void OthersOf(const Trace& trace, std::uint64_t log, const Stream& stream,
              Replay& r) {
  std::string paths;
  bool direct = false;
  for (std::size_t f = 0; f < trace.files.size(); ++f) {
    if (f == log) continue;
    const TraceFile& file = trace.files[f];
    r.others.push_back({file.path, file.state, file.size_at_open});
    paths += (paths.empty() ? "" : ", ") + file.path;
    direct = direct || file.HasFlag("O_DIRECT");
  }
  if (!r.others.empty()) {
    r.notes.push_back(
        std::to_string(r.others.size()) +
        (r.others.size() == 1 ? " other file" : " other files") +
        " of the trace (" + paths +
        "): replayed as recorded in both variants, each in a private file "
        "beside the log's" +
        (direct ? "; buffered, without the O_DIRECT it was opened with" : ""));
  }
  if (stream.only_sync > 0) {
    r.notes.push_back(std::to_string(stream.only_sync) +
                      " commits of the trace only synced, nothing written "
                      "since the sync before: left out");
  }
  for (const CommitOps& commit : stream.commits) {
    for (const Op& op : commit) {
      if (op.kind == OpKind::kSync && op.call == SyncCall::kSyncFileRange) {
        r.notes.push_back(
            "sync_file_range is replayed as fdatasync, the nearest call that "
            "makes the writes durable");
        return;
      }
    }
  }
}

// What the program wrote that strace did not see (a shared mapping, an
// io_uring, bytes moved by the kernel), from the trace's limits: the replay
// measures the calls alone, and says so.
// A trace's limit that says what a replay does not reproduce (a file's
// layout from before the trace began) is said the same way.
void MissedByTrace(const Trace& trace, std::vector<std::string>& notes) {
  for (const std::string& limit : trace.limits) {
    if (limit.find("not traced") != std::string::npos) {
      notes.push_back("the program wrote what the trace cannot hold (" + limit +
                      "): this replay makes only the calls strace saw, and "
                      "does not reproduce the program");
    } else if (limit.find("not reproduced") != std::string::npos) {
      notes.push_back(
          "this replay does not reproduce the program in one "
          "respect (" +
          limit + ")");
    }
  }
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
  if (stream.log_commits == 0) {
    return refuse("no commit of the trace writes to a file (" +
                  std::to_string(trace.commits.size()) + " commits)");
  }
  if (stream.log_remade) {
    return refuse("every file of the trace is unlinked and made again (" +
                  file.path +
                  "): a replay needs a log that stays; record with a --file "
                  "pattern that takes the program's database or log file too");
  }
  MissedByTrace(trace, r.notes);
  r.sync = SyncOf(stream.calls, r.notes);
  r.layout = LayoutOf(file, stream, r.notes);
  OthersOf(trace, log, stream, r);
  r.commits = stream.commits.size();
  r.bytes_per_commit =
      std::max<std::uint64_t>(1, (stream.bytes + r.commits / 2) / r.commits);
  r.rule = RuleOf(stream, unaligned_rule, r);
  const std::uint64_t header =
      trace.header && trace.header->file == log ? trace.header->bytes : 0;
  SetVariants(r, ReplayVariant{header, std::move(stream.commits), "", 0, 0});
  return r;
}

Layout LayoutOfTraced(const TraceFile& file, std::uint64_t lowest) {
  switch (file.state) {
    case FileState::kNew:
      return Layout::kExtend;
    case FileState::kPreallocated:
      return Layout::kPrealloc;
    case FileState::kRecycled:
      break;
  }
  return lowest < file.size_at_open ? Layout::kPrewritten : Layout::kExtend;
}

}  // namespace alignbench
