#include "lib/io/file_ops.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

namespace alignbench {
namespace {

class SystemOps final : public FileOps {
 public:
  int Create(const char* path, int flags, mode_t mode) override {
    return ::open(path, flags, mode);
  }
  ssize_t Pwrite(int fd, const void* buffer, std::size_t length,
                 off_t offset) override {
    return ::pwrite(fd, buffer, length, offset);
  }
  ssize_t PwriteFlags(int fd, const void* buffer, std::size_t length,
                      off_t offset, int flags) override {
    iovec one{const_cast<void*>(buffer), length};
    return ::pwritev2(fd, &one, 1, offset, flags);
  }
  ssize_t Pread(int fd, void* buffer, std::size_t length,
                off_t offset) override {
    return ::pread(fd, buffer, length, offset);
  }
  int Fsync(int fd) override { return ::fsync(fd); }
  int Fdatasync(int fd) override { return ::fdatasync(fd); }
  int Fallocate(int fd, int mode, off_t offset, off_t length) override {
    return ::fallocate(fd, mode, offset, length);
  }
  int Ftruncate(int fd, off_t length) override {
    return ::ftruncate(fd, length);
  }
  int DropCache(int fd) override {
    return ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  }
  int UnlinkAt(int dir_fd, const char* name) override {
    return ::unlinkat(dir_fd, name, 0);
  }
};

}  // namespace

FileOps& SystemFileOps() {
  static SystemOps ops;
  return ops;
}

}  // namespace alignbench
