#include "lib/io/command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace alignbench {
namespace {

constexpr std::size_t kMaxOutput = 1 << 20;
// Where a helper is looked for when PATH is unset: sudo's secure_path.
constexpr const char* kSystemPath =
    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

bool MayRun(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  if (::access(path.c_str(), X_OK) != 0) return false;
  return ::geteuid() != 0 || OnlyOwnerCanChange(path, 0);
}

long long NowMs() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
}

// In the forked child: the pipe as `stream`, /dev/null for the rest, then
// `program` with argv; 127 where it cannot run, as a shell says.
[[noreturn]] void BecomeCommand(const std::string& program,
                                const std::vector<std::string>& argv,
                                OutputStream stream, int pipe_write) {
  const int null = ::open("/dev/null", O_RDWR);
  ::dup2(null, STDIN_FILENO);
  ::dup2(stream == OutputStream::kStdout ? pipe_write : null, STDOUT_FILENO);
  ::dup2(stream == OutputStream::kStderr ? pipe_write : null, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execv(program.c_str(), args.data());
  ::_exit(127);
}

// Reads `fd` until end of file or the deadline; false at the deadline.
bool ReadUntil(int fd, long long deadline, std::string& text) {
  char chunk[4096];
  for (;;) {
    const long long left = deadline - NowMs();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return false;
    if (ready < 0) return true;  // nothing more can be read
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return true;
    if (text.size() < kMaxOutput)
      text.append(chunk, static_cast<std::size_t>(got));
  }
}

}  // namespace

bool OnlyOwnerCanChange(const std::string& path, uid_t owner) {
  char real[PATH_MAX];
  if (::realpath(path.c_str(), real) == nullptr) return false;
  std::string at = real;
  for (;;) {
    struct stat st {};
    if (::stat(at.c_str(), &st) != 0) return false;
    if (st.st_uid != owner && st.st_uid != 0) return false;
    const bool sticky_dir = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX);
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && !sticky_dir) return false;
    if (at == "/") return true;
    const std::size_t slash = at.rfind('/');
    at = slash == 0 ? "/" : at.substr(0, slash);
  }
}

std::string HelperProgram(const std::string& name) {
  if (name.empty()) return "";
  std::vector<std::string> candidates;
  if (name.find('/') != std::string::npos) {
    candidates.push_back(name);
  } else {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path != nullptr ? path : kSystemPath);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      if (dir.empty() || dir[0] != '/') continue;  // the working directory
      candidates.push_back(dir + "/" + name);
    }
  }
  for (const std::string& candidate : candidates) {
    // The path as it resolves now, judged and then run: a link on the way
    // (another user's, to a system directory) cannot be re-pointed between.
    char real[PATH_MAX];
    if (::realpath(candidate.c_str(), real) != nullptr && MayRun(real)) {
      return real;
    }
  }
  return "";
}

CommandOutput RunCommand(const std::vector<std::string>& argv,
                         OutputStream stream, int deadline_ms) {
  CommandOutput out;
  if (argv.empty()) return out;
  const std::string program = HelperProgram(argv[0]);
  if (program.empty()) return out;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return out;
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return out;
  }
  if (child == 0) BecomeCommand(program, argv, stream, fds[1]);
  ::close(fds[1]);
  const bool ended = ReadUntil(fds[0], NowMs() + deadline_ms, out.text);
  ::close(fds[0]);
  if (!ended) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  out.exited = ended && WIFEXITED(status) && WEXITSTATUS(status) != 127;
  if (WIFEXITED(status)) out.exit_status = WEXITSTATUS(status);
  return out;
}

}  // namespace alignbench
