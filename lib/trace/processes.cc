#include "lib/trace/processes.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <iostream>
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
    const std::string owner = FirstLineOf({"dpkg-query", "-S", candidate});
    const std::size_t colon = owner.find(':');
    if (colon == std::string::npos) continue;
    const std::string package = owner.substr(0, colon);
    const std::string version =
        OutputOf({"dpkg-query", "-W", "-f=${Version}", package});
    if (!version.empty()) {
      return package + " " + version + " (Debian package of " + path + ")";
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
  return argv;
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
    Exec(argv);
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

}  // namespace alignbench
