#include "lib/io/test_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

#include "lib/io/cleanup.h"

namespace alignbench {
namespace {

// The pid in ".alignbench-<pid>-<8 hex digits>", or 0 if the name is not
// exactly what Create makes.
pid_t PidOfTestFileName(const char* name) {
  unsigned pid = 0;
  char hex[9] = {};
  int end = 0;
  if (std::sscanf(name, ".alignbench-%u-%8[0-9a-f]%n", &pid, hex, &end) != 2 ||
      name[end] != '\0' || std::strlen(hex) != 8 || pid == 0 || pid > 4194304) {
    return 0;
  }
  return static_cast<pid_t>(pid);
}

bool ProcessExists(pid_t pid) { return ::kill(pid, 0) == 0 || errno == EPERM; }

std::string SystemText(int errno_value) {
  return std::string(std::strerror(errno_value)) + " (" +
         ErrnoName(errno_value) + ")";
}

// Why a stale-looking file must stay, or empty if it may go: checked on the
// open file, so the answer is about the file we then unlink.
std::string ReasonToKeep(int dir_fd, const char* name, pid_t pid) {
  if (pid == ::getpid()) return "ours";
  if (ProcessExists(pid)) {
    return "process " + std::to_string(pid) + " is running";
  }
  UniqueFd fd(
      ::openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    const int saved = errno;
    return "cannot open it: " + SystemText(saved);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return "not a regular file";
  }
  if (st.st_uid != ::geteuid()) {
    return "owned by uid " + std::to_string(st.st_uid);
  }
  // A run's file has one name; another is a link someone made to a file
  // that is not a run's (a hard link to one of root's, where the kernel
  // lets a user make one).
  if (st.st_nlink != 1) {
    return "it has " + std::to_string(st.st_nlink) + " names (hard links)";
  }
  // A run in another PID namespace has a pid we cannot see; its lock we can.
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    return "another process holds it open and locked";
  }
  struct stat now {};
  if (::fstatat(dir_fd, name, &now, AT_SYMLINK_NOFOLLOW) != 0 ||
      now.st_ino != st.st_ino || now.st_dev != st.st_dev) {
    return "it changed while we looked";
  }
  return "";
}

}  // namespace

void SweepStaleTestFiles(const std::string& dir, std::ostream& log) {
  UniqueFd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd.valid()) return;  // the checks that follow say why
  DIR* stream = ::fdopendir(::dup(dir_fd.get()));
  if (stream == nullptr) return;
  std::vector<std::string> names;
  while (const dirent* entry = ::readdir(stream)) {
    if (PidOfTestFileName(entry->d_name) != 0) names.push_back(entry->d_name);
  }
  ::closedir(stream);
  for (const std::string& name : names) {
    const pid_t pid = PidOfTestFileName(name.c_str());
    const std::string path = EscapeControl(dir + "/" + name);
    const std::string keep = ReasonToKeep(dir_fd.get(), name.c_str(), pid);
    if (keep == "ours") continue;
    if (!keep.empty()) {
      log << "alignbench: note: left " << path << " in place: " << keep << "\n";
    } else if (::unlinkat(dir_fd.get(), name.c_str(), 0) == 0) {
      log << "alignbench: removed stale test file " << path << " (process "
          << pid << " is gone)\n";
    } else {
      const int saved = errno;
      log << "alignbench: warning: could not remove stale test file " << path
          << ": " << SystemText(saved) << "\n";
    }
  }
}

Result<TestFile> TestFile::Create(const std::string& dir, FileOps& ops) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    Error error = SystemError(ErrorKind::kSetup, "stat", dir, errno);
    // Other errors (EIO from a shut-down filesystem) get the errno table's.
    if (error.errno_value == ENOENT) {
      error.hint = "--dir must name an existing directory";
    }
    return error;
  }
  if (!S_ISDIR(st.st_mode)) {
    Error error =
        SystemError(ErrorKind::kSetup, "open directory", dir, ENOTDIR);
    error.hint =
        "--dir must name a directory; alignbench creates its own file in it";
    return error;
  }
  UniqueFd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd.valid()) {
    return Answer(SystemError(ErrorKind::kSetup, "open directory", dir, errno),
                  Phase::kSetup);
  }
  std::random_device seed;
  char name[64];
  std::snprintf(name, sizeof name, "/.alignbench-%d-%08x",
                static_cast<int>(::getpid()), seed());
  std::string path = dir + name;
  int slot = RegisterForCleanup(path);
  if (slot < 0) {
    return PlainError(ErrorKind::kSetup, "create " + path,
                      "path too long or too many open test files");
  }
  // Registered before it exists, so a signal between open() and the return
  // cannot leak it; O_EXCL|O_NOFOLLOW guarantee that we never open a file we
  // did not just create.
  int fd = ops.Create(path.c_str(),
                      O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    int saved = errno;
    UnregisterCleanup(slot);
    return Answer(
        SystemError(ErrorKind::kSetup, "create test file", path, saved),
        Phase::kSetup);
  }
  // Held until the descriptor closes: SweepStaleTestFiles leaves a locked file
  // alone. A filesystem without flock only loses that extra safety.
  ::flock(fd, LOCK_EX | LOCK_NB);
  return TestFile(UniqueFd(fd), std::move(dir_fd), std::move(path), slot, ops);
}

TestFile::TestFile(UniqueFd fd, UniqueFd dir_fd, std::string path, int slot,
                   FileOps& ops)
    : fd_(std::move(fd)),
      dir_fd_(std::move(dir_fd)),
      path_(std::move(path)),
      slot_(slot),
      ops_(&ops) {}

TestFile::TestFile(TestFile&& other) noexcept
    : fd_(std::move(other.fd_)),
      dir_fd_(std::move(other.dir_fd_)),
      path_(std::move(other.path_)),
      slot_(std::exchange(other.slot_, -1)),
      ops_(other.ops_) {}

TestFile::~TestFile() {
  if (slot_ < 0) return;  // moved from
  fd_.Reset();
  const std::string name = path_.substr(path_.rfind('/') + 1);
  if (ops_->UnlinkAt(dir_fd_.get(), name.c_str()) != 0 && errno != ENOENT) {
    // A destructor cannot return it; a file left behind must not go unsaid.
    const int saved = errno;
    std::cerr << "alignbench: warning: could not remove "
              << EscapeControl(path_) << ": " << SystemText(saved)
              << "; remove it by hand\n";
  }
  UnregisterCleanup(slot_);
}

Result<UniqueFd> TestFile::Reopen(int flags) const {
  std::string proc = "/proc/self/fd/" + std::to_string(fd_.get());
  int fd = ops_->Open(proc.c_str(),
                      (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_CLOEXEC);
  if (fd < 0) {
    Error error = SystemError(ErrorKind::kSetup, "reopen", path_, errno);
    if (error.errno_value == ENOENT) {
      error.hint =
          "/proc is not mounted here, and alignbench reopens its file through "
          "/proc/self/fd (in a new PID namespace: unshare --mount-proc)";
    }
    return error;
  }
  return UniqueFd(fd);
}

}  // namespace alignbench
