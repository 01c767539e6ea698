#include "lib/cli/record.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "lib/cli/subcommands.h"
#include "lib/config/replay.h"
#include "lib/io/cleanup.h"
#include "lib/io/file_io.h"
#include "lib/io/result_file.h"
#include "lib/trace/strace.h"

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

// In a forked child: becomes `argv` (looked up in $PATH when asked), or
// exits 127 as a shell does for a command it cannot run.
[[noreturn]] void Exec(const std::vector<std::string>& argv, bool search_path) {
  std::vector<char*> args;
  for (const std::string& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  if (search_path) {
    ::execvp(args[0], args.data());
  } else {
    ::execv(args[0], args.data());
  }
  ::_exit(127);
}

// `name` as found in $PATH (a name with a '/' as it is), or "".
std::string InPath(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    return ::access(name.c_str(), X_OK) == 0 ? name : "";
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string full = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(full.c_str(), X_OK) == 0) return full;
  }
  return "";
}

// Runs argv with its standard output read back (stderr and stdin to
// /dev/null); "" if it could not run or failed.
std::string Output(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return "";
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return "";
  }
  if (child == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, STDIN_FILENO);
    ::dup2(null, STDERR_FILENO);
    Exec(argv, /*search_path=*/true);
  }
  ::close(pipe_fds[1]);
  std::string text;
  char chunk[4096];
  ssize_t got;
  while ((got = ::read(pipe_fds[0], chunk, sizeof chunk)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 || text.size() > (1 << 20)) break;
    text.append(chunk, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

std::string FirstLine(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// The program's version, from the Debian package that holds its executable
// (asking the program itself could start a server); else "unknown".
std::string ProgramVersion(const std::string& executable) {
  if (executable.empty()) return "unknown";
  char real[PATH_MAX];
  const std::string path =
      ::realpath(executable.c_str(), real) ? std::string(real) : executable;
  // Debian 12 merged /bin into /usr/bin, and dpkg knows many files by
  // their old /bin path.
  const std::string unmerged =
      path.rfind("/usr/", 0) == 0 ? path.substr(4) : path;
  for (const std::string& candidate : {executable, path, unmerged}) {
    const std::string owner =
        FirstLine(Output({"dpkg-query", "-S", candidate}));
    const std::size_t colon = owner.find(':');
    if (colon == std::string::npos) continue;
    const std::string package = owner.substr(0, colon);
    const std::string version =
        Output({"dpkg-query", "-W", "-f=${Version}", package});
    if (!version.empty()) {
      return package + " " + version + " (Debian package of " + path + ")";
    }
  }
  return "unknown (" + path + " belongs to no Debian package)";
}

}  // namespace

std::optional<bool> MostlyUnwritten(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
    ::close(fd);
    return std::nullopt;
  }
  constexpr unsigned kExtents = 64;
  std::vector<char> buffer(sizeof(fiemap) + kExtents * sizeof(fiemap_extent));
  auto* map = reinterpret_cast<fiemap*>(buffer.data());
  std::uint64_t at = 0, unwritten = 0;
  std::optional<bool> answer;
  for (int rounds = 0; rounds < 4096; ++rounds) {
    std::fill(buffer.begin(), buffer.end(), '\0');
    map->fm_start = at;
    map->fm_length = ~0ull - at;
    map->fm_extent_count = kExtents;
    if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) break;  // tmpfs, NFS: unknown
    bool last = map->fm_mapped_extents == 0;
    for (unsigned i = 0; i < map->fm_mapped_extents; ++i) {
      const fiemap_extent& e = map->fm_extents[i];
      if (e.fe_flags & FIEMAP_EXTENT_UNWRITTEN) unwritten += e.fe_length;
      at = e.fe_logical + e.fe_length;
      if (e.fe_flags & FIEMAP_EXTENT_LAST) last = true;
    }
    if (last) {
      answer = 2 * unwritten > static_cast<std::uint64_t>(st.st_size);
      break;
    }
  }
  ::close(fd);
  return answer;
}

namespace {

// A process and all its descendants, from /proc/PID/task/*/children.
std::vector<pid_t> Family(pid_t root) {
  std::vector<pid_t> out;
  std::vector<pid_t> todo{root};
  std::set<pid_t> seen;
  while (!todo.empty()) {
    const pid_t pid = todo.back();
    todo.pop_back();
    if (!seen.insert(pid).second) continue;
    out.push_back(pid);
    const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
    DIR* dir = ::opendir(tasks.c_str());
    if (dir == nullptr) continue;
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      std::ifstream children(tasks + "/" + entry->d_name + "/children");
      pid_t child;
      while (children >> child) todo.push_back(child);
    }
    ::closedir(dir);
  }
  return out;
}

// Open flags of an octal "flags:" line of /proc/PID/fdinfo/FD, by name.
std::vector<std::string> FlagNames(unsigned long flags) {
  std::vector<std::string> names;
  switch (flags & O_ACCMODE) {
    case O_RDONLY:
      names.push_back("O_RDONLY");
      break;
    case O_WRONLY:
      names.push_back("O_WRONLY");
      break;
    default:
      names.push_back("O_RDWR");
      break;
  }
  const std::pair<unsigned long, const char*> known[] = {
      {O_APPEND, "O_APPEND"},
      {O_DIRECT, "O_DIRECT"},
      {O_CLOEXEC, "O_CLOEXEC"},
      {O_NOATIME, "O_NOATIME"}};
  for (const auto& [bit, name] : known) {
    if (flags & bit) names.push_back(name);
  }
  // O_SYNC holds O_DSYNC's bit: strace names it alone, and so does this.
  if ((flags & O_SYNC) == O_SYNC) {
    names.push_back("O_SYNC");
  } else if (flags & O_DSYNC) {
    names.push_back("O_DSYNC");
  }
  return names;
}

// The files the processes already have open that the globs select, with
// their flags and positions (--pid).
void OpenBefore(const std::vector<pid_t>& pids, StraceOptions& options) {
  for (pid_t pid : pids) {
    const std::string fds = "/proc/" + std::to_string(pid) + "/fd";
    DIR* dir = ::opendir(fds.c_str());
    if (dir == nullptr) continue;
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      char target[PATH_MAX];
      const ssize_t n = ::readlink((fds + "/" + entry->d_name).c_str(), target,
                                   sizeof target - 1);
      if (n <= 0) continue;
      const std::string path(target, static_cast<std::size_t>(n));
      if (path[0] != '/' || !PathSelected(path, options.globs)) continue;
      std::ifstream info("/proc/" + std::to_string(pid) + "/fdinfo/" +
                         entry->d_name);
      StraceOptions::OpenBefore open;
      std::string key;
      while (info >> key) {
        if (key == "pos:") {
          info >> open.position;
        } else if (key == "flags:") {
          std::string octal;
          info >> octal;
          open.flags = FlagNames(std::strtoul(octal.c_str(), nullptr, 8));
        }
      }
      options.open_before[path] = open;
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        options.sizes_before[path] = static_cast<std::uint64_t>(st.st_size);
        if (MostlyUnwritten(path).value_or(false)) {
          options.unwritten_before.insert(path);
        }
      }
    }
    ::closedir(dir);
  }
}

// Absolute globs, and the sizes of the files they match now.
Result<std::vector<std::string>> AbsoluteGlobs(
    const std::vector<std::string>& given, StraceOptions& options) {
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof cwd) == nullptr) {
    return SystemError(ErrorKind::kSetup, "getcwd", "", errno);
  }
  std::vector<std::string> out;
  for (const std::string& g : given) {
    if (g.empty()) {
      Error error = PlainError(ErrorKind::kUsage, "option --file",
                               "an empty pattern matches no file");
      return error;
    }
    const std::string abs = g[0] == '/' ? g : std::string(cwd) + "/" + g;
    out.push_back(abs);
    glob_t found{};
    if (::glob(abs.c_str(), 0, nullptr, &found) == 0) {
      for (std::size_t i = 0; i < found.gl_pathc; ++i) {
        struct stat st {};
        if (::stat(found.gl_pathv[i], &st) == 0 && S_ISREG(st.st_mode)) {
          options.sizes_before[found.gl_pathv[i]] =
              static_cast<std::uint64_t>(st.st_size);
          if (MostlyUnwritten(found.gl_pathv[i]).value_or(false)) {
            options.unwritten_before.insert(found.gl_pathv[i]);
          }
        }
      }
    }
    ::globfree(&found);
  }
  return out;
}

// Runs strace until it ends: by itself (the command ended) or, after SIGINT
// or SIGTERM reached this process, by the SIGINT passed on to it (strace
// then detaches from --pid's processes). Signals are taken synchronously,
// blocked and waited for, so no handler and no global is needed; a blocked
// signal is kept even where it was ignored (a script's background job), so
// `kill -INT` reaches record there too. Returns strace's wait status.
Result<int> RunStrace(const std::vector<std::string>& argv) {
  sigset_t wanted, before;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGINT);
  sigaddset(&wanted, SIGTERM);
  sigaddset(&wanted, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &wanted, &before);
  const pid_t child = ::fork();
  if (child < 0) {
    const int saved = errno;
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    return SystemError(ErrorKind::kSetup, "fork", "strace", saved);
  }
  if (child == 0) {
    // strace and the command start with default dispositions and mask, even
    // where this process was started in the background (SIGINT ignored).
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    ::sigprocmask(SIG_UNBLOCK, &wanted, nullptr);
    Exec(argv, /*search_path=*/false);
  }
  int status = 0;
  bool stopping = false;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) break;
    timespec wait{0, 200 * 1000 * 1000};
    const int signo = ::sigtimedwait(&wanted, nullptr, &wait);
    if ((signo == SIGINT || signo == SIGTERM) && !stopping) {
      std::cerr << "alignbench record: stopping: strace detaches and the "
                   "trace is saved\n";
      ::kill(child, SIGINT);
      stopping = true;
    }
  }
  // SIGINT and SIGTERM stay blocked until record ends: a second Ctrl-C must
  // not lose the trace while it is read and saved.
  sigset_t child_done;
  sigemptyset(&child_done);
  sigaddset(&child_done, SIGCHLD);
  if (!sigismember(&before, SIGCHLD)) {
    ::sigprocmask(SIG_UNBLOCK, &child_done, nullptr);
  }
  return status;
}

std::string Basename(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The command line of a running process, from /proc/PID/cmdline.
std::vector<std::string> CommandLineOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline",
                   std::ios::binary);
  std::vector<std::string> argv;
  std::string word;
  while (std::getline(in, word, '\0')) argv.push_back(word);
  return argv;
}

// What was recorded, in words.
void Describe(std::ostream& out, const Trace& trace, const std::string& path) {
  // Names from outside (paths, the command) reach the terminal escaped.
  out << "recorded " << trace.commits.size() << " commits of "
      << EscapeControl(trace.argv.empty() ? "?" : trace.argv[0]) << " ("
      << EscapeControl(trace.version) << ")\n";
  for (std::size_t i = 0; i < trace.files.size(); ++i) {
    const TraceFile& f = trace.files[i];
    std::uint64_t bytes = 0, writes = 0, syncs = 0;
    for (const TraceCommit& c : trace.commits) {
      for (const TraceOp& op : c.ops) {
        if (op.file != i) continue;
        if (op.kind == TraceOpKind::kWrite) {
          bytes += op.length;
          ++writes;
        } else {
          ++syncs;
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
        << bytes << " B, " << syncs << " syncs\n";
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

std::optional<json> CaseOfTrace(const Trace& trace, const std::string& name) {
  if (trace.files.size() != 1) return std::nullopt;
  // The commits that write; the first tenth (at least one) is the program
  // setting up (SQLite's CREATE TABLE) and not held to the rule.
  std::vector<const TraceCommit*> writing;
  for (const TraceCommit& c : trace.commits) {
    if (c.ops.size() >= 2) writing.push_back(&c);
  }
  const std::size_t skip = std::max<std::size_t>(1, writing.size() / 10);
  if (writing.size() < skip + 2) return std::nullopt;
  std::optional<std::uint64_t> length;
  std::optional<TraceSync> call;
  std::optional<std::uint64_t> end;
  std::uint64_t first = 0;
  for (std::size_t k = skip; k < writing.size(); ++k) {
    const TraceCommit& c = *writing[k];
    std::uint64_t start = c.ops[0].offset, at = start;
    for (std::size_t i = 0; i + 1 < c.ops.size(); ++i) {
      const TraceOp& op = c.ops[i];
      if (op.kind != TraceOpKind::kWrite || op.offset != at) {
        return std::nullopt;
      }
      at += op.length;
    }
    const TraceSync sync = c.ops.back().call;
    if ((call && *call != sync) || (length && *length != at - start) ||
        (end && *end != start)) {
      return std::nullopt;
    }
    if (!end) first = start;
    call = sync;
    length = at - start;
    end = at;
  }
  // Commits of one length, one after another: a header of what is left of
  // the log's start once whole commits are taken off (Derby's workload).
  first %= *length;
  const TraceFile& file = trace.files[0];
  const std::optional<SyncMethod> method = SyncMethodOf(*call);
  // no sync method of a case does only sync_file_range
  if (!method) return std::nullopt;
  const std::string sync(NameOf(kSyncMethods, *method));
  const char* layout = file.state == FileState::kNew            ? "extend"
                       : file.state == FileState::kPreallocated ? "prealloc"
                                                                : "prewritten";
  json c = {
      {"name", name},
      {"description",
       "Recorded from " + (trace.argv.empty() ? "?" : trace.argv[0]) + " (" +
           trace.version + ") by alignbench record: each commit writes " +
           std::to_string(*length) + " contiguous bytes after a " +
           std::to_string(first) + "-byte header, then " +
           std::string(NameOf(kTraceSyncs, *call)) + ", in a " +
           std::string(NameOf(kFileStates, file.state)) +
           " file. The aligned variant drops the header, so that commits "
           "start on multiples of their own length."},
      {"expect",
       "Columns unaligned | aligned: the commits as recorded against the "
       "same commits without the header."},
      {"sizes", {std::to_string(*length)}},
      {"writes", std::min<std::size_t>(trace.commits.size(), 128)},
      {"sync", sync},
      {"io", file.HasFlag("O_DIRECT") ? "direct" : "buffered"},
      {"layout", layout},
      {"log", {{"header", first}}}};
  if (file.state == FileState::kRecycled) c["cache"] = "cold";
  return c;
}

int RecordCommand(const ParsedCommand& parsed) {
  const bool attach = parsed.Has("pid");
  if (attach == !parsed.command_argv.empty()) {
    return ReportError(PlainError(
        ErrorKind::kUsage, "record",
        attach ? "give either --pid or a COMMAND after --, not both"
               : "nothing to record: give a COMMAND after -- (alignbench "
                 "record -- sqlite3 db ...) or --pid PID"));
  }
  pid_t pid = 0;
  if (attach) {
    char* end = nullptr;
    const long value = std::strtol(parsed.Value("pid").c_str(), &end, 10);
    if (*end != '\0' || value <= 0 ||
        ::kill(static_cast<pid_t>(value), 0) != 0) {
      return ReportError(PlainError(
          ErrorKind::kUsage, "option --pid",
          "'" + parsed.Value("pid") + "' is no running process of this user"));
    }
    pid = static_cast<pid_t>(value);
  }
  const std::string strace = InPath("strace");
  if (strace.empty()) {
    return ReportError(RecordError("strace is not installed",
                                   "apt-get install strace (Debian's is used "
                                   "and tested)"));
  }
  StraceOptions options;
  if (parsed.Has("file")) {
    auto it = parsed.values.find("file");
    Result<std::vector<std::string>> globs = AbsoluteGlobs(it->second, options);
    if (!globs) return ReportError(globs.error());
    options.globs = globs.value();
  }
  const std::vector<std::string> program =
      attach ? CommandLineOf(pid) : parsed.command_argv;
  const std::string executable =
      attach ? "/proc/" + std::to_string(pid) + "/exe"
             : InPath(program.empty() ? "" : program[0]);
  if (!attach && executable.empty()) {
    return ReportError(SystemError(ErrorKind::kUsage, "record: find command",
                                   program[0], ENOENT));
  }
  const std::string out =
      parsed.Has("out") ? parsed.Value("out")
                        : DefaultTracePath(program.empty() ? "" : program[0]);
  const Overwrite overwrite =
      parsed.Has("force") ? Overwrite::kReplace : Overwrite::kRefuse;
  if (Status ok = CheckResultPath(out, overwrite, {}); !ok) {
    Error error = ok.error();
    if (!parsed.Has("out")) error.hint = "name another file with --out";
    return ReportError(error);
  }
  // strace's own output goes to a private file in $TMPDIR, removed on every
  // way out.
  const char* tmpdir = std::getenv("TMPDIR");
  std::string raw = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") +
                    "/alignbench-strace-XXXXXX";
  const int raw_fd = ::mkstemp(raw.data());
  if (raw_fd < 0) {
    return ReportError(SystemError(ErrorKind::kSetup, "mkstemp", raw, errno));
  }
  ::close(raw_fd);
  const int slot = RegisterForCleanup(raw);
  struct Remove {
    std::string path;
    int slot;
    ~Remove() {
      ::unlink(path.c_str());
      if (slot >= 0) UnregisterCleanup(slot);
    }
  } remove{raw, slot};

  std::vector<std::string> argv = {
      strace, "-f", "-qq",
      "-s0",  "-y", "-o",
      raw,    "-e", std::string("trace=") + kStraceCalls};
  if (attach) {
    const std::vector<pid_t> family = Family(pid);
    OpenBefore(family, options);
    for (pid_t p : family) {
      argv.push_back("-p");
      argv.push_back(std::to_string(p));
    }
    std::cerr << "alignbench record: attached to " << family.size()
              << " process(es) of " << pid
              << "; Ctrl-C or SIGINT stops recording\n";
  } else {
    argv.push_back("--");
    argv.insert(argv.end(), program.begin(), program.end());
  }
  // Asked before the program runs: a server recorded by --pid may be gone
  // by the time strace detaches (/proc/PID/exe with it).
  const std::string version = ProgramVersion(executable);
  Result<int> status = RunStrace(argv);
  if (!status) return ReportError(status.error());
  const int st = status.value();
  int program_status = 0;
  if (WIFEXITED(st)) program_status = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) program_status = 128 + WTERMSIG(st);
  if (!attach && program_status != 0) {
    std::cerr << "alignbench record: " << program[0] << " exited with status "
              << program_status
              << "; its trace is saved all the same, and record exits with "
                 "that status\n";
  }
  Result<std::string> text =
      ReadWholeFile(raw, ErrorKind::kSetup, kMaxStraceBytes);
  if (!text) return ReportError(text.error());
  if (text.value().empty() && program_status == 127) {
    return ReportError(RecordError("strace could not start or run the command",
                                   "run it under strace by hand to see why"));
  }
  Result<Trace> parsed_trace = ParseStrace(text.value(), options);
  if (!parsed_trace) return ReportError(parsed_trace.error());
  Trace trace = std::move(parsed_trace).value();
  trace.argv = program;
  trace.version = version;
  trace.recorder = FirstLine(Output({strace, "-V"}));
  if (trace.files.empty()) {
    std::string what =
        options.globs.empty()
            ? std::string("no regular file was both written and synced")
            : "nothing was written to a file matching --file";
    for (const std::string& g : options.globs) what += " " + g;
    return ReportError(RecordError(
        (program.empty() ? std::string("the program") : program[0]) +
            " wrote nothing to trace: " + what,
        options.globs.empty()
            ? "record it while it commits; a program that writes without "
              "syncing is traced by naming its files with --file"
            : "check the pattern against the paths the program writes (an "
              "absolute path, * not crossing /), or leave --file out"));
  }
  if (trace.commits.empty()) {
    std::cerr << "alignbench record: the traced files were written but never "
                 "synced: no commit; the writes are in after_last_commit\n";
  }
  // A path that is not UTF-8 must not lose the recording: replaced.
  const std::string saved =
      TraceToJson(trace).dump(1, ' ', false, json::error_handler_t::replace) +
      "\n";
  if (Result<Trace> back = ParseTrace(saved, out); !back) {
    Error error = RecordError("the trace is past what a trace file may hold (" +
                              back.error().detail + "), so nothing is saved");
    error.hint =
        "record a shorter run, or narrow --file to the log file(s) alone";
    return ReportError(error);
  }
  if (Status written = WriteResultFile(out, saved, overwrite); !written) {
    return ReportError(written.error());
  }
  Describe(std::cout, trace, out);
  std::string stem = out;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) {
    stem.resize(stem.size() - 5);
  }
  if (std::optional<json> c = CaseOfTrace(trace, Basename(stem))) {
    const std::string case_path = stem + ".case.json";
    if (Status ok = CheckResultPath(case_path, overwrite, {}); !ok) {
      std::cerr << "alignbench record: the case file is not written: "
                << ok.error().Message() << "\n";
    } else if (Status w = WriteResultFile(
                   case_path,
                   c->dump(1, ' ', false, json::error_handler_t::replace) +
                       "\n",
                   overwrite);
               !w) {
      std::cerr << "alignbench record: the case file is not written: "
                << w.error().Message() << "\n";
    } else {
      std::cout << "case file saved to " << case_path << "\n";
    }
  } else {
    std::cout << "no case file: the commits fit no case's rules (alignbench "
                 "--replay "
              << out << " measures the trace itself)\n";
  }
  return attach ? 0 : program_status;
}

}  // namespace alignbench
