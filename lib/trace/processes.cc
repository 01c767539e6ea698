#include "lib/trace/processes.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>

#include "lib/io/command.h"

namespace alignbench {
namespace {

// In a forked child: becomes `argv` (argv[0] a path), or exits 127 as a
// shell does for a command it cannot run.
[[noreturn]] void Exec(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  ::_exit(127);
}

}  // namespace

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

std::string OutputOf(const std::vector<std::string>& argv) {
  // A version line or a package lookup: a minute is far more than either
  // takes, and a hung one must not hang record.
  CommandOutput out = RunCommand(argv, OutputStream::kStdout, 60000);
  if (!out.exited || out.exit_status != 0) return "";
  std::string& text = out.text;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

std::string FirstLineOf(const std::vector<std::string>& argv) {
  const std::string text = OutputOf(argv);
  return text.substr(0, text.find('\n'));
}

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
    // An absolute path only: dpkg-query takes nothing else as a file, and
    // nothing from a traced process may reach it as an option.
    if (candidate.empty() || candidate[0] != '/') continue;
    const std::string owner = FirstLineOf({"dpkg-query", "-S", candidate});
    const std::size_t colon = owner.find(':');
    if (colon == std::string::npos) continue;
    const std::string package = owner.substr(0, colon);
    const std::string version =
        OutputOf({"dpkg-query", "-W", "-f=${Version}", package});
    if (!version.empty()) {
      return package + " " + version + " (Debian package of " + candidate + ")";
    }
  }
  return "unknown (" + path + " belongs to no Debian package)";
}

std::vector<pid_t> Family(pid_t root) {
  std::vector<pid_t> out;
  std::vector<pid_t> todo{root};
  std::set<pid_t> seen;
  while (!todo.empty()) {
    const pid_t pid = todo.back();
    todo.pop_back();
    if (!seen.insert(pid).second) continue;
    // An exited child its parent has not reaped can never be traced: waiting
    // for strace to attach to it would never end.
    if (pid != root && IsZombie(pid)) continue;
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

std::vector<std::string> CommandLineOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline",
                   std::ios::binary);
  std::vector<std::string> argv;
  std::string word;
  while (std::getline(in, word, '\0')) argv.push_back(word);
  // A program that rewrites its title (Redis, PostgreSQL) leaves the rest of
  // its old command line as empty strings.
  while (!argv.empty() && argv.back().empty()) argv.pop_back();
  return argv;
}

bool IsZombie(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  // "PID (COMM) STATE ...": the name may hold spaces and parentheses.
  const std::size_t close = stat.rfind(") ");
  return close != std::string::npos && close + 2 < stat.size() &&
         stat[close + 2] == 'Z';
}

namespace {

// Every signal that can be caught and whose default action ends a process,
// save the faults (SEGV, BUS, FPE, ILL, TRAP, ABRT, SYS) of record itself.
constexpr int kStopSignals[] = {
    SIGHUP,  SIGINT,  SIGQUIT,   SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE,  SIGALRM,
    SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,  SIGSTKFLT};

// A field of /proc/PID/status ("PPid"), or -1 where there is none.
long StatusField(pid_t pid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) {
      return std::strtol(line.c_str() + key.size() + 1, nullptr, 10);
    }
  }
  return -1;
}

// The command strace runs: strace's first child.
pid_t CommandOf(pid_t strace) {
  const std::string id = std::to_string(strace);
  std::ifstream children("/proc/" + id + "/task/" + id + "/children");
  pid_t child = 0;
  return children >> child ? child : 0;
}

// What a stop signal reaches: the command strace runs, or, once its first
// process has ended, the processes it left (a daemon, `sh -c 'prog; true'`'s
// prog), which this process, a subreaper, has taken as its children.
std::vector<pid_t> Commands(pid_t strace) {
  if (const pid_t command = CommandOf(strace); command > 0) return {command};
  std::vector<pid_t> left;
  const std::string id = std::to_string(::getpid());
  std::ifstream children("/proc/" + id + "/task/" + id + "/children");
  pid_t child = 0;
  while (children >> child) {
    if (child != strace && !IsZombie(child)) left.push_back(child);
  }
  return left;
}

// What a stop signal does, the `n`th one: the line that says so, and the
// signal passed on. False while strace has not started the command yet.
bool Stop(pid_t strace, int signo, int n, const StraceRun& run) {
  const std::string why = "alignbench record: " + SignalName(signo) + ": ";
  if (run.attach) {
    if (n == 1) {
      std::cerr << why << "stopping: strace detaches and the trace is saved\n";
      ::kill(strace, SIGINT);
    }
    return true;
  }
  const std::vector<pid_t> targets = Commands(strace);
  if (targets.empty()) return false;
  std::string pids;
  for (pid_t p : targets)
    pids += (pids.empty() ? "" : ", ") + std::to_string(p);
  const bool left = CommandOf(strace) <= 0;
  if (n == 1) {
    // What a shell left in the background ignores SIGINT: it gets SIGTERM,
    // a daemon's stop.
    const int passed = signo == SIGINT && !left ? SIGINT : SIGTERM;
    std::cerr << why << "stopping: " << SignalName(passed) << " passed on to "
              << (left ? "what " + run.command + " left running" : run.command)
              << " (PID " << pids
              << "); the trace is saved when it ends, another signal kills "
                 "it\n";
    for (pid_t p : targets) ::kill(p, passed);
  } else if (n == 2) {
    std::cerr << why << "SIGKILL to " << run.command
              << " and its children; the trace is saved\n";
    for (pid_t target : targets) {
      for (pid_t p : Family(target)) ::kill(p, SIGKILL);
    }
  }
  return true;
}

}  // namespace

StopSignals::StopSignals() {
  sigemptyset(&set_);
  for (int signo : kStopSignals) sigaddset(&set_, signo);
  ::sigprocmask(SIG_BLOCK, &set_, &before_);
}

StopSignals::~StopSignals() {
  while (Take(0) != 0) {
  }
  ::sigprocmask(SIG_SETMASK, &before_, nullptr);
}

int StopSignals::Take(int wait_ms) const {
  timespec wait{wait_ms / 1000, (wait_ms % 1000) * 1000L * 1000L};
  const int signo = ::sigtimedwait(&set_, nullptr, &wait);
  return signo > 0 ? signo : 0;
}

std::string SignalName(int signo) {
  const char* abbrev = ::sigabbrev_np(signo);
  return abbrev ? std::string("SIG") + abbrev
                : "signal " + std::to_string(signo);
}

pid_t TracerOf(pid_t pid) {
  return static_cast<pid_t>(StatusField(pid, "TracerPid"));
}

std::vector<pid_t> SelfAndAncestors() {
  std::vector<pid_t> line{::getpid()};
  while (line.back() > 1 && line.size() < 4096) {
    const long parent = StatusField(line.back(), "PPid");
    if (parent <= 0) break;
    line.push_back(static_cast<pid_t>(parent));
  }
  return line;
}

// strace's end is waited for with SIGCHLD blocked and taken beside the stop
// signals, so no handler and no global is needed; a blocked signal is kept
// even where it was ignored (a script's background job), so `kill -INT`
// reaches record there too.
Result<int> RunStrace(const std::vector<std::string>& argv,
                      const StraceRun& run, const StopSignals& stop) {
  sigset_t wanted = stop.set(), before;
  sigaddset(&wanted, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &wanted, &before);
  // What the command leaves running when its first process ends becomes
  // ours, so that a stop signal can still reach it.
  if (!run.attach) ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t child = ::fork();
  if (child < 0) {
    const int saved = errno;
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    return SystemError(ErrorKind::kSetup, "fork", "strace", saved);
  }
  if (child == 0) {
    // strace and the command start with default dispositions and mask, even
    // where this process was started in the background (SIGINT ignored).
    for (int signo : kStopSignals) ::signal(signo, SIG_DFL);
    ::sigprocmask(SIG_UNBLOCK, &wanted, nullptr);
    Exec(argv);
  }
  int status = 0, stops = 0, pending = 0;
  bool started = !run.started;
  for (;;) {
    if (::waitpid(child, &status, WNOHANG) == child) break;
    if (!started) started = run.started(child);
    // A signal before strace started the command waits for it.
    if (pending != 0 && Stop(child, pending, stops + 1, run)) {
      ++stops;
      pending = 0;
    }
    timespec wait{0, (started && pending == 0 ? 200 : 20) * 1000 * 1000};
    const int signo = ::sigtimedwait(&wanted, nullptr, &wait);
    if (signo > 0 && signo != SIGCHLD) pending = signo;
  }
  while (::waitpid(-1, nullptr, WNOHANG) > 0) {  // what it left, reaped
  }
  if (!sigismember(&before, SIGCHLD)) {
    sigset_t child_done;
    sigemptyset(&child_done);
    sigaddset(&child_done, SIGCHLD);
    ::sigprocmask(SIG_UNBLOCK, &child_done, nullptr);
  }
  return status;
}

}  // namespace alignbench
