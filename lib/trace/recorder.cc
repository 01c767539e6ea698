#include "lib/trace/recorder.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <optional>

#include "lib/io/cleanup.h"
#include "lib/io/command.h"
#include "lib/io/fd.h"
#include "lib/io/file_io.h"
#include "lib/trace/files_before.h"

namespace alignbench {
namespace {

// strace's output of a long-running server can be large; past this it is
// refused rather than read into memory.
constexpr std::uint64_t kMaxStraceBytes = 2ull << 30;

Error RecordError(const std::string& what, const std::string& hint = "") {
  Error error = PlainError(ErrorKind::kSetup, "record", what);
  error.hint = hint;
  return error;
}

// strace's command line: -f, no data bytes, file names beside descriptors.
std::vector<std::string> StraceArgv(const Recording& plan,
                                    const std::string& raw,
                                    const std::vector<pid_t>& family) {
  std::vector<std::string> argv = {plan.strace, "-f", "-qq",
                                   "-s0",       "-y", "-o",
                                   raw,         "-e", "trace=" + StraceCalls()};
  for (pid_t p : family) {
    argv.push_back("-p");
    argv.push_back(std::to_string(p));
  }
  if (!plan.attach) {
    argv.push_back("--");
    argv.insert(argv.end(), plan.program.begin(), plan.program.end());
  }
  return argv;
}

// Says "attached" once strace traces every process of the family (or the
// process has ended): only then does recording begin, and `attached` is
// called.
std::function<bool(pid_t)> AttachedLine(std::vector<pid_t> family, pid_t pid,
                                        std::function<void()> attached) {
  return [family = std::move(family), pid,
          attached = std::move(attached)](pid_t strace) {
    for (pid_t p : family) {
      const pid_t tracer = TracerOf(p);
      if (tracer != strace && tracer != -1) return false;
    }
    attached();
    std::cerr << "alignbench record: attached to " << family.size()
              << " process(es) of " << pid
              << "; Ctrl-C or SIGINT stops recording\n";
    return true;
  };
}

// What tracing changed: the untraced window of the plan beside the traced
// one, from the counters read when strace had attached (`from`) and when it
// ended (`to`); where either is not known, why.
TracingEffect TracingOf(const Recording& plan,
                        const std::optional<CounterReading>& from,
                        const CounterReading& to) {
  TracingEffect effect;
  if (!plan.attach) {
    effect.unknown =
        "recorded from the start: there is no untraced window "
        "to compare";
    return effect;
  }
  effect.untraced = plan.untraced.window;
  effect.unknown = plan.untraced.unknown;
  std::string why = "strace never attached";
  if (from) effect.traced = WindowBetween(*from, to, why);
  if (!effect.traced && effect.unknown.empty()) {
    effect.unknown = "traced, " + why;
  }
  return effect;
}

// The raw strace output, in a directory of its own (mode 0700) removed with it
// on every way out. strace opens the file by name, so the directory is made
// in $TMPDIR only where nobody but this user and root can change $TMPDIR
// (another user's TMPDIR, where they could swap our file for a link to one of
// ours before strace opens it, is passed over), else in /tmp.
struct RawOutput {
  std::string dir;
  std::string path;
  bool made = false;
  int dir_slot = -1;
  int slot = -1;
  RawOutput() {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string base = tmpdir && *tmpdir == '/' ? tmpdir : "/tmp";
    if (!OnlyOwnerCanChange(base, ::geteuid())) base = "/tmp";
    dir = base + "/alignbench-record-XXXXXX";
    if (::mkdtemp(dir.data()) == nullptr) return;
    made = true;
    dir_slot = RegisterForCleanup(dir);
    path = dir + "/strace.out";
    slot = RegisterForCleanup(path);
    UniqueFd fd(::open(path.c_str(),
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       0600));
    if (!fd.valid()) path.clear();
  }
  ~RawOutput() {
    if (!made) return;
    ::unlink((dir + "/strace.out").c_str());
    ::rmdir(dir.c_str());
    if (slot >= 0) UnregisterCleanup(slot);
    if (dir_slot >= 0) UnregisterCleanup(dir_slot);
  }
  RawOutput(const RawOutput&) = delete;
  RawOutput& operator=(const RawOutput&) = delete;
};

// Whether strace's output at `path` (its bytes `text`) may have been cut
// short by a full filesystem: its last line not whole, or less than 64 KiB
// left where it was written.
bool CutShort(const std::string& path, const std::string& text) {
  if (!text.empty() && text.back() != '\n') return true;
  struct statvfs fs {};
  if (::statvfs(path.c_str(), &fs) != 0) return false;
  return static_cast<std::uint64_t>(fs.f_bfree) * fs.f_frsize < (64u << 10);
}

// strace's output at `path`, or why there is none to read: cut short by a
// full filesystem, or strace could not run the command (`program_status`).
Result<std::string> StraceOutput(const std::string& path, int program_status) {
  Result<std::string> text =
      ReadWholeFile(path, ErrorKind::kSetup, kMaxStraceBytes);
  if (!text) return text.error();
  if (CutShort(path, text.value())) {
    return RecordError(
        "strace's output in " + EscapeControl(path) +
            " was cut short (its filesystem is full): the recording is "
            "incomplete and is not saved",
        "set TMPDIR to a directory on a filesystem with room, and record "
        "again");
  }
  if (text.value().empty() && program_status == 127) {
    return RecordError("strace could not start or run the command",
                       "run it under strace by hand to see why");
  }
  return text;
}

// The program's exit status from strace's wait status, said where it failed.
int ProgramStatus(int st, const Recording& plan) {
  int status = 0;
  if (WIFEXITED(st)) status = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) status = 128 + WTERMSIG(st);
  if (!plan.attach && status != 0) {
    std::cerr << "alignbench record: " << EscapeControl(plan.program[0])
              << " exited with status " << status
              << "; its trace is saved all the same, and record exits with "
                 "that status\n";
  }
  return status;
}

// The trace's program and version as the program that wrote ran (setpriv's
// server, not setpriv), said where that is not the command; and strace's own.
void NameProgram(const Recording& plan, const std::string& version,
                 Trace& trace) {
  const std::string ran = trace.argv.empty() ? "" : trace.argv[0];
  trace.argv = ProgramRan(plan.program, plan.executable, ran);
  trace.version = version;
  if (trace.argv != plan.program) {
    trace.version = ProgramVersion(ran);
    std::cerr << "alignbench record: recorded as " << EscapeControl(ran)
              << ", the program " << EscapeControl(plan.program[0]) << " ran\n";
  }
  trace.recorder = FirstLineOf({plan.strace, "-V"});
}

}  // namespace

Result<RecordedRun> Record(const Recording& plan, const std::string& version,
                           const StopSignals& stop, SaveStop& abandon) {
  RawOutput raw;
  if (raw.path.empty()) {
    return SystemError(ErrorKind::kSetup, "create strace's output in", raw.dir,
                       errno);
  }
  StraceOptions options = plan.options;
  std::vector<pid_t> family;
  StraceRun run;
  run.attach = plan.attach;
  run.command = EscapeControl(plan.program.empty() ? "?" : plan.program[0]);
  std::optional<CounterReading> traced_from;
  if (plan.attach) {
    family = Family(plan.pid);
    OpenBefore(family, options);
    run.started = AttachedLine(family, plan.pid, [&] {
      traced_from = ReadCounters(family, plan.flushes);
    });
  }
  Result<int> status = RunStrace(StraceArgv(plan, raw.path, family), run, stop);
  if (!status) return status.error();
  const CounterReading traced_to = ReadCounters(family, plan.flushes);
  RecordedRun recorded;
  recorded.program_status = ProgramStatus(status.value(), plan);
  Result<std::string> text = StraceOutput(raw.path, recorded.program_status);
  if (!text) return text.error();
  if (text.value().size() >= kSaidStraceBytes) {
    abandon.Arm();
    std::cerr << "alignbench record: reading " << (text.value().size() >> 20)
              << " MiB of strace's output; a stop signal abandons the save\n";
  }
  options.stopped = [&abandon] { return abandon.Asked(); };
  Result<Trace> trace = ParseStrace(text.value(), options);
  if (!trace) return trace.error();
  recorded.trace = std::move(trace).value();
  if (recorded.trace.files.empty() && !options.globs.empty()) {
    if (Result<Trace> any = ParseStrace(text.value(), {})) {
      for (const TraceFile& f : any.value().files) {
        recorded.written_elsewhere.push_back(f.path);
      }
    }
  }
  NameProgram(plan, version, recorded.trace);
  recorded.trace.tracing = TracingOf(plan, traced_from, traced_to);
  return recorded;
}

std::vector<std::string> ProgramRan(const std::vector<std::string>& command,
                                    const std::string& executable,
                                    const std::string& ran) {
  if (ran.empty() || ran == executable || command.empty()) return command;
  const auto base = [](const std::string& path) {
    return path.substr(path.rfind('/') + 1);
  };
  for (std::size_t i = 1; i < command.size(); ++i) {
    if (command[i] == ran || base(command[i]) == base(ran)) {
      return {command.begin() + static_cast<std::ptrdiff_t>(i), command.end()};
    }
  }
  return {ran};
}

// The process --pid names: plain decimal digits (no sign, space or leading
// zero), a PID this kernel can have, a process that is running, and neither
// record itself nor one of its ancestors (strace would trace record and
// itself, and every process of the machine under PID 1).
Result<pid_t> TargetPid(const std::string& text) {
  auto refuse = [&text](const std::string& why) {
    return PlainError(ErrorKind::kUsage, "option --pid",
                      "'" + EscapeControl(text) + "' " + why);
  };
  const bool digits = !text.empty() && text.size() <= 10 && text[0] != '0' &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  const long long value = digits ? std::stoll(text) : 0;
  if (!digits || value > std::numeric_limits<pid_t>::max()) {
    return refuse("is no PID: give the process's number in plain digits");
  }
  const pid_t pid = static_cast<pid_t>(value);
  for (pid_t own : SelfAndAncestors()) {
    if (own == pid) {
      return refuse(
          "is record itself or one of its ancestors: tracing it "
          "would trace record and strace too; give the PID of the "
          "program to record");
    }
  }
  if (::kill(pid, 0) != 0) {
    return refuse(errno == EPERM ? "is another user's process: record it as "
                                   "that user or as root"
                                 : "is no running process");
  }
  if (IsZombie(pid)) {
    return refuse(
        "has exited and waits for its parent to reap it (a zombie): "
        "nothing of it writes; give the PID of a running program");
  }
  return pid;
}

// The executable of a running process, for its package: the name it was
// started by where that is the same file (redis-server is a link to
// redis-check-rdb, of another package), else /proc/PID/exe.
std::string ExecutableOf(pid_t pid, const std::vector<std::string>& argv) {
  const std::string exe = "/proc/" + std::to_string(pid) + "/exe";
  if (argv.empty()) return exe;
  const std::string named = InPath(argv[0].substr(0, argv[0].find(' ')));
  struct stat a {
  }, b{};
  if (!named.empty() && ::stat(named.c_str(), &a) == 0 &&
      ::stat(exe.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
      a.st_ino == b.st_ino) {
    return named;
  }
  return exe;
}

namespace {

// Whether a path is the name the kernel gives an O_TMPFILE file: DIR/#INODE.
bool Unnamed(const std::vector<std::string>& paths) {
  return std::any_of(paths.begin(), paths.end(), [](const std::string& p) {
    return p.find("/#") != std::string::npos;
  });
}

}  // namespace

// Nothing to save: what was missing, and what to do. Where --file matched
// nothing, the files the program did write and sync are named; where it
// wrote through a shared mapping, that is said.
Error NothingTraced(const Recording& plan, const RecordedRun& recorded) {
  std::string what =
      plan.options.globs.empty()
          ? std::string("no regular file was both written and synced")
          : "nothing was written to a file matching --file";
  for (const std::string& g : plan.options.globs) what += " " + g;
  std::string hint =
      plan.options.globs.empty()
          ? "record it while it commits; a program that writes without "
            "syncing is traced by naming its files with --file"
          : "check the pattern against the paths the program writes (an "
            "absolute path, * not crossing /), or leave --file out";
  for (const std::string& limit : recorded.trace.limits) {
    if (limit.rfind("mmap of ", 0) == 0) {
      what += "; " + limit;
      hint =
          "a program that writes its log through a shared mapping cannot "
          "be recorded: strace sees no write";
    } else if (limit.rfind("io_uring", 0) == 0 ||
               limit.find(" io_uring ") != std::string::npos) {
      what += "; " + limit;
      hint =
          "a program that writes its log through io_uring cannot be "
          "recorded: strace sees the ring's setup, never its writes";
    } else if (limit.rfind("sync or syncfs", 0) == 0) {
      what += "; " + limit;
      hint =
          "a program that makes its writes durable by sync or syncfs alone "
          "has no commit a trace models: name its files with --file to keep "
          "their writes (as writes after the last commit)";
    }
  }
  if (!recorded.written_elsewhere.empty()) {
    hint = "it wrote and synced ";
    const std::size_t n =
        std::min<std::size_t>(recorded.written_elsewhere.size(), 5);
    for (std::size_t i = 0; i < n; ++i) {
      hint += (i ? ", " : "") + recorded.written_elsewhere[i];
    }
    if (recorded.written_elsewhere.size() > n) hint += ", ...";
    hint += ": give --file one of those";
    if (Unnamed(recorded.written_elsewhere)) {
      hint +=
          " (a DIR/#INODE is a file made by O_TMPFILE, without a name "
          "while written: 'DIR/#*' matches it)";
    }
  }
  return RecordError(
      (plan.program.empty() ? std::string("the program") : plan.program[0]) +
          " wrote nothing to trace: " + what,
      hint);
}

// What was recorded, in words.
namespace {

// Ops of one kind, counted: "3 reads". The words of each kind of op but a
// write and a sync, which every file's line says anyway.
struct OpCount {
  OpKind kind;
  const char* words;
};
constexpr OpCount kOpWords[] = {
    {OpKind::kTruncate, "ftruncate"},
    {OpKind::kAllocate, "fallocate"},
    {OpKind::kRead, "reads"},
    {OpKind::kStat, "stats"},
    {OpKind::kUnlink, "unlinks"},
    {OpKind::kCreate, "creates"},
    {OpKind::kSyncDir, "directory syncs"},
};

// `ops` of file `file` (all files: nullopt) by kind.
std::map<OpKind, std::uint64_t> CountOps(const CommitOps& ops,
                                         std::optional<std::uint64_t> file) {
  std::map<OpKind, std::uint64_t> n;
  for (const Op& op : ops) {
    if (!file || op.file == *file) ++n[op.kind];
  }
  return n;
}

// ", 2 ftruncate, 3 reads": the kinds besides writes and syncs.
std::string OtherOps(const std::map<OpKind, std::uint64_t>& n) {
  std::string text;
  for (const OpCount& c : kOpWords) {
    if (auto it = n.find(c.kind); it != n.end() && it->second > 0) {
      text += ", " + std::to_string(it->second) + " " + c.words;
    }
  }
  return text;
}

std::string FlagsText(const TraceFile& f) {
  std::string flags;
  for (const std::string& flag : f.flags) {
    flags += (flags.empty() ? "" : "|") + flag;
  }
  return flags.empty() ? "?" : flags;
}

}  // namespace

void Describe(std::ostream& out, const Trace& trace, const std::string& path) {
  // Names from outside (paths, the command) reach the terminal escaped.
  CommitOps all;
  for (const TraceCommit& c : trace.commits) {
    all.insert(all.end(), c.ops.begin(), c.ops.end());
  }
  out << "recorded " << trace.commits.size() << " commits ("
      << CountOps(all, std::nullopt)[OpKind::kSync] << " syncs) of "
      << EscapeControl(trace.argv.empty() ? "?" : trace.argv[0]) << " ("
      << EscapeControl(trace.version) << ")\n";
  for (std::size_t i = 0; i < trace.files.size(); ++i) {
    const TraceFile& f = trace.files[i];
    std::map<OpKind, std::uint64_t> n = CountOps(all, i);
    std::uint64_t bytes = 0;
    for (const Op& op : all) {
      if (op.file == i && op.kind == OpKind::kWrite) bytes += op.length;
    }
    out << "  " << EscapeControl(f.path) << ": " << NameOf(kFileStates, f.state)
        << " (" << f.size_at_open << " B at open), " << FlagsText(f) << ", "
        << n[OpKind::kWrite] << " writes, " << bytes << " B, "
        << n[OpKind::kSync] << " syncs" << OtherOps(n) << "\n";
  }
  if (!trace.after_last_commit.empty()) {
    std::map<OpKind, std::uint64_t> n =
        CountOps(trace.after_last_commit, std::nullopt);
    out << "  after the last sync (kept in after_last_commit, synced by no "
           "commit): "
        << n[OpKind::kWrite] << " writes" << OtherOps(n) << "\n";
  }
  for (const std::string& limit : trace.limits) {
    out << "  limit: " << EscapeControl(limit) << "\n";
  }
  if (trace.tracing) {
    out << "  " << EscapeControl(TracingSentence(*trace.tracing)) << "\n";
  }
  out << "trace saved to " << EscapeControl(path) << "\n";
}

}  // namespace alignbench
