#include "lib/io/test_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <random>

#include "lib/io/cleanup.h"

namespace alignbench {

Result<TestFile> TestFile::Create(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    Error error = SystemError(ErrorKind::kSetup, "stat", dir, errno);
    error.hint = "--dir must name an existing directory";
    return error;
  }
  if (!S_ISDIR(st.st_mode)) {
    Error error =
        SystemError(ErrorKind::kSetup, "open directory", dir, ENOTDIR);
    error.hint =
        "--dir must name a directory; alignbench creates its own file in it";
    return error;
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
  int fd = ::open(path.c_str(),
                  O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    int saved = errno;
    UnregisterCleanup(slot);
    return Answer(SystemError(ErrorKind::kSetup, "create", path, saved),
                  Phase::kSetup);
  }
  return TestFile(UniqueFd(fd), std::move(path), slot);
}

TestFile::TestFile(UniqueFd fd, std::string path, int slot)
    : fd_(std::move(fd)), path_(std::move(path)), slot_(slot) {}

TestFile::TestFile(TestFile&& other) noexcept
    : fd_(std::move(other.fd_)),
      path_(std::move(other.path_)),
      slot_(std::exchange(other.slot_, -1)) {}

TestFile::~TestFile() {
  if (slot_ < 0) return;  // moved from
  fd_.Reset();
  ::unlink(path_.c_str());
  UnregisterCleanup(slot_);
}

Result<UniqueFd> TestFile::Reopen(int flags) const {
  std::string proc = "/proc/self/fd/" + std::to_string(fd_.get());
  int fd =
      ::open(proc.c_str(), (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_CLOEXEC);
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
