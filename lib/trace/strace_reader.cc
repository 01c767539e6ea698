#include "lib/trace/strace_reader.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

namespace alignbench {
namespace {

// One call as strace printed it: its name, its arguments split at the
// top-level commas, and what it returned (the first word after " = ").
struct Call {
  std::string name;
  std::vector<std::string> args;
  std::string ret;
};

// A descriptor argument as -y prints it: "4</tmp/db-wal>".
struct FdArg {
  long fd = -1;
  std::string path;
};

// A path as strace printed it, its escapes undone: \NNN (octal, for a byte
// that is not printable and for the '>' that would end a -y annotation),
// \xHH, \\, \" and the C escapes of control characters.
std::string StraceText(const std::string& text) {
  static const std::string kLetters = "abtnvfr", kBytes = "\a\b\t\n\v\f\r";
  const auto digits = [&](std::size_t at, std::size_t most, const char* set) {
    std::size_t n = 0;
    while (n < most && at + n < text.size() &&
           std::strchr(set, text[at + n]) != nullptr && text[at + n] != '\0') {
      ++n;
    }
    return n;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = i + 1 < text.size() ? text[i + 1] : '\0';
    std::size_t n = 0;
    if (text[i] != '\\' || c == '\0') {
      out += text[i];
    } else if ((n = digits(i + 1, 3, "01234567")) > 0) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, n), nullptr, 8));
      i += n;
    } else if (c == 'x' && (n = digits(i + 2, 2, "0123456789abcdefABCDEF"))) {
      out += static_cast<char>(std::stoi(text.substr(i + 2, n), nullptr, 16));
      i += n + 1;
    } else {
      const std::size_t k = kLetters.find(c);
      out += k == std::string::npos ? c : kBytes[k];  // \\ and \" as c
      ++i;
    }
  }
  return out;
}

// Whether `path` is the name the kernel gives a file made by O_TMPFILE,
// which has none: "DIR/#INODE".
bool TmpfileName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash != std::string::npos && slash + 2 < path.size() &&
         path[slash + 1] == '#' &&
         path.find_first_not_of("0123456789", slash + 2) == std::string::npos;
}

// "4</tmp/db-wal>", and "3</d/#1234>(deleted)", an O_TMPFILE's descriptor
// as strace -y names it.
FdArg ParseFd(std::string text) {
  FdArg out;
  char* end = nullptr;
  out.fd = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str()) out.fd = -1;
  const std::string deleted = ">(deleted)";
  const bool unnamed =
      text.size() > deleted.size() &&
      text.compare(text.size() - deleted.size(), deleted.size(), deleted) == 0;
  if (unnamed) text.resize(text.size() - deleted.size() + 1);
  const std::size_t open = text.find('<');
  if (open != std::string::npos && text.size() > open + 1 &&
      text.back() == '>') {
    out.path = StraceText(text.substr(open + 1, text.size() - open - 2));
  }
  if (unnamed && !TmpfileName(out.path)) out.path.clear();
  return out;
}

// `path` after a rename of `from` to `to`: the file itself, or one below a
// renamed directory; nullopt where the rename leaves it.
std::optional<std::string> MovedPath(const std::string& path,
                                     const std::string& from,
                                     const std::string& to) {
  if (path == from) return to;
  if (path.rfind(from + "/", 0) == 0) return to + path.substr(from.size());
  return std::nullopt;
}

// The keys of `map` (by path) a rename of `from` to `to` moves, each with
// its new path: `from` itself and, with `below`, the paths under from/,
// found as one range of the map ('/' + 1 is '0').
template <typename Map>
std::vector<std::pair<std::string, std::string>> Moved(const Map& map,
                                                       const std::string& from,
                                                       const std::string& to,
                                                       bool below) {
  std::vector<std::pair<std::string, std::string>> moved;
  if (map.count(from) > 0) moved.emplace_back(from, to);
  if (!below) return moved;
  for (auto it = map.lower_bound(from + "/"), end = map.lower_bound(from + "0");
       it != end; ++it) {
    moved.emplace_back(it->first, to + it->first.substr(from.size()));
  }
  return moved;
}

std::optional<std::uint64_t> Number(const std::string& text) {
  if (text.empty() || text[0] == '-') return std::nullopt;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  if (end == text.c_str()) return std::nullopt;
  return v;
}

std::vector<std::string> SplitFlags(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, '|')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool Has(const std::vector<std::string>& flags, const char* flag) {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

// The arguments between the parentheses that open at `open`, split at the
// commas outside quotes, brackets, braces and fd annotations; `close` is set
// to the matching ')'.
std::vector<std::string> SplitArgs(const std::string& line, std::size_t open,
                                   std::size_t& close) {
  std::vector<std::string> args;
  std::string current;
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = open + 1; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      current += c;
      if (c == '\\' && i + 1 < line.size()) {
        current += line[++i];
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (c == '\\' && i + 1 < line.size()) {  // \" in a -y path
      current += c;
      current += line[++i];
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == '<' && i > 0 &&
               std::isdigit(static_cast<unsigned char>(line[i - 1]))) {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (c == ')' && depth == 0) {
        if (!current.empty() || !args.empty()) args.push_back(current);
        close = i;
        return args;
      }
      if (c != '>' || depth > 0) --depth;
    } else if (c == ',' && depth == 0) {
      args.push_back(current);
      current.clear();
      if (i + 1 < line.size() && line[i + 1] == ' ') ++i;
      continue;
    }
    current += c;
  }
  close = std::string::npos;
  return args;
}

std::optional<Call> ParseCall(const std::string& line) {
  const std::size_t open = line.find('(');
  if (open == std::string::npos || open == 0) return std::nullopt;
  Call call;
  call.name = line.substr(0, open);
  for (char c : call.name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      return std::nullopt;
    }
  }
  std::size_t close = 0;
  call.args = SplitArgs(line, open, close);
  if (close == std::string::npos) return std::nullopt;
  const std::size_t eq = line.find(" = ", close);
  if (eq == std::string::npos) return std::nullopt;
  const std::size_t from = eq + 3;
  // "3</a b>": a descriptor's path may hold spaces, never a bare '>' (\76).
  const std::size_t digits = line.find_first_not_of("0123456789", from);
  std::size_t end = line.find(' ', from);
  if (digits != from && digits < line.size() && line[digits] == '<') {
    end = line.find('>', digits);
    if (end != std::string::npos) ++end;
  }
  call.ret = line.substr(from, end == std::string::npos ? end : end - from);
  return call;
}

// The value of `key=` inside a structure argument ("st_size=4096").
std::optional<std::uint64_t> Field(const std::string& text,
                                   const std::string& key) {
  std::size_t at = text.find(key + "=");
  while (at != std::string::npos && at > 0 &&
         (std::isalnum(static_cast<unsigned char>(text[at - 1])) ||
          text[at - 1] == '_')) {
    at = text.find(key + "=", at + 1);
  }
  if (at == std::string::npos) return std::nullopt;
  return Number(text.substr(at + key.size() + 1));
}

// What the reader does with a call strace shows: calls alike share a row.
enum class Does {
  kFork,
  kUringSetup,
  kMsync,
  kOpenAt,
  kOpen,
  kCreat,
  kRename,
  kUnlink,
  kChdir,
  kTruncatePath,
  kStatPath,
  kStatAt,
  kMmap,
  kFchdir,
  kClose,
  kDup,
  kFcntl,
  kLseek,
  kWrite,
  kPwrite,
  kRead,
  kPread,
  kCopy,
  kSendfile,
  kFsync,
  kFdatasync,
  kSyncFileRange,
  kFallocate,
  kFtruncate,
  kFstat,
  kLink,
  kSyncAll,
  kExec
};

// The one call table: every call strace is asked to show (StraceCalls) and
// what the reader does with it; a call not here is neither asked for nor
// read.
struct CallRow {
  std::string_view name;
  Does does;
};
constexpr CallRow kCalls[] = {
    {"open", Does::kOpen},
    {"openat", Does::kOpenAt},
    {"openat2", Does::kOpenAt},
    {"creat", Does::kCreat},
    {"close", Does::kClose},
    {"dup", Does::kDup},
    {"dup2", Does::kDup},
    {"dup3", Does::kDup},
    {"fcntl", Does::kFcntl},
    {"lseek", Does::kLseek},
    {"write", Does::kWrite},
    {"writev", Does::kWrite},
    {"pwrite64", Does::kPwrite},
    {"pwritev", Does::kPwrite},
    {"pwritev2", Does::kPwrite},
    {"fsync", Does::kFsync},
    {"fdatasync", Does::kFdatasync},
    {"sync_file_range", Does::kSyncFileRange},
    {"fallocate", Does::kFallocate},
    {"ftruncate", Does::kFtruncate},
    {"truncate", Does::kTruncatePath},
    {"fstat", Does::kFstat},
    {"newfstatat", Does::kStatAt},
    {"statx", Does::kStatAt},
    {"stat", Does::kStatPath},
    {"lstat", Does::kStatPath},
    {"mmap", Does::kMmap},
    {"msync", Does::kMsync},
    {"io_uring_setup", Does::kUringSetup},
    {"rename", Does::kRename},
    {"renameat", Does::kRename},
    {"renameat2", Does::kRename},
    {"unlink", Does::kUnlink},
    {"unlinkat", Does::kUnlink},
    {"read", Does::kRead},
    {"pread64", Does::kPread},
    {"readv", Does::kRead},
    {"preadv", Does::kPread},
    {"preadv2", Does::kPread},
    {"copy_file_range", Does::kCopy},
    {"sendfile", Does::kSendfile},
    {"splice", Does::kCopy},
    {"clone", Does::kFork},
    {"clone3", Does::kFork},
    {"fork", Does::kFork},
    {"vfork", Does::kFork},
    {"chdir", Does::kChdir},
    {"fchdir", Does::kFchdir},
    {"linkat", Does::kLink},
    {"sync", Does::kSyncAll},
    {"syncfs", Does::kSyncAll},
    {"execve", Does::kExec},
};

std::optional<Does> DoesOf(const std::string& name) {
  for (const CallRow& row : kCalls) {
    if (row.name == name) return row.does;
  }
  return std::nullopt;
}

// What one traced file went through, by path.
struct FileInfo {
  std::vector<std::string> flags;
  std::optional<std::uint64_t> size_at_open;
  bool truncated_at_open = false;
  bool fallocated_before_write = false;
  // Mostly holes before the trace (StraceOptions::sparse_before).
  bool sparse_before = false;
  bool written = false;
  bool synced = false;
  // Unlinked and not made again yet: the next open that creates it is an op.
  bool unlinked = false;
  // Size as the calls seen so far leave it.
  std::uint64_t size = 0;
  std::size_t order = 0;
};

// An open file description, as the kernel keeps one per open(): where
// write() goes next, and the flags it was opened with (a file reopened with
// O_DIRECT or O_DSYNC writes by those of the descriptor that writes).
// Descriptors made by dup() and those a forked child inherits share it.
struct Description {
  std::uint64_t position = 0;
  std::vector<std::string> flags;
};
using SharedDescription = std::shared_ptr<Description>;
// A process's descriptors, by "FD<PATH>".
using Table = std::map<std::string, SharedDescription>;

class Parser {
 public:
  explicit Parser(const StraceOptions& options) : options_(options) {}

  void Line(std::string line) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string pid;
    if (line.rfind("[pid ", 0) == 0) {
      const std::size_t end = line.find(']');
      if (end == std::string::npos) return;
      pid = line.substr(5, end - 5);
      line = line.substr(end + 1);
    } else {
      std::size_t i = 0;
      while (i < line.size() &&
             std::isdigit(static_cast<unsigned char>(line[i])))
        ++i;
      if (i > 0 && i < line.size() && line[i] == ' ') {
        pid = line.substr(0, i);
        line = line.substr(i);
      }
    }
    pid.erase(0, pid.find_first_not_of(' '));
    line.erase(0, line.find_first_not_of(' '));
    const std::string unfinished = " <unfinished ...>";
    if (line.size() >= unfinished.size() &&
        line.compare(line.size() - unfinished.size(), unfinished.size(),
                     unfinished) == 0) {
      pending_[pid] = line.substr(0, line.size() - unfinished.size());
      return;
    }
    if (line.rfind("<... ", 0) == 0) {
      const std::size_t resumed = line.find(" resumed>");
      auto it = pending_.find(pid);
      if (resumed == std::string::npos || it == pending_.end()) return;
      line = it->second + line.substr(resumed + 9);
      pending_.erase(it);
    }
    for (const auto& [unnamed, name] : named_) {
      for (std::size_t at = line.find(unnamed); at != std::string::npos;
           at = line.find(unnamed, at + name.size())) {
        line.replace(at, unnamed.size(), name);
      }
    }
    if (std::optional<Call> call = ParseCall(line)) {
      ++calls_;
      pid_ = pid;
      Take(*call);
    }
  }

  Result<Trace> Finish() {
    if (calls_ == 0) {
      return PlainError(ErrorKind::kUsage, "read strace output",
                        "no system call found in it");
    }
    Trace trace;
    Commits(Files(trace), trace);
    TakeHeader(trace);
    if (options_.transactions) {
      GroupTransactions(trace);
      Ungrouped(trace);
    }
    if (syncs_of_all_ > 0) {
      limits_.insert(
          "sync or syncfs: " + std::to_string(syncs_of_all_) +
          " calls that make every file of a filesystem durable; a commit "
          "made durable by them is not modelled (their writes join the commit "
          "the next fsync or fdatasync ends) and they are not reproduced");
    }
    if (options_.io_uring_before) {
      limits_.insert(
          "an io_uring was set up before the trace began: writes through it "
          "are not traced");
    }
    for (const std::string& limit : limits_) trace.limits.push_back(limit);
    // The program that wrote the log: the one its process exec'd last (a
    // server started through setpriv, env or nice is not setpriv).
    auto first = exec_.find(first_pid_);
    if (!writer_.empty()) {
      trace.argv = {writer_};
    } else if (first != exec_.end()) {
      trace.argv = {first->second};
    }
    return trace;
  }

  // The files traced, into trace.files in the order first seen: written
  // while a glob matched them (a log rotated away to log.1 keeps the commits
  // it had), or written and synced. Returns each one's index by path.
  std::map<std::string, std::uint64_t> Files(Trace& trace) {
    std::vector<std::string> chosen;
    for (const auto& [path, info] : files_) {
      if (!info.written) continue;
      if (options_.globs.empty() && !info.synced) continue;
      chosen.push_back(path);
    }
    std::sort(chosen.begin(), chosen.end(),
              [this](const auto& a, const auto& b) {
                return files_.at(a).order < files_.at(b).order;
              });
    std::map<std::string, std::uint64_t> index;
    for (const std::string& path : chosen) {
      const FileInfo& info = files_.at(path);
      TraceFile file;
      file.path = path;
      file.flags = info.flags;
      file.size_at_open =
          info.truncated_at_open ? 0 : info.size_at_open.value_or(0);
      if (info.fallocated_before_write) {
        file.state = FileState::kPreallocated;
      } else if (file.size_at_open > 0 && !info.sparse_before) {
        file.state = FileState::kRecycled;
      } else {
        file.state = FileState::kNew;
      }
      PriorLayout(path, file);
      index[path] = trace.files.size();
      trace.files.push_back(file);
    }
    return index;
  }

 private:
  // The events of the traced files (`index`: path to file) as ops, a commit
  // ending at each sync. A sync of a traced file's directory is a sync_dir op
  // of the first such file, inside the commit.
  void Commits(const std::map<std::string, std::uint64_t>& index,
               Trace& trace) const {
    std::map<std::string, std::uint64_t> dirs;
    for (const auto& [path, file] : index) {
      const std::string dir = path.substr(0, path.rfind('/'));
      auto [it, added] = dirs.try_emplace(dir.empty() ? "/" : dir, file);
      if (!added) it->second = std::min(it->second, file);
    }
    CommitOps ops;
    for (Op op : events_) {
      const std::string& path = paths_[op.file];
      if (auto it = index.find(path);
          it != index.end() && op.kind != OpKind::kSyncDir) {
        op.file = it->second;
      } else if (auto dir = dirs.find(path);
                 (op.kind == OpKind::kSync || op.kind == OpKind::kSyncDir) &&
                 dir != dirs.end()) {
        op.kind = OpKind::kSyncDir;
        op.file = dir->second;
      } else {
        continue;
      }
      ops.push_back(op);
      if (op.kind == OpKind::kSync) {
        trace.commits.push_back({std::move(ops)});
        ops.clear();
      }
    }
    trace.after_last_commit = std::move(ops);
  }

  FileInfo& Open(const std::string& path, const std::vector<std::string>& flags,
                 bool fresh) {
    auto [it, added] = files_.try_emplace(path);
    FileInfo& info = it->second;
    if (added) {
      info.order = files_.size();
      info.flags = flags;
      if (auto before = options_.sizes_before.find(path);
          before != options_.sizes_before.end()) {
        info.size_at_open = before->second;
      }
      info.truncated_at_open = fresh && Has(flags, "O_TRUNC");
      info.fallocated_before_write =
          !info.truncated_at_open && options_.unwritten_before.count(path) > 0;
      info.size = info.truncated_at_open ? 0 : info.size_at_open.value_or(0);
      Sparse(path, info);
    }
    return info;
  }

  // A file mostly holes before the trace (Berkeley DB's log, sized ahead):
  // new, and sized by a truncate here, where it is first seen, so that the
  // replay writes into holes as the program did rather than into a
  // prewritten file, where no write allocates.
  void Sparse(const std::string& path, FileInfo& info) {
    info.sparse_before = !info.truncated_at_open && info.size > 0 &&
                         !info.fallocated_before_write &&
                         options_.sparse_before.count(path) > 0;
    if (!info.sparse_before || !Selected(path)) return;
    events_.push_back({OpKind::kTruncate, Id(path), 0, info.size, {}, false});
    limits_.insert("sparse: " + path +
                   " was mostly holes when the trace began (" +
                   std::to_string(info.size) +
                   " B, less than half of them in blocks): taken as new, sized "
                   "by a truncate before its first write, so that its writes "
                   "allocate as the program's did");
  }

  // A recycled file there before the trace in more extents than its size
  // needs (one per 128 MiB, ext4's block group; SQLite's journal recycled
  // by --pid, in two): the replay's prewritten private file is laid out
  // anew, and where the program's writes crossed from one extent to the
  // next is not reproduced. Said in the limits, and by the replay before it
  // measures. A preallocated file is fallocated by the replay as it was.
  void PriorLayout(const std::string& path, const TraceFile& file) {
    auto it = options_.extents_before.find(path);
    if (file.state != FileState::kRecycled ||
        it == options_.extents_before.end() ||
        it->second <= 1 + file.size_at_open / (128ull << 20)) {
      return;
    }
    limits_.insert("layout: " + path + " was in " + std::to_string(it->second) +
                   " extents when the trace began; a replay writes its file "
                   "anew in one go before it measures: the layout from before "
                   "is not reproduced");
  }

  // The id of `path` in paths_, made on first use; where a rename gave
  // several ids one path, the newest.
  std::size_t Id(const std::string& path) {
    std::vector<std::size_t>& ids = ids_[path];
    if (ids.empty()) {
      ids.push_back(paths_.size());
      paths_.push_back(path);
    }
    return ids.back();
  }

  // Every id named `from` (with `below`, also those under from/) named anew
  // under `to`: the events of a renamed file follow it. A rename costs what
  // it moves, not what the trace holds.
  void MoveIds(const std::string& from, const std::string& to, bool below) {
    for (auto& [old, now] : Moved(ids_, from, to, below)) {
      std::vector<std::size_t> ids = std::move(ids_.at(old));
      ids_.erase(old);
      for (std::size_t id : ids) paths_[id] = now;
      std::vector<std::size_t>& at = ids_[now];
      at.insert(at.end(), ids.begin(), ids.end());
      std::sort(at.begin(), at.end());
    }
  }

  // The descriptor table of the process whose call is read: its own, its
  // process's where --pid found it a thread of one, else the one shared.
  Table& Fds() {
    if (auto it = tables_.find(pid_); it != tables_.end()) return *it->second;
    auto group = options_.process_of.find(pid_);
    if (group == options_.process_of.end()) return *shared_;
    std::shared_ptr<Table>& table = tables_[group->second];
    if (!table) table = std::make_shared<Table>();
    tables_[pid_] = table;
    return *table;
  }

  // The process whose descriptors from before the trace `pid` holds: its
  // own (or its thread group's), or for a child forked in the trace, its
  // parent's.
  std::string Origin(const std::string& pid) const {
    if (auto it = origin_.find(pid); it != origin_.end()) return it->second;
    auto group = options_.process_of.find(pid);
    return group == options_.process_of.end() ? pid : group->second;
  }

  // clone, clone3, fork, vfork that made `child`: its table shared (threads,
  // CLONE_FILES) or copied.
  void Forked(const Call& c, const std::string& child) {
    Table& parent = Fds();
    const std::shared_ptr<Table> shared =
        tables_.count(pid_) > 0 ? tables_.at(pid_) : shared_;
    const bool threads =
        std::any_of(c.args.begin(), c.args.end(), [](const std::string& arg) {
          return arg.find("CLONE_FILES") != std::string::npos;
        });
    tables_[child] = threads ? shared : std::make_shared<Table>(parent);
    origin_[child] = Origin(pid_);
    if (auto ran = exec_.find(pid_); ran != exec_.end()) {
      exec_[child] = ran->second;
    }
  }

  // The descriptor `key` of the process read had open before the trace
  // began, as --pid found it; null where it did not.
  const StraceOptions::OpenBefore* Before(const std::string& key) const {
    auto process = options_.open_before.find(Origin(pid_));
    if (process == options_.open_before.end()) return nullptr;
    auto it = process->second.find(key);
    return it == process->second.end() ? nullptr : &it->second;
  }

  // The one description of a descriptor open before the trace, made on its
  // first use by any process that shares it.
  SharedDescription DescriptionBefore(const std::string& key,
                                      const StraceOptions::OpenBefore& b) {
    const std::string id =
        b.description.empty() ? Origin(pid_) + " " + key : b.description;
    SharedDescription& d = before_[id];
    if (!d) d = std::make_shared<Description>(Description{b.position, b.flags});
    return d;
  }

  // A descriptor strace named, known or not: --pid may find files open.
  FileInfo& Known(const FdArg& fd) {
    const std::string key = Key(fd);
    if (!Fds().count(key)) {
      if (const StraceOptions::OpenBefore* before = Before(key)) {
        Fds()[key] = DescriptionBefore(key, *before);
        return Open(fd.path, before->flags, false);
      }
      Fds()[key] = std::make_shared<Description>();
      if (!files_.count(fd.path) && Selected(fd.path)) {
        limits_.insert("descriptor " + std::to_string(fd.fd) + " of " +
                       fd.path +
                       " was open before the trace began: its open flags and "
                       "position are not known, its state is taken as new");
      }
    }
    return Open(fd.path, {}, false);
  }

  Description& Of(const FdArg& fd) {
    Known(fd);
    return *Fds().at(Key(fd));
  }

  static std::string Key(const FdArg& fd) {
    return std::to_string(fd.fd) + "<" + fd.path + ">";
  }

  // A file the trace may keep: a path, not a socket, pipe or device (a file
  // in /dev/shm, a tmpfs, is one). Every such file is followed (opens,
  // renames, sizes); only the selected ones' writes and syncs are kept.
  static bool Regular(const std::string& path) {
    if (path.empty() || path[0] != '/') return false;
    if (path.rfind("/dev/shm/", 0) == 0) return true;
    for (const char* skip : {"/dev/", "/proc/", "/sys/"}) {
      if (path.rfind(skip, 0) == 0) return false;
    }
    return true;
  }

  bool Selected(const std::string& path) const {
    return Regular(path) && PathSelected(path, options_.globs);
  }

  void Write(const FdArg& fd, std::optional<std::uint64_t> at,
             std::uint64_t length, bool sync_flag_write,
             bool append_flag_write = false) {
    if (!Regular(fd.path) || length == 0) return;
    FileInfo& info = Known(fd);
    Description& d = Of(fd);
    // The file's flags are those of the descriptor that writes it last: a
    // file prepared through one descriptor and written through another
    // opened with O_DIRECT or O_DSYNC (alignbench's runs) is that one's.
    if (!d.flags.empty()) info.flags = d.flags;
    const std::vector<std::string>& flags =
        d.flags.empty() ? info.flags : d.flags;
    // An O_APPEND descriptor appends whatever offset pwrite names (pwrite(2),
    // BUGS), as pwritev2 with RWF_APPEND does; its position moves only by
    // write and writev.
    std::uint64_t offset = at.value_or(d.position);
    if (Has(flags, "O_APPEND") || append_flag_write) offset = info.size;
    if (!at) d.position = offset + length;
    info.size = std::max(info.size, offset + length);
    // A path no --file matches (yet: etcd's wal.tmp/) is followed, not kept.
    if (!Selected(fd.path)) return;
    info.written = true;
    if (auto ran = exec_.find(pid_); writer_.empty() && ran != exec_.end()) {
      writer_ = ran->second;
    }
    events_.push_back({OpKind::kWrite, Id(fd.path), offset, length, {}});
    const bool osync = Has(flags, "O_SYNC");
    if (osync || Has(flags, "O_DSYNC") || sync_flag_write) {
      info.synced = true;
      events_.push_back({OpKind::kSync, Id(fd.path), 0, 0,
                         osync ? SyncCall::kOSync : SyncCall::kODsync});
    }
  }

  // A read of a traced file: where it was, and the position it moves. A
  // descriptor neither opened in the trace nor found open before it (the
  // program's standard input) is no file of the program's.
  void Read(const FdArg& fd, std::optional<std::uint64_t> at,
            std::uint64_t length) {
    const std::string key = Key(fd);
    if (!Fds().count(key) && Before(key) == nullptr) return;
    if (!at) {
      Description& d = Of(fd);
      at = d.position;
      d.position += length;
    }
    if (length > 0 && Selected(fd.path)) {
      events_.push_back({OpKind::kRead, Id(fd.path), *at, length});
    }
  }

  // Bytes moved into a traced file by the kernel (copy_file_range, sendfile,
  // splice): strace shows no extent the trace could keep, so it says so.
  void Untraced(const std::string& call, const FdArg& out) {
    if (Regular(out.path) && Selected(out.path)) {
      limits_.insert(call + " into " + out.path +
                     ": its bytes are not traced as writes, nor replayed");
    }
  }

  // A sync of any path is kept: one of a traced file's directory is found by
  // Finish (its path is not a file's) and becomes a sync_dir.
  void Sync(const FdArg& fd, SyncCall call) {
    if (!Regular(fd.path)) return;
    FileInfo& info = Known(fd);
    const bool selected = Selected(fd.path);
    if (selected) {
      info.synced = true;
      ++syncs_since_unlock_;
    }
    events_.push_back(
        {selected ? OpKind::kSync : OpKind::kSyncDir, Id(fd.path), 0, 0, call});
  }

  // truncate(2) of a traced file by its path: as its ftruncate.
  void TruncateByPath(const Call& c) {
    const std::string path = PathArg("", c.args[0]);
    const std::optional<std::uint64_t> len = Number(c.args[1]);
    auto it = files_.find(path);
    if (it == files_.end() || !len) return;
    it->second.size = *len;
    if (Selected(path)) {
      events_.push_back({OpKind::kTruncate, Id(path), 0, *len, {}, false});
    }
  }

  // stat, lstat, newfstatat and statx of a path: an op of a file the trace
  // knows.
  void StatByPath(const Call& c) {
    const bool at = c.name == "newfstatat" || c.name == "statx";
    const std::string path =
        at ? PathArg(c.args[0], c.args[1]) : PathArg("", c.args[0]);
    if (files_.count(path) > 0 && Selected(path)) {
      events_.push_back({OpKind::kStat, Id(path)});
    }
  }

  // unlink, unlinkat: a traced file removed; the open that makes it again is
  // a create (OpenCall).
  void Unlink(const Call& c) {
    const bool at = c.name == "unlinkat";
    if (c.args.size() < (at ? 3u : 1u)) return;
    if (at && c.args[2].find("AT_REMOVEDIR") != std::string::npos) return;
    const std::string path =
        at ? PathArg(c.args[0], c.args[1]) : PathArg("", c.args[0]);
    auto it = files_.find(path);
    if (it == files_.end() || it->second.unlinked) return;
    it->second.unlinked = true;
    it->second.size = 0;
    events_.push_back({OpKind::kUnlink, Id(path)});
  }

  void OpenCall(const Call& c, std::size_t flags_at, bool creat) {
    const FdArg fd = ParseFd(c.ret);
    if (fd.fd < 0 || !Regular(fd.path)) return;
    if (const FdArg dir = ParseFd(c.args[0]);
        dir.path.rfind('/', 0) == 0 && c.args[0].rfind("AT_FDCWD", 0) == 0) {
      cwd_ = dir.path;
    }
    std::vector<std::string> flags;
    if (creat) {
      flags = {"O_WRONLY", "O_CREAT", "O_TRUNC"};
    } else if (flags_at < c.args.size()) {
      std::string text = c.args[flags_at];
      if (text.rfind("{", 0) == 0) {  // openat2's struct open_how
        const std::size_t at = text.find("flags=");
        text = at == std::string::npos ? "" : text.substr(at + 6);
        text = text.substr(0, text.find_first_of(",}"));
      }
      flags = SplitFlags(text);
    }
    const bool known = files_.count(fd.path) > 0;
    FileInfo& info = Open(fd.path, flags, true);
    if (known && info.unlinked) {
      info.unlinked = false;
      events_.push_back({OpKind::kCreate, Id(fd.path)});
    } else if (known && info.written && Has(flags, "O_TRUNC") &&
               info.size > 0) {
      events_.push_back({OpKind::kTruncate, Id(fd.path), 0, 0});
    }
    if (Has(flags, "O_TRUNC")) info.size = 0;
    Fds()[Key(fd)] = std::make_shared<Description>(Description{0, flags});
  }

  // `path` without "." and ".." components (no link is followed: strace
  // names what it opened by its real path anyway).
  static std::string Normal(const std::string& path) {
    std::vector<std::string> parts;
    std::istringstream in(path);
    std::string part;
    while (std::getline(in, part, '/')) {
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        if (!parts.empty()) parts.pop_back();
      } else {
        parts.push_back(part);
      }
    }
    std::string out;
    for (const std::string& p : parts) out += "/" + p;
    return out.empty() ? "/" : out;
  }

  // A path argument made absolute: from its directory descriptor's path
  // (AT_FDCWD</dir> or 5</dir>), else from the working directory last seen.
  std::string PathArg(const std::string& dirfd, const std::string& quoted) {
    if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') {
      return "";
    }
    const std::string path = StraceText(quoted.substr(1, quoted.size() - 2));
    if (path.rfind('/', 0) == 0) return path;
    const std::string dir = dirfd.empty() ? cwd_ : ParseFd(dirfd).path;
    return dir.empty() ? "" : dir + "/" + path;
  }

  // A rename over a file the trace follows (a log written anew and moved
  // into place): that file is gone there, as if unlinked, and stays in the
  // trace as "TO (replaced)"; the renamed one goes on under TO.
  void Replaced(const std::string& from, const std::string& to) {
    auto old = files_.find(to);
    if (old == files_.end() || files_.count(from) == 0) return;
    int& k = replaced_[to];
    std::string gone;
    do {
      gone = to + (++k == 1 ? " (replaced)"
                            : " (replaced " + std::to_string(k) + ")");
    } while (files_.count(gone) > 0);
    events_.push_back({OpKind::kUnlink, Id(to)});
    old->second.unlinked = true;
    files_[gone] = std::move(old->second);
    files_.erase(old);
    MoveIds(to, gone, false);
  }

  // rename, renameat, renameat2: what was open or written under the old
  // path (the file, or every file below a renamed directory) goes on under
  // the new one, as one file (etcd prepares its segment in wal.tmp/ and
  // renames the directory to wal/).
  void Rename(const Call& c) {
    const bool at = c.name != "rename";
    if (c.args.size() < (at ? 4u : 2u)) return;
    const std::string from =
        at ? PathArg(c.args[0], c.args[1]) : PathArg("", c.args[0]);
    const std::string to =
        at ? PathArg(c.args[2], c.args[3]) : PathArg("", c.args[1]);
    Renamed(from, to);
  }

  // What was open or written under `from` goes on under `to`.
  void Renamed(const std::string& from, const std::string& to) {
    if (from.empty() || to.empty() || from == to) return;
    Replaced(from, to);
    for (auto& [old, now] : Moved(files_, from, to, true)) {
      FileInfo info = std::move(files_.at(old));
      files_.erase(old);
      files_[now] = std::move(info);
    }
    std::set<Table*> tables{shared_.get()};
    for (auto& [pid, table] : tables_) tables.insert(table.get());
    for (Table* table : tables) {
      Table renamed;
      for (auto& [key, d] : *table) {
        const FdArg fd = ParseFd(key);
        const std::optional<std::string> now = MovedPath(fd.path, from, to);
        renamed[now ? std::to_string(fd.fd) + "<" + *now + ">" : key] = d;
      }
      *table = std::move(renamed);
    }
    MoveIds(from, to, true);
  }

  // linkat of a file made by O_TMPFILE (by its descriptor with
  // AT_EMPTY_PATH, or /proc/self/fd/N): the file has a name from here on,
  // and what was written to it goes on under that name; strace still names
  // its descriptor "DIR/#INODE>(deleted)", which Line reads as the name.
  void Link(const Call& c) {
    std::string from;
    const std::string path = PathArg("", c.args[1]);
    if (c.args[4].find("AT_EMPTY_PATH") != std::string::npos) {
      from = ParseFd(c.args[0]).path;
    } else if (path.rfind("/proc/self/fd/", 0) == 0) {
      const std::string n = path.substr(14) + "<";
      for (const auto& [key, d] : Fds()) {
        if (key.rfind(n, 0) == 0) from = ParseFd(key).path;
      }
    }
    const std::string to = PathArg(c.args[2], c.args[3]);
    if (!TmpfileName(from) || to.empty()) return;
    named_["<" + from + ">(deleted)"] = "<" + to + ">";
    Renamed(from, to);
  }

  void Dup(const FdArg& fd, const Call& c) {
    FdArg to = ParseFd(c.ret);
    if (to.path.empty()) to.path = fd.path;
    if (!Regular(fd.path)) return;
    Known(fd);
    Fds()[Key(to)] = Fds().at(Key(fd));  // one description
  }

  // The status flags F_SETFL can change (fcntl(2)).
  inline static const std::vector<std::string> kSettable = {
      "O_DIRECT", "O_APPEND", "O_NONBLOCK", "O_NOATIME", "O_ASYNC"};

  // F_SETFL sets the status flags the call names (O_DIRECT, O_APPEND,
  // O_NONBLOCK); the access mode and O_DSYNC/O_SYNC stay.
  void SetFlags(const FdArg& fd, const std::string& named) {
    FileInfo& info = Known(fd);
    Description& d = Of(fd);
    if (d.flags.empty()) d.flags = info.flags;
    for (const std::string& settable : kSettable) {
      d.flags.erase(std::remove(d.flags.begin(), d.flags.end(), settable),
                    d.flags.end());
    }
    // Linux ignores every other flag F_SETFL names: an O_DSYNC or O_SYNC
    // given there makes no write synchronous.
    for (const std::string& flag : SplitFlags(named)) {
      const bool settable = Has(kSettable, flag.c_str());
      if (settable && !Has(d.flags, flag.c_str())) d.flags.push_back(flag);
    }
    if (!info.written) info.flags = d.flags;
  }

  // Before a traced file is written, fallocate makes its state: mode 0,
  // preallocated; FALLOC_FL_KEEP_SIZE (RocksDB) reserves blocks past the end,
  // and the file still grows with every commit, as a new one does. After, it
  // is an op of the commit (those two modes; others, punching holes or
  // zeroing ranges, are a limit).
  void Fallocate(const FdArg& fd, const Call& c) {
    FileInfo& info = Known(fd);
    const std::string& mode = c.args[1];
    const bool keep_size = mode == "FALLOC_FL_KEEP_SIZE";
    const std::optional<std::uint64_t> off = Number(c.args[2]);
    const std::optional<std::uint64_t> len = Number(c.args[3]);
    if (!info.written) {
      if (mode.find("KEEP_SIZE") == std::string::npos) {
        info.fallocated_before_write = true;
      }
    } else if (Selected(fd.path) && off && len && *len > 0 &&
               (keep_size || mode == "0")) {
      events_.push_back(
          {OpKind::kAllocate, Id(fd.path), *off, *len, {}, keep_size});
    } else if (Selected(fd.path)) {
      limits_.insert("fallocate " + mode + " of " + fd.path +
                     " after it was written: not replayed");
    }
    if (off && len && mode.find("KEEP_SIZE") == std::string::npos) {
      info.size = std::max(info.size, *off + *len);
    }
  }

  // ftruncate: the size it leaves, and an op of the commit it falls in,
  // which the replay makes too (a log sized before its first write is then
  // written into the holes, as the program's was, not grown by each commit).
  void Truncate(const FdArg& fd, const Call& c) {
    const std::optional<std::uint64_t> len = Number(c.args[1]);
    if (!len) return;
    FileInfo& info = Known(fd);
    if (Selected(fd.path)) {
      events_.push_back({OpKind::kTruncate, Id(fd.path), 0, *len, {}, false});
    }
    info.size = *len;
  }

  // A descriptor's own stat: an op, and the size at open if nothing was
  // written yet.
  void Stat(const FdArg& fd, const Call& c) {
    const bool own =
        c.name == "fstat" || (c.args.size() >= 2 && c.args[1] == "\"\"");
    if (!own) return;
    FileInfo& info = Known(fd);
    if (Selected(fd.path)) events_.push_back({OpKind::kStat, Id(fd.path)});
    std::optional<std::uint64_t> size;
    for (const std::string& arg : c.args) {
      if (!size) size = Field(arg, c.name == "statx" ? "stx_size" : "st_size");
    }
    if (size && !info.written && !info.size_at_open) {
      info.size_at_open = *size;
      info.size = *size;
    }
  }

  // Calls that name no descriptor first: limits, opens, renames, mappings.
  // False for a call that names one.
  bool TakeByPath(const Call& c, Does does) {
    switch (does) {
      case Does::kUringSetup:
        limits_.insert(
            "io_uring_setup seen: writes through io_uring are not traced");
        return true;
      case Does::kMsync:
        limits_.insert(
            "msync seen: writes through a shared mapping are not traced");
        return true;
      case Does::kOpenAt:
        OpenCall(c, 2, false);
        return true;
      case Does::kOpen:
        OpenCall(c, 1, false);
        return true;
      case Does::kCreat:
        OpenCall(c, 1, true);
        return true;
      case Does::kRename:
        Rename(c);
        return true;
      case Does::kUnlink:
        Unlink(c);
        return true;
      case Does::kChdir:
        if (const std::string dir = PathArg("", c.args[0]); !dir.empty()) {
          cwd_ = Normal(dir);
        }
        return true;
      case Does::kTruncatePath:
        if (c.args.size() >= 2) TruncateByPath(c);
        return true;
      case Does::kStatPath:
        StatByPath(c);
        return true;
      case Does::kStatAt:
        // newfstatat and statx name a path, or "" for their descriptor.
        if (c.args.size() < 2 || c.args[1] == "\"\"") return false;
        StatByPath(c);
        return true;
      case Does::kMmap:
        Mmap(c);
        return true;
      case Does::kLink:
        if (c.args.size() >= 5) Link(c);
        return true;
      case Does::kSyncAll:
        ++syncs_of_all_;
        return true;
      case Does::kExec:
      case Does::kFork:
      case Does::kFchdir:
      case Does::kClose:
      case Does::kDup:
      case Does::kFcntl:
      case Does::kLseek:
      case Does::kWrite:
      case Does::kPwrite:
      case Does::kRead:
      case Does::kPread:
      case Does::kCopy:
      case Does::kSendfile:
      case Does::kFsync:
      case Does::kFdatasync:
      case Does::kSyncFileRange:
      case Does::kFallocate:
      case Does::kFtruncate:
      case Does::kFstat:
        break;
    }
    return false;
  }

  // mmap of a traced file, shared and writable: its writes are not seen.
  void Mmap(const Call& c) {
    if (c.args.size() >= 5 &&
        c.args[2].find("PROT_WRITE") != std::string::npos &&
        c.args[3].find("MAP_SHARED") != std::string::npos &&
        Selected(ParseFd(c.args[4]).path)) {
      limits_.insert("mmap of " + ParseFd(c.args[4]).path +
                     " with PROT_WRITE and MAP_SHARED: writes through the "
                     "mapping are not traced");
    }
  }

  void Take(const Call& c) {
    const std::optional<Does> does = DoesOf(c.name);
    if (!does) return;
    const bool failed = !c.ret.empty() && c.ret[0] == '-';
    if (*does == Does::kFork) {
      if (!failed && Number(c.ret).value_or(0) > 0) Forked(c, c.ret);
      return;
    }
    if (first_pid_.empty()) first_pid_ = pid_;
    if (*does == Does::kExec) {
      if (!failed && !c.args.empty()) exec_[pid_] = PathArg("", c.args[0]);
      return;
    }
    if (failed && *does == Does::kSyncAll) return;
    const bool limit = *does == Does::kUringSetup || *does == Does::kMsync ||
                       *does == Does::kSyncAll;
    if ((failed || c.args.empty()) && !limit) return;
    if (TakeByPath(c, *does)) return;
    const FdArg fd = ParseFd(c.args[0]);
    if (fd.fd < 0) return;
    TakeByDescriptor(c, *does, fd);
  }

  void TakeByDescriptor(const Call& c, Does does, const FdArg& fd) {
    const std::optional<std::uint64_t> ret = Number(c.ret);
    const bool regular = Regular(fd.path);
    switch (does) {
      case Does::kFchdir:
        if (fd.path.rfind('/', 0) == 0) cwd_ = fd.path;
        break;
      case Does::kClose:
        Fds().erase(Key(fd));
        break;
      case Does::kDup:
        if (ret) Dup(fd, c);
        break;
      case Does::kFcntl:
        Fcntl(c, fd);
        break;
      case Does::kLseek:
        if (ret && regular) Of(fd).position = *ret;
        break;
      case Does::kWrite:
        if (ret) Write(fd, std::nullopt, *ret, false);
        break;
      case Does::kPwrite:
        if (ret && c.args.size() >= 4) {
          Write(fd, Number(c.args[3]), *ret, Rwf(c, "RWF_DSYNC", "RWF_SYNC"),
                Rwf(c, "RWF_APPEND", "RWF_APPEND"));
        }
        break;
      case Does::kRead:
        if (ret && regular) Read(fd, std::nullopt, *ret);
        break;
      case Does::kPread:
        if (ret && c.args.size() >= 4 && regular) {
          Read(fd, Number(c.args[3]), *ret);
        }
        break;
      case Does::kCopy:
        if (c.args.size() >= 3) Untraced(c.name, ParseFd(c.args[2]));
        break;
      case Does::kSendfile:
        Untraced(c.name, fd);
        break;
      case Does::kFsync:
        Sync(fd, SyncCall::kFsync);
        break;
      case Does::kFdatasync:
        Sync(fd, SyncCall::kFdatasync);
        break;
      case Does::kSyncFileRange:
        Sync(fd, SyncCall::kSyncFileRange);
        break;
      case Does::kFallocate:
        if (c.args.size() >= 4 && regular) Fallocate(fd, c);
        break;
      case Does::kFtruncate:
        if (c.args.size() >= 2 && regular) Truncate(fd, c);
        break;
      case Does::kFstat:
      case Does::kStatAt:
        if (regular) Stat(fd, c);
        break;
      case Does::kFork:  // Take's and TakeByPath's
      case Does::kUringSetup:
      case Does::kMsync:
      case Does::kOpenAt:
      case Does::kOpen:
      case Does::kCreat:
      case Does::kRename:
      case Does::kUnlink:
      case Does::kChdir:
      case Does::kTruncatePath:
      case Does::kStatPath:
      case Does::kMmap:
      case Does::kLink:
      case Does::kSyncAll:
      case Does::kExec:
        break;
    }
  }

  // fcntl: F_DUPFD and F_DUPFD_CLOEXEC make one description, as dup; F_SETFL
  // sets a regular file's status flags.
  void Fcntl(const Call& c, const FdArg& fd) {
    if (c.args.size() >= 2 && c.args[1].rfind("F_DUPFD", 0) == 0 &&
        Number(c.ret)) {
      Dup(fd, c);
    } else if (c.args.size() >= 3 && c.args[1] == "F_SETFL" &&
               Regular(fd.path)) {
      SetFlags(fd, c.args[2]);
    } else if (c.args.size() >= 3 &&
               c.args[1].find("SETLK") != std::string::npos &&
               c.args[2].find("F_UNLCK") != std::string::npos &&
               syncs_since_unlock_ > 0) {
      // A record lock released (tdb's, SQLite's): the syncs since the last
      // release were one transaction's.
      locked_syncs_.push_back(syncs_since_unlock_);
      syncs_since_unlock_ = 0;
    }
  }

  // Where the syncs were not grouped (GroupTransactions found no cycle:
  // they are all of one file by one call, as tdb's four fdatasyncs of a
  // transaction), but the program's lock releases show transactions of k
  // syncs each (90 % of them, k >= 2): said, since each sync is a commit.
  void Ungrouped(const Trace& trace) {
    if (locked_syncs_.size() < 2) return;
    std::map<std::uint64_t, std::size_t> sizes;
    for (std::uint64_t n : locked_syncs_) ++sizes[n];
    const auto most = std::max_element(
        sizes.begin(), sizes.end(),
        [](const auto& a, const auto& b) { return a.second < b.second; });
    if (most->first < 2 || 10 * most->second < 9 * locked_syncs_.size()) {
      return;
    }
    for (const std::string& limit : trace.limits) {
      if (limit.rfind("transactions:", 0) == 0) return;
    }
    limits_.insert(
        "syncs not grouped: between its lock releases the program made " +
        std::to_string(most->first) + " syncs each time (" +
        std::to_string(most->second) + " of " +
        std::to_string(locked_syncs_.size()) +
        " transactions), all of one file by one call, which the grouping "
        "cannot tell apart: each sync is a commit, so a transaction is not "
        "reproduced as one commit and every per-commit figure is per sync");
  }

  // pwritev2 with flag `a` or `b` (RWF_DSYNC or RWF_SYNC: a synchronous
  // write; RWF_APPEND: one at the file's end).
  static bool Rwf(const Call& c, const char* a, const char* b) {
    return c.name == "pwritev2" && c.args.size() >= 5 &&
           (c.args[4].find(a) != std::string::npos ||
            c.args[4].find(b) != std::string::npos);
  }

  // The first commit of a new file is the file's header (written before the
  // first commit, untimed, as a case's header) only where the evidence says
  // so: all it writes is a few bytes from offset 0 (at most
  // kMaxTraceHeaderBytes), never written again, and less than half of what a
  // later commit writes by the median (SQLite's 32-byte WAL header, synced
  // alone before 4120-byte frames; not Redis's first 59-byte SET before
  // 36-40-byte ones, nor a rollback journal's header, rewritten by every
  // transaction). The trace says so in its limits.
  void TakeHeader(Trace& trace) const {
    if (trace.commits.size() < 3) return;
    const TraceCommit& first = trace.commits.front();
    std::optional<std::uint64_t> file;
    std::uint64_t end = 0;
    std::uint64_t low = UINT64_MAX;
    for (const Op& op : first.ops) {
      if (op.kind != OpKind::kWrite) continue;
      if (file && *file != op.file) return;
      file = op.file;
      low = std::min(low, op.offset);
      end = std::max(end, op.offset + op.length);
      if (end > kMaxTraceHeaderBytes) return;
    }
    if (!file || low != 0 || trace.files[*file].state != FileState::kNew) {
      return;
    }
    std::vector<std::uint64_t> later;
    for (std::size_t i = 1; i < trace.commits.size(); ++i) {
      std::uint64_t bytes = 0;
      for (const Op& op : trace.commits[i].ops) {
        if (op.kind != OpKind::kWrite || op.file != *file) continue;
        // Written again (a rollback journal's header): no header of a log.
        if (op.offset < end) return;
        bytes += op.length;
      }
      // Only the same file's commits say what its records are: another
      // file's 4 KiB pages make no 100-byte first record a header.
      if (bytes > 0) later.push_back(bytes);
    }
    if (later.size() < 2) return;
    std::nth_element(later.begin(), later.begin() + later.size() / 2,
                     later.end());
    const std::uint64_t median = later[later.size() / 2];
    if (2 * end >= median) return;
    trace.header = Trace::Header{*file, end};
    trace.commits.erase(trace.commits.begin());
    trace.limits.push_back(
        "header: the first commit (" + std::to_string(end) +
        " B at offset 0 of a new file) is taken as the file's header, written "
        "untimed before the commits: later commits write " +
        std::to_string(median) + " B by the median");
  }

  // A program whose every transaction makes several syncs, always in the
  // same order (its data, then a meta page written O_DSYNC), means one commit
  // by them: where a cycle of 2 to 8 syncs whose files or calls differ
  // repeats over at least 90 % of the commits, each cycle becomes one commit
  // (its syncs kept inside it, in order). The cycle is read from any of its
  // first k syncs on, so that a sync or two before the first transaction
  // (a file's creation) does not hide it. The shortest such cycle wins; the
  // trace's limits say what was grouped. --per-sync keeps every sync a commit.
  void GroupTransactions(Trace& trace) const {
    const std::size_t n = trace.commits.size();
    for (std::size_t k = 2; k <= 8 && 2 * k <= n; ++k) {
      for (std::size_t from = 0; from < k; ++from) {
        if (auto starts = Cycles(trace.commits, from, k)) {
          Merge(trace, *starts, k);
          return;
        }
      }
    }
  }

  // Where the cycle of the k syncs from `from` on starts, over and over,
  // if it covers 90 % of the commits and its syncs differ.
  static std::optional<std::vector<bool>> Cycles(
      const std::vector<TraceCommit>& c, std::size_t from, std::size_t k) {
    auto key = [&c](std::size_t i) {
      const Op& s = c[i].ops.back();
      return std::pair{s.file, s.call};
    };
    if (from + k > c.size()) return std::nullopt;
    std::set<std::pair<std::uint64_t, SyncCall>> kinds;
    for (std::size_t j = 0; j < k; ++j) kinds.insert(key(from + j));
    if (kinds.size() < 2) return std::nullopt;
    std::vector<bool> starts(c.size(), false);
    std::size_t covered = 0;
    for (std::size_t i = 0; i + k <= c.size();) {
      bool cycle = true;
      for (std::size_t j = 0; j < k && cycle; ++j) {
        cycle = key(i + j) == key(from + j);
      }
      if (cycle) {
        starts[i] = true;
        covered += k;
        i += k;
      } else {
        ++i;
      }
    }
    if (10 * covered < 9 * c.size()) return std::nullopt;
    return starts;
  }

  static void Merge(Trace& trace, const std::vector<bool>& starts,
                    std::size_t k) {
    std::vector<TraceCommit> merged;
    const std::size_t syncs = trace.commits.size();
    for (std::size_t i = 0; i < syncs;) {
      TraceCommit commit;
      const std::size_t n = starts[i] ? k : 1;
      for (std::size_t j = i; j < i + n; ++j) {
        commit.ops.insert(commit.ops.end(), trace.commits[j].ops.begin(),
                          trace.commits[j].ops.end());
      }
      merged.push_back(std::move(commit));
      i += n;
    }
    const auto cycles = static_cast<std::size_t>(
        std::count(starts.begin(), starts.end(), true));
    const std::size_t alone = syncs - k * cycles;
    trace.limits.push_back(
        "transactions: every " + std::to_string(k) +
        " syncs that repeat in one order are one commit (" +
        std::to_string(syncs) + " syncs, " + std::to_string(merged.size()) +
        " commits" +
        (alone > 0 ? ", " + std::to_string(alone) +
                         " syncs outside the cycle each a commit of its own"
                   : std::string()) +
        "); alignbench record --per-sync keeps each sync a commit");
    trace.commits = std::move(merged);
  }

  const StraceOptions& options_;
  std::map<std::string, std::string> pending_;
  std::map<std::string, FileInfo> files_;
  // Descriptor tables by process: a thread (clone with CLONE_FILES) shares
  // its parent's, a forked child gets a copy (the same descriptions: one
  // position), so that its close() leaves the parent's descriptor alone.
  // --pid's processes have a table each, shared by their threads
  // (StraceOptions::process_of); a process first seen without its clone
  // and not among them shares the one table all such share.
  std::map<std::string, std::shared_ptr<Table>> tables_;
  std::shared_ptr<Table> shared_ = std::make_shared<Table>();
  // By child forked in the trace, the process whose descriptors from before
  // the trace it inherited (Origin).
  std::map<std::string, std::string> origin_;
  // The descriptions of descriptors open before the trace, by their name
  // (StraceOptions::OpenBefore::description, or process and descriptor).
  std::map<std::string, SharedDescription> before_;
  // The process of the line being read.
  std::string pid_;
  // The working directory last seen (openat's AT_FDCWD</dir>), for the
  // relative paths of rename.
  std::string cwd_;
  // The traced calls as ops, each on the id of its path (paths_); a sync of
  // a path no glob takes is a sync_dir until Commits finds its directory.
  CommitOps events_;
  // The paths events name, each once; by path, its ids (a rename can give
  // one path several).
  std::vector<std::string> paths_;
  std::map<std::string, std::vector<std::size_t>> ids_;
  // By path, how many files renamed over it the trace keeps as replaced.
  std::map<std::string, int> replaced_;
  std::set<std::string> limits_;
  std::uint64_t calls_ = 0;
  // By process, the program it exec'd last (a forked child's, its
  // parent's); the first process seen, and the program of the first write
  // to a traced file.
  std::map<std::string, std::string> exec_;
  std::string first_pid_;
  std::string writer_;
  // Syncs of traced files since a record lock was last released, and at
  // each release that followed a sync, how many (Ungrouped).
  std::uint64_t syncs_since_unlock_ = 0;
  std::vector<std::uint64_t> locked_syncs_;
  // sync and syncfs calls: what they make durable is no file's commit.
  std::uint64_t syncs_of_all_ = 0;
  // Files made by O_TMPFILE and linked since, as strace names their
  // descriptors ("</d/#1234>(deleted)"), each with its name ("</d/log>").
  std::map<std::string, std::string> named_;
};

// What ParseStrace says when options.stopped abandons it.
Error Stopped() {
  return PlainError(ErrorKind::kSetup, "read strace's output",
                    "stopped by a signal");
}

}  // namespace

std::string StraceCalls() {
  std::string list;
  for (const CallRow& row : kCalls) {
    list += std::string(list.empty() ? "" : ",") + std::string(row.name);
  }
  return list;
}

bool PathSelected(const std::string& path,
                  const std::vector<std::string>& globs) {
  if (globs.empty()) return true;
  return std::any_of(globs.begin(), globs.end(), [&path](const std::string& g) {
    return ::fnmatch(g.c_str(), path.c_str(), FNM_PATHNAME) == 0;
  });
}

Result<Trace> ParseStrace(const std::string& text,
                          const StraceOptions& options) {
  Parser parser(options);
  std::istringstream in(text);
  std::string line;
  const auto stopped = [&options] {
    return options.stopped && options.stopped();
  };
  for (std::uint64_t n = 1; std::getline(in, line); ++n) {
    parser.Line(line);
    if (n % kStopPollLines == 0 && stopped()) return Stopped();
  }
  if (stopped()) return Stopped();
  return parser.Finish();
}

}  // namespace alignbench
