#include "lib/cli/record.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "lib/cli/subcommands.h"
#include "lib/io/cleanup.h"
#include "lib/io/command.h"
#include "lib/io/fd.h"
#include "lib/io/file_io.h"
#include "lib/io/result_file.h"
#include "lib/trace/case_of_trace.h"
#include "lib/trace/files_before.h"
#include "lib/trace/processes.h"
#include "lib/trace/strace_reader.h"

namespace alignbench {
namespace {

using nlohmann::json;

// strace's output of a long-running server can be large; past this it is
// refused rather than read into memory.
constexpr std::uint64_t kMaxStraceBytes = 2ull << 30;

Error RecordError(const std::string& what, const std::string& hint = "") {
  Error error = PlainError(ErrorKind::kSetup, "record", what);
  error.hint = hint;
  return error;
}

std::string Basename(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What was recorded, in words.
void Describe(std::ostream& out, const Trace& trace, const std::string& path) {
  // Names from outside (paths, the command) reach the terminal escaped.
  std::size_t all_syncs = 0;
  for (const TraceCommit& c : trace.commits) {
    for (const TraceOp& op : c.ops) all_syncs += op.kind == TraceOpKind::kSync;
  }
  out << "recorded " << trace.commits.size() << " commits (" << all_syncs
      << " syncs) of "
      << EscapeControl(trace.argv.empty() ? "?" : trace.argv[0]) << " ("
      << EscapeControl(trace.version) << ")\n";
  for (std::size_t i = 0; i < trace.files.size(); ++i) {
    const TraceFile& f = trace.files[i];
    std::uint64_t bytes = 0, writes = 0, syncs = 0, resizes = 0;
    for (const TraceCommit& c : trace.commits) {
      for (const TraceOp& op : c.ops) {
        if (op.file != i) continue;
        if (op.kind == TraceOpKind::kWrite) {
          bytes += op.length;
          ++writes;
        } else if (op.kind == TraceOpKind::kSync) {
          ++syncs;
        } else {
          ++resizes;
        }
      }
    }
    std::string flags;
    for (const std::string& flag : f.flags) {
      flags += (flags.empty() ? "" : "|") + flag;
    }
    out << "  " << EscapeControl(f.path) << ": " << NameOf(kFileStates, f.state)
        << " (" << f.size_at_open << " B at open), "
        << (flags.empty() ? "?" : flags) << ", " << writes << " writes, "
        << bytes << " B, " << syncs << " syncs";
    if (resizes > 0) out << ", " << resizes << " ftruncate/fallocate";
    out << "\n";
  }
  if (!trace.after_last_commit.empty()) {
    out << "  " << trace.after_last_commit.size()
        << " writes after the last sync (kept in after_last_commit)\n";
  }
  for (const std::string& limit : trace.limits) {
    out << "  limit: " << EscapeControl(limit) << "\n";
  }
  out << "trace saved to " << EscapeControl(path) << "\n";
}

}  // namespace

std::string DefaultTracePath(const std::string& program) {
  std::string name = Basename(program);
  if (name.empty() || name[0] == '.') name = "program";
  return name + ".trace.json";
}

namespace {

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

// Where the trace goes, made absolute from the working directory.
std::string AbsoluteOut(const std::string& out) {
  if (!out.empty() && out[0] == '/') return out;
  char cwd[PATH_MAX];
  return ::getcwd(cwd, sizeof cwd) ? std::string(cwd) + "/" + out : out;
}

// --out matching a --file pattern would have the trace replace a log of the
// program: refused before anything runs.
Status OutOutsideGlobs(const std::string& out,
                       const std::vector<std::string>& globs) {
  const std::string abs = AbsoluteOut(out);
  for (const std::string& glob : globs) {
    if (::fnmatch(glob.c_str(), abs.c_str(), FNM_PATHNAME) == 0) {
      return PlainError(ErrorKind::kUsage, "option --out",
                        EscapeControl(out) + " matches --file " +
                            EscapeControl(glob) +
                            ": the trace would replace a file the program "
                            "writes; save it elsewhere");
    }
  }
  return Ok{};
}

// A file the program wrote that --out names (the same file, or the same
// path): the trace is not saved over it.
Status OutNotTraced(const std::string& out, const Trace& trace) {
  struct stat o {};
  const bool exists = ::stat(out.c_str(), &o) == 0;
  const std::string abs = AbsoluteOut(out);
  for (const TraceFile& f : trace.files) {
    struct stat t {};
    const bool same = exists && ::stat(f.path.c_str(), &t) == 0 &&
                      t.st_dev == o.st_dev && t.st_ino == o.st_ino;
    if (same || f.path == abs) {
      return RecordError("the trace is not saved: --out " + EscapeControl(out) +
                             " is " + EscapeControl(f.path) +
                             ", a file the program wrote",
                         "record again with --out naming another file");
    }
  }
  return Ok{};
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

// What record was asked: the program (or the process), its files, the
// trace's path.
// What was at a path when recording began. A file made or changed there
// meanwhile (by the program, by another record) is not --force's to replace.
struct FileMark {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  timespec mtime{};
};

FileMark MarkOf(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  return {true, st.st_dev, st.st_ino, st.st_size, st.st_mtim};
}

// --force's replace, unless the file at `path` is no longer what `before`
// saw.
Overwrite StillOurs(Overwrite overwrite, const FileMark& before,
                    const std::string& path) {
  const FileMark now = MarkOf(path);
  const bool same = now.exists == before.exists && now.dev == before.dev &&
                    now.ino == before.ino && now.size == before.size &&
                    now.mtime.tv_sec == before.mtime.tv_sec &&
                    now.mtime.tv_nsec == before.mtime.tv_nsec;
  return same ? overwrite : Overwrite::kRefuse;
}

// The case file beside the trace: NAME.json's is NAME.case.json.
std::string CasePathOf(const std::string& out) {
  std::string stem = out;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) {
    stem.resize(stem.size() - 5);
  }
  return stem + ".case.json";
}

struct RecordPlan {
  bool attach = false;
  pid_t pid = 0;
  std::string strace;
  StraceOptions options;
  std::vector<std::string> program;
  std::string executable;
  std::string out;
  Overwrite overwrite = Overwrite::kRefuse;
  // --out and its case file as they were before the program ran.
  FileMark out_before;
  FileMark case_before;
};

Result<RecordPlan> Plan(const ParsedCommand& parsed) {
  RecordPlan plan;
  plan.attach = parsed.Has("pid");
  if (plan.attach == !parsed.command_argv.empty()) {
    return PlainError(
        ErrorKind::kUsage, "record",
        plan.attach ? "give either --pid or a COMMAND after --, not both"
                    : "nothing to record: give a COMMAND after -- (alignbench "
                      "record -- sqlite3 db ...) or --pid PID");
  }
  if (plan.attach) {
    Result<pid_t> pid = TargetPid(parsed.Value("pid"));
    if (!pid) return pid.error();
    plan.pid = pid.value();
  }
  plan.strace = HelperProgram("strace");
  if (plan.strace.empty()) {
    return RecordError("strace is not installed",
                       "apt-get install strace (Debian's is used and tested)");
  }
  plan.options.transactions = !parsed.Has("per-sync");
  if (parsed.Has("file")) {
    Result<std::vector<std::string>> globs =
        AbsoluteGlobs(parsed.values.find("file")->second, plan.options);
    if (!globs) return globs.error();
    plan.options.globs = globs.value();
  }
  plan.program = plan.attach ? CommandLineOf(plan.pid) : parsed.command_argv;
  plan.executable = plan.attach
                        ? ExecutableOf(plan.pid, plan.program)
                        : InPath(plan.program.empty() ? "" : plan.program[0]);
  if (!plan.attach && plan.executable.empty()) {
    return SystemError(ErrorKind::kUsage, "record: find command",
                       plan.program[0], ENOENT);
  }
  plan.out =
      parsed.Has("out")
          ? parsed.Value("out")
          : DefaultTracePath(plan.program.empty() ? "" : plan.program[0]);
  plan.overwrite =
      parsed.Has("force") ? Overwrite::kReplace : Overwrite::kRefuse;
  if (Status ok = CheckResultPath(plan.out, plan.overwrite, {}); !ok) {
    Error error = ok.error();
    if (!parsed.Has("out")) error.hint = "name another file with --out";
    return error;
  }
  plan.out_before = MarkOf(plan.out);
  plan.case_before = MarkOf(CasePathOf(plan.out));
  if (Status ok = OutOutsideGlobs(plan.out, plan.options.globs); !ok) {
    return ok.error();
  }
  return plan;
}

// strace's command line: -f, no data bytes, file names beside descriptors.
std::vector<std::string> StraceArgv(const RecordPlan& plan,
                                    const std::string& raw,
                                    const std::vector<pid_t>& family) {
  std::vector<std::string> argv = {
      plan.strace, "-f", "-qq",
      "-s0",       "-y", "-o",
      raw,         "-e", std::string("trace=") + kStraceCalls};
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
// process has ended): only then does recording begin.
std::function<bool(pid_t)> AttachedLine(std::vector<pid_t> family, pid_t pid) {
  return [family = std::move(family), pid](pid_t strace) {
    for (pid_t p : family) {
      const pid_t tracer = TracerOf(p);
      if (tracer != strace && tracer != -1) return false;
    }
    std::cerr << "alignbench record: attached to " << family.size()
              << " process(es) of " << pid
              << "; Ctrl-C or SIGINT stops recording\n";
    return true;
  };
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

// The program's exit status from strace's wait status, said where it failed.
int ProgramStatus(int st, const RecordPlan& plan) {
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

// A save long enough to be said (strace's output past kSaidStraceBytes) is
// abandoned by a stop signal sent once it is said: asked while strace's
// output is read and before the trace is written. Signals sent before, to
// stop the recording, are dropped when it is armed; a short save takes none.
class SaveStop {
 public:
  explicit SaveStop(const StopSignals& stop) : stop_(stop) {}
  void Arm() {
    while (stop_.Take(0) != 0) {
    }
    armed_ = true;
  }
  // Whether a stop signal was taken since it was armed.
  bool Asked() {
    if (armed_ && signo_ == 0) signo_ = stop_.Take(0);
    return signo_ != 0;
  }
  int signo() const { return signo_; }

 private:
  const StopSignals& stop_;
  bool armed_ = false;
  int signo_ = 0;
};

// strace's output past which its reading is said, with how to abandon it.
constexpr std::uint64_t kSaidStraceBytes = 4ull << 20;

// What strace saw, and how the program ended.
struct Recorded {
  Trace trace;
  int program_status = 0;
  // Where --file matched nothing: the files the program did write and sync.
  std::vector<std::string> written_elsewhere;
};

// Runs strace as planned, with the version asked beforehand.
Result<Recorded> Record(const RecordPlan& plan, const std::string& version,
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
  if (plan.attach) {
    family = Family(plan.pid);
    OpenBefore(family, options);
    run.started = AttachedLine(family, plan.pid);
  }
  Result<int> status = RunStrace(StraceArgv(plan, raw.path, family), run, stop);
  if (!status) return status.error();
  Recorded recorded;
  recorded.program_status = ProgramStatus(status.value(), plan);
  Result<std::string> text =
      ReadWholeFile(raw.path, ErrorKind::kSetup, kMaxStraceBytes);
  if (!text) return text.error();
  if (CutShort(raw.path, text.value())) {
    return RecordError(
        "strace's output in " + EscapeControl(raw.path) +
            " was cut short (its filesystem is full): the recording is "
            "incomplete and is not saved",
        "set TMPDIR to a directory on a filesystem with room, and record "
        "again");
  }
  if (text.value().empty() && recorded.program_status == 127) {
    return RecordError("strace could not start or run the command",
                       "run it under strace by hand to see why");
  }
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
  recorded.trace.argv = plan.program;
  recorded.trace.version = version;
  recorded.trace.recorder = FirstLineOf({plan.strace, "-V"});
  return recorded;
}

// Nothing to save: what was missing, and what to do. Where --file matched
// nothing, the files the program did write and sync are named; where it
// wrote through a shared mapping, that is said.
Error NothingTraced(const RecordPlan& plan, const Recorded& recorded) {
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
  }
  return RecordError(
      (plan.program.empty() ? std::string("the program") : plan.program[0]) +
          " wrote nothing to trace: " + what,
      hint);
}

// The case file beside the trace (STEM.case.json), where the commits fit a
// case's rules; a line either way.
void WriteCaseFile(const Trace& trace, const std::string& out,
                   Overwrite overwrite) {
  const std::string case_path = CasePathOf(out);
  const std::string stem = case_path.substr(0, case_path.size() - 10);
  std::optional<json> c = CaseOfTrace(trace, Basename(stem));
  if (!c) {
    std::cout << "no case file: the commits fit no case's rules (alignbench "
                 "--replay "
              << EscapeControl(out) << " measures the trace itself)\n";
    return;
  }
  Status ok = CheckResultPath(case_path, overwrite, {});
  if (ok) {
    ok = WriteResultFile(
        case_path,
        c->dump(1, ' ', false, json::error_handler_t::replace) + "\n",
        overwrite);
  }
  if (!ok) {
    std::cerr << "alignbench record: the case file is not written: "
              << EscapeControl(ok.error().Message()) << "\n";
  } else {
    std::cout << "case file saved to " << EscapeControl(case_path) << "\n";
  }
}

// The trace saved to plan.out (never over a file the program wrote), said,
// and its case file.
Status Save(const RecordPlan& plan, const Recorded& recorded,
            SaveStop& abandon) {
  const Trace& trace = recorded.trace;
  if (trace.files.empty()) return NothingTraced(plan, recorded);
  if (trace.commits.empty()) {
    std::cerr << "alignbench record: the traced files were written but never "
                 "synced: no commit; the writes are in after_last_commit\n";
  }
  if (Status ok = OutNotTraced(plan.out, trace); !ok) return ok;
  const Result<std::string> saved = TraceText(trace, plan.out);
  if (abandon.Asked()) return RecordError("stopped while saving");
  if (!saved) {
    return RecordError(saved.error().detail + ", so nothing is saved",
                       "record a shorter run, or narrow --file to the log "
                       "file(s) alone");
  }
  // A file that took --out while recording (another record, the program)
  // is left, and the recording kept beside it, never lost.
  const SaveOutcome outcome =
      SaveResult(plan.out, saved.value(),
                 StillOurs(plan.overwrite, plan.out_before, plan.out), "trace",
                 "the recording");
  if (!outcome.status) return outcome.status;
  Describe(std::cout, trace, plan.out);
  WriteCaseFile(
      trace, plan.out,
      StillOurs(plan.overwrite, plan.case_before, CasePathOf(plan.out)));
  return Ok{};
}

}  // namespace

int RecordCommand(const ParsedCommand& parsed) {
  // From here on a stop signal (Ctrl-C, kill, a hangup) is taken in turn:
  // strace is stopped the right way and the trace is saved.
  const StopSignals stop;
  Result<RecordPlan> plan = Plan(parsed);
  if (!plan) return ReportError(plan.error());
  // Asked before the program runs: a server recorded by --pid may be gone
  // by the time strace detaches (/proc/PID/exe with it).
  const std::string version = ProgramVersion(plan.value().executable);
  if (const int signo = stop.Take(0); signo != 0) {
    std::cerr << "alignbench record: " << SignalName(signo)
              << " before strace started: nothing was recorded\n";
    return 128 + signo;
  }
  SaveStop abandon(stop);
  Result<Recorded> recorded = Record(plan.value(), version, stop, abandon);
  Status saved = recorded ? Save(plan.value(), recorded.value(), abandon)
                          : Status(recorded.error());
  if (abandon.signo() != 0) {
    std::cerr << "alignbench record: " << SignalName(abandon.signo())
              << " while the trace was being saved: the save is abandoned, "
                 "nothing is saved\n";
    return 128 + abandon.signo();
  }
  if (!saved) return ReportError(saved.error());
  return plan.value().attach ? 0 : recorded.value().program_status;
}

}  // namespace alignbench
